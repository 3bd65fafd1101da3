/*
 * bw.c - bandwidth sources and capacity probes of the node agent's MemBUS
 * mode (Koukis and Koziris, sections 4, 5.2, 5.3): perf cache-miss
 * counters, resctrl memory-bandwidth monitoring, sock_diag TCP byte
 * counters, and the microbenchmarks that give the node's capacities M and
 * N.
 *
 * Nothing here may assume the hardware is there: a VM usually exposes no
 * PMU, resctrl needs Intel RDT or AMD QoS plus a mount, and a kernel may
 * lack fields of tcp_info.  Every source says why it is missing, in words
 * an operator can act on, and the library never prints: the agent logs.
 *
 * perf.  One inherited counter per process (its threads and the children
 * it forks after open).  inherit excludes PERF_FORMAT_GROUP on older
 * kernels, so one counter it is: the generic cache-misses event, which
 * Intel and AMD map to last-level misses of loads and stores (RFOs), or
 * the LL read-miss cache event where the generic one is missing.
 * Multiplexed counters are scaled by enabled/running time.
 *
 * resctrl.  A monitor group mon_groups/NAME under the resctrl mount; its
 * mbm_total_bytes, summed over the L3 domains, is the group's memory
 * traffic.  "tasks" takes one tid per write, so adding a process writes
 * each of its threads; threads created later inherit the group.
 *
 * tcp.  One NETLINK_SOCK_DIAG dump per tick gives every TCP socket of the
 * network namespace with its tcp_info; processes are matched to sockets
 * by inode through /proc/PID/fd.  Deltas are taken per socket, so a
 * socket that closes (and leaves the dump) never makes a sum go down.
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
#include "proc.h"
#include "num/errbuf.h"

#define LINE_DEFAULT 64		/* cache line, when sysconf does not know */
#define RESCTRL_FS "resctrl"
#define RESCTRL_MBM "mbm_total_bytes"
#define RESCTRL_L3_DOMAIN "mon_L3_"	/* mon_data/mon_L3_00, ... */
#define NL_BUF_LEN 65536	/* > the 32 KiB the kernel fills per dump skb */
#define TCP_TABLE_MIN 64

/* tcp_info must reach bytes_received (Linux 4.2) to be of use. */
#define TCP_INFO_NEEDED (offsetof(struct tcp_info, tcpi_bytes_received) + \
			 sizeof(((struct tcp_info *)0)->tcpi_bytes_received))

/* Memory probe: three arrays per thread, far beyond any L2/L3 slice. */
#define MEM_ARRAY_MAX (16u << 20)	/* bytes per array */
#define MEM_ARRAY_MIN (1u << 20)
#define MEM_TOTAL_MAX (192u << 20)	/* all threads together */
#define MEM_REPS 3

#define LOOP_CHUNK (256u << 10)		/* loopback probe: bytes per send */

/* ------------------------------------------------------------ helpers */

static double _now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* First line of a small file into buf (newline removed); 0 or -1. */
static int _read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int rc = -1;

	if (!f)
		return -1;
	if (fgets(buf, (int)len, f)) {
		buf[strcspn(buf, "\n")] = '\0';
		rc = 0;
	}
	fclose(f);
	return rc;
}

/* Whether path has a line that is exactly word (mon_features, filesystems
 * whose lines end in the name). */
static bool _file_has_word(const char *path, const char *word)
{
	char line[256];
	bool found = false;
	FILE *f = fopen(path, "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *last;

		line[strcspn(line, "\n")] = '\0';
		last = strrchr(line, '\t');
		last = last ? last + 1 : line;
		found = !strcmp(last, word);
	}
	fclose(f);
	return found;
}

const char *bw_source_name(enum bw_source src)
{
	switch (src) {
	case BW_SRC_NONE:
		return "none";
	case BW_SRC_PERF:
		return "perf";
	case BW_SRC_RESCTRL:
		return "resctrl";
	case BW_SRC_TCP:
		return "tcp";
	case BW_SRC_HINT:
		return "hint";
	}
	return "unknown";
}

/* ------------------------------------------------------------ perf */

static int _perf_event_open(struct perf_event_attr *attr, pid_t pid)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, -1, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

static int _perf_try(pid_t pid, uint32_t type, uint64_t config)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.inherit = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	return _perf_event_open(&attr, pid);
}

/* What an operator can do about a perf_event_open errno. */
static const char *_perf_hint(int err, char *buf, size_t len)
{
	char paranoid[32];

	switch (err) {
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
	case EINVAL:
		return "no cache-miss counter: the CPU or hypervisor exposes "
		       "no PMU";
	case EACCES:
	case EPERM:
		if (_read_line("/proc/sys/kernel/perf_event_paranoid",
			       paranoid, sizeof(paranoid)))
			snprintf(paranoid, sizeof(paranoid), "?");
		snprintf(buf, len, "kernel.perf_event_paranoid=%s, needs "
			 "CAP_PERFMON or a lower setting", paranoid);
		return buf;
	case ENOSYS:
		return "kernel built without perf events";
	case ESRCH:
		return "no such process";
	}
	return "unexpected";
}

static unsigned _line_size(void)
{
	long line = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);

	return line > 0 ? (unsigned)line : LINE_DEFAULT;
}

int bw_perf_open(pid_t pid, struct bw_perf *p, char *err, size_t len)
{
	char hint[128];
	uint64_t ll_read_miss = PERF_COUNT_HW_CACHE_LL |
				(PERF_COUNT_HW_CACHE_OP_READ << 8) |
				(PERF_COUNT_HW_CACHE_RESULT_MISS << 16);
	int fd, first_errno;

	p->fd = -1;
	p->last = 0;
	p->line = _line_size();
	fd = _perf_try(pid, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES);
	if (fd >= 0)
		goto done;
	first_errno = errno;
	/* Permission and process errors would only repeat themselves. */
	if (first_errno == ENOENT || first_errno == EOPNOTSUPP ||
	    first_errno == EINVAL) {
		fd = _perf_try(pid, PERF_TYPE_HW_CACHE, ll_read_miss);
		if (fd >= 0)
			goto done;
	}
	errbuf_set(err, len,
			"perf_event_open(cache-misses, pid %d): %s (%s)",
			(int)pid, strerror(first_errno),
			_perf_hint(first_errno, hint, sizeof(hint)));
	return -1;
done:
	p->fd = fd;
	return 0;
}

int bw_perf_delta(struct bw_perf *p, uint64_t *bytes)
{
	uint64_t v[3];	/* value, time enabled, time running */
	uint64_t count;

	if (p->fd < 0)
		return -1;
	if (read(p->fd, v, sizeof(v)) != (ssize_t)sizeof(v))
		return -1;
	count = v[0];
	/* Multiplexed: estimate the whole from the time it was counting. */
	if (v[2] && v[2] < v[1])
		count = (uint64_t)((long double)v[0] * v[1] / v[2]);
	*bytes = count > p->last ? (count - p->last) * p->line : 0;
	if (count > p->last)
		p->last = count;
	return 0;
}

void bw_perf_close(struct bw_perf *p)
{
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
}

/* ------------------------------------------------------------ resctrl */

/* The resctrl mount point into mount; 0 or -1 (not mounted). */
static int _resctrl_mount(char *mount, size_t len)
{
	struct mntent ent;
	char buf[1024];
	int rc = -1;
	FILE *f = setmntent("/proc/mounts", "re");

	if (!f)
		return -1;
	while (rc && getmntent_r(f, &ent, buf, sizeof(buf))) {
		if (strcmp(ent.mnt_type, RESCTRL_FS))
			continue;
		if ((size_t)snprintf(mount, len, "%s", ent.mnt_dir) < len)
			rc = 0;
	}
	endmntent(f);
	return rc;
}

/* A resctrl mount with MBM into mount; 0, or -1 with the reason. */
static int _resctrl_usable(char *mount, size_t len, char *err, size_t elen)
{
	char path[PATH_MAX];

	if (_resctrl_mount(mount, len)) {
		if (_file_has_word("/proc/filesystems", RESCTRL_FS))
			errbuf_set(err, elen,
					"resctrl not mounted (mount -t resctrl "
					"resctrl /sys/fs/resctrl)");
		else
			errbuf_set(err, elen,
					"kernel has no resctrl (not in "
					"/proc/filesystems: kernel config, "
					"or a CPU without RDT/QoS)");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/info/L3_MON/mon_features", mount);
	if (access(path, R_OK)) {
		errbuf_set(err, elen,
				"resctrl at %s has no L3 monitoring (%s: %s)",
				mount, path, strerror(errno));
		return -1;
	}
	if (!_file_has_word(path, RESCTRL_MBM)) {
		errbuf_set(err, elen,
				"resctrl at %s monitors no memory bandwidth "
				"(no " RESCTRL_MBM " in %s)",
				mount, path);
		return -1;
	}
	return 0;
}

/* A group name is one directory component. */
static bool _valid_group(const char *name)
{
	size_t len = name ? strlen(name) : 0;

	return len && len <= NAME_MAX && !strchr(name, '/') &&
	       strcmp(name, ".") && strcmp(name, "..");
}

/* mbm_total_bytes of every domain of group dir, summed; 0 or -1. */
static int _resctrl_sum(const char *dir, uint64_t *sum)
{
	char path[PATH_MAX], line[64];
	struct dirent *de;
	DIR *d;
	int rc = -1, domains = 0;

	snprintf(path, sizeof(path), "%s/mon_data", dir);
	d = opendir(path);
	if (!d)
		return -1;
	*sum = 0;
	while ((de = readdir(d))) {
		char *end;
		unsigned long long v;

		/* mon_L3_<domain>; other monitors have no MBM file. */
		if (strncmp(de->d_name, RESCTRL_L3_DOMAIN,
			    strlen(RESCTRL_L3_DOMAIN)))
			continue;
		snprintf(path, sizeof(path), "%s/mon_data/%s/" RESCTRL_MBM,
			 dir, de->d_name);
		/* "Unavailable" while a domain is offline: no figure. */
		if (_read_line(path, line, sizeof(line)))
			goto out;
		errno = 0;
		v = strtoull(line, &end, 10);
		if (errno || end == line || *end)
			goto out;
		*sum += v;
		domains++;
	}
	rc = domains ? 0 : -1;
out:
	closedir(d);
	return rc;
}

int bw_resctrl_open(const char *name, struct bw_resctrl *r, char *err,
		    size_t len)
{
	char mount[PATH_MAX];
	bool created = true;

	r->dir[0] = '\0';
	r->last = 0;
	if (!_valid_group(name)) {
		errbuf_set(err, len, "resctrl: bad group name \"%s\"",
				name ? name : "(null)");
		return -1;
	}
	if (_resctrl_usable(mount, sizeof(mount), err, len))
		return -1;
	if ((size_t)snprintf(r->dir, sizeof(r->dir), "%s/mon_groups/%s",
			     mount, name) >= sizeof(r->dir)) {
		errbuf_set(err, len, "resctrl: group path too long");
		goto fail;
	}
	if (mkdir(r->dir, 0755)) {
		/* Left by an agent that died: take it over. */
		if (errno != EEXIST) {
			errbuf_set(err, len, "resctrl: mkdir %s: %s",
					r->dir, strerror(errno));
			goto fail;
		}
		created = false;
	}
	if (_resctrl_sum(r->dir, &r->last)) {
		errbuf_set(err, len, "resctrl: cannot read %s/mon_data/*/"
				RESCTRL_MBM, r->dir);
		if (created)
			rmdir(r->dir);
		goto fail;
	}
	return 0;
fail:
	r->dir[0] = '\0';
	return -1;
}

int bw_resctrl_add(struct bw_resctrl *r, pid_t pid)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *tasks;
	int fd, moved = 0;

	if (!r->dir[0])
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	tasks = opendir(path);
	if (!tasks)
		return -1;
	snprintf(path, sizeof(path), "%s/tasks", r->dir);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		goto out;
	while ((de = readdir(tasks))) {
		char tid[24];
		int n;

		if (de->d_name[0] == '.')
			continue;
		/* One tid per write(); a thread that just exited fails
		 * with ESRCH and is simply not there to count. */
		n = snprintf(tid, sizeof(tid), "%s\n", de->d_name);
		if (n > 0 && (size_t)n < sizeof(tid) &&
		    write(fd, tid, (size_t)n) == n)
			moved++;
	}
	close(fd);
out:
	closedir(tasks);
	return moved ? 0 : -1;
}

int bw_resctrl_delta(struct bw_resctrl *r, uint64_t *bytes)
{
	uint64_t sum;

	if (!r->dir[0] || _resctrl_sum(r->dir, &sum))
		return -1;
	*bytes = sum > r->last ? sum - r->last : 0;
	if (sum > r->last)
		r->last = sum;
	return 0;
}

void bw_resctrl_close(struct bw_resctrl *r)
{
	if (r->dir[0])
		rmdir(r->dir);
	r->dir[0] = '\0';
}

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

/* ------------------------------------------------------------ detect */

static void _detect_perf(struct bw_sources *have)
{
	struct bw_perf p;

	have->perf = !bw_perf_open(getpid(), &p, have->perf_why,
				   sizeof(have->perf_why));
	if (have->perf) {
		have->perf_why[0] = '\0';
		bw_perf_close(&p);
	}
}

static void _detect_resctrl(struct bw_sources *have)
{
	char mount[PATH_MAX];

	have->resctrl = !_resctrl_usable(mount, sizeof(mount),
					 have->resctrl_why,
					 sizeof(have->resctrl_why));
	if (have->resctrl)
		have->resctrl_why[0] = '\0';
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

static void _detect_tcp(struct bw_sources *have)
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

void bw_detect(struct bw_sources *have)
{
	memset(have, 0, sizeof(*have));
	_detect_perf(have);
	_detect_resctrl(have);
	_detect_tcp(have);
}

/* ------------------------------------------------------------ memory */

/* Workers wait at the gate until every one of them exists (or one could
 * not be started: then they leave), then meet at the barrier before each
 * repetition so all of them measure the same interval. */
struct mem_gate {
	pthread_mutex_t lock;
	pthread_cond_t opened;
	int state;			/* 0 closed, 1 go, -1 give up */
	pthread_barrier_t rep;
};

struct mem_worker {
	pthread_t thread;
	struct mem_gate *gate;		/* shared by all workers */
	size_t elems;			/* doubles per array */
	double seconds;			/* per repetition */
	double *a, *b, *c;
	double bytes[MEM_REPS];
	double elapsed[MEM_REPS];
};

/* One copy and one triad pass; bytes as STREAM counts them: every
 * element read and written once (no write-allocate traffic). */
static double _mem_pass(double *a, const double *b, double *c, size_t n)
{
	const double scalar = 3.0;

	for (size_t i = 0; i < n; i++)
		c[i] = a[i];
	for (size_t i = 0; i < n; i++)
		a[i] = b[i] + scalar * c[i];
	/* The arrays are freed unread: keep the stores. */
	__asm__ volatile("" : : "r"(a), "r"(c) : "memory");
	return (2.0 + 3.0) * sizeof(double) * (double)n;
}

static void *_mem_run(void *arg)
{
	struct mem_worker *w = arg;
	struct mem_gate *g = w->gate;
	int state;

	pthread_mutex_lock(&g->lock);
	while (!g->state)
		pthread_cond_wait(&g->opened, &g->lock);
	state = g->state;
	pthread_mutex_unlock(&g->lock);
	if (state < 0)
		return NULL;
	for (int rep = 0; rep < MEM_REPS; rep++) {
		double t0, bytes = 0;

		pthread_barrier_wait(&g->rep);
		t0 = _now();
		do {
			bytes += _mem_pass(w->a, w->b, w->c, w->elems);
		} while (_now() - t0 < w->seconds);
		w->bytes[rep] = bytes;
		w->elapsed[rep] = _now() - t0;
	}
	return NULL;
}

/* Arrays touched now, so page faults stay out of the timing. */
static int _mem_alloc(struct mem_worker *w, size_t array_bytes)
{
	w->elems = array_bytes / sizeof(double);
	w->a = malloc(array_bytes);
	w->b = malloc(array_bytes);
	w->c = malloc(array_bytes);
	if (!w->a || !w->b || !w->c)
		return -1;
	for (size_t i = 0; i < w->elems; i++) {
		w->a[i] = 1.0;
		w->b[i] = 2.0;
		w->c[i] = 0.0;
	}
	return 0;
}

static void _mem_free(struct mem_worker *w)
{
	free(w->a);
	free(w->b);
	free(w->c);
}

/* Best repetition: all threads' bytes over the slowest thread's time. */
static double _mem_best(const struct mem_worker *w, unsigned n)
{
	double best = 0;

	for (int rep = 0; rep < MEM_REPS; rep++) {
		double bytes = 0, elapsed = 0;

		for (unsigned i = 0; i < n; i++) {
			bytes += w[i].bytes[rep];
			if (w[i].elapsed[rep] > elapsed)
				elapsed = w[i].elapsed[rep];
		}
		if (elapsed > 0 && bytes / elapsed > best)
			best = bytes / elapsed;
	}
	return best;
}

static void _mem_open_gate(struct mem_gate *g, int state)
{
	pthread_mutex_lock(&g->lock);
	g->state = state;
	pthread_cond_broadcast(&g->opened);
	pthread_mutex_unlock(&g->lock);
}

static size_t _mem_array_bytes(unsigned threads)
{
	size_t bytes = MEM_TOTAL_MAX / 3 / threads;

	/* Big nodes get smaller arrays to bound the memory taken; they
	 * also have more cache, so the figure may come out high there. */
	if (bytes > MEM_ARRAY_MAX)
		bytes = MEM_ARRAY_MAX;
	if (bytes < MEM_ARRAY_MIN)
		bytes = MEM_ARRAY_MIN;
	return bytes;
}

double bw_probe_memory(unsigned threads, double seconds)
{
	struct mem_gate gate = { .lock = PTHREAD_MUTEX_INITIALIZER,
				 .opened = PTHREAD_COND_INITIALIZER };
	struct mem_worker *w;
	size_t array_bytes;
	unsigned started = 0;
	double best = 0;

	if (!threads) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		threads = cpus > 0 ? (unsigned)cpus : 1;
	}
	array_bytes = _mem_array_bytes(threads);
	w = calloc(threads, sizeof(*w));
	if (!w)
		return 0;
	if (pthread_barrier_init(&gate.rep, NULL, threads)) {
		free(w);
		return 0;
	}
	for (unsigned i = 0; i < threads; i++) {
		w[i].gate = &gate;
		w[i].seconds = seconds > 0 ? seconds / MEM_REPS : 0;
		if (_mem_alloc(&w[i], array_bytes))
			goto out;
	}
	for (; started < threads; started++) {
		if (pthread_create(&w[started].thread, NULL, _mem_run,
				   &w[started]))
			break;
	}
	_mem_open_gate(&gate, started == threads ? 1 : -1);
	for (unsigned i = 0; i < started; i++)
		pthread_join(w[i].thread, NULL);
	if (started == threads)
		best = _mem_best(w, threads);
out:
	for (unsigned i = 0; i < threads; i++)
		_mem_free(&w[i]);
	pthread_barrier_destroy(&gate.rep);
	free(w);
	return best;
}

/* ------------------------------------------------------------ network */

/* The interface holding addr, into name; 0, or -1 when none does. */
static int _iface_of(const char *addr, char *name, size_t len,
		     bool *loopback)
{
	struct in_addr v4;
	struct in6_addr v6;
	struct ifaddrs *all, *ifa;
	char text[INET6_ADDRSTRLEN + IF_NAMESIZE + 2];
	int family, rc = -1;

	/* "fe80::1%eth0": the scope is not part of the address. */
	snprintf(text, sizeof(text), "%s", addr);
	text[strcspn(text, "%")] = '\0';
	if (inet_pton(AF_INET, text, &v4) == 1)
		family = AF_INET;
	else if (inet_pton(AF_INET6, text, &v6) == 1)
		family = AF_INET6;
	else
		return -1;
	if (getifaddrs(&all))
		return -1;
	for (ifa = all; rc && ifa; ifa = ifa->ifa_next) {
		const struct sockaddr *sa = ifa->ifa_addr;
		bool match;

		if (!sa || sa->sa_family != family)
			continue;
		if (family == AF_INET)
			match = !memcmp(&((const struct sockaddr_in *)sa)->
					sin_addr, &v4, sizeof(v4));
		else
			match = !memcmp(&((const struct sockaddr_in6 *)sa)->
					sin6_addr, &v6, sizeof(v6));
		if (!match)
			continue;
		*loopback = ifa->ifa_flags & IFF_LOOPBACK;
		snprintf(name, len, "%s", ifa->ifa_name);
		name[strcspn(name, ":")] = '\0';	/* "eth0:1" label */
		rc = 0;
	}
	freeifaddrs(all);
	return rc;
}

double bw_link_speed(const char *addr)
{
	char name[IF_NAMESIZE + 1], path[96], line[32], *end;
	bool loopback = false;
	long mbits;

	if (!addr || _iface_of(addr, name, sizeof(name), &loopback) ||
	    loopback)
		return 0;
	snprintf(path, sizeof(path), "/sys/class/net/%s/speed", name);
	/* Virtual interfaces fail the read (EINVAL) or say -1. */
	if (_read_line(path, line, sizeof(line)))
		return 0;
	errno = 0;
	mbits = strtol(line, &end, 10);
	if (errno || end == line || mbits <= 0)
		return 0;
	return mbits * 1e6 / 8;
}

struct loop_sender {
	int fd;
	double until;
};

static void *_loop_send(void *arg)
{
	struct loop_sender *s = arg;
	char *chunk = calloc(1, LOOP_CHUNK);

	/* At least one chunk, so that even 0 seconds gives a figure. */
	if (chunk) {
		do {
			if (send(s->fd, chunk, LOOP_CHUNK, MSG_NOSIGNAL) < 0 &&
			    errno != EINTR)
				break;
		} while (_now() < s->until);
		free(chunk);
	}
	/* EOF tells the receiver the time is up. */
	shutdown(s->fd, SHUT_WR);
	return NULL;
}

/* A connected pair over 127.0.0.1 into fds[0] (sender), fds[1]; 0/-1. */
static int _loop_pair(int fds[2])
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int rc = -1;

	fds[0] = fds[1] = -1;
	if (listener < 0)
		return -1;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(listener, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(listener, 1) ||
	    getsockname(listener, (struct sockaddr *)&sa, &len))
		goto out;
	fds[0] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	/* The backlog completes the handshake: no thread needed yet. */
	if (fds[0] < 0 || connect(fds[0], (struct sockaddr *)&sa, sizeof(sa)))
		goto out;
	fds[1] = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
	if (fds[1] >= 0)
		rc = 0;
out:
	if (rc && fds[0] >= 0)
		close(fds[0]);
	close(listener);
	return rc;
}

double bw_probe_loopback(double seconds)
{
	struct loop_sender sender;
	pthread_t thread;
	char *buf = malloc(LOOP_CHUNK);
	double t0, bytes = 0, elapsed = 0;
	int fds[2];

	if (!buf)
		return 0;
	if (_loop_pair(fds)) {
		free(buf);
		return 0;
	}
	t0 = _now();
	sender.fd = fds[0];
	sender.until = t0 + (seconds > 0 ? seconds : 0);
	if (pthread_create(&thread, NULL, _loop_send, &sender))
		goto out;
	for (;;) {
		ssize_t got = recv(fds[1], buf, LOOP_CHUNK, 0);

		if (got > 0) {
			bytes += got;
		} else if (got == 0) {
			break;
		} else if (errno != EINTR) {
			/* Unread data makes close() reset the connection,
			 * which wakes a sender blocked on a full buffer. */
			bytes = 0;
			close(fds[1]);
			fds[1] = -1;
			break;
		}
	}
	elapsed = _now() - t0;
	pthread_join(thread, NULL);
out:
	close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
	free(buf);
	return bytes > 0 && elapsed > 0 ? bytes / elapsed : 0;
}
