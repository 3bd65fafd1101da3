/*
 * test_boost.c - both boost mechanisms on real processes: a spinning
 * child with two threads is attached, boosted and restored, and the test
 * reads back what the kernel has (its cpu cgroup per thread, cpu.shares,
 * the nice of every thread).  Restores also run in a "guardian" child
 * forked before anything was opened, as after an agent crash.
 *
 * The cgroup part needs a writable cgroup v1 cpu hierarchy (root); it is
 * skipped otherwise.  Its groups live under coschedd/test-<pid> and are
 * removed at exit even when a test fails.  About 2 seconds.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "boost/boost.h"
#include "kids.h"
#include "tap.h"

#define CPU_MOUNT "/sys/fs/cgroup/cpu"
#define JOB_ID 42u
#define CHILD_NICE 2
#define TIMED_CALLS 10000
#define TESTS_NAMES 12
#define TESTS_CGROUP 49
#define TESTS_NICE 18
#define TESTS_NICE_FORKED 12
#define TESTS_AFTER 1

static char _node[32];		/* test-<pid> */
static char _node_dir[PATH_MAX];	/* CPU_MOUNT/coschedd/<node> */
static char _err[512];
static bool _had_root;		/* coschedd/ was there before the test */

static double _now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ------------------------------------------------------------ children */

/* Two threads spinning, both at nice CHILD_NICE. */
static void _body_spinner(int fd)
{
	pthread_t t;

	/* Before the thread exists, so it inherits the nice. */
	if (setpriority(PRIO_PROCESS, 0, CHILD_NICE) ||
	    pthread_create(&t, NULL, kids_thread_spin, NULL))
		_exit(1);
	kids_ready(fd);
	kids_spin();
}

static volatile sig_atomic_t _fork_asked;

static void _ask_fork(int sig)
{
	(void)sig;
	_fork_asked = 1;
}

/* Sleeps; on SIGUSR1 forks a child (which sleeps too). */
static void _body_forker(int fd)
{
	sigset_t usr1, others;

	/* Blocked until sigsuspend, so a signal before it is not lost. */
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, &others);
	signal(SIGUSR1, _ask_fork);
	kids_ready(fd);
	for (;;) {
		pid_t self = getpid();

		while (!_fork_asked)
			sigsuspend(&others);
		_fork_asked = 0;
		if (fork() == 0) {
			kids_die_with(self);
			for (;;)
				pause();
		}
	}
}

static bool _wait_zombie(pid_t pid)
{
	char path[64], buf[512], *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (int i = 0; i < 500; i++) {
		FILE *f = fopen(path, "r");
		size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

		if (f)
			fclose(f);
		buf[n] = '\0';
		p = strrchr(buf, ')');
		if (p && p[1] == ' ' && p[2] == 'Z')
			return true;
		kids_sleep_ms(2);
	}
	return false;
}


/* ------------------------------------------------------------ kernel view */

/* The cpu cgroup of /proc/PID/task/TID ("/" or "/a/b"), "" if unknown. */
static void _cpu_cgroup_of(pid_t pid, pid_t tid, char *buf, size_t len)
{
	char path[64], line[512];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/task/%d/cgroup", (int)pid,
		 (int)tid);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *ctrl = strchr(line, ':'), *rest;

		if (!ctrl || !(rest = strchr(++ctrl, ':')))
			continue;
		*rest++ = '\0';
		rest[strcspn(rest, "\n")] = '\0';
		/* Controllers may be co-mounted: "cpu,cpuacct". */
		for (char *c = strtok(ctrl, ","); c; c = strtok(NULL, ","))
			if (!strcmp(c, "cpu"))
				snprintf(buf, len, "%s", rest);
	}
	fclose(f);
}

/*
 * Number of threads of pid, all in cpu cgroup want; -1 when one is
 * elsewhere (named in a diag).
 */
static int _threads_in(pid_t pid, const char *want)
{
	char path[64], got[BOOST_CGROUP_LEN + 8];
	struct dirent *de;
	DIR *dir;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((de = readdir(dir))) {
		pid_t tid = atoi(de->d_name);

		if (tid <= 0)
			continue;
		_cpu_cgroup_of(pid, tid, got, sizeof(got));
		if (strcmp(got, want)) {
			diag("  thread %d is in '%s', want '%s'", (int)tid, got,
			     want);
			n = -1;
			break;
		}
		n++;
	}
	closedir(dir);
	return n;
}

/* Number of threads of pid, all at nice want; -1 when one is not. */
static int _threads_at_nice(pid_t pid, int want)
{
	char path[64];
	struct dirent *de;
	DIR *dir;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((de = readdir(dir))) {
		pid_t tid = atoi(de->d_name);
		int nice;

		if (tid <= 0)
			continue;
		errno = 0;
		nice = getpriority(PRIO_PROCESS, (id_t)tid);
		if (nice != want || errno) {
			diag("  thread %d has nice %d, want %d", (int)tid,
			     nice, want);
			n = -1;
			break;
		}
		n++;
	}
	closedir(dir);
	return n;
}

static long _shares_of(const char *our_cgroup)
{
	char path[PATH_MAX];
	long shares = -1;
	FILE *f;

	snprintf(path, sizeof(path), CPU_MOUNT "/%s/cpu.shares", our_cgroup);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &shares) != 1)
		shares = -1;
	fclose(f);
	return shares;
}

static bool _dir_exists(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static bool _group_exists(const char *our_cgroup)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), CPU_MOUNT "/%s", our_cgroup);
	return _dir_exists(path);
}

/* ------------------------------------------------------------ cleanup */

/* Move what is left in group dir to the root group and remove dir. */
static void _clean_group(const char *dir)
{
	char path[PATH_MAX];
	FILE *procs, *root;
	int pid;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	procs = fopen(path, "r");
	if (procs) {
		while (fscanf(procs, "%d", &pid) == 1) {
			root = fopen(CPU_MOUNT "/cgroup.procs", "w");
			if (root) {
				fprintf(root, "%d\n", pid);
				fclose(root);
			}
		}
		fclose(procs);
	}
	if (rmdir(dir) && errno != ENOENT)
		fprintf(stderr, "# cleanup: rmdir %s: %s\n", dir,
			strerror(errno));
}

/* Whatever a failed test left behind: children, groups of _node. */
static void _cleanup(void)
{
	struct dirent *de;
	DIR *dir;

	kids_guardian_stop();
	kids_reap_all();
	if (!_node_dir[0])
		return;
	dir = opendir(_node_dir);
	while (dir && (de = readdir(dir))) {
		char sub[PATH_MAX + 300];

		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", _node_dir, de->d_name);
		_clean_group(sub);
	}
	if (dir)
		closedir(dir);
	_clean_group(_node_dir);
	/* boost.c leaves coschedd/ (shared by agents); the test does not. */
	if (!_had_root)
		rmdir(CPU_MOUNT "/coschedd");
}

/* ------------------------------------------------------------ tests */

static void test_names(void)
{
	static const char *bad[] = { "", "a/b", "..", "x y", "n1;rm",
				     "0123456789012345678901234567890123456789"
				     "0123456789012345678901234567" };
	enum boost_kind kind = BOOST_AUTO;
	struct boost *b;
	bool all_refused = true;

	is_str(boost_kind_name(BOOST_AUTO), "auto", "name of auto");
	is_str(boost_kind_name(BOOST_CGROUP), "cgroup", "name of cgroup");
	is_str(boost_kind_name(BOOST_NICE), "nice", "name of nice");
	ok(!boost_kind_parse("cgroup", &kind) && kind == BOOST_CGROUP,
	   "parse cgroup");
	ok(!boost_kind_parse("nice", &kind) && kind == BOOST_NICE,
	   "parse nice");
	ok(!boost_kind_parse("auto", &kind) && kind == BOOST_AUTO,
	   "parse auto");
	ok(boost_kind_parse("Nice", &kind) && boost_kind_parse("", &kind),
	   "parse refuses others");
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		_err[0] = '\0';
		b = boost_open(BOOST_NICE, bad[i], _err, sizeof(_err));
		if (b || !strstr(_err, "bad node name")) {
			diag("  node '%s' not refused (%s)", bad[i], _err);
			all_refused = false;
		}
		boost_close(b);
	}
	ok(all_refused, "bad node names are refused with a message");
	_err[0] = '\0';
	b = boost_open(BOOST_NICE, NULL, _err, sizeof(_err));
	ok(!b && _err[0], "a NULL node is refused: %s", _err);
	boost_close(b);
	b = boost_open(BOOST_NICE, "n1.a-B_9", _err, sizeof(_err));
	ok(b != NULL, "a node name of every allowed character opens");
	boost_close(b);
	b = boost_open((enum boost_kind)7, _node, _err, sizeof(_err));
	ok(!b && _err[0], "an unknown mechanism is refused: %s", _err);
	boost_close(b);
	boost_close(NULL);
	ok(1, "boost_close(NULL) is harmless");
}

/* Why the cgroup part cannot run here, or NULL. */
static const char *_cgroup_unusable(void)
{
	static char why[600];
	struct boost *b;

	if (access(CPU_MOUNT "/cpu.shares", W_OK)) {
		snprintf(why, sizeof(why), "%s/cpu.shares not writable: %s",
			 CPU_MOUNT, strerror(errno));
		return why;
	}
	b = boost_open(BOOST_CGROUP, _node, why, sizeof(why));
	if (!b)
		return why;
	boost_close(b);
	return NULL;
}

static double _cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Time TIMED_CALLS boost_set calls between two levels: wall and CPU
 * microseconds per call (wall includes waiting for a CPU, which the
 * spinning child makes scarce on a small machine).  Returns failures.
 */
static int _time_sets(struct boost *b, const struct proc_id *id,
		      struct boost_saved *saved, double *wall_us,
		      double *cpu_us)
{
	double t0 = _now(), c0 = _cpu_now();
	int failures = 0;

	for (int i = 0; i < TIMED_CALLS; i++)
		if (boost_set(b, id, saved, i & 1 ? 3 : -3))
			failures++;
	*wall_us = (_now() - t0) / TIMED_CALLS * 1e6;
	*cpu_us = (_cpu_now() - c0) / TIMED_CALLS * 1e6;
	return failures;
}

/*
 * The same calls done the plain way, for the record of why boost.c keeps
 * files open: proc_alive() and open/write/close of cpu.shares each time.
 */
static double _time_plain_sets(const struct proc_id *id, const char *our)
{
	char path[PATH_MAX];
	double c0 = _cpu_now();

	snprintf(path, sizeof(path), CPU_MOUNT "/%s/cpu.shares", our);
	for (int i = 0; i < TIMED_CALLS; i++) {
		FILE *f;

		if (!proc_alive(id) || !(f = fopen(path, "w")))
			return -1;
		fprintf(f, "%d\n", i & 1 ? 1953 : 524);
		fclose(f);
	}
	return (_cpu_now() - c0) / TIMED_CALLS * 1e6;
}

/* Attach, boost and restore a spinner; what the kernel then has. */
static void test_cgroup_core(struct boost *b, const char *orig)
{
	struct boost_saved saved, again;
	struct proc_id id;
	pid_t s = kids_spawn(_body_spinner, NULL);
	char want[BOOST_CGROUP_LEN], inside[BOOST_CGROUP_LEN + 1];
	double wall_us, cpu_us;

	proc_identify(s, &id);
	_err[0] = '\0';
	if (!ok(!boost_attach(b, &id, JOB_ID, &saved, _err, sizeof(_err)),
		"cgroup: attach a spinning child"))
		diag("  %s", _err);
	is_str(saved.cpu_cgroup, orig, "saved its original cpu cgroup");
	snprintf(want, sizeof(want), "coschedd/%s/%u.%d", _node, JOB_ID,
		 (int)s);
	is_str(saved.our_cgroup, want, "our group is coschedd/<node>/<job>.<pid>");
	is_int(saved.kind, BOOST_CGROUP, "saved kind is cgroup");
	is_int(saved.nice, CHILD_NICE, "saved its nice");
	snprintf(inside, sizeof(inside), "/%s", want);
	is_int(_threads_in(s, inside), 2, "both threads moved into our group");
	is_int(_shares_of(want), 1024, "our group starts at 1024 shares");

	ok(!boost_set(b, &id, &saved, 10), "set level 10");
	is_int(_shares_of(want), 9537, "cpu.shares = round(1024*1.25^10)");
	ok(!boost_set(b, &id, &saved, -10), "set level -10");
	is_int(_shares_of(want), 110, "cpu.shares = round(1024*1.25^-10)");
	boost_set(b, &id, &saved, 0);
	is_int(_shares_of(want), 1024, "level 0 gives 1024");
	boost_set(b, &id, &saved, 1000);
	is_int(_shares_of(want), 262144, "a huge level is clamped to 262144");
	boost_set(b, &id, &saved, -1000);
	is_int(_shares_of(want), 2, "a very low level is clamped to 2");
	is_int(_threads_at_nice(s, CHILD_NICE), 2,
	       "the cgroup mechanism leaves nice alone");

	_err[0] = '\0';
	ok(boost_attach(b, &id, JOB_ID, &again, _err, sizeof(_err)) &&
	   strstr(_err, "already"),
	   "attaching it twice is refused: %s", _err);

	is_int(_time_sets(b, &id, &saved, &wall_us, &cpu_us), 0,
	       "%d boost_set calls succeed", TIMED_CALLS);
	diag("cgroup: %d boost_set calls: %.2f us CPU, %.2f us wall each",
	     TIMED_CALLS, cpu_us, wall_us);
	diag("cgroup: the same without kept files: %.2f us CPU each",
	     _time_plain_sets(&id, want));

	is_int(boost_restore(&id, &saved), 0, "restore");
	is_int(_threads_in(s, orig), 2, "both threads are back in '%s'", orig);
	ok(!_group_exists(want), "our group is gone");
	ok(!_dir_exists(_node_dir), "our node directory is gone");
	is_int(boost_restore(&id, &saved), 0, "a second restore is harmless");
	/* b still holds the files of the removed group: they must not do. */
	ok(!boost_attach(b, &id, JOB_ID, &again, _err, sizeof(_err)),
	   "attach it again");
	boost_set(b, &id, &again, 10);
	is_int(_shares_of(want), 9537, "set reaches the new group");
	is_int(boost_restore(&id, &again), 0, "restore again");
	ok(boost_set(b, &id, &saved, 1), "set after restore fails");
	ok(!_group_exists(want), "and does not bring the group back");
	kids_reap(s);
}

/* Pids listed in cgroup.procs of our_cgroup, up to max. */
static int _procs_of(const char *our_cgroup, pid_t *pids, int max)
{
	char path[PATH_MAX];
	FILE *f;
	int n = 0, pid;

	snprintf(path, sizeof(path), CPU_MOUNT "/%s/cgroup.procs", our_cgroup);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (n < max && fscanf(f, "%d", &pid) == 1)
		pids[n++] = pid;
	fclose(f);
	return n;
}

/* A child the process forks after attach lands in our group too. */
static void test_cgroup_forked(struct boost *b, const char *orig)
{
	struct boost_saved saved;
	struct proc_id id;
	pid_t f = kids_spawn(_body_forker, NULL), pids[4] = { 0 }, forked = 0;
	int n = 0;

	proc_identify(f, &id);
	boost_attach(b, &id, JOB_ID, &saved, _err, sizeof(_err));
	kill(f, SIGUSR1);
	for (int i = 0; i < 500 && (n = _procs_of(saved.our_cgroup, pids, 4))
				      < 2; i++)
		kids_sleep_ms(2);
	for (int i = 0; i < n; i++)
		if (pids[i] != f)
			forked = pids[i];
	ok(n == 2 && forked > 0, "a child forked after attach is in our group");
	is_int(boost_restore(&id, &saved), 0, "restore");
	ok(_threads_in(f, orig) == 1 && forked > 0 &&
	   _threads_in(forked, orig) == 1,
	   "the process and its new child are both back");
	ok(!_group_exists(saved.our_cgroup), "our group is gone");
	kids_reap(f);	/* its child follows (PR_SET_PDEATHSIG) */
}

static void test_cgroup_guardian(struct boost *b, const char *orig)
{
	struct boost_saved saved;
	struct proc_id id, fake;
	pid_t s = kids_spawn(_body_spinner, NULL);

	proc_identify(s, &id);
	boost_attach(b, &id, JOB_ID, &saved, _err, sizeof(_err));
	fake = id;
	fake.start_ticks++;
	ok(boost_set(b, &fake, &saved, 4), "set under a wrong start fails");
	boost_set(b, &id, &saved, 7);
	boost_close(b);	/* the agent "crashed" */
	is_int(kids_guardian_restore(&id, &saved), 0,
	       "the guardian restores from saved alone");
	is_int(_threads_in(s, orig), 2, "both threads are back");
	ok(!_group_exists(saved.our_cgroup), "our group is gone");
	kids_reap(s);
}

static void test_cgroup_gone(struct boost *b, const char *orig)
{
	struct boost_saved saved, tampered;
	struct proc_id id;
	pid_t p = kids_spawn(kids_body_sleep, NULL);
	double t0;

	proc_identify(p, &id);
	boost_attach(b, &id, JOB_ID, &saved, _err, sizeof(_err));
	kids_reap(p);
	is_int(boost_restore(&id, &saved), 0, "restore of an exited process");
	ok(!_group_exists(saved.our_cgroup), "removes our group");

	p = kids_spawn(kids_body_sleep, NULL);
	proc_identify(p, &id);
	boost_attach(b, &id, JOB_ID, &saved, _err, sizeof(_err));
	kids_kill(p);
	ok(_wait_zombie(p), "killed child is a zombie");
	t0 = _now();
	is_int(boost_restore(&id, &saved), 0, "restore of a zombie");
	ok(!_group_exists(saved.our_cgroup), "removes our group (%.1f ms)",
	   (_now() - t0) * 1e3);
	kids_reap(p);

	id.pid = kids_dead_pid();
	_err[0] = '\0';
	ok(boost_attach(b, &id, JOB_ID, &saved, _err, sizeof(_err)) &&
	   strstr(_err, "gone"), "attach of a dead pid fails: %s", _err);
	ok(!_dir_exists(_node_dir), "and leaves no group behind");

	/* A state file must not make restore act outside our groups. */
	p = kids_spawn(kids_body_sleep, NULL);
	proc_identify(p, &id);
	boost_attach(b, &id, JOB_ID, &saved, _err, sizeof(_err));
	tampered = saved;
	snprintf(tampered.our_cgroup, sizeof(tampered.our_cgroup),
		 "coschedd/../../system.slice");
	ok(boost_restore(&id, &tampered), "restore refuses a '..' path");
	tampered = saved;
	snprintf(tampered.our_cgroup, sizeof(tampered.our_cgroup), "coschedd");
	ok(boost_restore(&id, &tampered), "restore refuses our root itself");
	ok(_group_exists(saved.our_cgroup), "and touched nothing");
	is_int(boost_restore(&id, &saved), 0, "the real one restores");
	is_int(_threads_in(p, orig), 1, "the process is back");
	kids_reap(p);
}

static void test_cgroup(const char *orig)
{
	const char *why = _cgroup_unusable();
	struct boost *b;

	if (why) {
		diag("cgroup mechanism not testable here: %s", why);
		b = boost_open(BOOST_AUTO, _node, _err, sizeof(_err));
		ok(b && boost_kind(b) == BOOST_NICE &&
		   strstr(boost_describe(b), "cgroup unavailable"),
		   "auto falls back to nice, saying why: %s",
		   b ? boost_describe(b) : _err);
		boost_close(b);
		_err[0] = '\0';
		b = boost_open(BOOST_CGROUP, _node, _err, sizeof(_err));
		ok(!b && _err[0], "cgroup asked for explicitly fails: %s",
		   _err);
		boost_close(b);
		skip(TESTS_CGROUP - 2, why);
		return;
	}
	b = boost_open(BOOST_AUTO, _node, _err, sizeof(_err));
	ok(b && boost_kind(b) == BOOST_CGROUP, "auto picks cgroup here");
	ok(b && strstr(boost_describe(b), "cpu.shares") &&
	   strstr(boost_describe(b), CPU_MOUNT),
	   "described: %s", b ? boost_describe(b) : _err);
	if (!b) {
		skip(TESTS_CGROUP - 2, "boost_open failed");
		return;
	}
	test_cgroup_core(b, orig);
	test_cgroup_forked(b, orig);
	test_cgroup_guardian(b, orig);	/* closes b */
	b = boost_open(BOOST_CGROUP, _node, _err, sizeof(_err));
	test_cgroup_gone(b, orig);
	boost_close(b);
}

static void test_nice(void)
{
	struct boost *b = boost_open(BOOST_NICE, _node, _err, sizeof(_err));
	struct boost_saved saved;
	struct proc_id id, fake;
	pid_t s;
	double wall_us, cpu_us;

	if (!ok(b && boost_kind(b) == BOOST_NICE, "nice: open")) {
		diag("  %s", _err);
		skip(TESTS_NICE - 1, "boost_open failed");
		return;
	}
	ok(!strstr(boost_describe(b), "autogroup") == !boost_autogroup_enabled(),
	   "describe names autogroup iff it is on: %s", boost_describe(b));
	s = kids_spawn(_body_spinner, NULL);
	proc_identify(s, &id);
	if (!ok(!boost_attach(b, &id, JOB_ID, &saved, _err, sizeof(_err)),
		"attach a spinning child"))
		diag("  %s", _err);
	is_int(saved.nice, CHILD_NICE, "saved its nice");
	ok(!boost_set(b, &id, &saved, 5), "set level 5");
	is_int(_threads_at_nice(s, CHILD_NICE - 5), 2,
	       "every thread at nice own-5");
	ok(!boost_set(b, &id, &saved, -3), "set level -3");
	is_int(_threads_at_nice(s, CHILD_NICE + 3), 2,
	       "every thread at nice own+3");
	boost_set(b, &id, &saved, 40);
	is_int(_threads_at_nice(s, -20), 2, "a huge level is clamped to -20");
	boost_set(b, &id, &saved, -40);
	is_int(_threads_at_nice(s, 19), 2, "a very low level is clamped to 19");
	fake = id;
	fake.start_ticks++;
	ok(boost_set(b, &fake, &saved, 1) && _threads_at_nice(s, 19) == 2,
	   "set under a wrong start fails and changes nothing");

	is_int(_time_sets(b, &id, &saved, &wall_us, &cpu_us), 0,
	       "%d boost_set calls succeed", TIMED_CALLS);
	diag("nice: %d boost_set calls (2 threads): %.2f us CPU, %.2f us "
	     "wall each", TIMED_CALLS, cpu_us, wall_us);

	is_int(boost_restore(&id, &saved), 0, "restore");
	is_int(_threads_at_nice(s, CHILD_NICE), 2,
	       "every thread back at its nice");
	boost_set(b, &id, &saved, 6);
	is_int(kids_guardian_restore(&id, &saved), 0,
	       "the guardian restores from saved alone");
	is_int(_threads_at_nice(s, CHILD_NICE), 2, "every thread back again");
	kids_reap(s);
	is_int(boost_restore(&id, &saved), 0, "restore of an exited process");
	boost_close(b);
}

/* A child of pid not in known[n] (it forks on SIGUSR1), or 0. */
static pid_t _new_child(pid_t pid, const pid_t *known, int n)
{
	char path[64], buf[256], *p, *end;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)pid,
		 (int)pid);
	for (int tries = 0; tries < 1000; tries++) {
		f = fopen(path, "r");
		if (!f)
			return 0;
		p = fgets(buf, sizeof(buf), f) ? buf : "";
		fclose(f);
		for (long kid; (kid = strtol(p, &end, 10)) > 0; p = end) {
			bool seen = false;

			for (int i = 0; i < n; i++)
				seen |= known[i] == (pid_t)kid;
			if (!seen)
				return (pid_t)kid;
		}
		kids_sleep_ms(2);
	}
	return 0;
}

static int _persist_calls, _persist_fails;

static int _persist(void *arg)
{
	(void)arg;
	_persist_calls++;
	return _persist_fails ? -1 : 0;
}

static int _nice_of(pid_t pid)
{
	errno = 0;
	return getpriority(PRIO_PROCESS, (id_t)pid);
}

/*
 * Children forked while boosted inherit the boosted nice: restore puts
 * them back too (those whose nice is one we gave), by the agent or from
 * saved alone; a nice a child chose itself is kept.  A nice never given
 * before is persisted first, and not given when that fails.
 */
static void test_nice_forked(void)
{
	struct boost *b = boost_open(BOOST_NICE, _node, _err, sizeof(_err));
	struct boost_saved saved;
	pid_t f = kids_spawn(_body_forker, NULL), kids[3] = { 0 };
	struct proc_id id;
	int own, chosen;

	proc_identify(f, &id);
	if (!ok(b && !boost_attach(b, &id, JOB_ID, &saved, _err, sizeof(_err)),
		"forked: attach a process that forks on demand")) {
		diag("  %s", _err);
		skip(TESTS_NICE_FORKED - 1, "no attach");
		boost_close(b);
		kids_reap(f);
		return;
	}
	own = saved.nice;
	boost_on_new_nice(b, _persist, NULL);
	ok(!boost_set(b, &id, &saved, 5) && _nice_of(f) == own - 5 &&
	   _persist_calls == 1,
	   "forked: level 5, persisted first (one call)");
	ok(!boost_set(b, &id, &saved, 0) && !boost_set(b, &id, &saved, 5) &&
	   _persist_calls == 1,
	   "forked: a nice given before (or its own) needs no persisting");
	_persist_fails = 1;
	ok(boost_set(b, &id, &saved, 3) && _nice_of(f) == own - 5 &&
	   _persist_calls == 2,
	   "forked: a new nice that cannot be persisted is not given");
	_persist_fails = 0;
	kill(f, SIGUSR1);
	kids[0] = _new_child(f, kids, 0);
	kill(f, SIGUSR1);
	kids[1] = _new_child(f, kids, 1);
	ok(kids[0] > 0 && kids[1] > 0 && _nice_of(kids[0]) == own - 5,
	   "forked: two children forked while boosted have nice %d",
	   kids[0] > 0 ? _nice_of(kids[0]) : 99);
	/* One chooses its own nice, not one we gave (within -20..19 when
	 * the test itself runs under nice). */
	chosen = own <= 12 ? own + 7 : own - 7;
	setpriority(PRIO_PROCESS, (id_t)kids[1], chosen);
	is_int(boost_restore(&id, &saved), 0, "forked: restore");
	is_int(_nice_of(f), own, "forked: the process is back");
	is_int(_nice_of(kids[0]), own, "forked: the boosted child is back too");
	is_int(_nice_of(kids[1]), chosen,
	       "forked: the child that chose its nice keeps it");
	boost_set(b, &id, &saved, 5);
	kill(f, SIGUSR1);
	kids[2] = _new_child(f, kids, 2);
	ok(kids[2] > 0 && _nice_of(kids[2]) == own - 5,
	   "forked: a third child forked while boosted again");
	is_int(kids_guardian_restore(&id, &saved), 0,
	       "forked: the guardian restores from saved alone");
	ok(_nice_of(f) == own && _nice_of(kids[2]) == own,
	   "forked: the process and the third child are back");
	kids_reap(f);	/* its children follow (PR_SET_PDEATHSIG) */
	boost_close(b);
}

static void test_nice_dead(void)
{
	struct boost *b = boost_open(BOOST_NICE, _node, _err, sizeof(_err));
	struct boost_saved saved;
	struct proc_id id = { .pid = kids_dead_pid(), .start_ticks = 1 };

	_err[0] = '\0';
	ok(b && boost_attach(b, &id, JOB_ID, &saved, _err, sizeof(_err)) &&
	   strstr(_err, "gone"), "nice: attach of a dead pid fails: %s", _err);
	boost_close(b);
}

int main(void)
{
	char orig[BOOST_CGROUP_LEN + 8];

	/* Before anything opens a boost, as a real guardian would be. */
	kids_guardian_start(boost_restore);
	snprintf(_node, sizeof(_node), "test-%d", (int)getpid());
	snprintf(_node_dir, sizeof(_node_dir), CPU_MOUNT "/coschedd/%s",
		 _node);
	atexit(_cleanup);
	_cpu_cgroup_of(getpid(), getpid(), orig, sizeof(orig));

	_had_root = _dir_exists(CPU_MOUNT "/coschedd");
	plan(TESTS_NAMES + TESTS_CGROUP + TESTS_NICE + TESTS_NICE_FORKED +
	     TESTS_AFTER);
	test_names();
	test_cgroup(orig);
	test_nice();
	test_nice_forked();
	test_nice_dead();
	_cleanup();
	ok(!_dir_exists(_node_dir), "nothing of ours is left under %s",
	   CPU_MOUNT);
	return done_testing();
}
