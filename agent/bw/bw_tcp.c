/*
 * bw_tcp.c - sock_diag TCP byte counters as a bandwidth source of the
 * node agent's MemBUS mode (bw.h; bw.c says how each source counts).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <inttypes.h>
#include <limits.h>
#include <mntent.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/perf_event.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>

#include "bw.h"
#include "bw_internal.h"
#include "host/proc.h"
#include "num/errbuf.h"

#define NL_BUF_LEN 65536	/* > the 32 KiB the kernel fills per dump skb */
#define TCP_TABLE_MIN 64
/* tcp_info must reach bytes_received (Linux 4.2) to be of use. */
#define TCP_INFO_NEEDED (offsetof(struct tcp_info, tcpi_bytes_received) + \
			 sizeof(((struct tcp_info *)0)->tcpi_bytes_received))

/* ------------------------------------------------------------ tcp */

static int _sock_cmp(const void *a, const void *b)
{
	const struct bw_tcp_sock *x = a, *y = b;

	return x->inode < y->inode ? -1 : x->inode > y->inode;
}

/* Append to a socks/n/cap array; 0 or -1 (no memory). */
static int _socks_push(struct bw_tcp_sock **socks, size_t *n, size_t *cap,
		       uint64_t inode, uint64_t bytes)
{
	if (*n == *cap) {
		size_t cap2 = *cap ? *cap * 2 : TCP_TABLE_MIN;
		struct bw_tcp_sock *s2 = realloc(*socks, cap2 * sizeof(*s2));

		if (!s2)
			return -1;
		*socks = s2;
		*cap = cap2;
	}
	(*socks)[*n].inode = inode;
	(*socks)[(*n)++].bytes = bytes;
	return 0;
}

/* Sort by inode and drop repeats (an fd dup()ed, a socket twice). */
static void _socks_sort(struct bw_tcp_sock *socks, size_t *n)
{
	size_t out = 0;

	if (!*n)
		return;
	qsort(socks, *n, sizeof(*socks), _sock_cmp);
	for (size_t i = 1; i < *n; i++) {
		if (socks[i].inode != socks[out].inode)
			socks[++out] = socks[i];
	}
	*n = out + 1;
}

static const struct bw_tcp_sock *_socks_find(const struct bw_tcp_sock *socks,
					     size_t n, uint64_t inode)
{
	struct bw_tcp_sock key = { .inode = inode };

	if (!n)
		return NULL;
	return bsearch(&key, socks, n, sizeof(*socks), _sock_cmp);
}

/* bytes_acked + bytes_received of one dump message; 0 when the kernel's
 * tcp_info is too old to have them. */
static uint64_t _diag_bytes(struct nlmsghdr *h)
{
	struct inet_diag_msg *msg = NLMSG_DATA(h);
	struct rtattr *rta = (struct rtattr *)(msg + 1);
	int len = (int)h->nlmsg_len - NLMSG_LENGTH(sizeof(*msg));

	for (; RTA_OK(rta, len); rta = RTA_NEXT(rta, len)) {
		uint64_t acked, received;
		const char *info = RTA_DATA(rta);

		if (rta->rta_type != INET_DIAG_INFO ||
		    RTA_PAYLOAD(rta) < TCP_INFO_NEEDED)
			continue;
		/* Attribute data is only 4-byte aligned. */
		memcpy(&acked, info + offsetof(struct tcp_info,
					       tcpi_bytes_acked),
		       sizeof(acked));
		memcpy(&received, info + offsetof(struct tcp_info,
						  tcpi_bytes_received),
		       sizeof(received));
		return acked + received;
	}
	return 0;
}

/* Send one dump request for family. */
static int _diag_request(int fd, uint8_t family, uint32_t seq)
{
	struct {
		struct nlmsghdr h;
		struct inet_diag_req_v2 r;
	} req;
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };

	memset(&req, 0, sizeof(req));
	req.h.nlmsg_len = sizeof(req);
	req.h.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.h.nlmsg_seq = seq;
	req.r.sdiag_family = family;
	req.r.sdiag_protocol = IPPROTO_TCP;
	req.r.idiag_states = ~0u;	/* every state */
	req.r.idiag_ext = 1 << (INET_DIAG_INFO - 1);
	return sendto(fd, &req, sizeof(req), 0, (struct sockaddr *)&kernel,
		      sizeof(kernel)) == (ssize_t)sizeof(req) ? 0 : -1;
}

/*
 * Read the answer to request seq into the socks array.  Returns 0, or
 * the negative errno the kernel or recv reported.
 */
static int _diag_receive(int fd, uint32_t seq, char *buf,
			 struct bw_tcp_sock **socks, size_t *n, size_t *cap)
{
	for (;;) {
		ssize_t got = recv(fd, buf, NL_BUF_LEN, 0);
		struct nlmsghdr *h = (struct nlmsghdr *)buf;
		int len = (int)got;

		if (got < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		for (; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
			struct inet_diag_msg *msg = NLMSG_DATA(h);

			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_DONE)
				return 0;
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(h);

				return e->error ? e->error : -EPROTO;
			}
			if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY ||
			    h->nlmsg_len < NLMSG_LENGTH(sizeof(*msg)))
				continue;
			/* Time-wait and request sockets have no inode: no
			 * process holds them. */
			if (!msg->idiag_inode)
				continue;
			if (_socks_push(socks, n, cap, msg->idiag_inode,
					_diag_bytes(h)))
				return -ENOMEM;
		}
		if (got == 0)
			return -EPROTO;
	}
}

int bw_tcp_dump(struct bw_tcp_table *t, char *err, size_t len)
{
	struct bw_tcp_sock *socks = NULL;
	size_t n = 0, cap = 0;
	char *buf = malloc(NL_BUF_LEN);
	int fd = -1, rc;

	if (!buf) {
		errbuf_set(err, len, "sock_diag: out of memory");
		goto fail;
	}
	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd < 0) {
		errbuf_set(err, len,
				"sock_diag: socket(NETLINK_SOCK_DIAG): %s",
				strerror(errno));
		goto fail;
	}
	if (_diag_request(fd, AF_INET, 1)) {
		errbuf_set(err, len, "sock_diag: send: %s",
				strerror(errno));
		goto fail;
	}
	rc = _diag_receive(fd, 1, buf, &socks, &n, &cap);
	if (rc) {
		errbuf_set(err, len, "sock_diag: IPv4 TCP dump: %s",
				strerror(-rc));
		goto fail;
	}
	/* A kernel without IPv6 answers the second request with an error:
	 * the IPv4 sockets are all there is then. */
	if (!_diag_request(fd, AF_INET6, 2)) {
		rc = _diag_receive(fd, 2, buf, &socks, &n, &cap);
		if (rc == -ENOMEM) {
			errbuf_set(err, len, "sock_diag: out of memory");
			goto fail;
		}
	}
	_socks_sort(socks, &n);
	free(t->socks);
	t->socks = socks;
	t->n = n;
	t->cap = cap;
	close(fd);
	free(buf);
	return 0;
fail:
	/* The previous table stays: a failed dump must not look like every
	 * socket closed (and then reopened with all its bytes). */
	if (fd >= 0)
		close(fd);
	free(socks);
	free(buf);
	return -1;
}

void bw_tcp_table_free(struct bw_tcp_table *t)
{
	free(t->socks);
	t->socks = NULL;
	t->n = t->cap = 0;
}

int bw_tcp_delta(const struct bw_tcp_table *t, pid_t pid,
		 struct bw_tcp_track *track, uint64_t *bytes)
{
	struct bw_tcp_sock *now = NULL;
	size_t n = 0, cap = 0, ninodes;
	uint64_t sum = 0, *inodes;

	if (proc_socket_inodes(pid, &inodes, &ninodes))
		return -1;
	for (size_t i = 0; i < ninodes; i++) {
		const struct bw_tcp_sock *s = _socks_find(t->socks, t->n,
							  inodes[i]);

		if (s && _socks_push(&now, &n, &cap, s->inode, s->bytes)) {
			free(inodes);
			free(now);
			return -1;
		}
	}
	free(inodes);
	_socks_sort(now, &n);	/* one socket behind two fds counts once */
	for (size_t i = 0; i < n; i++) {
		const struct bw_tcp_sock *was =
			_socks_find(track->socks, track->n, now[i].inode);
		uint64_t before = was ? was->bytes : 0;

		/* Backwards: the inode was reused by a new socket. */
		if (now[i].bytes > before)
			sum += now[i].bytes - before;
	}
	free(track->socks);
	track->socks = now;
	track->n = n;
	track->cap = cap;
	*bytes = sum;
	return 0;
}

void bw_tcp_track_free(struct bw_tcp_track *track)
{
	free(track->socks);
	track->socks = NULL;
	track->n = track->cap = 0;
}

/* Whether this kernel's tcp_info reaches bytes_received; asked of a
 * socket of our own, as the dump may hold no socket at all. */
static int _tcp_info_len(socklen_t *got)
{
	struct tcp_info info;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int rc;

	if (fd < 0)
		return -1;
	*got = sizeof(info);
	rc = getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, got);
	close(fd);
	return rc;
}

void bw_tcp_detect(struct bw_sources *have)
{
	struct bw_tcp_table t = { 0 };
	socklen_t info_len;

	have->tcp = false;
	if (bw_tcp_dump(&t, have->tcp_why, sizeof(have->tcp_why)))
		return;
	bw_tcp_table_free(&t);
	if (_tcp_info_len(&info_len)) {
		errbuf_set(have->tcp_why, sizeof(have->tcp_why),
				"getsockopt(TCP_INFO): %s", strerror(errno));
		return;
	}
	if (info_len < TCP_INFO_NEEDED) {
		errbuf_set(have->tcp_why, sizeof(have->tcp_why),
				"kernel's tcp_info (%u bytes) has no "
				"bytes_acked/bytes_received (Linux >= 4.2): "
				"every count would be 0",
				(unsigned)info_len);
		return;
	}
	have->tcp = true;
	have->tcp_why[0] = '\0';
}
