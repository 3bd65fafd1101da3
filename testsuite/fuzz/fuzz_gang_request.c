/*
 * fuzz_gang_request.c - the gang request of the node agent's UNIX socket,
 * which slurmstepd's cosched plugin sends (as root) before a step's tasks
 * register in gang rows:
 *
 *   gang self=NAME@HOST:PORT from=ADDR[,ADDR...]
 *
 * The parser is lib/cosched_proto/gang.c's, which the agent calls, and
 * the from= list is parsed into the addresses the agent takes tables from
 * (peer_hosts_parse).
 * Promises checked (gang.h, peer_hosts.h): a refusal is a message and
 * leaves the output untouched; an accepted request has both words, no
 * blank in them, a from= list of 1 to PEER_HOSTS_MAX numeric addresses
 * that formats back into a list parsing to the same addresses, and
 * formats back into a request that parses to the same words.  self goes
 * through peer.c's NAME@HOST:PORT splitter (_split, static, so peer.c is
 * included); its lookup (getaddrinfo) and the bind are not reached.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fuzz.h"

#include "../../lib/cosched_proto/peer.c"
#include "fuzz_peer_split.h"
#include "cosched_proto/gang.h"
#include "cosched_proto/peer_hosts.h"
#include "num/errbuf.h"

static void _hosts(const struct cosched_gang_req *g)
{
	const struct peer_hosts *hp = &g->hosts;
	struct peer_hosts h, back;
	char again[PEER_HOSTS_TEXT_LEN], err[ERRBUF_LEN];

	FUZZ_CHECK(!peer_hosts_parse(g->from, &h, err, sizeof(err)));
	FUZZ_CHECK(h.n == hp->n && !memcmp(h.host, hp->host,
					   h.n * sizeof(h.host[0])));
	FUZZ_CHECK(h.n >= 1 && h.n <= PEER_HOSTS_MAX);
	FUZZ_CHECK(!peer_hosts_format(&h, again, sizeof(again)));
	FUZZ_CHECK(!peer_hosts_parse(again, &back, err, sizeof(err)));
	FUZZ_CHECK(back.n == h.n && !memcmp(back.host, h.host,
					    h.n * sizeof(h.host[0])));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cosched_gang_req g, untouched, back;
	char *line = fuzz_text(data, size), err[ERRBUF_LEN];
	char again[COSCHED_REQUEST_LEN + 1];

	/* server.c cuts the line at its first CR or LF */
	line[strcspn(line, "\r\n")] = '\0';
	memset(err, 0, sizeof(err));
	memset(&g, 0x5a, sizeof(g));
	memset(&untouched, 0x5a, sizeof(untouched));
	if (cosched_gang_request_parse(line, &g, err, sizeof(err))) {
		FUZZ_CHECK(fuzz_message_ok(err, sizeof(err)));
		FUZZ_CHECK(!memcmp(&g, &untouched, sizeof(g)));
		free(line);
		return 0;
	}
	FUZZ_CHECK(g.self[0] && g.from[0] && !strchr(g.self, ' ') &&
		   !strchr(g.from, ' '));
	_hosts(&g);
	fuzz_peer_split(g.self);
	FUZZ_CHECK(!cosched_gang_request_format(&g, again, sizeof(again)));
	FUZZ_CHECK(!cosched_gang_request_parse(again, &back, err, sizeof(err)));
	FUZZ_CHECK(!strcmp(back.self, g.self) && !strcmp(back.from, g.from) &&
		   back.hosts.n == g.hosts.n);
	free(line);
	return 0;
}
