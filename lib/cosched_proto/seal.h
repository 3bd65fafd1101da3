/*
 * seal.h - one munge credential for many datagrams: how slurmctld signs
 * a pass of gang tables (one per node) at the cost of one munge encode,
 * not one per node.
 *
 * The sender makes a fresh random key K and a sequence number for the
 * pass, puts them in one munge credential that only root can decode
 * (MUNGE_OPT_UID_RESTRICTION: the agents run as root, no user learns K),
 * and sends each node
 *
 *   CRED '\n' TAG ' ' TEXT
 *
 * CRED the credential as munge_encode wrote it, TAG SipHash-2-4 of TEXT
 * under K in 16 lowercase hexadecimal digits, TEXT the node's message.
 * The credential's payload is "seal key=<32 hex digits> seq=<decimal>".
 *
 * A receiver takes a sealed datagram when munge decodes the credential as
 * from root or its allowed user (a credential it decoded before is fine:
 * every node of the pass, several of them behind one munged in a test
 * cluster, decodes the same one), the tag is TEXT's under K, and seq is
 * above the last it took and above its own start (peer.c).  So a
 * datagram replayed, or one older than what the receiver already has, is
 * refused as munge refuses a replayed credential; a changed TEXT or one
 * moved to another node's address fails its tag or names another node
 * (gang.c refuses a table for another node).
 *
 * The seq is the sender's wall clock in microseconds, kept increasing
 * while it runs: a slurmctld restarted after its clock stepped back is
 * refused until its clock passes the last seq the agent took (the agent
 * runs every row meanwhile: fail open).
 *
 * This file is the format and the MAC (pure; no munge, no sockets); peer.c
 * moves the datagrams.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHED_PROTO_SEAL_H
#define COSCHED_PROTO_SEAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SEAL_KEY_LEN 16
#define SEAL_TAG_HEX 16
/* "seal key=" 32 hex " seq=" 20 digits (66), a NUL, room to spare */
#define SEAL_PAYLOAD_LEN 80

/* SipHash-2-4 (Aumasson and Bernstein): a 64-bit MAC of len bytes. */
uint64_t seal_siphash24(const uint8_t key[SEAL_KEY_LEN], const void *data,
			size_t len);

/* The credential's payload for key and seq into buf: its length, or -1
 * when it does not fit. */
int seal_payload_format(const uint8_t key[SEAL_KEY_LEN], uint64_t seq,
			char *buf, size_t len);

/* Parse a credential's payload (len bytes, not NUL-terminated) strictly:
 * 0, or -1 when it is not one. */
int seal_payload_parse(const char *text, size_t len,
		       uint8_t key[SEAL_KEY_LEN], uint64_t *seq);

/*
 * Write CRED '\n' TAG ' ' TEXT into buf (cred NUL-terminated): its
 * length, or -1 when it does not fit, cred has a '\n' or text a NUL.
 */
int seal_datagram_format(const char *cred, const uint8_t key[SEAL_KEY_LEN],
			 const char *text, size_t text_len, char *buf,
			 size_t len);

/* A sealed datagram split in place: cred NUL-terminated in buf (the '\n'
 * becomes a NUL), the tag, and where the text starts.  0, or -1 when the
 * datagram is not well formed (a NUL anywhere in it included). */
struct seal_parts {
	const char *cred;
	uint64_t tag;
	const char *text;
	size_t text_len;
};
int seal_datagram_split(char *buf, size_t len, struct seal_parts *p);

/* Whether tag is text's under key (constant time in the tag). */
bool seal_tag_ok(const uint8_t key[SEAL_KEY_LEN], const char *text,
		 size_t text_len, uint64_t tag);

#endif /* COSCHED_PROTO_SEAL_H */
