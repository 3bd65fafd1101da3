/*
 * bw_probe.c - the capacity probes of the node agent's MemBUS mode
 * (bw.h): a STREAM-like memory probe for the node's memory bandwidth M,
 * and the link speed or a loopback probe for its network bandwidth N.
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

/* Memory probe: three arrays per thread, far beyond any L2/L3 slice. */
#define MEM_ARRAY_MAX (16u << 20)	/* bytes per array */
#define MEM_ARRAY_MIN (1u << 20)
#define MEM_TOTAL_MAX (192u << 20)	/* all threads together */
#define MEM_REPS 3
#define LOOP_CHUNK (256u << 10)		/* loopback probe: bytes per send */

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
		t0 = bw_now();
		do {
			bytes += _mem_pass(w->a, w->b, w->c, w->elems);
		} while (bw_now() - t0 < w->seconds);
		w->bytes[rep] = bytes;
		w->elapsed[rep] = bw_now() - t0;
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
	if (bw_read_line(path, line, sizeof(line)))
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
		} while (bw_now() < s->until);
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
	t0 = bw_now();
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
	elapsed = bw_now() - t0;
	pthread_join(thread, NULL);
out:
	close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
	free(buf);
	return bytes > 0 && elapsed > 0 ? bytes / elapsed : 0;
}
