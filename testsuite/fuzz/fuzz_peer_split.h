/*
 * fuzz_peer_split.h - peer.c's NAME@HOST:PORT splitter under the
 * promises of the request harnesses that reach it (fuzz_agent_request's
 * membus, fuzz_gang_request's gang).  _split is static: include this
 * after "../../lib/cosched_proto/peer.c".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_FUZZ_PEER_SPLIT_H
#define COALLOC_FUZZ_PEER_SPLIT_H

/* NAME@HOST:PORT split as peer_parse does before resolving HOST. */
static inline void fuzz_peer_split(const char *text)
{
	struct peer_addr p;
	char host[256], port[8];

	memset(&p, 0, sizeof(p));
	if (_split(text, &p, host, sizeof(host), port, sizeof(port)))
		return;
	FUZZ_CHECK(p.name[0] && strlen(p.name) < sizeof(p.name));
	FUZZ_CHECK(host[0] && port[0] && !strchr(p.name, '@'));
}

#endif
