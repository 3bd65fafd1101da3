/*
 * wake.c - what wakes a receiver asleep in SB: the arrival itself.
 *
 * A message from another host arrives on one of this process's own TCP
 * sockets (Open MPI's TCP BTL), one from this host through shared memory.
 * So the sleeper waits in epoll on both:
 *
 *  - its TCP sockets, found in /proc/self/fd (connected TCP sockets of
 *    AF_INET or AF_INET6, at most SHIM_WAKE_MAX_SOCKS), for readiness
 *    only: MPI's progress in the next test reads the payload.  They are
 *    edge-triggered, so bytes that MPI (or a library sharing the process)
 *    leaves unread wake the sleeper once, not at every sleep;
 *  - its wake socket, an AF_UNIX datagram socket bound as RANK.wake in
 *    the step's page directory, where a same-host sender that has counted
 *    an arrival in the page sends one byte when blocked says the receiver
 *    sleeps (shim_wake_notify).  Only the job's user can reach it
 *    (pages.h); anything that arrives is drained and costs a spurious
 *    wake, nothing else.
 *
 * The list of TCP sockets is rescanned when a sleep begins and the last
 * scan is older than SHIM_WAKE_RESCAN_NS: MPI opens its connections
 * lazily, at the first message to or from a peer.  Whatever fails here
 * (no page directory, a path too long for a socket address, no /proc)
 * leaves the wait as it was before: the futex on arrive_seq with a 1 ms
 * timeout, said once on stderr.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include "cosched/pages.h"
#include "cosched/sockets.h"
#include "shim.h"

/*
 * The longest a sleep lasts when an arrival wakes it.  Only what nothing
 * announces waits for it: a connection a peer opens to us (listening
 * sockets are not watched, and its socket joins at the next rescan), TCP
 * sockets past the bound, a thread of an MPI_THREAD_MULTIPLE program
 * whose wake another thread took.  20 ms bounds those rare delays to a
 * few scheduler quanta while a sleeper wakes 50 times a second at most
 * instead of the 1000 of the 1 ms design.
 */
#define SHIM_WAKE_SAFETY_MS 20
/* When arrivals from other hosts cannot wake the sleeper: today's bound. */
#define SHIM_WAKE_BLIND_MS 1
#define SHIM_BLOCK_FUTEX_NS 1000000L
#define SHIM_WAKE_RESCAN_NS 100000000ull	/* 100 ms */
#define SHIM_WAKE_MAX_SOCKS 256
/* Datagrams drained per wake: the queue holds a few; a flood waits. */
#define SHIM_WAKE_DRAIN_MAX 64

static struct {
	int sock;		/* the wake socket, also used to send; -1 */
	int epfd;		/* -1: the futex fallback */
	bool bound;		/* sock has its name: unlink it at the end */
	bool blind;		/* TCP sockets cannot be scanned */
	struct sockaddr_un addr;	/* sock's name */
	int tcp[SHIM_WAKE_MAX_SOCKS];	/* registered at the last scan */
	int ntcp;
	uint64_t scanned_ns;
	bool scanned;
} wake = { .sock = -1, .epfd = -1 };

/* addr := rank's wake socket in the step's directory: 0, or -1. */
static int wake_addr(int rank, struct sockaddr_un *addr)
{
	char name[24];
	int n;

	if (cosched_wake_name(rank, name, sizeof(name)))
		return -1;
	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	n = snprintf(addr->sun_path, sizeof(addr->sun_path), "%s/%s",
		     shim.cfg.page_dir, name);
	return n < 0 || (size_t)n >= sizeof(addr->sun_path) ? -1 : 0;
}

/*
 * Bind sock as our wake socket.  The page of this rank is already ours
 * (page.c replaced only a dead process's), so a name left beside it by
 * that process goes too.
 */
static int wake_bind(void)
{
	if (wake_addr(shim.world_rank, &wake.addr)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	unlink(wake.addr.sun_path);
	if (bind(wake.sock, (struct sockaddr *)&wake.addr, sizeof(wake.addr)))
		return -1;
	wake.bound = true;
	return 0;
}

static int wake_watch(int fd, uint32_t events)
{
	struct epoll_event ev = { .events = events, .data.fd = fd };

	if (!epoll_ctl(wake.epfd, EPOLL_CTL_ADD, fd, &ev) || errno == EEXIST)
		return 0;
	return -1;
}

/*
 * After the page exists: the socket that sends notices and, in SB, the
 * wake socket (the same one, bound) and the epoll set.  On failure SB
 * sleeps on the futex as before (said once); a socket that could not be
 * bound still sends notices to peers that have theirs.
 */
void shim_wake_init(void)
{
	const char *what = "socket";

	wake.sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
			   0);
	if (shim.cfg.wait != COSCHED_WAIT_SB)
		return;
	if (wake.sock < 0)
		goto fail;
	what = "bind";
	if (wake_bind())
		goto fail;
	what = "epoll";
	wake.epfd = epoll_create1(EPOLL_CLOEXEC);
	if (wake.epfd < 0 || wake_watch(wake.sock, EPOLLIN))
		goto fail;
	return;
fail:
	shim_warn("cannot make the SB wake socket %s (%s: %s); SB wakes "
		  "every 1 ms, arrivals from other hosts wake nobody",
		  wake.addr.sun_path[0] ? wake.addr.sun_path : shim.cfg.page_dir,
		  what, strerror(errno));
	if (wake.epfd >= 0)
		close(wake.epfd);
	wake.epfd = -1;
}

/* Only the creator removes the name: not a child it forked. */
void shim_wake_unlink(void)
{
	if (wake.bound && shim.page && shim.page->pid == getpid())
		unlink(wake.addr.sun_path);
}

void shim_wake_fini(void)
{
	shim_wake_unlink();
	if (wake.epfd >= 0)
		close(wake.epfd);
	if (wake.sock >= 0)
		close(wake.sock);
	wake.sock = wake.epfd = -1;
	wake.bound = wake.blind = wake.scanned = false;
	wake.ntcp = 0;
}

/* fd is a connected (not listening) TCP socket over IPv4 or IPv6. */
static bool is_tcp_conn(int fd)
{
	struct stat st;

	if (fd == wake.sock || fd == wake.epfd || fstat(fd, &st) ||
	    !S_ISSOCK(st.st_mode))
		return false;
	return cosched_sock_is_tcp_stream(fd);
}

static bool fd_in(const int *fds, int n, int fd)
{
	for (int i = 0; i < n; i++)
		if (fds[i] == fd)
			return true;
	return false;
}

/* The TCP sockets in /proc/self/fd into found: their count, or -1. */
static int scan_tcp(int *found)
{
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!dir)
		return -1;
	while (n < SHIM_WAKE_MAX_SOCKS && (e = readdir(dir))) {
		char *end;
		long fd = strtol(e->d_name, &end, 10);

		if (*end || end == e->d_name || fd < 0 || fd > INT_MAX ||
		    fd == dirfd(dir) || !is_tcp_conn((int)fd))
			continue;
		found[n++] = (int)fd;
	}
	closedir(dir);
	return n;
}

/*
 * Watch the TCP sockets open now.  Every one is added again (a number
 * closed and reused since the last scan is a new socket; one still
 * watched answers EEXIST); the numbers gone are removed.
 */
static void wake_rescan(uint64_t now)
{
	int found[SHIM_WAKE_MAX_SOCKS];
	int n = scan_tcp(found), kept = 0;

	wake.scanned = true;
	wake.scanned_ns = now;
	if (n < 0) {
		shim_warn("cannot list /proc/self/fd (%s); arrivals from other "
			  "hosts do not wake SB, which wakes every 1 ms",
			  strerror(errno));
		wake.blind = true;
		return;
	}
	for (int i = 0; i < wake.ntcp; i++)
		if (!fd_in(found, n, wake.tcp[i]))
			epoll_ctl(wake.epfd, EPOLL_CTL_DEL, wake.tcp[i], NULL);
	for (int i = 0; i < n; i++)
		if (!wake_watch(found[i], EPOLLIN | EPOLLET))
			wake.tcp[kept++] = found[i];
	wake.ntcp = kept;
	atomic_store_explicit(&shim.page->wake_socks, (uint32_t)kept,
			      memory_order_relaxed);
}

static void wake_drain(void)
{
	char buf[64];

	for (int i = 0; i < SHIM_WAKE_DRAIN_MAX; i++)
		if (recv(wake.sock, buf, sizeof(buf), MSG_DONTWAIT) < 0 &&
		    errno != EINTR)
			return;
}

/* What woke an epoll sleep: 0 timeout, 1 a notice, 2 a TCP socket. */
static int wake_cause(const struct epoll_event *ev, int n)
{
	int cause = n > 0 ? 2 : 0;

	for (int i = 0; i < n; i++)
		if (ev[i].data.fd == wake.sock) {
			wake_drain();
			cause = 1;
		}
	return cause;
}

static void count_wake(int cause)
{
	struct cosched_shm *page = shim.page;

	if (cause == 1)
		shim_count(&page->wakes_local, 1);
	else if (cause == 2)
		shim_count(&page->wakes_remote, 1);
	else if (cause == 0)
		shim_count(&page->wakes_timeout, 1);
}

static int sleep_timeout_ms(void)
{
	/* a wake reaches one of several sleeping threads: keep them short */
	return wake.blind || shim.threaded ? SHIM_WAKE_BLIND_MS :
					     SHIM_WAKE_SAFETY_MS;
}

static void sleep_sockets(void)
{
	struct epoll_event ev[8];
	uint64_t now = shim_now_ns();
	int n;

	shim_lock();	/* threads sleeping at once share the list */
	if (!wake.blind &&
	    (!wake.scanned || now - wake.scanned_ns >= SHIM_WAKE_RESCAN_NS))
		wake_rescan(now);
	shim_unlock();
	atomic_store_explicit(&shim.page->wake_mode,
			      wake.blind ? COSCHED_WAKE_LOCAL :
					   COSCHED_WAKE_ARRIVALS,
			      memory_order_relaxed);
	n = epoll_wait(wake.epfd, ev, 8, sleep_timeout_ms());
	count_wake(n < 0 ? -1 : wake_cause(ev, n));
}

/* The fallback: today's sleep on arrive_seq, woken by same-host senders. */
static void sleep_futex(uint32_t seen)
{
	struct timespec timeout = { .tv_sec = 0, .tv_nsec = SHIM_BLOCK_FUTEX_NS };
	long rc;

	atomic_store_explicit(&shim.page->wake_mode, COSCHED_WAKE_FUTEX,
			      memory_order_relaxed);
	/* shared (not FUTEX_PRIVATE_FLAG): the wakers are other processes */
	rc = syscall(SYS_futex, (uint32_t *)&shim.page->arrive_seq, FUTEX_WAIT,
		     seen, &timeout, NULL, 0);
	count_wake(rc == 0 || errno == EAGAIN ? 1 :
		   errno == ETIMEDOUT ? 0 : -1);
}

uint32_t shim_wake_blocked_kind(void)
{
	return wake.epfd >= 0 ? COSCHED_SHM_BLOCKED_SOCKET :
				COSCHED_SHM_BLOCKED_FUTEX;
}

/* Sleep until an arrival or the timeout; seen: arrive_seq before the test. */
void shim_wake_sleep(uint32_t seen)
{
	if (wake.epfd >= 0)
		sleep_sockets();
	else
		sleep_futex(seen);
}

/*
 * A same-host sender has counted an arrival in peer's page (the page of
 * world rank dest) and read blocked as asleep: wake it.  A full queue
 * means a wake is already pending: the byte is dropped.
 */
void shim_wake_notify(struct cosched_shm *peer, int dest, uint32_t blocked)
{
	struct sockaddr_un addr;
	char byte = 0;

	if (blocked == COSCHED_SHM_BLOCKED_FUTEX) {
		syscall(SYS_futex, (uint32_t *)&peer->arrive_seq, FUTEX_WAKE,
			INT_MAX, NULL, NULL, 0);
		return;
	}
	if (wake.sock < 0 || wake_addr(dest, &addr))
		return;
	(void)sendto(wake.sock, &byte, 1, MSG_DONTWAIT | MSG_NOSIGNAL,
		     (struct sockaddr *)&addr, sizeof(addr));
}
