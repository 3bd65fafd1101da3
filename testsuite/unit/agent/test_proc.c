/*
 * test_proc.c - the agent's /proc readers against real processes: the
 * test forks children (a spinner, a sleeper, one with extra threads, one
 * with a grandchild, ones with odd names and uids), reads them through
 * proc.c and checks what it reads against what it made.
 *
 * About a second: the spinner spins for 300 ms of it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kids.h"
#include "host/proc.h"
#include "tap.h"

#define EXTRA_THREADS 3
#define NOBODY 65534
/* The comm holds ") " so a parser that stops at the first ')' misreads. */
#define ODD_COMM "a) b (c) d"

/* ------------------------------------------------------------ children */

static void _body_spin(int fd)
{
	kids_ready(fd);
	kids_spin();
}

static void _body_threads(int fd)
{
	for (int i = 0; i < EXTRA_THREADS; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, kids_thread_sleep, NULL))
			_exit(1);
	}
	kids_body_sleep(fd);
}

/* A child with an odd name whose own child (odd too) sleeps. */
static void _body_grandparent(int fd)
{
	pid_t parent = getpid();
	int gc_fds[2], gc = 0;

	prctl(PR_SET_NAME, ODD_COMM);
	if (pipe(gc_fds))
		_exit(1);
	if (fork() == 0) {
		kids_die_with(parent);
		close(gc_fds[0]);
		kids_body_sleep(gc_fds[1]);
	}
	close(gc_fds[1]);
	if (read(gc_fds[0], &gc, sizeof(gc)) != sizeof(gc))
		_exit(1);
	kids_ready_note(fd, gc);
	for (;;)
		pause();
}

static void _body_nobody(int fd)
{
	if (setresuid(NOBODY, NOBODY, NOBODY))
		_exit(1);
	kids_body_sleep(fd);
}

static void _body_euid_nobody(int fd)
{
	if (seteuid(NOBODY))
		_exit(1);
	kids_body_sleep(fd);
}

/* State letter of pid from /proc/PID/stat, parsed here independently. */
static char _state_of(pid_t pid)
{
	char path[64], buf[1024], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return '?';
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

static bool _wait_state(pid_t pid, char state)
{
	for (int i = 0; i < 500; i++) {
		if (_state_of(pid) == state)
			return true;
		kids_sleep_ms(2);
	}
	return false;
}

/* Field 22 of /proc/PID/stat, parsed here independently. */
static uint64_t _start_of(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long start = 0;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	/* Fields 3..21 skipped, 22 read. */
	if (!p || sscanf(p + 2, "%*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
			 "%*s %*s %*s %*s %*s %*s %*s %*s %llu", &start) != 1)
		return 0;
	return start;
}

/* ------------------------------------------------------------ tests */

static void test_identify(pid_t sleeper)
{
	struct proc_id id, self, fake;

	is_int(proc_identify(sleeper, &id), 0, "identify a sleeping child");
	is_int(id.pid, sleeper, "its pid");
	ok(id.start_ticks == _start_of(sleeper) && id.start_ticks,
	   "its start time is field 22 of stat");
	is_int(proc_identify(getpid(), &self), 0, "identify the test itself");
	ok(id.start_ticks >= self.start_ticks,
	   "the child started no earlier than the test");
	ok(proc_alive(&id), "the child is alive");
	fake = id;
	fake.start_ticks++;
	ok(!proc_alive(&fake), "not alive under another start time");
	fake.pid = kids_dead_pid();
	fake.start_ticks = id.start_ticks;
	is_int(proc_identify(fake.pid, &fake), -1,
	       "identify a reaped pid fails");
	is_int(proc_identify(0, &fake), -1, "identify pid 0 fails");
}

static void test_zombie_and_reaped(void)
{
	struct proc_id id;
	pid_t pid = kids_spawn(kids_body_sleep, NULL);
	int fd;

	proc_identify(pid, &id);
	fd = proc_open(&id);
	ok(fd >= 0, "proc_open a live child");
	ok(fd >= 0 && proc_alive_fd(fd), "alive through its handle");
	kids_kill(pid);
	ok(_wait_state(pid, 'Z'), "killed child is a zombie until reaped");
	is_int(proc_identify(pid, &id), 0, "a zombie can be identified");
	ok(!proc_alive(&id), "a zombie is not alive");
	ok(fd >= 0 && !proc_alive_fd(fd), "nor through its handle");
	kids_reap(pid);
	ok(!proc_alive(&id), "a reaped child is not alive");
	ok(fd >= 0 && !proc_alive_fd(fd), "nor through its handle");
	is_int(proc_open(&id), -1, "proc_open a reaped child fails");
	if (fd >= 0)
		close(fd);
}

static void test_open_fake(pid_t sleeper)
{
	struct proc_id id;

	proc_identify(sleeper, &id);
	id.start_ticks++;
	is_int(proc_open(&id), -1, "proc_open under another start time fails");
}

static void test_descends(pid_t sleeper)
{
	int grandchild = 0;
	pid_t child = kids_spawn(_body_grandparent, &grandchild);
	struct proc_id id;

	ok(grandchild > 0, "grandchild started");
	is_int(proc_descends_from(grandchild, getpid()), 1,
	       "grandchild descends from the test (through an odd comm)");
	is_int(proc_descends_from(grandchild, child), 1,
	       "grandchild descends from its parent");
	is_int(proc_descends_from(child, getpid()), 1,
	       "child descends from the test");
	is_int(proc_descends_from(getpid(), child), 0,
	       "the test does not descend from its child");
	is_int(proc_descends_from(sleeper, child), 0,
	       "a sibling does not descend from another");
	is_int(proc_descends_from(child, child), 1, "a process counts as its own");
	is_int(proc_descends_from(kids_dead_pid(), getpid()), -1,
	       "a gone pid gives -1");
	/* Odd comm: state and start time still parse after the last ')'. */
	is_int(proc_identify(child, &id), 0, "identify '" ODD_COMM "'");
	ok(id.start_ticks == _start_of(child), "its start time is right");
	ok(proc_alive(&id), "it is alive (state parsed as S)");
	kids_reap(child);
}

static void test_uid(void)
{
	pid_t child;
	uid_t uid = 12345;

	ok(!proc_uid(getpid(), &uid) && uid == getuid(), "uid of the test");
	ok(proc_uid(kids_dead_pid(), &uid) == -1, "uid of a gone pid fails");
	if (geteuid() != 0) {
		skip(2, "not root: cannot make children of another uid");
		return;
	}
	child = kids_spawn(_body_nobody, NULL);
	uid = 0;
	ok(!proc_uid(child, &uid) && uid == NOBODY,
	   "uid of a child that became nobody");
	kids_reap(child);
	child = kids_spawn(_body_euid_nobody, NULL);
	uid = 12345;
	ok(!proc_uid(child, &uid) && uid == 0,
	   "uid is the real one (only the effective is nobody)");
	kids_reap(child);
}

/*
 * Checks by (pid, start time): a pid that now names another process (a
 * recorded start time that differs, as after a reuse) is refused by
 * every check and never signalled.
 */
static void test_by_id(pid_t sleeper)
{
	int grandchild = 0;
	pid_t child = kids_spawn(_body_grandparent, &grandchild);
	struct proc_id id, other;
	struct proc_id gone = { .pid = kids_dead_pid(), .start_ticks = 1 };
	struct proc_id *tree = NULL;
	size_t n = 0;
	uid_t uid = 12345;
	bool has_child = false, has_grandchild = false, has_sleeper = false;

	proc_identify(child, &id);
	other = id;
	other.start_ticks++;	/* the pid of another, earlier process */
	ok(!proc_owner(&id, &uid) && uid == getuid(), "owner of a child");
	is_int(proc_owner(&other, &uid), -1,
	       "owner under another start time: refused");
	is_int(proc_id_descends_from(&id, getpid()), 1,
	       "descends from the test, by id");
	is_int(proc_id_descends_from(&other, getpid()), -1,
	       "under another start time: refused, not proven");
	is_int(proc_signal(&other, SIGSTOP), -1,
	       "no signal to a pid under another start time");
	kids_sleep_ms(50);
	is_int(_state_of(child), 'S', "so the child was not stopped");
	is_int(proc_signal(&gone, SIGCONT), -1, "nor to a gone process");
	is_int(proc_signal(&id, SIGSTOP), 0, "SIGSTOP by id");
	ok(_wait_state(child, 'T'), "stops it");
	is_int(proc_signal(&id, SIGCONT), 0, "SIGCONT by id");
	ok(_wait_state(child, 'S'), "continues it");
	is_int(proc_tree(&id, 1, &tree, &n), 0, "the tree under the child");
	for (size_t i = 0; i < n; i++) {
		has_child |= tree[i].pid == child &&
			     tree[i].start_ticks == id.start_ticks;
		has_grandchild |= tree[i].pid == grandchild;
		has_sleeper |= tree[i].pid == sleeper;
	}
	ok(n == 2 && has_child && has_grandchild && !has_sleeper,
	   "is the child and its grandchild (%zu)", n);
	free(tree);
	is_int(proc_tree(&other, 1, &tree, &n), 0, "a root under another start time");
	ok(n == 0 && !tree, "has no tree");
	kids_reap(child);
}

static void test_sample(pid_t sleeper)
{
	pid_t spinner = kids_spawn(_body_spin, NULL);
	struct proc_sample a, b, s;
	struct proc_id id, sid;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	proc_identify(spinner, &id);
	is_int(proc_sample(&id, &a), 0, "sample the spinner");
	kids_sleep_ms(300);
	is_int(proc_sample(&id, &b), 0, "sample it again 300 ms later");
	ok(b.state == 'R', "spinner is running (state %c)", b.state);
	ok(b.cpu >= 0 && b.cpu < ncpu, "on a CPU of this machine (%d)", b.cpu);
	ok(b.cpu_ns > a.cpu_ns, "its cpu_ns grew (%llu -> %llu)",
	   (unsigned long long)a.cpu_ns, (unsigned long long)b.cpu_ns);
	ok(b.age_ns - a.age_ns >= 250000000ULL &&
	   b.age_ns - a.age_ns <= 5000000000ULL,
	   "its age grew by about 300 ms (%llu ns)",
	   (unsigned long long)(b.age_ns - a.age_ns));
	kids_reap(spinner);
	is_int(proc_sample(&id, &s), -1, "sample of a reaped process fails");

	proc_identify(sleeper, &sid);
	is_int(proc_sample(&sid, &s), 0, "sample the sleeper");
	ok(s.state == 'S', "sleeper is sleeping (state %c)", s.state);
	ok(s.ctx_switches >= 1, "it has switched context (%llu)",
	   (unsigned long long)s.ctx_switches);
	ok(s.cpu_ns < 1000000000ULL, "it used little CPU");
	ok(s.age_ns > 0 && s.age_ns < 600000000000ULL,
	   "its age is positive and plausible");
	sid.start_ticks++;
	is_int(proc_sample(&sid, &s), -1, "sample under another start time fails");
}

/* A connected TCP pair on the loopback of family; 0 or -1. */
static int _tcp_pair(int family, int *reader, int *writer, int *listener)
{
	struct sockaddr_storage ss = { 0 };
	socklen_t len;
	int l = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);

	*reader = *writer = -1;
	*listener = l;
	if (l < 0)
		return -1;
	if (family == AF_INET) {
		struct sockaddr_in *in = (struct sockaddr_in *)&ss;

		in->sin_family = AF_INET;
		in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		len = sizeof(*in);
	} else {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;

		in6->sin6_family = AF_INET6;
		in6->sin6_addr = in6addr_loopback;
		len = sizeof(*in6);
	}
	if (bind(l, (struct sockaddr *)&ss, len) || listen(l, 4) ||
	    getsockname(l, (struct sockaddr *)&ss, &len))
		return -1;
	*writer = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (*writer < 0 || connect(*writer, (struct sockaddr *)&ss, len))
		return -1;
	*reader = accept4(l, NULL, NULL, SOCK_CLOEXEC);
	return *reader < 0 ? -1 : 0;
}

static void _close_all(int a, int b, int c)
{
	if (a >= 0)
		close(a);
	if (b >= 0)
		close(b);
	if (c >= 0)
		close(c);
}

/* Wait until fd has want bytes to read (loopback is quick, not instant). */
static bool _wait_unread(int fd, int want)
{
	for (int i = 0; i < 500; i++) {
		int n = 0;

		if (!ioctl(fd, FIONREAD, &n) && n >= want)
			return true;
		kids_sleep_ms(2);
	}
	return false;
}

static void test_socket_family(int family, const char *name)
{
	char data[1000], sink[1000];
	uint64_t before = 1, after = 0, drained = 1;
	int reader, writer, listener;

	if (_tcp_pair(family, &reader, &writer, &listener)) {
		_close_all(reader, writer, listener);
		skip(3, "no loopback for this family");
		return;
	}
	memset(data, 'x', sizeof(data));
	ok(!proc_socket_rx_bytes(getpid(), &before), "%s: rx before", name);
	if (write(writer, data, sizeof(data)) != (ssize_t)sizeof(data) ||
	    !_wait_unread(reader, sizeof(data)))
		diag("  could not queue %zu bytes", sizeof(data));
	proc_socket_rx_bytes(getpid(), &after);
	ok(after >= before + sizeof(data),
	   "%s: 1000 unread bytes show (%llu -> %llu)", name,
	   (unsigned long long)before, (unsigned long long)after);
	if (read(reader, sink, sizeof(sink)) != (ssize_t)sizeof(sink))
		diag("  short read");
	proc_socket_rx_bytes(getpid(), &drained);
	is_int(drained, before, "%s: and go once read", name);
	_close_all(reader, writer, listener);
}

static void test_sockets(pid_t sleeper)
{
	uint64_t bytes = 1, with_backlog = 1;
	int l4, w4, r4;

	test_socket_family(AF_INET, "tcp");
	test_socket_family(AF_INET6, "tcp6");

	/* A listener's rx_queue counts connections waiting, not bytes. */
	proc_socket_rx_bytes(getpid(), &bytes);
	if (!_tcp_pair(AF_INET, &r4, &w4, &l4)) {
		int extra = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		struct sockaddr_in in;
		socklen_t len = sizeof(in);

		getsockname(l4, (struct sockaddr *)&in, &len);
		if (extra < 0 ||
		    connect(extra, (struct sockaddr *)&in, sizeof(in)))
			diag("  second connect failed");
		kids_sleep_ms(20);
		proc_socket_rx_bytes(getpid(), &with_backlog);
		is_int(with_backlog, bytes,
		       "a connection not yet accepted adds no bytes");
		if (extra >= 0)
			close(extra);
	} else {
		skip(1, "no IPv4 loopback");
	}
	_close_all(r4, w4, l4);
	bytes = 1;
	ok(!proc_socket_rx_bytes(sleeper, &bytes) && bytes == 0,
	   "a child without sockets has 0");
	ok(proc_socket_rx_bytes(kids_dead_pid(), &bytes) == -1,
	   "a gone pid fails");
}

/*
 * A process with many more descriptors than PROC_FD_SCAN_MAX (a job's
 * user may raise RLIMIT_NOFILE to fs.nr_open): the socket scans read the
 * first PROC_FD_SCAN_MAX entries of /proc/PID/fd, not all of them.
 */
static void test_socket_scan_bound(void)
{
	const int many = 3 * PROC_FD_SCAN_MAX;
	struct rlimit was, more = { .rlim_cur = 4 * PROC_FD_SCAN_MAX,
				    .rlim_max = 4 * PROC_FD_SCAN_MAX };
	int *fds = calloc((size_t)many, sizeof(*fds)), opened = 0, read;
	uint64_t *inodes = NULL, bytes;
	size_t n = 0;

	if (!fds || getrlimit(RLIMIT_NOFILE, &was) ||
	    (was.rlim_cur < more.rlim_cur && setrlimit(RLIMIT_NOFILE, &more))) {
		skip(2, "cannot hold that many descriptors");
		free(fds);
		return;
	}
	while (opened < many &&
	       (fds[opened] = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) >= 0)
		opened++;
	read = proc_socket_inodes(getpid(), &inodes, &n);
	ok(!read && n > 0 && n <= PROC_FD_SCAN_MAX,
	   "%d sockets: a scan reads at most %d entries of /proc/PID/fd (%zu sockets seen)",
	   opened, PROC_FD_SCAN_MAX, n);
	ok(!proc_socket_rx_bytes(getpid(), &bytes),
	   "  and the receive queues are summed over those");
	free(inodes);
	while (opened > 0)
		close(fds[--opened]);
	free(fds);
	setrlimit(RLIMIT_NOFILE, &was);
}

struct thread_seen {
	pid_t pid;
	int n;
	bool saw_main;
	bool all_exist;
};

static int _see_thread(pid_t tid, void *arg)
{
	struct thread_seen *seen = arg;
	char path[64];
	struct stat st;

	seen->n++;
	if (tid == seen->pid)
		seen->saw_main = true;
	snprintf(path, sizeof(path), "/proc/%d/task/%d", (int)seen->pid,
		 (int)tid);
	if (stat(path, &st))
		seen->all_exist = false;
	return 0;
}

static int _stop_at_first(pid_t tid, void *arg)
{
	(void)tid;
	(void)arg;
	return 1;
}

static void test_threads(pid_t sleeper)
{
	pid_t threaded = kids_spawn(_body_threads, NULL);
	struct thread_seen seen = { .pid = threaded, .all_exist = true };

	is_int(proc_for_each_thread(threaded, _see_thread, &seen),
	       1 + EXTRA_THREADS, "a child with %d extra threads has %d",
	       EXTRA_THREADS, 1 + EXTRA_THREADS);
	ok(seen.n == 1 + EXTRA_THREADS && seen.saw_main && seen.all_exist,
	   "each was visited once, the main thread among them");
	is_int(proc_for_each_thread(threaded, _stop_at_first, NULL), 1,
	       "fn returning nonzero stops the walk");
	kids_reap(threaded);
	seen = (struct thread_seen){ .pid = sleeper, .all_exist = true };
	is_int(proc_for_each_thread(sleeper, _see_thread, &seen), 1,
	       "a single-threaded child has 1");
	is_int(proc_for_each_thread(kids_dead_pid(), _see_thread, &seen), -1,
	       "a gone pid gives -1");
}

/* R of the energy models: the running count of /proc/loadavg. */
static void test_running(void)
{
	static const char *const bad[] = {
		"", "0.50 0.40 0.30", "0.50 0.40 0.30 x/456 7890",
		"0.50 0.40 0.30 3 7890", "0.50 0.40 0.30 3/ 7890",
		"0.50 0.40 0.30 -3/456 7890", "0.50 0.40 0.30 4294967296/5 1",
		"0.50 0.40\n3/456 7890",
	};
	uint32_t n = 7;

	is_int(proc_loadavg_running("0.50 0.40 0.30 3/456 7890\n", &n), 0,
	       "loadavg parses");
	is_int((int)n, 3, "its running count is the 4th field's first number");
	is_int(proc_loadavg_running("12.00 9.10 4.02 117/2048 1\n", &n), 0,
	       "a busy node's parses");
	is_int((int)n, 117, "117 running");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		n = 7;
		is_int(proc_loadavg_running(bad[i], &n), -1,
		       "malformed loadavg %zu refused", i);
		is_int((int)n, 7, "and the count left as it was");
	}
	n = 0;
	is_int(proc_running(&n), 0, "this node's count reads");
	ok(n >= 1, "and counts at least this test, running (%u)", n);
	is_int(proc_running(&n), 0, "a second read through the kept handle");
}

int main(void)
{
	pid_t sleeper = kids_spawn(kids_body_sleep, NULL);

	if (sleeper <= 0) {
		printf("Bail out! cannot fork\n");
		return 1;
	}
	test_identify(sleeper);
	test_zombie_and_reaped();
	test_open_fake(sleeper);
	test_descends(sleeper);
	test_uid();
	test_by_id(sleeper);
	test_sample(sleeper);
	test_sockets(sleeper);
	test_socket_scan_bound();
	test_threads(sleeper);
	test_running();
	kids_reap(sleeper);
	return done_testing();
}
