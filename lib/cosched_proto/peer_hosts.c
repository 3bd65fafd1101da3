/*
 * peer_hosts.c - the addresses a node agent takes datagrams from
 * (peer_hosts.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "peer_hosts.h"
#include "num/errbuf.h"

/* ::ffff:a.b.c.d, which a dual-stack socket reports for IPv4 senders */
static const unsigned char v4_mapped[12] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff
};

/* The address of sa as a host (IPv4-mapped IPv6 as IPv4): 0, or -1. */
static int _host_of(const struct sockaddr *sa, socklen_t len,
		    struct peer_host *h)
{
	const struct sockaddr_in *in = (const void *)sa;
	const struct sockaddr_in6 *in6 = (const void *)sa;

	memset(h, 0, sizeof(*h));
	if (sa->sa_family == AF_INET && len >= sizeof(*in)) {
		h->family = AF_INET;
		memcpy(h->addr, &in->sin_addr, 4);
		return 0;
	}
	if (sa->sa_family != AF_INET6 || len < sizeof(*in6))
		return -1;
	if (!memcmp(in6->sin6_addr.s6_addr, v4_mapped, sizeof(v4_mapped))) {
		h->family = AF_INET;
		memcpy(h->addr, in6->sin6_addr.s6_addr + 12, 4);
	} else {
		h->family = AF_INET6;
		memcpy(h->addr, in6->sin6_addr.s6_addr, 16);
	}
	return 0;
}

static bool _same(const struct peer_host *a, const struct peer_host *b)
{
	return a->family == b->family && !memcmp(a->addr, b->addr, 16);
}

static bool _holds(const struct peer_hosts *h, const struct peer_host *x)
{
	for (size_t i = 0; i < h->n; i++)
		if (_same(&h->host[i], x))
			return true;
	return false;
}

/* One numeric address (NUL-terminated) into x: 0, or -1. */
static int _parse_one(const char *text, struct peer_host *x)
{
	struct sockaddr_in in = { .sin_family = AF_INET };
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6 };

	if (inet_pton(AF_INET, text, &in.sin_addr) == 1)
		return _host_of((const struct sockaddr *)&in, sizeof(in), x);
	if (inet_pton(AF_INET6, text, &in6.sin6_addr) == 1)
		return _host_of((const struct sockaddr *)&in6, sizeof(in6), x);
	return -1;
}

int peer_hosts_parse(const char *text, struct peer_hosts *out, char *err,
		     size_t err_len)
{
	struct peer_hosts h = { 0 };
	const char *p = text;

	if (strlen(text) >= PEER_HOSTS_TEXT_LEN || !*text)
		return errbuf_fail(err, err_len, "address list empty or longer than %d bytes",
				   PEER_HOSTS_TEXT_LEN - 1);
	for (;;) {
		size_t n = strcspn(p, ",");
		char one[64];
		struct peer_host x;

		if (!n || n >= sizeof(one))
			return errbuf_fail(err, err_len, "address list: an empty or overlong item");
		memcpy(one, p, n);
		one[n] = '\0';
		if (_parse_one(one, &x))
			return errbuf_fail(err, err_len, "address list: '%.46s' is not a numeric IPv4 or IPv6 address",
					   one);
		if (_holds(&h, &x))
			return errbuf_fail(err, err_len, "address list: '%.46s' given twice",
					   one);
		if (h.n == PEER_HOSTS_MAX)
			return errbuf_fail(err, err_len, "address list: more than %d addresses",
					   PEER_HOSTS_MAX);
		h.host[h.n++] = x;
		if (!p[n])
			break;
		p += n + 1;
	}
	*out = h;
	return 0;
}

int peer_hosts_add(struct peer_hosts *h, const struct sockaddr *sa,
		   socklen_t len)
{
	struct peer_host x;

	if (_host_of(sa, len, &x))
		return -1;
	if (_holds(h, &x))
		return 0;
	if (h->n == PEER_HOSTS_MAX)
		return -1;
	h->host[h->n++] = x;
	return 1;
}

int peer_hosts_format(const struct peer_hosts *h, char *buf, size_t len)
{
	size_t used = 0;

	if (!len)
		return -1;
	buf[0] = '\0';
	for (size_t i = 0; i < h->n; i++) {
		char one[INET6_ADDRSTRLEN];
		int w;

		if (!inet_ntop(h->host[i].family, h->host[i].addr, one,
			       sizeof(one)))
			goto fail;
		w = snprintf(buf + used, len - used, "%s%s", i ? "," : "", one);
		if (w < 0 || (size_t)w >= len - used)
			goto fail;
		used += (size_t)w;
	}
	return 0;
fail:
	buf[0] = '\0';
	return -1;
}

bool peer_hosts_has(const struct peer_hosts *h,
		    const struct sockaddr_storage *from, socklen_t len)
{
	struct peer_host x;

	return !_host_of((const struct sockaddr *)from, len, &x) &&
	       _holds(h, &x);
}

const char *peer_host_text(const struct sockaddr_storage *sa, socklen_t len,
			   char *buf, size_t buf_len)
{
	struct peer_host x;

	if (_host_of((const struct sockaddr *)sa, len, &x) ||
	    !inet_ntop(x.family, x.addr, buf, (socklen_t)buf_len))
		snprintf(buf, buf_len, "?");
	return buf;
}
