/*
 * peer.c - munge-signed datagrams to and between node agents (peer.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE	/* sendmmsg */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "peer.h"

#define DATAGRAM_MAX 65507

/* Split NAME@HOST:PORT; brackets around an IPv6 HOST are removed. */
static int _split(const char *text, struct peer_addr *p, char *host,
		  size_t hlen, char *port, size_t plen)
{
	const char *at = strchr(text, '@'), *h, *colon;
	size_t nlen, len;

	if (!at || at == text)
		return -1;
	nlen = (size_t)(at - text);
	if (nlen >= sizeof(p->name))
		return -1;
	memcpy(p->name, text, nlen);
	p->name[nlen] = '\0';
	h = at + 1;
	if (*h == '[') {
		const char *close = strchr(h, ']');

		if (!close || close[1] != ':')
			return -1;
		len = (size_t)(close - h - 1);
		h++;
		colon = close + 1;
	} else {
		colon = strrchr(h, ':');
		if (!colon)
			return -1;
		len = (size_t)(colon - h);
	}
	if (!len || len >= hlen || strlen(colon + 1) >= plen || !colon[1])
		return -1;
	memcpy(host, h, len);
	host[len] = '\0';
	snprintf(port, plen, "%s", colon + 1);
	return 0;
}

int peer_parse(const char *text, struct peer_addr *p, char *err, size_t len)
{
	char host[256], port[8];
	struct addrinfo hints = { .ai_socktype = SOCK_DGRAM,
				  .ai_flags = AI_NUMERICSERV };
	struct addrinfo *res = NULL;
	int rc;

	memset(p, 0, sizeof(*p));
	if (strlen(text) >= sizeof(p->text) ||
	    _split(text, p, host, sizeof(host), port, sizeof(port))) {
		snprintf(err, len, "'%.80s': expected NAME@HOST:PORT", text);
		return -1;
	}
	rc = getaddrinfo(host, port, &hints, &res);
	if (rc || !res) {
		snprintf(err, len, "'%.80s': %s", text, gai_strerror(rc));
		return -1;
	}
	memcpy(&p->sa, res->ai_addr, res->ai_addrlen);
	p->len = res->ai_addrlen;
	snprintf(p->text, sizeof(p->text), "%s", text);
	freeaddrinfo(res);
	return 0;
}

/* c emptied, with a munge context on munge_socket (NULL: munge's own). */
static int _open_munge(struct peer_ctx *c, const char *munge_socket,
		       char *err, size_t len)
{
	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->fd6 = -1;
	c->munge = munge_ctx_create();
	if (!c->munge) {
		snprintf(err, len, "munge_ctx_create failed");
		return -1;
	}
	if (munge_socket && munge_socket[0] &&
	    munge_ctx_set(c->munge, MUNGE_OPT_SOCKET, munge_socket) != EMUNGE_SUCCESS) {
		snprintf(err, len, "munge socket %s: %s", munge_socket,
			 munge_ctx_strerror(c->munge));
		return -1;
	}
	return 0;
}

static int _udp(int family)
{
	return socket(family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
}

int peer_open_sender(struct peer_ctx *c, const char *munge_socket,
		     char *err, size_t len)
{
	if (_open_munge(c, munge_socket, err, len))
		goto fail;
	c->sender = true;
	c->fd = _udp(AF_INET);
	c->fd6 = _udp(AF_INET6);	/* a host without IPv6 sends IPv4 only */
	if (c->fd < 0 && c->fd6 < 0) {
		snprintf(err, len, "UDP socket: %s", strerror(errno));
		goto fail;
	}
	return 0;
fail:
	peer_close(c);
	return -1;
}

static uint64_t _wall_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

int peer_open(struct peer_ctx *c, const struct peer_addr *self,
	      const char *munge_socket, char *err, size_t len)
{
	if (_open_munge(c, munge_socket, err, len))
		goto fail;
	c->seal_seq = _wall_us() - PEER_SEAL_SKEW_US;
	c->fd = _udp(self->sa.ss_family);
	if (c->fd < 0 || bind(c->fd, (const struct sockaddr *)&self->sa,
			      self->len)) {
		snprintf(err, len, "UDP %s: %s", self->text, strerror(errno));
		goto fail;
	}
	return 0;
fail:
	peer_close(c);
	return -1;
}

void peer_close(struct peer_ctx *c)
{
	if (c->fd >= 0)
		close(c->fd);
	if (c->sender && c->fd6 >= 0)
		close(c->fd6);
	c->fd = -1;
	c->fd6 = -1;
	if (c->munge)
		munge_ctx_destroy(c->munge);
	c->munge = NULL;
}

/* The socket that sends to `to`: a sender's IPv6 one for IPv6. */
static int _fd_for(const struct peer_ctx *c, const struct sockaddr_storage *to)
{
	return c->sender && to->ss_family == AF_INET6 ? c->fd6 : c->fd;
}

int peer_send(struct peer_ctx *c, const struct sockaddr_storage *to,
	      socklen_t to_len, const char *text, size_t len)
{
	char *cred = NULL;
	int rc = -1;
	int fd = _fd_for(c, to);

	if (fd < 0 || len > DATAGRAM_MAX ||
	    munge_encode(&cred, c->munge, text, (int)len) != EMUNGE_SUCCESS)
		goto fail;
	if (strlen(cred) > DATAGRAM_MAX)
		goto fail;
	if (sendto(fd, cred, strlen(cred), 0,
		   (const struct sockaddr *)to, to_len) < 0)
		goto fail;
	c->sent++;
	rc = 0;
fail:
	free(cred);
	return rc;
}

int peer_seal_begin(struct peer_ctx *c, struct peer_seal *s)
{
	char payload[SEAL_PAYLOAD_LEN];
	uint64_t now = _wall_us();
	munge_err_t e;
	int n;

	memset(s, 0, sizeof(*s));
	if (getrandom(s->key, sizeof(s->key), 0) != (ssize_t)sizeof(s->key))
		return -1;
	s->seq = c->seal_seq = now > c->seal_seq ? now : c->seal_seq + 1;
	n = seal_payload_format(s->key, s->seq, payload, sizeof(payload));
	/* the key is the secret: only root (the agents) may decode it */
	if (n < 0 || munge_ctx_set(c->munge, MUNGE_OPT_UID_RESTRICTION,
				   (uid_t)0) != EMUNGE_SUCCESS)
		return -1;
	e = munge_encode(&s->cred, c->munge, payload, n);
	(void)munge_ctx_set(c->munge, MUNGE_OPT_UID_RESTRICTION, MUNGE_UID_ANY);
	explicit_bzero(payload, sizeof(payload));
	if (e != EMUNGE_SUCCESS) {
		free(s->cred);
		s->cred = NULL;
		return -1;
	}
	return 0;
}

void peer_seal_end(struct peer_seal *s)
{
	free(s->cred);
	explicit_bzero(s, sizeof(*s));
}

int peer_batch_init(struct peer_batch *b, struct peer_ctx *c,
		    const struct peer_seal *s, peer_batch_failed_fn *failed,
		    void *arg)
{
	memset(b, 0, sizeof(*b));
	b->c = c;
	b->seal = s;
	b->failed = failed;
	b->arg = arg;
	b->fd = -1;
	b->bufs = malloc((size_t)PEER_BATCH_MAX * PEER_SEALED_MAX);
	return b->bufs ? 0 : -1;
}

/* Send what is queued; a datagram sendmmsg stops at is reported and
 * skipped, the rest go on. */
void peer_batch_flush(struct peer_batch *b)
{
	struct mmsghdr msg[PEER_BATCH_MAX];
	struct iovec iov[PEER_BATCH_MAX];
	unsigned at = 0;

	for (unsigned i = 0; i < b->n; i++) {
		iov[i] = (struct iovec){ b->bufs + (size_t)i * PEER_SEALED_MAX,
					 b->slot[i].len };
		msg[i] = (struct mmsghdr){ .msg_hdr = {
			.msg_name = &b->slot[i].to,
			.msg_namelen = b->slot[i].to_len,
			.msg_iov = &iov[i], .msg_iovlen = 1 } };
	}
	while (at < b->n) {
		int k = sendmmsg(b->fd, msg + at, b->n - at, 0);

		if (k > 0) {
			at += (unsigned)k;
			b->sent += (uint64_t)k;
			b->c->sent += (uint64_t)k;
			continue;
		}
		if (k < 0 && errno == EINTR)
			continue;
		b->failed(b->slot[at].tag, k < 0 ? errno : EIO, b->arg);
		at++;
	}
	b->n = 0;
}

void peer_batch_add(struct peer_batch *b, const struct sockaddr_storage *to,
		    socklen_t to_len, const char *text, size_t len, void *tag)
{
	int fd = _fd_for(b->c, to);
	int n;

	if (b->n && (b->n == PEER_BATCH_MAX || fd != b->fd))
		peer_batch_flush(b);
	if (fd < 0 || !b->seal->cred || to_len > sizeof(b->slot[0].to)) {
		b->failed(tag, fd < 0 ? EAFNOSUPPORT : EINVAL, b->arg);
		return;
	}
	n = seal_datagram_format(b->seal->cred, b->seal->key, text, len,
				 b->bufs + (size_t)b->n * PEER_SEALED_MAX,
				 PEER_SEALED_MAX);
	if (n < 0) {
		b->failed(tag, EMSGSIZE, b->arg);
		return;
	}
	b->fd = fd;
	memcpy(&b->slot[b->n].to, to, to_len);
	b->slot[b->n].to_len = to_len;
	b->slot[b->n].len = (size_t)n;
	b->slot[b->n].tag = tag;
	b->n++;
}

void peer_batch_end(struct peer_batch *b)
{
	if (b->bufs)
		peer_batch_flush(b);
	free(b->bufs);
	b->bufs = NULL;
}

static bool _trusted(const struct peer_ctx *c, uid_t uid)
{
	return uid == 0 || (c->allow_set && uid == c->allow_uid);
}

/*
 * A sealed datagram, split: 0 with d's text, or -1 with *why.  Its
 * credential may have been decoded here before (every node of a pass has
 * the same one, and nodes can share a munged): the seq, above the last
 * taken, is what refuses a replay.
 */
static int _open_sealed(struct peer_ctx *c, const struct seal_parts *sealed,
			struct peer_datagram *d, const char **why)
{
	struct seal_parts parts = *sealed;
	uint8_t key[SEAL_KEY_LEN];
	void *payload = NULL;
	int plen = 0;
	uint64_t seq;
	uid_t uid;
	gid_t gid;
	munge_err_t e;

	e = munge_decode(parts.cred, c->munge, &payload, &plen, &uid, &gid);
	if (e != EMUNGE_SUCCESS && e != EMUNGE_CRED_REPLAYED) {
		*why = "invalid credential";
		goto refused;
	}
	if (!_trusted(c, uid)) {
		*why = "sender is not root or the allowed user";
		goto refused;
	}
	if (!payload || plen <= 0 ||
	    seal_payload_parse(payload, (size_t)plen, key, &seq)) {
		*why = "credential holds no seal";
		goto refused;
	}
	if (!seal_tag_ok(key, parts.text, parts.text_len, parts.tag)) {
		*why = "sealed text fails its tag";
		goto refused;
	}
	if (seq <= c->seal_seq) {
		*why = "sealed datagram not newer than the last taken";
		goto refused;
	}
	d->text = malloc(parts.text_len + 1);
	if (d->text) {
		memcpy(d->text, parts.text, parts.text_len);
		d->text[parts.text_len] = '\0';
	} else {
		*why = "out of memory";
		goto refused;
	}
	d->len = parts.text_len;
	c->seal_seq = seq;
	explicit_bzero(key, sizeof(key));
	explicit_bzero(payload, (size_t)plen);
	free(payload);
	return 0;
refused:
	explicit_bzero(key, sizeof(key));
	if (payload && plen > 0)
		explicit_bzero(payload, (size_t)plen);
	free(payload);
	c->dropped_auth++;
	return -1;
}

/* The credential in buf: 0 with d's text, or -1 with *why. */
static int _decode(struct peer_ctx *c, const char *buf,
		   struct peer_datagram *d, const char **why)
{
	void *payload = NULL;
	int plen = 0;
	uid_t uid;
	gid_t gid;

	switch (munge_decode(buf, c->munge, &payload, &plen, &uid, &gid)) {
	case EMUNGE_SUCCESS:
		break;
	case EMUNGE_CRED_REPLAYED:
		*why = "replayed credential";
		goto refused;
	default:
		*why = "invalid credential";
		goto refused;
	}
	if (!_trusted(c, uid)) {
		*why = "sender is not root or the allowed user";
		goto refused;
	}
	d->text = payload ? payload : strdup("");
	d->len = payload && plen > 0 ? (size_t)plen : 0;
	if (!d->text) {
		*why = "out of memory";
		goto refused;
	}
	return 0;
refused:
	free(payload);
	c->dropped_auth++;
	return -1;
}

int peer_recv(struct peer_ctx *c, peer_source_fn *known, void *arg,
	      struct peer_datagram *d, const char **why)
{
	static char buf[DATAGRAM_MAX + 1];
	struct seal_parts parts;
	ssize_t n;

	*why = "";
	memset(d, 0, sizeof(*d));
	d->from_len = sizeof(d->from);
	n = recvfrom(c->fd, buf, sizeof(buf) - 1, 0,
		     (struct sockaddr *)&d->from, &d->from_len);
	if (n < 0)
		return 0;
	buf[n] = '\0';
	c->received++;
	/* before munge: a stranger's datagram costs no round trip */
	if (known && !known(&d->from, d->from_len, arg)) {
		*why = "not from a known peer address";
		c->dropped_source++;
		return -1;
	}
	/* sealed only when it splits as one: anything else goes to munge
	 * whole, which refuses garbage as an invalid credential */
	if (!seal_datagram_split(buf, (size_t)n, &parts))
		return _open_sealed(c, &parts, d, why) ? -1 : 1;
	return _decode(c, buf, d, why) ? -1 : 1;
}

bool peer_same_addr(const struct sockaddr_storage *a, socklen_t alen,
		    const struct sockaddr_storage *b, socklen_t blen)
{
	const struct sockaddr_in *a4 = (const void *)a, *b4 = (const void *)b;
	const struct sockaddr_in6 *a6 = (const void *)a, *b6 = (const void *)b;

	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET)
		return alen >= sizeof(*a4) && blen >= sizeof(*b4) &&
		       a4->sin_port == b4->sin_port &&
		       a4->sin_addr.s_addr == b4->sin_addr.s_addr;
	if (a->ss_family == AF_INET6)
		return alen >= sizeof(*a6) && blen >= sizeof(*b6) &&
		       a6->sin6_port == b6->sin6_port &&
		       !memcmp(&a6->sin6_addr, &b6->sin6_addr,
			       sizeof(a6->sin6_addr));
	return false;
}
