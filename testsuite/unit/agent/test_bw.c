/*
 * test_bw.c - the MemBUS bandwidth sources and probes on this machine.
 *
 * What the node offers decides which half of the perf and resctrl tests
 * runs: where a source is missing, opening it must fail with a reason;
 * where it is there, a child that walks memory must show traffic.  The
 * tcp source is checked twice: on a hand-made table (per-socket deltas,
 * counters going backwards) and on a real loopback connection of this
 * process, against the bytes the test sent.  About a second.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <limits.h>
#include <net/if.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/tcp.h>

#include "bw/bw.h"
#include "tap.h"

#define TESTS_NAMES 6
#define TESTS_DETECT 3
#define TESTS_PERF 3
#define TESTS_RESCTRL 5
#define TESTS_TRACK 6
#define TESTS_TCP 9
#define TESTS_PROBES 6

#define TCP_SENT (1 << 20)	/* first transfer, one direction */
#define TCP_MORE (64 << 10)	/* second transfer, each direction */
#define CHILD_WALK (64u << 20)	/* bytes the memory-walking child walks */
#define NO_SUCH_PID INT_MAX	/* above any pid_max */

static char _err[256];

static void _sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000,
			       .tv_nsec = (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* valgrind runs the memory probe some 50 times slower. */
static bool _under_valgrind(void)
{
	const char *preload = getenv("LD_PRELOAD");

	return preload && strstr(preload, "vgpreload");
}

/* ------------------------------------------------------------ names */

static void _test_names(void)
{
	is_str(bw_source_name(BW_SRC_NONE), "none", "name none");
	is_str(bw_source_name(BW_SRC_PERF), "perf", "name perf");
	is_str(bw_source_name(BW_SRC_RESCTRL), "resctrl", "name resctrl");
	is_str(bw_source_name(BW_SRC_TCP), "tcp", "name tcp");
	is_str(bw_source_name(BW_SRC_HINT), "hint", "name hint");
	is_str(bw_source_name((enum bw_source)99), "unknown",
	       "name of a value out of range");
}

static void _test_detect(struct bw_sources *have)
{
	bw_detect(have);
	diag("perf: %s%s", have->perf ? "yes" : "no: ", have->perf_why);
	diag("resctrl: %s%s", have->resctrl ? "yes" : "no: ",
	     have->resctrl_why);
	diag("tcp: %s%s", have->tcp ? "yes" : "no: ", have->tcp_why);
	ok(have->perf != !!have->perf_why[0],
	   "perf: available, or a reason why not");
	ok(have->resctrl != !!have->resctrl_why[0],
	   "resctrl: available, or a reason why not");
	ok(have->tcp != !!have->tcp_why[0],
	   "tcp: available, or a reason why not");
}

/* ------------------------------------------------------------ walker */

/* A child that walks CHILD_WALK bytes when told to, says when it is
 * done, and exits when the parent closes its end. */
struct walker {
	pid_t pid;
	int go, done;	/* parent's ends of the pipes */
};

static void _walk(int go, int done)
{
	volatile char *mem = calloc(1, CHILD_WALK);
	char c;

	if (!mem || read(go, &c, 1) != 1)
		_exit(1);
	for (int pass = 0; pass < 4; pass++)
		for (size_t i = 0; i < CHILD_WALK; i += 64)
			mem[i] += (char)pass;
	if (write(done, &c, 1) != 1)
		_exit(1);
	(void)!read(go, &c, 1);	/* EOF: the parent has read its counter */
	_exit(0);
}

static int _walker_start(struct walker *w)
{
	int go[2], done[2];
	pid_t parent = getpid();

	if (pipe(go))
		return -1;
	if (pipe(done)) {
		close(go[0]);
		close(go[1]);
		return -1;
	}
	w->pid = fork();
	if (w->pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		close(go[1]);
		close(done[0]);
		_walk(go[0], done[1]);
	}
	close(go[0]);
	close(done[1]);
	w->go = go[1];
	w->done = done[0];
	return w->pid > 0 ? 0 : -1;
}

/* Let it walk and wait until it has. */
static int _walker_run(struct walker *w)
{
	char c = 'g';

	if (write(w->go, &c, 1) != 1 || read(w->done, &c, 1) != 1)
		return -1;
	return 0;
}

static void _walker_end(struct walker *w)
{
	close(w->go);
	close(w->done);
	if (w->pid > 0)
		waitpid(w->pid, NULL, 0);
}

/* ------------------------------------------------------------ perf */

static void _test_perf(const struct bw_sources *have)
{
	struct bw_perf p = { .fd = -1 };
	struct walker w;
	uint64_t bytes = 0;

	if (!have->perf) {
		_err[0] = '\0';
		is_int(bw_perf_open(getpid(), &p, _err, sizeof(_err)), -1,
		       "perf: open fails where detect said no");
		ok(_err[0], "perf: with a reason (%s)", _err);
		is_int(bw_perf_delta(&p, &bytes), -1,
		       "perf: no delta from a counter that did not open");
		return;
	}
	if (_walker_start(&w)) {
		skip(TESTS_PERF, "fork failed");
		return;
	}
	is_int(bw_perf_open(w.pid, &p, _err, sizeof(_err)), 0,
	       "perf: counter on a child opens (%s)", _err);
	ok(_walker_run(&w) == 0 && bw_perf_delta(&p, &bytes) == 0,
	   "perf: delta read after the child walked");
	ok(bytes > 0, "perf: the walk shows traffic (%llu bytes)",
	   (unsigned long long)bytes);
	bw_perf_close(&p);
	_walker_end(&w);
}

/* ------------------------------------------------------------ resctrl */

static void _test_resctrl_there(void)
{
	struct bw_resctrl r;
	struct walker w;
	uint64_t bytes = 0;
	char name[64];

	snprintf(name, sizeof(name), "coschedd.test.%d", (int)getpid());
	if (bw_resctrl_open(name, &r, _err, sizeof(_err))) {
		/* Mounted with MBM but not ours to write (not root). */
		diag("resctrl open: %s", _err);
		skip(3, "resctrl group cannot be created here");
		return;
	}
	if (_walker_start(&w)) {
		bw_resctrl_close(&r);
		skip(3, "fork failed");
		return;
	}
	is_int(bw_resctrl_add(&r, w.pid), 0, "resctrl: child added");
	ok(_walker_run(&w) == 0 && bw_resctrl_delta(&r, &bytes) == 0,
	   "resctrl: delta read after the child walked");
	ok(bytes > 0, "resctrl: the walk shows traffic (%llu bytes)",
	   (unsigned long long)bytes);
	_walker_end(&w);
	bw_resctrl_close(&r);
}

static void _test_resctrl(const struct bw_sources *have)
{
	struct bw_resctrl r;
	uint64_t bytes;

	_err[0] = '\0';
	is_int(bw_resctrl_open("a/b", &r, _err, sizeof(_err)), -1,
	       "resctrl: a name with a slash is refused");
	ok(strstr(_err, "name"), "resctrl: saying so (%s)", _err);
	if (have->resctrl) {
		_test_resctrl_there();
		return;
	}
	_err[0] = '\0';
	is_int(bw_resctrl_open("coschedd.test", &r, _err, sizeof(_err)), -1,
	       "resctrl: open fails where detect said no");
	ok(_err[0], "resctrl: with a reason (%s)", _err);
	ok(bw_resctrl_add(&r, getpid()) == -1 &&
	   bw_resctrl_delta(&r, &bytes) == -1,
	   "resctrl: no add or delta on a group that did not open");
	bw_resctrl_close(&r);
}

/* ------------------------------------------------------------ tcp */

/* A connected loopback pair of this process; 0 or -1. */
static int _tcp_pair(int fds[2])
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	int listener = socket(AF_INET, SOCK_STREAM, 0);
	int rc = -1;

	fds[0] = fds[1] = -1;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (listener < 0 ||
	    bind(listener, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(listener, 1) ||
	    getsockname(listener, (struct sockaddr *)&sa, &len))
		goto out;
	fds[0] = socket(AF_INET, SOCK_STREAM, 0);
	if (fds[0] < 0 || connect(fds[0], (struct sockaddr *)&sa, sizeof(sa)))
		goto out;
	fds[1] = accept(listener, NULL, NULL);
	rc = fds[1] >= 0 ? 0 : -1;
out:
	if (listener >= 0)
		close(listener);
	return rc;
}

static uint64_t _acked(int fd)
{
	struct tcp_info info;
	socklen_t len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len))
		return 0;
	return info.tcpi_bytes_acked;
}

/* Send n bytes from one end, read them at the other, and wait for the
 * sender to see them acknowledged (delayed ACKs) so that the counters
 * are final.  0 or -1. */
static int _tcp_move(int from, int to, size_t n)
{
	static char buf[64 << 10];
	uint64_t acked = _acked(from);
	size_t sent = 0, got = 0;

	while (got < n) {
		ssize_t k;

		if (sent < n) {
			size_t chunk = n - sent < sizeof(buf) ? n - sent :
								sizeof(buf);

			k = send(from, buf, chunk, MSG_DONTWAIT);
			if (k > 0)
				sent += (size_t)k;
			else if (errno != EAGAIN)
				return -1;
		}
		k = recv(to, buf, sizeof(buf), MSG_DONTWAIT);
		if (k > 0)
			got += (size_t)k;
		else if (k == 0 || errno != EAGAIN)
			return -1;
	}
	for (int i = 0; i < 2000 && _acked(from) < acked + n; i++)
		_sleep_ms(1);
	return _acked(from) >= acked + n ? 0 : -1;
}

/* The socket inode /proc/PID/fd shows for fd. */
static uint64_t _inode(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? 0 : (uint64_t)st.st_ino;
}

/* Deltas on a table made by hand: new sockets count in full, known ones
 * by their increase, a counter going back counts nothing. */
static void _test_track(void)
{
	struct bw_tcp_sock sock;
	struct bw_tcp_table t = { .socks = &sock, .n = 1, .cap = 1 };
	struct bw_tcp_track track = { 0 };
	int fds[2];
	uint64_t bytes = 0;
	bool all = true;

	if (_tcp_pair(fds)) {
		skip(TESTS_TRACK, "no loopback TCP");
		return;
	}
	sock.inode = _inode(fds[0]);
	sock.bytes = 100;
	all &= bw_tcp_delta(&t, getpid(), &track, &bytes) == 0;
	is_int(bytes, 100, "track: a new socket counts in full");
	sock.bytes = 150;
	all &= bw_tcp_delta(&t, getpid(), &track, &bytes) == 0;
	is_int(bytes, 50, "track: a known socket counts its increase");
	sock.bytes = 120;
	all &= bw_tcp_delta(&t, getpid(), &track, &bytes) == 0;
	is_int(bytes, 0, "track: a counter going back counts nothing");
	sock.bytes = 130;
	all &= bw_tcp_delta(&t, getpid(), &track, &bytes) == 0;
	is_int(bytes, 10, "track: and counts on from where it went");
	sock.inode = _inode(fds[1]) + _inode(fds[0]);	/* none of ours */
	all &= bw_tcp_delta(&t, getpid(), &track, &bytes) == 0;
	ok(all && bytes == 0 && track.n == 0,
	   "track: sockets not in the table are not tracked");
	close(fds[0]);
	close(fds[1]);
	is_int(bw_tcp_delta(&t, NO_SUCH_PID, &track, &bytes), -1,
	       "track: a process that does not exist gives -1");
	bw_tcp_track_free(&track);
}

/* dump + delta of this process; UINT64_MAX on failure. */
static uint64_t _tcp_delta_now(struct bw_tcp_table *t,
			       struct bw_tcp_track *track)
{
	uint64_t bytes;

	if (bw_tcp_dump(t, _err, sizeof(_err))) {
		diag("dump: %s", _err);
		return UINT64_MAX;
	}
	return bw_tcp_delta(t, getpid(), track, &bytes) ? UINT64_MAX : bytes;
}

/*
 * The real thing.  Both ends are this process's, so one byte sent counts
 * twice: bytes_acked at the sender, bytes_received at the receiver.  The
 * handshake and the FIN take a sequence number each, which the kernel
 * may count as one byte (the accepting end counts its SYN-ACK acked).
 */
static void _test_tcp(const struct bw_sources *have)
{
	struct bw_tcp_table t = { 0 };
	struct bw_tcp_track track = { 0 };
	int fds[2];
	uint64_t delta;

	if (!have->tcp || _tcp_pair(fds)) {
		skip(TESTS_TCP, have->tcp ? "no loopback TCP" : have->tcp_why);
		return;
	}
	_err[0] = '\0';
	is_int(bw_tcp_dump(&t, _err, sizeof(_err)), 0, "tcp: dump%s%s",
	       _err[0] ? ": " : "", _err);
	ok(t.n >= 2, "tcp: the table holds our two sockets at least (%zu)",
	   t.n);
	delta = _tcp_delta_now(&t, &track);
	ok(delta <= 2, "tcp: new sockets have moved no data yet (%llu: the "
	   "handshake's ACK of the SYN-ACK counts as one acked byte)",
	   (unsigned long long)delta);
	ok(_tcp_move(fds[0], fds[1], TCP_SENT) == 0,
	   "tcp: 1 MiB sent, read and acknowledged");
	delta = _tcp_delta_now(&t, &track);
	is_int(delta, 2 * TCP_SENT, "tcp: counted as acked and received");
	delta = _tcp_delta_now(&t, &track);
	is_int(delta, 0, "tcp: nothing more without traffic");
	ok(_tcp_move(fds[0], fds[1], TCP_MORE) == 0 &&
	   _tcp_move(fds[1], fds[0], TCP_MORE) == 0,
	   "tcp: 64 KiB each way");
	delta = _tcp_delta_now(&t, &track);
	is_int(delta, 4 * TCP_MORE, "tcp: the new traffic only");
	close(fds[0]);
	_sleep_ms(10);
	delta = _tcp_delta_now(&t, &track);
	ok(delta < 4096, "tcp: closing a socket gives no negative or huge "
	   "delta (%llu)", (unsigned long long)delta);
	close(fds[1]);
	bw_tcp_table_free(&t);
	bw_tcp_track_free(&track);
}

/* ------------------------------------------------------------ probes */

/* An address of this node on a non-loopback interface, or "". */
static void _some_address(char *text, size_t len)
{
	struct ifaddrs *all, *ifa;

	text[0] = '\0';
	if (getifaddrs(&all))
		return;
	for (ifa = all; ifa && !text[0]; ifa = ifa->ifa_next) {
		if (ifa->ifa_addr && ifa->ifa_addr->sa_family == AF_INET &&
		    !(ifa->ifa_flags & IFF_LOOPBACK))
			inet_ntop(AF_INET, &((struct sockaddr_in *)
					     ifa->ifa_addr)->sin_addr,
				  text, (socklen_t)len);
	}
	freeifaddrs(all);
}

static void _test_probes(void)
{
	char addr[INET_ADDRSTRLEN];
	double mem = bw_probe_memory(1, 0.05);
	double loop = bw_probe_loopback(0.1);
	double speed;

	diag("memory, 1 thread: %.2f GB/s; loopback TCP: %.2f GB/s",
	     mem / 1e9, loop / 1e9);
	if (_under_valgrind())
		ok(mem > 0, "memory probe runs (valgrind: no speed asked)");
	else
		ok(mem > 1e8, "memory probe: more than 100 MB/s");
	ok(loop > 1e6, "loopback probe: more than 1 MB/s");
	is_double(bw_link_speed("127.0.0.1"), 0, 0, "loopback has no speed");
	is_double(bw_link_speed("::1"), 0, 0, "nor has ::1");
	is_double(bw_link_speed("no address"), 0, 0, "nor has a non-address");
	_some_address(addr, sizeof(addr));
	speed = addr[0] ? bw_link_speed(addr) : 0;
	diag("link speed of %s: %.0f Mb/s", addr[0] ? addr : "(none)",
	     speed * 8 / 1e6);
	ok(speed >= 0, "link speed of %s is a speed or 0",
	   addr[0] ? addr : "(no address)");
}

int main(void)
{
	struct bw_sources have;

	plan(TESTS_NAMES + TESTS_DETECT + TESTS_PERF + TESTS_RESCTRL +
	     TESTS_TRACK + TESTS_TCP + TESTS_PROBES);
	_test_names();
	_test_detect(&have);
	_test_perf(&have);
	_test_resctrl(&have);
	_test_track();
	_test_tcp(&have);
	_test_probes();
	return done_testing();
}
