/*
 * peer.h - datagrams between the node agents (MemBUS) and from
 * slurmctld's select/coalloc to them (gang tables): one UDP datagram per
 * message, the text inside a munge credential, so that a receiver knows
 * the sender is root (or the allowed user) on a host of the same munge
 * realm, and munge itself refuses a credential replayed.  What the text
 * says is mbmsg.c's or gang.c's business; this file moves it, for both
 * ends.
 *
 * A sender with a datagram for each of many nodes (slurmctld's gang
 * tables) seals them instead (seal.h): one credential for the pass, that
 * only root can decode, carries a fresh key and a sequence number, and
 * each datagram the credential, its text and the text's tag under the
 * key.  One munge encode a pass instead of one a node.  peer_recv takes
 * both kinds.
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
#include "cosched_proto/seal.h"

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
	/* sealed datagrams: a sender's last seq, a receiver's last taken
	 * (at open: its start, less PEER_SEAL_SKEW_US) */
	uint64_t seal_seq;
	uint64_t sent, received, dropped_auth, dropped_source;
};

/* A receiver takes sealed datagrams made after its start less this
 * (microseconds, wall clock): a sender whose clock is that much behind
 * is refused for that long after a restart; one ahead can replay at most
 * this much of the past (and never over a newer datagram). */
#define PEER_SEAL_SKEW_US 2000000ULL

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

/* A pass of sealed datagrams: one credential, its key and seq. */
struct peer_seal {
	char *cred;
	uint8_t key[SEAL_KEY_LEN];
	uint64_t seq;
};

/* Begin a pass: a fresh random key, the next seq (the wall clock in
 * microseconds, above the last), one munge encode that only root can
 * decode.  0, or -1 (errno, or munge's error: nothing to send). */
int peer_seal_begin(struct peer_ctx *c, struct peer_seal *s);
/* The credential and one text make at most this much (a gang table is
 * at most COSCHED_REQUEST_LEN, a seal's credential about 200). */
#define PEER_SEALED_MAX 4096
void peer_seal_end(struct peer_seal *s);

/*
 * Sealed datagrams queued and sent PEER_BATCH_MAX at a time with one
 * sendmmsg: at 4,096 nodes the system calls were a quarter of a pass
 * (contribs/gang-bench).  Each datagram carries the caller's tag, given
 * back to failed() with errno when it cannot be sent.
 */
#define PEER_BATCH_MAX 64
typedef void peer_batch_failed_fn(void *tag, int err, void *arg);
struct peer_batch {
	struct peer_ctx *c;
	const struct peer_seal *seal;
	peer_batch_failed_fn *failed;
	void *arg;
	int fd;			/* the socket of the queued datagrams' family */
	unsigned n;
	uint64_t sent;		/* since peer_batch_init */
	char *bufs;		/* PEER_BATCH_MAX x PEER_SEALED_MAX */
	struct {
		struct sockaddr_storage to;
		socklen_t to_len;
		size_t len;
		void *tag;
	} slot[PEER_BATCH_MAX];
};
/* 0, or -1 (no memory). */
int peer_batch_init(struct peer_batch *b, struct peer_ctx *c,
		    const struct peer_seal *s, peer_batch_failed_fn *failed,
		    void *arg);
/* Queue text for `to` (sending the queue when it is full or the family
 * changes); a datagram that cannot be made goes to failed() at once. */
void peer_batch_add(struct peer_batch *b, const struct sockaddr_storage *to,
		    socklen_t to_len, const char *text, size_t len, void *tag);
void peer_batch_flush(struct peer_batch *b);
/* Flushes, then frees. */
void peer_batch_end(struct peer_batch *b);

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
 * or replayed credential, or a sender neither root nor the allowed user;
 * a sealed one (one that splits as seal.h's envelope; anything else goes
 * to munge whole) also with a wrong tag, or a seq not above the last
 * taken.
 * known may be NULL: every source is worth a look.
 */
int peer_recv(struct peer_ctx *c, peer_source_fn *known, void *arg,
	      struct peer_datagram *d, const char **why);

/* Same family, address and port. */
bool peer_same_addr(const struct sockaddr_storage *a, socklen_t alen,
		    const struct sockaddr_storage *b, socklen_t blen);

#endif /* COSCHED_PROTO_PEER_H */
