/*
 * arrivals.c - messages from other hosts, noticed as they arrive.
 *
 * How a socket is watched without keeping it.  The process's sockets are
 * found in /proc/PID/fd ("socket:[INODE]").  For each new one the agent
 * takes a duplicate with pidfd_getfd(2), checks that it is the same file
 * (the inode) and a connected TCP socket (not listening, not UNIX), adds
 * it to the process's epoll instance (level-triggered EPOLLIN|EPOLLRDHUP,
 * data: the inode) and closes the duplicate at once.  An epoll item holds
 * no reference to its file: the kernel removes it when the last
 * descriptor of the file is closed.  So once the process closes the
 * socket, or exits, the item is gone, the connection is never kept alive
 * by us and nothing leaks.  The agent owns only the epoll instances and
 * one pidfd per process, closed when the process is released.
 *
 * epoll keys an item by file and descriptor number, so every item is
 * added through one reserved descriptor number (slot, otherwise a
 * /dev/null), and removed (a socket at EOF, which would stay readable
 * forever) by putting a fresh duplicate into the same slot.  An item
 * that can no longer be removed that way (the process moved or passed
 * the socket on) is cleared by rebuilding the process's epoll.
 *
 * A taken descriptor is the user's file, not necessarily the socket
 * /proc named: the process may swap another file in under the number
 * between our reading /proc and pidfd_getfd, a FUSE file of its own
 * whose every operation its program may leave unanswered (and a task in
 * such a wait cannot even be killed).  So the rule: nothing that can
 * reach a file system is done on a taken descriptor until it is known to
 * be a socket, and that is asked with getsockopt(SO_TYPE), which any
 * other file answers ENOTSOCK without calling its file system; only then
 * is its inode compared (fstat of a socket stays in sockfs), and only a
 * socket ever reaches epoll_ctl (whose poll a FUSE file would answer).
 *
 * Closing a duplicate can block too, and the process decides how long:
 * when it closed its own descriptor meanwhile, ours is the last one, and
 * a socket it gave SO_LINGER waits in close() up to the linger time; a
 * swapped-in FUSE file waits for its FLUSH.  So the agent's thread only
 * ever closes a duplicate that another of its descriptors still holds
 * (the slot, while the duplicate itself is open); the duplicates
 * themselves go to the closer thread of the process's user (closer.h),
 * and while one of that user's closes does not return, nothing is taken
 * from that user's processes (their sockets counted as unwatched).
 *
 * Only processes registered through agent_register's ancestry and
 * ownership check are watched; at most ARRIVALS_WATCH_MAX sockets each
 * (beyond: counted as unwatched, logged rate-limited, and the agent's
 * /proc/PID/net/tcp reading stays on for that process).  /proc/PID/fd is
 * read again every 100 ms, backing off to 1 s while nothing changes
 * (Open MPI connects lazily), at most ARRIVALS_SCAN_MAX entries a time.
 *
 * Pending.  The master epoll holds each process's epoll with
 * EPOLLIN|EPOLLONESHOT: a wake marks the process pending (one remote
 * arrival counted) and leaves it unarmed, so unconsumed data cannot make
 * the agent spin; each tick re-checks a pending process with
 * epoll_wait(timeout 0) and, once its sockets are drained, clears it and
 * arms it again.  Readiness only: no payload is ever read.
 *
 * Detection delay: (when the agent noticed) - (when the data became
 * readable).  The kernel wakes the agent, blocked in poll, when the data
 * is queued; from then it waits to run (the growth of run_delay in
 * /proc/thread-self/schedstat across the poll) and then serves what poll
 * returned (the clock from poll's return to noticing).  When poll did
 * not sleep (no voluntary context switch: the data came while the agent
 * was busy), the time since the previous poll returned is used: an upper
 * bound.  Data found already queued on a socket watched for the first
 * time is counted as an arrival, with no delay (its time is unknown).
 * What the figure misses: run_delay starts when the agent is queued on
 * its CPU, so the time a wake-up takes to reach an idle CPU (an IPI, the
 * exit from an idle state) is not in it.  test_arrivals prints both: on
 * the 2-core test VM, idle, the agent reported 4-7 us (median) where
 * send() to noticed took 27-90 us; on a busy CPU the agent (SCHED_FIFO)
 * preempts a running task and that part shrinks.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "agent.h"
#include "arrivals.h"
#include "closer.h"
#include "cosched/sockets.h"

#define SCAN_FIRST_NS 100000000ull	/* look for new sockets: 100 ms */
#define SCAN_MAX_NS 1000000000ull	/* backing off to 1 s */
#define EVENTS 32			/* read per epoll_wait */

enum sock_state { SOCK_WATCHED, SOCK_IGNORED };

/* A socket of the process, by inode: watched or not worth watching. */
struct sock {
	uint64_t ino;
	int fd;				/* its number in the process */
	enum sock_state state;
	bool seen;			/* in the last scan */
};

struct arrivals_proc {
	struct arrivals *arr;
	struct proc_id id;
	struct arrivals_stats *stats;
	struct closer *closer;		/* its user's */
	bool react;
	int pidfd;
	int epfd;			/* the sockets; -1: broken */
	struct sock socks[ARRIVALS_TRACK_MAX];
	uint32_t nsocks, watched, unwatched;
	bool pending;
	bool rebuild;			/* a stray item: make epfd anew */
	bool paused;			/* epfd emptied: its user's close hangs */
	bool bound_logged;
	uint64_t next_scan_ns, scan_period_ns;
};

struct arrivals {
	int master;
	int slot;			/* the reserved number items go through */
	int null_fd;			/* what the slot holds between uses */
	int schedstat_fd;		/* /proc/thread-self/schedstat */
	struct closers *closers;	/* one closer thread per user */
	uint32_t nwatch;		/* processes watched */
	/* the poll being measured */
	bool measured;
	uint64_t rd_begin, rd_end;	/* run_delay, ns */
	long nvcsw_begin, nvcsw_end;	/* voluntary context switches */
	uint64_t returned_ns, prev_returned_ns;
};

static struct agent_log_limit watch_fail = AGENT_LOG_LIMIT("arrival watches refused");
static struct agent_log_limit over_bound = AGENT_LOG_LIMIT("arrival watch bound");

/* ---------------------------------------------------------- the agent */

struct arrivals *arrivals_open(void)
{
	struct arrivals *arr = calloc(1, sizeof(*arr));

	if (!arr)
		return NULL;
	arr->master = epoll_create1(EPOLL_CLOEXEC);
	arr->slot = open("/dev/null", O_RDONLY | O_CLOEXEC);
	arr->null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	arr->schedstat_fd = open("/proc/thread-self/schedstat",
				 O_RDONLY | O_CLOEXEC);
	arr->closers = closers_open();
	if (arr->master >= 0 && arr->slot >= 0 && arr->null_fd >= 0 &&
	    arr->closers)
		return arr;
	agent_log("arrivals from other hosts not watched: %s", strerror(errno));
	arrivals_close(arr);
	return NULL;
}

void arrivals_close(struct arrivals *arr)
{
	int *fds[] = { &arr->master, &arr->slot, &arr->null_fd,
		       &arr->schedstat_fd };

	if (!arr)
		return;
	closers_close(arr->closers);
	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (*fds[i] >= 0)
			close(*fds[i]);
	free(arr);
}

int arrivals_fd(const struct arrivals *arr)
{
	return arr && arr->nwatch ? arr->master : -1;
}

/* run_delay of the agent's thread, and its voluntary switches. */
static bool _sched_read(const struct arrivals *arr, uint64_t *run_delay,
			long *nvcsw)
{
	char buf[96];
	unsigned long long exec, delay;
	struct rusage ru;
	ssize_t n;

	if (arr->schedstat_fd < 0)
		return false;
	n = pread(arr->schedstat_fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu", &exec, &delay) != 2 ||
	    getrusage(RUSAGE_THREAD, &ru))
		return false;
	*run_delay = delay;
	*nvcsw = ru.ru_nvcsw;
	return true;
}

void arrivals_poll_begin(struct arrivals *arr)
{
	if (!arr || !arr->nwatch) {
		if (arr)
			arr->measured = false;
		return;
	}
	arr->measured = _sched_read(arr, &arr->rd_begin, &arr->nvcsw_begin);
}

void arrivals_poll_end(struct arrivals *arr, bool ready)
{
	if (!arr || !arr->nwatch)
		return;
	arr->prev_returned_ns = arr->returned_ns;
	arr->returned_ns = agent_now_ns();
	if (ready && arr->measured)
		arr->measured = _sched_read(arr, &arr->rd_end, &arr->nvcsw_end);
}

/* The delay of an arrival noticed now, from the poll just served (false:
 * no honest figure). */
static bool _delay_ns(const struct arrivals *arr, uint64_t now, uint64_t *ns)
{
	uint64_t since_return = now - arr->returned_ns;

	if (!arr->measured)
		return false;
	if (arr->nvcsw_end > arr->nvcsw_begin) {	/* slept, woken */
		uint64_t waited = arr->rd_end > arr->rd_begin ?
				  arr->rd_end - arr->rd_begin : 0;

		*ns = waited + since_return;
		return true;
	}
	if (!arr->prev_returned_ns)
		return false;
	*ns = now - arr->prev_returned_ns;	/* it came while we were busy */
	return true;
}

static void _delay_add(struct arrivals_stats *st, uint64_t ns)
{
	uint64_t us = ns / 1000;
	uint32_t v = us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;

	st->delay_us[st->next] = v;
	st->next = (st->next + 1) % ARRIVALS_RING;
	if (st->ndelays < ARRIVALS_RING)
		st->ndelays++;
	if (v > st->delay_us_max)
		st->delay_us_max = v;
}

static int _cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

uint32_t arrivals_delay_median_us(const struct arrivals_stats *st)
{
	uint32_t sorted[ARRIVALS_RING];

	if (!st->ndelays)
		return 0;
	memcpy(sorted, st->delay_us, st->ndelays * sizeof(sorted[0]));
	qsort(sorted, st->ndelays, sizeof(sorted[0]), _cmp_u32);
	return sorted[st->ndelays / 2];
}

void arrivals_count_local(struct arrivals_stats *st, uint64_t *seen,
			  uint64_t total)
{
	if (total > *seen)
		st->local += total - *seen;
	*seen = total;	/* a page made anew starts again from 0 */
}

/* ------------------------------------------------------- one process */

static int _getfd(const struct arrivals_proc *w, int fd)
{
#ifdef SYS_pidfd_getfd
	return (int)syscall(SYS_pidfd_getfd, w->pidfd, fd, 0);
#else
	(void)w;
	(void)fd;
	errno = ENOSYS;
	return -1;
#endif
}

/* Whether fd is a socket, asked of the socket layer only: any other
 * file (a FUSE file) answers ENOTSOCK without its file system. */
static bool _is_socket(int fd)
{
	int type;
	socklen_t len = sizeof(type);

	return !getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len);
}

/* Whether descriptors may be taken from w's process now: not while a
 * close of one taken from its user does not return. */
static bool _may_take(const struct arrivals_proc *w)
{
	return !closer_stuck(w->closer, agent_now_ns());
}

/* The process's fd as a duplicate of ours, if it is still socket ino. */
static int _dup_of(const struct arrivals_proc *w, int fd, uint64_t ino)
{
	struct stat st;
	int got = _getfd(w, fd);

	if (got < 0)
		return -1;
	/* a socket first: fstat of anything else may wait on its owner */
	if (_is_socket(got) && !fstat(got, &st) && st.st_ino == ino)
		return got;
	closer_give(w->closer, got);	/* maybe not a socket at all */
	errno = ESTALE;
	return -1;
}

/* epoll_ctl on a duplicate, through the slot; the duplicate stays ours,
 * so emptying the slot never closes the socket's last descriptor. */
static int _ctl(const struct arrivals_proc *w, int op, int got, uint64_t ino)
{
	const struct arrivals *arr = w->arr;
	struct epoll_event ev = { .events = EPOLLIN | EPOLLRDHUP,
				  .data.u64 = ino };
	int rc;

	if (dup3(got, arr->slot, O_CLOEXEC) < 0)
		return -1;
	rc = epoll_ctl(w->epfd, op, arr->slot, &ev);
	(void)dup3(arr->null_fd, arr->slot, O_CLOEXEC);	/* let go of it */
	return rc;
}

enum verdict { WATCH, IGNORE, LATER };

/* A connected TCP stream socket is watched; one connecting, later. */
static enum verdict _judge(int got)
{
	struct tcp_info info;
	socklen_t len = sizeof(info);

	if (!cosched_sock_is_tcp_stream(got))
		return IGNORE;
	memset(&info, 0, sizeof(info));
	if (getsockopt(got, IPPROTO_TCP, TCP_INFO, &info, &len))
		return LATER;
	if (info.tcpi_state == TCP_ESTABLISHED)
		return WATCH;
	/* not connected yet (or never): look again at the next scan */
	return info.tcpi_state == TCP_SYN_SENT || info.tcpi_state == TCP_CLOSE ?
	       LATER : IGNORE;
}

static struct sock *_find(struct arrivals_proc *w, uint64_t ino)
{
	for (uint32_t i = 0; i < w->nsocks; i++)
		if (w->socks[i].ino == ino)
			return &w->socks[i];
	return NULL;
}

/* pidfd_getfd refused for good (a Yama scope, a seccomp filter): stop. */
static void _give_up(struct arrivals_proc *w, const char *what)
{
	if (agent_log_allow(&watch_fail))
		agent_log("pid %d: arrivals from other hosts not watched: %s: %s",
			  (int)w->id.pid, what, strerror(errno));
	close(w->epfd);
	w->epfd = -1;
	w->pending = false;
	w->nsocks = w->watched = 0;
}

/* A socket the scan met for the first time. */
static void _meet(struct arrivals_proc *w, int fd, uint64_t ino)
{
	enum verdict v;
	int got;

	if (w->nsocks == ARRIVALS_TRACK_MAX ||
	    w->watched == ARRIVALS_WATCH_MAX || !_may_take(w)) {
		w->unwatched++;
		return;
	}
	got = _dup_of(w, fd, ino);
	if (got < 0) {
		if (errno == EPERM || errno == ENOSYS)
			_give_up(w, "pidfd_getfd");
		return;		/* closed meanwhile */
	}
	v = _judge(got);
	if (v == WATCH && _ctl(w, EPOLL_CTL_ADD, got, ino))
		v = errno == EEXIST ? WATCH : LATER;
	closer_give(w->closer, got);
	if (v == LATER)
		return;
	w->socks[w->nsocks++] = (struct sock){ .ino = ino, .fd = fd,
					       .state = v == WATCH ?
						   SOCK_WATCHED : SOCK_IGNORED,
					       .seen = true };
	w->watched += v == WATCH;
}

struct scan {
	struct arrivals_proc *w;
	uint32_t added;			/* newly watched */
	uint32_t met;			/* new to us: watched, ignored, later */
};

static int _scan_one(int fd, uint64_t ino, void *arg)
{
	struct scan *sc = arg;
	struct arrivals_proc *w = sc->w;
	struct sock *s = _find(w, ino);
	uint32_t before = w->watched;

	if (s) {
		s->seen = true;
		s->fd = fd;	/* it may have moved (dup2) */
		return 0;
	}
	_meet(w, fd, ino);
	sc->met++;
	sc->added += w->watched - before;
	return w->epfd < 0;	/* given up: stop */
}

/* Forget the sockets the process no longer has (their items went with
 * them, or go with the last descriptor of them). */
static void _forget_unseen(struct arrivals_proc *w)
{
	for (uint32_t i = 0; i < w->nsocks;) {
		if (w->socks[i].seen) {
			i++;
			continue;
		}
		w->watched -= w->socks[i].state == SOCK_WATCHED;
		w->socks[i] = w->socks[--w->nsocks];
	}
}

static void _log_bound(struct arrivals_proc *w)
{
	bool at_bound = w->watched == ARRIVALS_WATCH_MAX ||
			w->nsocks == ARRIVALS_TRACK_MAX;

	/* (unwatched for a stuck close of its user: closer.c logged it) */
	if (!w->unwatched || w->bound_logged || !at_bound)
		return;
	w->bound_logged = true;
	if (agent_log_allow(&over_bound))
		agent_log("pid %d: more than %d sockets: %u not watched (their arrivals are seen through /proc only)",
			  (int)w->id.pid, ARRIVALS_WATCH_MAX, w->unwatched);
}

/* Read /proc/PID/fd; returns how many sockets are newly watched, and in
 * *met whether any socket was new (connecting ones included). */
static uint32_t _scan(struct arrivals_proc *w, bool *met)
{
	struct scan sc = { .w = w };

	*met = false;
	for (uint32_t i = 0; i < w->nsocks; i++)
		w->socks[i].seen = false;
	w->unwatched = 0;
	if (proc_for_each_socket(w->id.pid, ARRIVALS_SCAN_MAX, _scan_one, &sc) ||
	    w->epfd < 0)
		return 0;	/* gone (pruned soon), or given up */
	_forget_unseen(w);
	_log_bound(w);
	*met = sc.met > 0;
	return sc.added;
}

static void _arm(struct arrivals_proc *w)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLONESHOT,
				  .data.ptr = w };

	if (w->epfd >= 0)
		(void)epoll_ctl(w->arr->master, EPOLL_CTL_MOD, w->epfd, &ev);
}

/* A fresh epoll for w, with every watched socket in it again; while
 * nothing may be taken from its user, an empty one (paused), filled
 * again by a later call once that user's closes return. */
static void _rebuild(struct arrivals_proc *w)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLONESHOT,
				  .data.ptr = w };
	bool take = _may_take(w);
	int old = w->epfd;

	w->rebuild = !take;
	if (!take && w->paused)
		return;		/* emptied already */
	w->paused = !take;
	w->epfd = epoll_create1(EPOLL_CLOEXEC);
	close(old);	/* its item in the master goes with it */
	if (w->epfd < 0 ||
	    epoll_ctl(w->arr->master, EPOLL_CTL_ADD, w->epfd, &ev)) {
		_give_up(w, "epoll");
		return;
	}
	w->watched = 0;
	for (uint32_t i = 0; take && i < w->nsocks; i++) {
		struct sock *s = &w->socks[i];
		int got;

		if (s->state != SOCK_WATCHED)
			continue;
		got = _dup_of(w, s->fd, s->ino);
		if (got >= 0 && !_ctl(w, EPOLL_CTL_ADD, got, s->ino))
			w->watched++;
		else
			s->state = SOCK_IGNORED;
		if (got >= 0)
			closer_give(w->closer, got);
	}
}

/* Take s out of w's epoll: at EOF it would be readable for ever. */
static void _drop(struct arrivals_proc *w, struct sock *s)
{
	int got = _may_take(w) ? _dup_of(w, s->fd, s->ino) : -1;

	if (got < 0 || _ctl(w, EPOLL_CTL_DEL, got, s->ino))
		w->rebuild = true;	/* moved or passed on: start afresh */
	if (got >= 0)
		closer_give(w->closer, got);
	s->state = SOCK_IGNORED;
	w->watched--;
}

/* Whether a watched socket of w has data now (EOF sockets dropped). */
static bool _readable(struct arrivals_proc *w)
{
	struct epoll_event evs[EVENTS];
	bool ready = false;
	int n = w->epfd >= 0 ? epoll_wait(w->epfd, evs, EVENTS, 0) : 0;

	for (int i = 0; i < n; i++) {
		struct sock *s = _find(w, evs[i].data.u64);

		if (!s || s->state != SOCK_WATCHED)
			w->rebuild = true;	/* an item we cannot name */
		else if (evs[i].events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR))
			_drop(w, s);
		else
			ready = true;
	}
	if (w->rebuild)
		_rebuild(w);
	return ready;
}

struct arrivals_proc *arrivals_watch(struct arrivals *arr,
				     const struct proc_id *id, uid_t uid,
				     struct arrivals_stats *stats, bool react)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLONESHOT };
	struct arrivals_proc *w;

	if (!arr || !(w = calloc(1, sizeof(*w))))
		return NULL;
	*w = (struct arrivals_proc){ .arr = arr, .id = *id, .stats = stats,
				     .react = react, .pidfd = -1, .epfd = -1,
				     .scan_period_ns = SCAN_FIRST_NS };
	w->closer = closer_get(arr->closers, uid);
	if (!w->closer) {
		if (agent_log_allow(&watch_fail))
			agent_log("pid %d: arrivals from other hosts not watched: no closer for uid %u: %s",
				  (int)id->pid, (unsigned)uid, strerror(errno));
		free(w);
		return NULL;
	}
	w->pidfd = proc_pidfd(id);
	if (w->pidfd < 0) {
		if (agent_log_allow(&watch_fail))
			agent_log("pid %d: arrivals from other hosts not watched: no pidfd: %s",
				  (int)id->pid, strerror(errno));
		closer_put(w->closer);
		free(w);
		return NULL;
	}
	w->epfd = epoll_create1(EPOLL_CLOEXEC);
	ev.data.ptr = w;
	if (w->epfd < 0 || epoll_ctl(arr->master, EPOLL_CTL_ADD, w->epfd, &ev)) {
		if (agent_log_allow(&watch_fail))
			agent_log("pid %d: arrivals from other hosts not watched: epoll: %s",
				  (int)id->pid, strerror(errno));
		if (w->epfd >= 0)
			close(w->epfd);
		close(w->pidfd);
		closer_put(w->closer);
		free(w);
		return NULL;
	}
	arr->nwatch++;
	return w;
}

void arrivals_unwatch(struct arrivals_proc *w)
{
	if (!w)
		return;
	if (w->epfd >= 0)
		close(w->epfd);	/* its item in the master goes with it */
	close(w->pidfd);
	closer_put(w->closer);	/* after every duplicate was handed over */
	w->arr->nwatch--;
	free(w);
}

/* w's sockets turned readable (the master said so): pending? */
static bool _woken(struct arrivals_proc *w, uint64_t now)
{
	uint64_t delay;

	if (w->pending)
		return false;	/* counted; re-armed once drained */
	if (!_readable(w)) {
		_arm(w);	/* an EOF, or consumed already */
		return false;
	}
	w->pending = true;
	w->stats->remote++;
	w->stats->noticed_ns = now;
	if (_delay_ns(w->arr, now, &delay))
		_delay_add(w->stats, delay);
	return w->react;
}

bool arrivals_wake(struct arrivals *arr)
{
	struct epoll_event evs[EVENTS];
	bool react = false;
	int n;

	if (!arr)
		return false;
	n = epoll_wait(arr->master, evs, EVENTS, 0);
	for (int i = 0; i < n; i++)
		react |= _woken(evs[i].data.ptr, agent_now_ns());
	return react;
}

bool arrivals_sample(struct arrivals_proc *w, uint64_t now)
{
	if (!w || w->epfd < 0)
		return false;
	if (now >= w->next_scan_ns) {
		bool met, added;

		if (w->rebuild)
			_rebuild(w);	/* paused: its user's closes returned? */
		added = _scan(w, &met) > 0;

		/* while sockets come (Open MPI connects lazily), look often */
		w->scan_period_ns = met ? SCAN_FIRST_NS :
				    w->scan_period_ns * 2 > SCAN_MAX_NS ?
				    SCAN_MAX_NS : w->scan_period_ns * 2;
		w->next_scan_ns = now + w->scan_period_ns;
		/* data queued before we watched: an arrival of unknown time */
		if (added && !w->pending && _readable(w)) {
			w->pending = true;
			w->stats->remote++;
		}
	}
	if (w->pending && !_readable(w)) {
		w->pending = false;
		_arm(w);
	}
	return w->pending;
}

bool arrivals_complete(const struct arrivals_proc *w)
{
	return w && w->epfd >= 0 && w->next_scan_ns && !w->unwatched &&
	       !w->rebuild;
}

uint32_t arrivals_watched(const struct arrivals_proc *w)
{
	return w ? w->watched : 0;
}

uint32_t arrivals_unwatched(const struct arrivals_proc *w)
{
	return w ? w->unwatched : 0;
}
