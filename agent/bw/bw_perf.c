/*
 * bw_perf.c - perf cache-miss counters as a bandwidth source of the
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

#define LINE_DEFAULT 64		/* cache line, when sysconf does not know */

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
		if (bw_read_line("/proc/sys/kernel/perf_event_paranoid",
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

void bw_perf_detect(struct bw_sources *have)
{
	struct bw_perf p;

	have->perf = !bw_perf_open(getpid(), &p, have->perf_why,
				   sizeof(have->perf_why));
	if (have->perf) {
		have->perf_why[0] = '\0';
		bw_perf_close(&p);
	}
}
