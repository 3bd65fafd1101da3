/*
 * proto.h - the requests the cosched SPANK plugin (slurmstepd) sends the
 * node agent coschedd, and the agent's replies: one formatter and one
 * parser per message, used by both sides.
 *
 * One request line per connection (client.h), at most
 * COSCHED_REQUEST_LEN bytes: a verb, then KEY=VALUE words separated by one
 * blank, each key at most once.  A key the parser does not know is
 * ignored (a newer plugin may say more); a word that is not KEY=VALUE,
 * a key given twice, a value out of range or a line too long is an error
 * that names it.
 *
 *   ping
 *   status [json]
 *   register job=J step=S uid=U mode=M pb=H tick_us=T spin_ns=N pid=P
 *            rank=R [bw_mem=N] [bw_net=N] [gang=1]
 *       a task P of step J.S, which must descend from the caller and
 *       belong to U; T 0: the agent's tick; bw_*: membus only, the
 *       declared bandwidth per process (--cosched-bw), whole bytes/s;
 *       gang=1: the step is in gang rows the agents switch (gang.h),
 *       not with mode membus;
 *   gang self=PEER
 *       before the first register with gang=1: the agent takes gang
 *       tables at PEER (UDP), from root and its allowed user;
 *   membus job=J step=S nnodes=K self=PEER coord=PEER[,PEER[,PEER]]
 *       once per step and node, before the first register of a membus
 *       step: the step spans K nodes; the agents reach each other over
 *       UDP at PEER = NAME@ADDR:PORT (ADDR in brackets when it is an IPv6
 *       literal); the coordinators of the step's reduction are the first
 *       nodes of its node list, in that order;
 *   end job=J step=S
 *
 * Replies, read until the agent closes: "ok ..." or "error: WHY", or the
 * status text/JSON.  register, membus and end are refused unless the
 * caller (SO_PEERCRED) is root or the agent's allowed user.
 *
 * Pure: no Slurm header.  Parsers write their message (at most
 * ERRBUF_LEN bytes are needed) into err and return -1; they write
 * their output only on success.  Formatters return -1, buf "", when the
 * text would not fit: a request cut short would reach the agent as a
 * different, valid-looking one.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHED_PROTO_H
#define COSCHED_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cosched/pb.h"
#include "cosched/bw.h"
#include "cosched_proto/client.h"
#include "cosched/mode.h"

/* ---- words ---- */

/*
 * The value of KEY in a request "verb k=v k=v" into buf: 0, -1 when
 * absent, -2 when longer than len - 1.
 */
int cosched_request_word(const char *line, const char *key, char *buf,
			 size_t len);

/*
 * Whether line is a well-formed request of verb: at most
 * COSCHED_REQUEST_LEN bytes, the verb, then KEY=VALUE words (non-empty
 * keys) separated by single blanks, each key once.  0, or -1 with
 * "request: ..." in err.
 */
int cosched_request_check(const char *line, const char *verb, char *err,
			  size_t err_len);

/* Whether line's first word is verb. */
bool cosched_request_is(const char *line, const char *verb);

/* ---- register ---- */

struct cosched_register {
	uint32_t job, step;
	uint32_t uid;		/* < UINT32_MAX */
	int32_t pid;		/* > 1 */
	uint32_t rank;		/* <= INT32_MAX */
	enum cosched_mode mode;
	struct cosched_pb_rule pb;	/* D when the line names none */
	uint32_t tick_us;	/* 0: the agent's; else within the tick_us setting */
	uint64_t spin_ns;	/* at most max_spin_us' highest, in ns */
	struct cosched_bw bw;	/* membus: each when declared */
	bool gang;		/* in fast gang rows (gang.h): gang=1 */
};

int cosched_register_format(const struct cosched_register *r, char *buf,
			    size_t len);
int cosched_register_parse(const char *line, struct cosched_register *r,
			   char *err, size_t err_len);

/* ---- end ---- */

int cosched_end_format(uint32_t job, uint32_t step, char *buf, size_t len);
int cosched_end_parse(const char *line, uint32_t *job, uint32_t *step,
		      char *err, size_t err_len);

/* ---- membus ---- */

/* Coordinators named in a membus request, at most (fewer when long). */
#define COSCHED_COORD_MAX 3

/* Longest ADDR of a peer: a host name (NodeAddr may be one) or literal. */
#define COSCHED_PEER_ADDR_MAX 255

/* Room for any PEER: NAME (< 64) @ [ADDR] : PORT and the terminator. */
#define COSCHED_PEER_LEN (64 + 1 + COSCHED_PEER_ADDR_MAX + 2 + 6 + 1)

/* Room for the coord list a request can hold. */
#define COSCHED_COORD_TEXT_LEN 1024

struct cosched_membus {
	uint32_t job, step;
	uint32_t nnodes;			/* >= 1 */
	char self[COSCHED_PEER_LEN];
	char coord[COSCHED_COORD_TEXT_LEN];	/* PEER[,PEER...] as sent */
};

/*
 * A UDP port of a node's agent (membus, gang tables): its slurmd's port
 * plus the offset.
 * Returns 0, or -1 when slurmd_port is 0 (unknown) or the sum is not a
 * port (above 65535).
 */
int cosched_agent_port(uint32_t slurmd_port, uint32_t offset,
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
 * PEER of node name's agent as slurmctld knows the node: its NodeAddr,
 * else its NodeHostname, else its name (node_addr and hostname may be
 * NULL or ""), port slurmd's + offset.  The one rule for the cosched
 * plugin (where the agent binds) and select/coalloc (where it sends gang
 * tables).  Returns 0, or -1 with why in err.
 */
int cosched_agent_peer(const char *name, const char *node_addr,
		       const char *hostname, uint32_t slurmd_port,
		       uint32_t offset, char *buf, size_t len, char *err,
		       size_t err_len);

/*
 * The membus request into buf, with as many of coord[0..ncoord) (at most
 * COSCHED_COORD_MAX are used) as fit in len, in order.  Returns how many
 * coordinators it names (>= 1), or -1 when ncoord is 0 or not even the
 * first fits (buf is then left an empty string when len > 0).
 */
int cosched_membus_request(char *buf, size_t len, uint32_t job, uint32_t step,
			   uint32_t nnodes, const char *self,
			   const char *const coord[], size_t ncoord);

/* The agent's side: the words of a membus request (PEERs unchecked:
 * the agent resolves them, agent/peer.c). */
int cosched_membus_parse(const char *line, struct cosched_membus *m,
			 char *err, size_t err_len);

/* ---- replies ---- */

/* Whether the agent's reply says yes. */
bool cosched_reply_ok(const char *reply);

#endif /* COSCHED_PROTO_H */
