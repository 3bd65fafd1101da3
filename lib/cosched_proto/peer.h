/*
 * peer.h - datagrams between the node agents (MemBUS) and from
 * slurmctld's select/coalloc to them (gang tables): one UDP datagram per
 * message, the text inside a munge credential, so that a receiver knows
 * the sender is root (or the allowed user) on a host of the same munge
 * realm, and munge itself refuses a credential replayed.  What the text
 * says is mbmsg.c's or gang.c's business; this file moves it, for both
 * ends.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHED_PROTO_PEER_H
#define COSCHED_PROTO_PEER_H

#include <munge.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "cosched_proto/client.h"
#include "cosched_proto/peer_hosts.h"

#define PEER_ADDR_TEXT_LEN 320

/* An agent: node name and where its UDP socket listens. */
struct peer_addr {
	char name[COSCHED_NODE_NAME_LEN];
	char text[PEER_ADDR_TEXT_LEN];	/* NAME@HOST:PORT as given */
	struct sockaddr_storage sa;
	socklen_t len;
};

/* Parse NAME@HOST:PORT (HOST a name, IPv4, or [IPv6]) and resolve HOST.
 * Returns 0, or -1 with err filled. */
int peer_parse(const char *text, struct peer_addr *p, char *err, size_t len);

struct peer_ctx {
	int fd;				/* -1: closed */
	int fd6;			/* a sender's IPv6 socket, -1: none */
	bool sender;			/* peer_open_sender's: fd6 is its */
	munge_ctx_t munge;
	uid_t allow_uid;		/* besides root */
	bool allow_set;
	uint64_t sent, received, dropped_auth, dropped_source;
};

/* Bind a UDP socket on self's address.  Returns 0 or -1 with err. */
int peer_open(struct peer_ctx *c, const struct peer_addr *self,
	      const char *munge_socket, char *err, size_t len);
/* Unbound sockets (IPv4, and IPv6 where the host has it) that only send,
 * as slurmctld does to the agents.  Returns 0 or -1 with err. */
int peer_open_sender(struct peer_ctx *c, const char *munge_socket,
		     char *err, size_t len);
void peer_close(struct peer_ctx *c);

/* Encode len bytes of text in a credential and send it to `to`.
 * Returns 0 or -1. */
int peer_send(struct peer_ctx *c, const struct sockaddr_storage *to,
	      socklen_t to_len, const char *text, size_t len);

/* Whether a datagram from this address is worth a munge round trip. */
typedef bool peer_source_fn(const struct sockaddr_storage *from,
			    socklen_t len, void *arg);

/* A datagram whose credential passed: the sender's address and the
 * credential's payload (NUL-terminated, free() it). */
struct peer_datagram {
	struct sockaddr_storage from;
	socklen_t from_len;
	char *text;
	size_t len;
};

/*
 * Receive one datagram (non-blocking).  Returns 1 with *d filled, 0 when
 * nothing is waiting, or -1 when it was refused, *why saying why (static
 * text): a source known() rejects (dropped before munge is asked), a bad
 * or replayed credential, or a sender neither root nor the allowed user.
 * known may be NULL: every source is worth a look.
 */
int peer_recv(struct peer_ctx *c, peer_source_fn *known, void *arg,
	      struct peer_datagram *d, const char **why);

/* Same family, address and port. */
bool peer_same_addr(const struct sockaddr_storage *a, socklen_t alen,
		    const struct sockaddr_storage *b, socklen_t blen);

#endif /* COSCHED_PROTO_PEER_H */
