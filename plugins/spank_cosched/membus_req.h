/*
 * membus_req.h - the text of what slurmstepd tells the node agent about a
 * membus step (see agent/client.h for the protocol):
 *
 *   membus job=J step=S nnodes=K self=PEER coord=PEER[,PEER[,PEER]]
 *       once per step and node, before the first register: the step
 *       spans K nodes; the agents reach each other over UDP, at
 *       PEER = NAME@ADDR:PORT (ADDR in brackets when it is an IPv6
 *       literal), and the coordinators of the step's reduction are the
 *       first nodes of its node list, in that order;
 *   register ... mode=membus ... bw_mem=N bw_net=N
 *       the declared bandwidth per process (--cosched-bw), whole bytes
 *       per second, each only when declared.
 *
 * Free of Slurm headers so that it is unit-tested on its own
 * (testsuite/unit/cosched_opts/test_membus_req.c); peers.c finds the
 * names, addresses and ports.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_SPANK_COSCHED_MEMBUS_REQ_H
#define COALLOC_SPANK_COSCHED_MEMBUS_REQ_H

#include <stddef.h>
#include <stdint.h>

#include "cosched_opts/cosched_opts.h"

/* Coordinators named in a membus request, at most (fewer when long). */
#define COSCHED_COORD_MAX 3

/* Longest ADDR of a peer: a host name (NodeAddr may be one) or literal. */
#define COSCHED_PEER_ADDR_MAX 255

/* Room for any PEER: NAME (< 64) @ [ADDR] : PORT and the terminator. */
#define COSCHED_PEER_LEN (64 + 1 + COSCHED_PEER_ADDR_MAX + 2 + 6 + 1)

/*
 * The UDP port of a node's agent: its slurmd's port plus offset.
 * Returns 0, or -1 when slurmd_port is 0 (unknown) or the sum is not a
 * port (above 65535).
 */
int cosched_membus_port(uint32_t slurmd_port, uint32_t offset,
			uint16_t *port);

/*
 * PEER of a node into buf: NAME@ADDR:PORT, or NAME@[ADDR]:PORT when ADDR
 * holds a ':'.  NAME must be a node name the agent takes
 * (cosched_node_name_ok), ADDR a host name or address literal (letters,
 * digits, ". - _ : %", at most COSCHED_PEER_ADDR_MAX), PORT not 0.
 * Returns 0, or -1 when one is not or buf is too small (buf is then left
 * an empty string when len > 0).
 */
int cosched_peer_format(const char *name, const char *addr, uint16_t port,
			char *buf, size_t len);

/*
 * The membus request into buf, with as many of coord[0..ncoord) (at most
 * COSCHED_COORD_MAX are used) as fit in len, in order.  Returns how many
 * coordinators it names (>= 1), or -1 when ncoord is 0 or not even the
 * first fits (buf is then left an empty string when len > 0).
 */
int cosched_membus_request(char *buf, size_t len, uint32_t job, uint32_t step,
			   uint32_t nnodes, const char *self,
			   const char *const coord[], size_t ncoord);

/*
 * The words a register request gets for a declared bandwidth into buf:
 * " bw_mem=N bw_net=N", each only when set, "" when neither is (bw may be
 * NULL).  Returns 0, or -1 when a value is out of range
 * (0..COSCHED_BW_MAX) or buf too small (buf then "" when len > 0).
 */
int cosched_bw_words(const struct cosched_bw *bw, char *buf, size_t len);

#endif /* COALLOC_SPANK_COSCHED_MEMBUS_REQ_H */
