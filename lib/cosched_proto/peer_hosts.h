/*
 * peer_hosts.h - the addresses a node agent takes datagrams from,
 * whatever their port: slurmctld's (SlurmctldHost and its backups) for
 * gang tables.  Numeric IPv4 and IPv6 only: the list is resolved where
 * Slurm's configuration is known (the plugin, in slurmstepd), so the
 * agent never waits on a name service for it, and a datagram's source is
 * checked with a few compares, before munge is asked (peer.h).
 *
 * No munge here: the SPANK plugin formats the list and does not link
 * libmunge.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHED_PROTO_PEER_HOSTS_H
#define COSCHED_PROTO_PEER_HOSTS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

/* Primary and backup controllers, each with an IPv4 and an IPv6 address. */
#define PEER_HOSTS_MAX 8
/* "A,B,...": INET6_ADDRSTRLEN (46, with its NUL) per address, the comma
 * in place of the NUL */
#define PEER_HOSTS_TEXT_LEN (PEER_HOSTS_MAX * 46)

struct peer_host {
	int family;			/* AF_INET or AF_INET6 */
	unsigned char addr[16];		/* network order; IPv4 in 4 bytes */
};

struct peer_hosts {
	size_t n;
	struct peer_host host[PEER_HOSTS_MAX];
};

/*
 * Parse "ADDR[,ADDR...]" (numeric IPv4 or IPv6, each once, 1 to
 * PEER_HOSTS_MAX of them; an IPv4-mapped IPv6 address is taken as its
 * IPv4 one).  0, or -1 with err filled and *h untouched.
 */
int peer_hosts_parse(const char *text, struct peer_hosts *h, char *err,
		     size_t err_len);

/*
 * Add the address of sa (any port) to h unless it is there already.
 * 1 added, 0 there already, -1 not IPv4/IPv6 or h full.
 */
int peer_hosts_add(struct peer_hosts *h, const struct sockaddr *sa,
		   socklen_t len);

/* "A,B,...": 0, or -1 (buf "") when it does not fit. */
int peer_hosts_format(const struct peer_hosts *h, char *buf, size_t len);

/* Whether from's address, whatever its port, is one of h's. */
bool peer_hosts_has(const struct peer_hosts *h,
		    const struct sockaddr_storage *from, socklen_t len);

/* The address of sa (no port) as text into buf ("?" when unknown). */
const char *peer_host_text(const struct sockaddr_storage *sa, socklen_t len,
			   char *buf, size_t buf_len);

#endif
