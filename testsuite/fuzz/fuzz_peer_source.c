/*
 * fuzz_peer_source.c - the envelope of a datagram to a node agent's UDP
 * port, up to munge: peer_recv (lib/cosched_proto/peer.c) reads it and
 * asks the source filter (peer_hosts.h) whether its address is one of
 * slurmctld's before munge_decode is called.  Anyone who reaches the
 * port chooses the bytes and, within the network's rules, the address.
 *
 * The input: its first byte picks the source of a made-up address (its
 * family, then 16 address bytes and a length byte), the rest up to a
 * newline is the allowed list (the from= of a gang request), the rest
 * after it the datagram.  Promises checked:
 *   - a list refused is a message, the output untouched; one accepted
 *     formats back to the same addresses, and each of them (an IPv4 one
 *     also as IPv4-mapped IPv6) is matched whatever the port;
 *   - the made-up address is matched exactly when its text (peer_host_text)
 *     parses to an address of the list;
 *   - peer_recv on a real socket: a datagram of those bytes from
 *     127.0.0.2, whose address the list does not hold, is refused as a
 *     stranger's, before munge (the munge socket here does not exist:
 *     asking it would fail the other way), and leaves nothing to free.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fuzz.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include "cosched_proto/peer.h"
#include "num/errbuf.h"

static int send_fd = -1;
static struct sockaddr_in recv_at;
static struct peer_ctx ctx;

/* A sockaddr for host h (port 9), as a datagram from it would have. */
static socklen_t _sockaddr(const struct peer_host *h, bool mapped,
			   struct sockaddr_storage *ss)
{
	struct sockaddr_in *in = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (h->family == AF_INET && !mapped) {
		in->sin_family = AF_INET;
		in->sin_port = htons(9);
		memcpy(&in->sin_addr, h->addr, 4);
		return sizeof(*in);
	}
	in6->sin6_family = AF_INET6;
	in6->sin6_port = htons(9);
	if (h->family == AF_INET) {
		in6->sin6_addr.s6_addr[10] = 0xff;
		in6->sin6_addr.s6_addr[11] = 0xff;
		memcpy(in6->sin6_addr.s6_addr + 12, h->addr, 4);
	} else {
		memcpy(in6->sin6_addr.s6_addr, h->addr, 16);
	}
	return sizeof(*in6);
}

/* A made-up source from 18 bytes: family, 16 bytes, length. */
static socklen_t _made_up(const uint8_t *b, struct sockaddr_storage *ss)
{
	static const int families[] = { AF_INET, AF_INET6, AF_UNIX, 0 };
	struct sockaddr_in *in = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	ss->ss_family = (sa_family_t)families[b[0] % 4];
	if (ss->ss_family == AF_INET)
		memcpy(&in->sin_addr, b + 1, 4);
	else if (ss->ss_family == AF_INET6)
		memcpy(in6->sin6_addr.s6_addr, b + 1, 16);
	return (socklen_t)(b[17] % (sizeof(*ss) + 1));
}

static void _check_list(const struct peer_hosts *h)
{
	char text[PEER_HOSTS_TEXT_LEN], err[ERRBUF_LEN];
	struct peer_hosts back;
	struct sockaddr_storage ss;

	FUZZ_CHECK(h->n >= 1 && h->n <= PEER_HOSTS_MAX);
	FUZZ_CHECK(!peer_hosts_format(h, text, sizeof(text)));
	FUZZ_CHECK(!peer_hosts_parse(text, &back, err, sizeof(err)));
	FUZZ_CHECK(back.n == h->n &&
		   !memcmp(back.host, h->host, h->n * sizeof(h->host[0])));
	for (size_t i = 0; i < h->n; i++) {
		socklen_t len = _sockaddr(&h->host[i], false, &ss);

		FUZZ_CHECK(peer_hosts_has(h, &ss, len));
		len = _sockaddr(&h->host[i], true, &ss);
		FUZZ_CHECK(h->host[i].family != AF_INET ||
			   peer_hosts_has(h, &ss, len));
	}
}

/* Matched exactly when its text is an address of the list. */
static void _check_source(const struct peer_hosts *h, const uint8_t *b)
{
	struct sockaddr_storage ss;
	socklen_t len = _made_up(b, &ss);
	char text[64], err[ERRBUF_LEN];
	struct peer_hosts one;
	bool in_list = false;

	peer_host_text(&ss, len, text, sizeof(text));
	if (strcmp(text, "?") && !peer_hosts_parse(text, &one, err, sizeof(err)))
		for (size_t i = 0; i < h->n; i++)
			in_list |= one.host[0].family == h->host[i].family &&
				   !memcmp(one.host[0].addr, h->host[i].addr, 16);
	FUZZ_CHECK(peer_hosts_has(h, &ss, len) == in_list);
}

static bool _known(const struct sockaddr_storage *from, socklen_t len,
		   void *arg)
{
	return peer_hosts_has(arg, from, len);
}

/* The datagram from 127.0.0.2 through peer_recv: refused before munge. */
static void _check_recv(const struct peer_hosts *h, const uint8_t *data,
			size_t size)
{
	struct sockaddr_in from = { .sin_family = AF_INET };
	struct peer_datagram d;
	const char *why;
	uint64_t strangers = ctx.dropped_source;
	int rc;

	inet_pton(AF_INET, "127.0.0.2", &from.sin_addr);
	if (ctx.fd < 0 || send_fd < 0 ||
	    peer_hosts_has(h, (struct sockaddr_storage *)&from, sizeof(from)))
		return;
	if (sendto(send_fd, data, size, 0, (struct sockaddr *)&recv_at,
		   sizeof(recv_at)) < 0)
		return;
	rc = peer_recv(&ctx, _known, (void *)h, &d, &why);
	if (!rc)
		return;		/* not delivered (the loopback never drops) */
	FUZZ_CHECK(rc == -1 && ctx.dropped_source == strangers + 1 &&
		   ctx.dropped_auth == 0 && !d.text && why[0]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct peer_hosts h, untouched;
	uint8_t src[18] = { 0 };
	char *rest, *list, err[ERRBUF_LEN];
	size_t n;

	n = size < sizeof(src) ? size : sizeof(src);
	memcpy(src, data, n);
	list = fuzz_text(data + n, size - n);
	rest = strchr(list, '\n');
	if (rest)
		*rest++ = '\0';
	memset(&h, 0x5a, sizeof(h));
	memset(&untouched, 0x5a, sizeof(untouched));
	memset(err, 0, sizeof(err));
	if (peer_hosts_parse(list, &h, err, sizeof(err))) {
		FUZZ_CHECK(fuzz_message_ok(err, sizeof(err)));
		FUZZ_CHECK(!memcmp(&h, &untouched, sizeof(h)));
	} else {
		_check_list(&h);
		_check_source(&h, src);
		if (rest)
			_check_recv(&h, (const uint8_t *)rest, strlen(rest));
	}
	free(list);
	return 0;
}

/* The agent's socket on 127.0.0.1 and the stranger's on 127.0.0.2; a
 * munge socket that does not exist (munge must not be asked at all). */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct sockaddr_in two = { .sin_family = AF_INET };
	struct peer_addr self;
	socklen_t len = sizeof(recv_at);
	char err[256];

	(void)argc;
	(void)argv;
	ctx.fd = -1;
	if (peer_parse("fuzz@127.0.0.1:0", &self, err, sizeof(err)) ||
	    peer_open(&ctx, &self, "/nonexistent/munge.socket.2", err,
		      sizeof(err)) ||
	    getsockname(ctx.fd, (struct sockaddr *)&recv_at, &len)) {
		fprintf(stderr, "fuzz_peer_source: no socket on 127.0.0.1: %s\n", err);
		return 0;
	}
	inet_pton(AF_INET, "127.0.0.2", &two.sin_addr);
	send_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (send_fd >= 0 && bind(send_fd, (struct sockaddr *)&two, sizeof(two))) {
		close(send_fd);
		send_fd = -1;
	}
	return 0;
}
