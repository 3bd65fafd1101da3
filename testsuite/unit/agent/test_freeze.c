/*
 * test_freeze.c - both freeze mechanisms on real processes.  A "family"
 * is a child and a grandchild it forks, each counting in shared memory
 * (a step of 200 us, gentle on a shared machine); a group is given the
 * child, and the test checks that both counters stop while the group is
 * frozen and run again once it is thawed or destroyed, and reads back what
 * the kernel has: /proc states (T under signals), freezer.state, each
 * process's freezer cgroup.
 *
 * The cgroup parts need a writable cgroup v1 freezer hierarchy (root) and
 * are skipped otherwise.  Their cgroups live under coschedtest_<pid> (the
 * processes' "original" cgroups, and a Slurm-like job_7/step_0) and
 * coschedd/test-<pid>; at exit, even after a failure, every one is thawed
 * and removed and every process killed.  About 1 s (3 s under valgrind).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent_harness.h"
#include "agent.h"
#include "freeze/freeze.h"
#include "tap.h"

#define FREEZER "/sys/fs/cgroup/freezer"
#define JOB 7u
#define STEP 0u
#define SLURM_BATCH_SCRIPT 0xfffffffbu
#define MAX_FAMILIES 16
#define WINDOW_MS 50		/* a stopped counter stays put over this */
#define MOVE_DEADLINE_MS 5000	/* a running counter moves within this */
#define COUNT_STEP_NS 200000L
#define TESTS_NAMES 7
#define TESTS_SIGNAL 22
#define TESTS_ORPHAN 11
#define TESTS_SLOW 5
#define TESTS_CGROUP 25
#define TESTS_SLURM 18
#define TESTS_THAW_PATH 11
#define TESTS_AFTER 1

/* In memory shared with the children. */
struct family {
	volatile uint64_t count[2];	/* child, grandchild */
	volatile pid_t child;
	volatile pid_t grandchild;
};

static struct family *_families;
static int _nfamilies;
static char _node[32];		/* test-<pid> */
static char _ours[128];		/* FREEZER/coschedd/<node> */
static char _test_root[128];	/* FREEZER/coschedtest_<pid> */
static char _orig[160];		/* _test_root/orig */
static char _orig_rel[160];	/* the same as /proc shows it */
static bool _had_coschedd;	/* FREEZER/coschedd was there before */
static char _err[512];

static void _sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000,
			       .tv_nsec = (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* ------------------------------------------------------------ kernel view */

static bool _dir_exists(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* Read a small file into buf, without its trailing newline. */
static const char *_read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, (int)len, f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static int _write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int rc;

	if (!f)
		return -1;
	rc = fputs(text, f) < 0;
	rc |= fclose(f) != 0;
	return rc ? -1 : 0;
}

static const char *_freezer_state(const char *dir)
{
	static char buf[32];
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/freezer.state", dir);
	return _read_text(path, buf, sizeof(buf));
}

/* The freezer cgroup of pid as /proc shows it ("/a/b"), "" if unknown. */
static const char *_cgroup_of(pid_t pid)
{
	static char buf[PATH_MAX];
	char path[64], line[PATH_MAX + 64];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return buf;
	while (fgets(line, sizeof(line), f)) {
		char *ctrl = strchr(line, ':'), *rest;

		if (!ctrl || !(rest = strchr(++ctrl, ':')))
			continue;
		*rest++ = '\0';
		rest[strcspn(rest, "\n")] = '\0';
		for (char *c = strtok(ctrl, ","); c; c = strtok(NULL, ","))
			if (!strcmp(c, "freezer"))
				snprintf(buf, sizeof(buf), "%s", rest);
	}
	fclose(f);
	return buf;
}

/* ------------------------------------------------------------ families */

/*
 * Die with the parent: PR_SET_PDEATHSIG, and the check that closes the
 * race of a parent dying before it was set.  A process left behind would
 * hold the test's stdout open and hang prove.
 */
static void _die_with(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
}

static void _count(volatile uint64_t *counter)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = COUNT_STEP_NS };

	for (;;) {
		(*counter)++;
		nanosleep(&ts, NULL);
	}
}

/*
 * The child: into cgroup dir (if any), a counting grandchild, count.  An
 * orphanable grandchild survives its parent (reparented to the test, the
 * subreaper) and ends by an alarm should the test not kill it.
 */
static void _child_body(struct family *f, const char *dir, bool grandchild,
			bool orphanable, int ready_fd)
{
	char procs[PATH_MAX + 16];
	pid_t self = getpid();

	if (dir) {
		snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
		if (_write_text(procs, "0\n"))
			_exit(1);
	}
	if (grandchild) {
		pid_t pid = fork();

		if (pid == 0) {
			if (orphanable)
				alarm(30);
			else
				_die_with(self);
			_count(&f->count[1]);
		}
		if (pid < 0)
			_exit(1);
		f->grandchild = pid;
		while (!f->count[1])
			_sleep_ms(1);
	}
	if (write(ready_fd, "r", 1) != 1)
		_exit(1);
	close(ready_fd);
	_count(&f->count[0]);
}

/* A counting child (in cgroup dir if not NULL), maybe with a grandchild. */
static struct family *_spawn_family(const char *dir, bool grandchild,
				    bool orphanable)
{
	struct family *f;
	pid_t parent = getpid(), pid;
	int fds[2];
	char c;

	if (_nfamilies == MAX_FAMILIES || pipe(fds))
		return NULL;
	f = &_families[_nfamilies++];
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		_die_with(parent);
		close(fds[0]);
		_child_body(f, dir, grandchild, orphanable, fds[1]);
		_exit(0);
	}
	close(fds[1]);
	f->child = pid;
	if (pid < 0 || read(fds[0], &c, 1) != 1)
		f = NULL;
	close(fds[0]);
	return f;
}

static struct family *_spawn(const char *dir, bool grandchild)
{
	return _spawn_family(dir, grandchild, false);
}

static struct proc_id _id_of(pid_t pid)
{
	struct proc_id id = { 0 };

	proc_identify(pid, &id);
	return id;
}

/* A proc_id of a process that has exited and been reaped. */
static struct proc_id _dead_id(void)
{
	struct proc_id id = { 0 };
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(0);
	if (pid > 0) {
		id.pid = pid;
		id.start_ticks = 1;
		waitpid(pid, NULL, 0);
	}
	return id;
}

/* Whether every counter of f (n of them) stays put over a window. */
static bool _stopped(const struct family *f, int n)
{
	uint64_t before[2] = { f->count[0], f->count[1] };

	_sleep_ms(WINDOW_MS);
	for (int i = 0; i < n; i++)
		if (f->count[i] != before[i]) {
			diag("  counter %d moved: %llu -> %llu", i,
			     (unsigned long long)before[i],
			     (unsigned long long)f->count[i]);
			return false;
		}
	return true;
}

/*
 * Whether counter i of f moves within MOVE_DEADLINE_MS.  Not a fixed
 * window: a process just thawed may wait for a CPU longer than one (a
 * busy CI machine, a VM whose CPUs the host steals), and a 50 ms window
 * failed there (destroy thaws every process: counter 0 stuck at 26).  A
 * process left stopped or frozen never moves, so it still fails.
 */
static bool _counter_moves(const struct family *f, int i)
{
	uint64_t before = f->count[i];
	pid_t pid = i ? f->grandchild : f->child;

	for (int waited = 0; waited < MOVE_DEADLINE_MS; waited++) {
		if (f->count[i] != before)
			return true;
		_sleep_ms(1);
	}
	diag("  counter %d stuck at %llu for %d ms, process state %c", i,
	     (unsigned long long)before, MOVE_DEADLINE_MS,
	     harness_proc_state(pid));
	return false;
}

/* Whether every counter of f (n of them) moves. */
static bool _running(const struct family *f, int n)
{
	for (int i = 0; i < n; i++)
		if (!_counter_moves(f, i))
			return false;
	return true;
}

/*
 * freeze_group_freeze as the agent calls it: FREEZE_SLOW is no failure
 * but a freeze to try again next quantum, FREEZE_SLOW_MAX times in a row
 * at most.  A loaded machine may not stop every process within
 * FREEZE_WAIT_NS once; the tests of a slow freeze call it directly.
 */
static int _freeze(struct freeze_group *g)
{
	int rc = FREEZE_SLOW;

	for (int tries = 0; rc == FREEZE_SLOW && tries < FREEZE_SLOW_MAX;
	     tries++)
		if ((rc = freeze_group_freeze(g)) == FREEZE_SLOW)
			diag("  freeze %d not done in time: tried again",
			     tries + 1);
	return rc;
}

static void _reap(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGCONT);
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

static void _kill_family(struct family *f)
{
	if (!f)
		return;
	/* The grandchild is ours too: the test is their subreaper. */
	_reap(f->grandchild);
	_reap(f->child);
	f->grandchild = f->child = 0;
}

/* ------------------------------------------------------------ cleanup */

/* THAWED to dir and every group below it. */
static void _thaw_tree(const char *dir)
{
	char path[PATH_MAX + 16];
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	snprintf(path, sizeof(path), "%s/freezer.state", dir);
	_write_text(path, "THAWED");
	while ((de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		_thaw_tree(path);
	}
	closedir(d);
}

/* Remove dir and the groups below it, their processes moved to the root. */
static void _remove_tree(const char *dir)
{
	char path[PATH_MAX + 16];
	struct dirent *de;
	DIR *d = opendir(dir);
	FILE *procs;
	int pid;

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		_remove_tree(path);
	}
	closedir(d);
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	procs = fopen(path, "r");
	while (procs && fscanf(procs, "%d", &pid) == 1) {
		char text[32];

		snprintf(text, sizeof(text), "%d\n", pid);
		_write_text(FREEZER "/cgroup.procs", text);
	}
	if (procs)
		fclose(procs);
	if (rmdir(dir) && errno != ENOENT)
		fprintf(stderr, "# cleanup: rmdir %s: %s\n", dir,
			strerror(errno));
}

/* Whatever a failed test left behind: frozen groups, processes, groups. */
static void _cleanup(void)
{
	if (_test_root[0])
		_thaw_tree(_test_root);
	if (_ours[0])
		_thaw_tree(_ours);
	for (int i = 0; i < _nfamilies; i++)
		_kill_family(&_families[i]);
	/* Orphans (the test is their subreaper), should any be left. */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	if (_test_root[0])
		_remove_tree(_test_root);
	if (_ours[0])
		_remove_tree(_ours);
	if (!_had_coschedd)
		rmdir(FREEZER "/coschedd");
}

/* ------------------------------------------------------------ tests */

static void test_names(void)
{
	struct freeze_group *g;
	char why[256] = "";
	bool usable = freeze_cgroup_usable(why, sizeof(why));

	is_str(freeze_kind_name(FREEZE_AUTO), "auto", "name of auto");
	is_str(freeze_kind_name(FREEZE_CGROUP), "cgroup", "name of cgroup");
	is_str(freeze_kind_name(FREEZE_SIGNAL), "signal", "name of signal");
	_err[0] = '\0';
	g = freeze_group_create("a/b", JOB, STEP, FREEZE_SIGNAL, _err,
				sizeof(_err));
	ok(!g && strstr(_err, "bad node name"),
	   "a bad node name is refused: %s", _err);
	_err[0] = '\0';
	g = freeze_group_create(_node, JOB, STEP, (enum freeze_kind)9, _err,
				sizeof(_err));
	ok(!g && _err[0], "an unknown mechanism is refused: %s", _err);
	g = freeze_group_create(_node, JOB, STEP, FREEZE_AUTO, _err,
				sizeof(_err));
	ok(g && freeze_group_kind(g) ==
			(usable ? FREEZE_CGROUP : FREEZE_SIGNAL),
	   "auto picks %s%s%s", usable ? "cgroup" : "signal",
	   usable ? "" : ": ", why);
	freeze_group_destroy(g);
	freeze_group_destroy(NULL);
	ok(1, "freeze_group_destroy(NULL) is harmless");
}

static void test_signal(void)
{
	struct freeze_group *g;
	struct family *f, *late;
	struct proc_id id, dead = _dead_id();

	g = freeze_group_create(_node, JOB, STEP, FREEZE_SIGNAL, _err,
				sizeof(_err));
	if (!ok(g && freeze_group_kind(g) == FREEZE_SIGNAL,
		"signal: create")) {
		diag("  %s", _err);
		skip(TESTS_SIGNAL - 1, "no group");
		return;
	}
	is_str(freeze_group_path(g), "", "signal: no cgroup path");
	is_int(freeze_group_add(g, &dead), -1, "add of a dead process fails");
	f = _spawn(NULL, true);
	id = _id_of(f ? f->child : 0);
	is_int(freeze_group_add(g, &id), 0, "add a child with a grandchild");
	is_int(freeze_group_add(g, &id), 0, "adding it twice is fine");

	ok(!_freeze(g) && freeze_group_frozen(g), "freeze");
	ok(harness_proc_state(f->child) == 'T' && harness_proc_state(f->grandchild) == 'T',
	   "child and grandchild are stopped (T): %c %c",
	   harness_proc_state(f->child), harness_proc_state(f->grandchild));
	ok(_stopped(f, 2), "both counters stand still");
	ok(!_freeze(g) && freeze_group_frozen(g),
	   "freeze again is fine");
	ok(!freeze_group_thaw(g) && !freeze_group_frozen(g), "thaw");
	ok(_running(f, 2), "both counters move again");
	ok(harness_proc_state(f->child) != 'T' && harness_proc_state(f->grandchild) != 'T',
	   "neither is stopped");
	is_int(freeze_group_thaw(g), 0, "thaw again is fine");

	is_int(_freeze(g), 0, "freeze once more");
	late = _spawn(NULL, false);
	id = _id_of(late ? late->child : 0);
	is_int(freeze_group_add(g, &id), 0,
	       "add a process to the frozen group");
	is_int(harness_proc_state(late->child), 'T', "it is stopped at once");
	ok(_stopped(late, 1), "its counter stands still");

	id = _id_of(f->child);
	is_int(freeze_continue_pid(&id), 0, "freeze_continue_pid");
	ok(_running(f, 1), "continues the process");
	ok(_stopped(late, 1) && harness_proc_state(f->grandchild) == 'T',
	   "and nothing else: not its grandchild, nor another of the group");
	is_int(freeze_continue_pid(&dead), -1,
	       "freeze_continue_pid of a dead process fails");

	freeze_group_destroy(g);
	ok(_running(f, 2) && _running(late, 1),
	   "destroy continues every process");
	_kill_family(f);
	_kill_family(late);
}

static int _persist_calls, _persist_fails;

/* The hook a freeze calls before it stops a process it never held. */
static int _persist(void *arg)
{
	(void)arg;
	_persist_calls++;
	return _persist_fails ? -1 : 0;
}

static bool _held(const struct freeze_group *g, pid_t pid)
{
	size_t n;
	const struct proc_id *ids = freeze_group_held(g, &n);

	for (size_t i = 0; i < n; i++)
		if (ids[i].pid == pid)
			return true;
	return false;
}

/*
 * A descendant whose parent exits while it is stopped is reparented (to
 * the test, the subreaper): no walk from the group's processes finds it,
 * yet the thaw must continue it.  And nothing is stopped before it is
 * persisted.
 */
static void test_signal_orphan(void)
{
	struct freeze_group *g;
	struct family *f;
	struct proc_id id;
	pid_t orphan;

	g = freeze_group_create(_node, JOB + 1, STEP, FREEZE_SIGNAL, _err,
				sizeof(_err));
	f = _spawn_family(NULL, true, true);
	if (!ok(g && f, "orphan: a group and a child with a grandchild")) {
		skip(TESTS_ORPHAN - 1, "no group or family");
		freeze_group_destroy(g);
		_kill_family(f);
		return;
	}
	id = _id_of(f->child);
	freeze_group_set_persist(g, _persist, NULL);
	is_int(freeze_group_add(g, &id), 0, "orphan: add the child");
	_persist_fails = 1;
	is_int(freeze_group_freeze(g), -1,
	       "orphan: a freeze whose processes cannot be persisted fails");
	ok(_persist_calls == 1 && !freeze_group_frozen(g) && _running(f, 2),
	   "orphan: and stops nothing (the hook was asked once)");
	_persist_fails = 0;
	_persist_calls = 0;
	ok(!_freeze(g) && _stopped(f, 2),
	   "orphan: freeze stops child and grandchild");
	ok(_persist_calls == 1 && _held(g, f->child) &&
	   _held(g, f->grandchild),
	   "orphan: both were persisted first, in one call");
	is_int(_freeze(g), 0, "orphan: freeze again");
	orphan = f->grandchild;
	_reap(f->child);	/* its child is reparented, still stopped */
	f->child = 0;
	is_int(harness_proc_state(orphan), 'T', "orphan: the grandchild is orphaned, stopped");
	ok(!freeze_group_thaw(g) && _counter_moves(f, 1),
	   "orphan: the thaw continues the orphan");
	_persist_calls = 0;
	ok(!_freeze(g) && harness_proc_state(orphan) == 'T' &&
	   !_persist_calls,
	   "orphan: the next freeze stops it again, nothing new to persist");
	freeze_group_destroy(g);
	ok(_counter_moves(f, 1), "orphan: destroy continues it");
	_kill_family(f);
}

/* pid's /proc state is no longer 'D' within ms: true. */
static bool _leaves_d(pid_t pid, int ms)
{
	for (int waited = 0; waited < ms; waited += 10) {
		if (harness_proc_state(pid) != 'D')
			return true;
		usleep(10000);
	}
	return false;
}

/*
 * A process that cannot stop in time (a vfork parent, waiting in D for
 * its child): the freeze says FREEZE_SLOW, not failed, and leaves
 * nothing stopped; once it can stop, the same group freezes it.
 */
static void test_signal_slow(void)
{
	struct freeze_group *g;
	struct proc_id id;
	pid_t slow, child;

	g = freeze_group_create(_node, JOB + 2, STEP, FREEZE_SIGNAL, _err,
				sizeof(_err));
	slow = harness_slow_to_stop(&child);
	id = _id_of(slow);
	if (!ok(g && slow > 0 && child > 0 && !freeze_group_add(g, &id),
		"slow: a group holding a vfork parent")) {
		skip(TESTS_SLOW - 1, "no group or process");
		freeze_group_destroy(g);
		harness_reap(slow);
		return;
	}
	if (!harness_in_d(slow, 1000)) {
		skip(TESTS_SLOW - 1, "the vfork parent is not in D (valgrind runs vfork as fork)");
		freeze_group_destroy(g);
		kill(child, SIGKILL);
		harness_reap(slow);
		return;
	}
	is_int(freeze_group_freeze(g), FREEZE_SLOW,
	       "slow: it does not stop in time: FREEZE_SLOW, not a failure");
	ok(!freeze_group_frozen(g) && harness_proc_state(child) != 'T',
	   "slow: ... the group is thawed (its child, which stopped, runs)");
	kill(child, SIGKILL);
	ok(_leaves_d(slow, 2000) && !_freeze(g) &&
	   harness_proc_state(slow) == 'T',
	   "slow: once its child is gone it stops: the same group freezes it");
	ok(!freeze_group_thaw(g) && harness_proc_state(slow) != 'T',
	   "slow: and thaws it");
	freeze_group_destroy(g);
	harness_reap(slow);
}

/* A group of the cgroup mechanism, or NULL with the reason why. */
static struct freeze_group *_cgroup_group(uint32_t job, uint32_t step)
{
	return freeze_group_create(_node, job, step, FREEZE_CGROUP, _err,
				   sizeof(_err));
}

static void test_cgroup(void)
{
	struct freeze_group *g;
	struct family *f, *late;
	struct proc_id id, dead = _dead_id();
	char ours[PATH_MAX + 32], ours_rel[PATH_MAX + 32];

	g = _cgroup_group(JOB, STEP);
	if (!ok(g && freeze_group_kind(g) == FREEZE_CGROUP, "cgroup: create")) {
		diag("  %s", _err);
		skip(TESTS_CGROUP - 1, "no group");
		return;
	}
	snprintf(ours, sizeof(ours), "%s/%u.%u", _ours, JOB, STEP);
	snprintf(ours_rel, sizeof(ours_rel), "/coschedd/%s/%u.%u", _node, JOB,
		 STEP);
	is_str(freeze_group_path(g), "", "no path before the first process");
	is_int(freeze_group_add(g, &dead), -1, "add of a dead process fails");
	ok(!freeze_group_path(g)[0] && !_dir_exists(ours),
	   "and creates no cgroup");
	f = _spawn(_orig, true);
	id = _id_of(f ? f->child : 0);
	is_str(_cgroup_of(id.pid), _orig_rel, "the child starts in %s",
	       _orig_rel);
	is_int(freeze_group_add(g, &id), 0, "add a child with a grandchild");
	is_str(freeze_group_path(g), ours, "the path is ours");
	is_str(_cgroup_of(f->child), ours_rel, "the child is in it");
	is_str(_cgroup_of(f->grandchild), ours_rel, "and its grandchild");
	ok(!freeze_group_add(g, &id) && !strcmp(_cgroup_of(f->child), ours_rel),
	   "adding it twice is fine");

	ok(!_freeze(g) && freeze_group_frozen(g), "freeze");
	is_str(_freezer_state(ours), "FROZEN", "freezer.state is FROZEN");
	ok(_stopped(f, 2), "both counters stand still");
	ok(!_freeze(g) && freeze_group_frozen(g),
	   "freeze again is fine");
	ok(!freeze_group_thaw(g) && !freeze_group_frozen(g), "thaw");
	is_str(_freezer_state(ours), "THAWED", "freezer.state is THAWED");
	ok(_running(f, 2), "both counters move again");

	is_int(_freeze(g), 0, "freeze once more");
	late = _spawn(_orig, false);
	id = _id_of(late ? late->child : 0);
	is_int(freeze_group_add(g, &id), 0,
	       "add a process to the frozen group");
	is_str(_cgroup_of(late->child), ours_rel, "it is in our cgroup");
	ok(_stopped(late, 1) && !strcmp(_freezer_state(ours), "FROZEN"),
	   "it is frozen, and so is the group");

	freeze_group_destroy(g);
	ok(_running(f, 2) && _running(late, 1),
	   "destroy thaws every process");
	ok(!strcmp(_cgroup_of(f->child), _orig_rel) &&
	   !strcmp(_cgroup_of(f->grandchild), _orig_rel) &&
	   !strcmp(_cgroup_of(late->child), _orig_rel),
	   "each is back in %s", _orig_rel);
	ok(!_dir_exists(ours), "our cgroup is gone");
	ok(!_dir_exists(_ours), "and our node directory");
	_kill_family(f);
	_kill_family(late);
}

/* Slurm's proctrack/cgroup layout: the step's own cgroup is used. */
static void test_slurm(void)
{
	char step_dir[PATH_MAX + 32], step_rel[PATH_MAX + 32];
	char batch_dir[PATH_MAX + 32], ours[PATH_MAX + 32];
	struct freeze_group *g;
	struct family *f, *other;
	struct proc_id id, other_id;

	snprintf(step_dir, sizeof(step_dir), "%s/job_%u/step_%u", _test_root,
		 JOB, STEP);
	snprintf(step_rel, sizeof(step_rel), "%s", step_dir + strlen(FREEZER));
	snprintf(batch_dir, sizeof(batch_dir), "%s/job_%u/step_batch",
		 _test_root, JOB);
	snprintf(ours, sizeof(ours), "%s/%u.%u", _ours, JOB, STEP + 1);
	g = _cgroup_group(JOB, STEP);
	if (!ok(g && !harness_mkdir_p(step_dir) && !harness_mkdir_p(batch_dir),
		"slurm: create a group and job_%u/step_%u", JOB, STEP)) {
		diag("  %s", _err);
		freeze_group_destroy(g);
		skip(TESTS_SLURM - 1, "no group");
		return;
	}
	f = _spawn(step_dir, true);
	id = _id_of(f ? f->child : 0);
	is_int(freeze_group_add(g, &id), 0, "add a child in the step's cgroup");
	is_str(freeze_group_path(g), step_dir, "the path is the step's cgroup");
	other = _spawn(_orig, false);
	other_id = _id_of(other ? other->child : 0);
	is_int(freeze_group_add(g, &other_id), -1,
	       "a process outside it is refused");
	is_str(_cgroup_of(other->child), _orig_rel, "and left where it was");
	ok(!_freeze(g) && !strcmp(_freezer_state(step_dir),
					      "FROZEN"),
	   "freeze freezes the step's cgroup");
	ok(_stopped(f, 2), "both counters stand still");
	ok(!freeze_group_thaw(g) && _running(f, 2), "thaw");
	_freeze(g);
	freeze_group_destroy(g);
	ok(_dir_exists(step_dir) && !strcmp(_freezer_state(step_dir),
					    "THAWED"),
	   "destroy thaws it and leaves it");
	is_str(_cgroup_of(f->child), step_rel, "the child is still in it");
	ok(_running(f, 2), "both counters move");
	ok(!_dir_exists(_ours), "no cgroup of ours was made");

	/* Another step of the job: not its cgroup. */
	g = _cgroup_group(JOB, STEP + 1);
	is_int(g ? freeze_group_add(g, &id) : -2, 0,
	       "a group for step %u takes the child", STEP + 1);
	is_str(g ? freeze_group_path(g) : "", ours, "into a cgroup of ours");
	freeze_group_destroy(g);
	ok(!strcmp(_cgroup_of(f->child), step_rel) &&
	   !strcmp(_cgroup_of(f->grandchild), step_rel),
	   "destroy moves both back to job_%u/step_%u", JOB, STEP);
	_kill_family(f);

	f = _spawn(batch_dir, false);
	id = _id_of(f ? f->child : 0);
	g = _cgroup_group(JOB, SLURM_BATCH_SCRIPT);
	is_int(g ? freeze_group_add(g, &id) : -2, 0,
	       "the batch step: add a child in step_batch");
	is_str(g ? freeze_group_path(g) : "", batch_dir,
	       "the path is step_batch");
	freeze_group_destroy(g);
	ok(_dir_exists(batch_dir), "destroy leaves it");
	_kill_family(f);
	_kill_family(other);
}

/* What a dead agent left: empty groups go, one with a process stays. */
static void test_sweep(void)
{
	char empty[PATH_MAX], busy[PATH_MAX], procs[PATH_MAX + 16], pid[16];
	pid_t child = fork();
	FILE *f;

	if (child == 0) {
		alarm(30);
		pause();
		_exit(0);
	}
	snprintf(empty, sizeof(empty), "%s/7.0", _ours);
	snprintf(busy, sizeof(busy), "%s/8.0", _ours);
	(void)harness_mkdir_p(empty);
	(void)harness_mkdir_p(busy);
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", busy);
	snprintf(pid, sizeof(pid), "%d", (int)child);
	f = fopen(procs, "w");
	if (f) {
		fputs(pid, f);
		fclose(f);
	}
	is_int(freeze_sweep(_node), 1, "sweep: one empty group removed");
	ok(!_dir_exists(empty) && _dir_exists(busy),
	   "sweep: the group holding a process stays");
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	for (int i = 0; i < 50 && freeze_sweep(_node) < 1; i++)
		usleep(10000);
	ok(!_dir_exists(busy) && !_dir_exists(_ours),
	   "sweep: once empty it goes too, with the node directory");
}

static void test_thaw_path(void)
{
	struct freeze_group *g = _cgroup_group(JOB, STEP);
	char path[PATH_MAX];
	struct family *f;
	struct proc_id id;

	if (!ok(g != NULL, "thaw_path: create")) {
		diag("  %s", _err);
		skip(TESTS_THAW_PATH - 1, "no group");
		return;
	}
	f = _spawn(_orig, false);
	id = _id_of(f ? f->child : 0);
	ok(!freeze_group_add(g, &id) && !_freeze(g) &&
	   _stopped(f, 1), "a frozen group");
	snprintf(path, sizeof(path), "%s", freeze_group_path(g));
	is_int(freeze_thaw_path(path), 0, "freeze_thaw_path");
	is_str(_freezer_state(path), "THAWED", "freezer.state is THAWED");
	ok(_running(f, 1), "the counter moves");
	freeze_group_destroy(g);
	is_int(freeze_thaw_path("/tmp"), -1, "a directory not of cgroupfs: -1");
	is_int(freeze_thaw_path("sys/fs/cgroup/freezer/x"), -1,
	       "a relative path: -1");
	snprintf(path, sizeof(path), "%s/../..", _orig);
	is_int(freeze_thaw_path(path), -1, "a path with '..': -1");
	_kill_family(f);
}

int main(void)
{
	char why[256];
	bool cgroup;

	snprintf(_node, sizeof(_node), "test-%d", (int)getpid());
	snprintf(_ours, sizeof(_ours), FREEZER "/coschedd/%s", _node);
	snprintf(_test_root, sizeof(_test_root), FREEZER "/coschedtest_%d",
		 (int)getpid());
	snprintf(_orig, sizeof(_orig), "%s/orig", _test_root);
	snprintf(_orig_rel, sizeof(_orig_rel), "%s", _orig + strlen(FREEZER));
	_had_coschedd = _dir_exists(FREEZER "/coschedd");
	_families = mmap(NULL, MAX_FAMILIES * sizeof(*_families),
			 PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1,
			 0);
	if (_families == MAP_FAILED)
		return 2;
	/* Grandchildren orphaned by a kill come back to be reaped. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	atexit(_cleanup);

	plan(TESTS_NAMES + TESTS_SIGNAL + TESTS_ORPHAN + TESTS_SLOW + TESTS_CGROUP +
	     TESTS_SLURM + TESTS_THAW_PATH + TESTS_AFTER);
	test_names();
	test_signal();
	test_signal_orphan();
	test_signal_slow();
	cgroup = freeze_cgroup_usable(why, sizeof(why));
	if (cgroup && harness_mkdir_p(_orig)) {
		snprintf(why, sizeof(why), "cannot create %s", _orig);
		cgroup = false;
	}
	if (cgroup) {
		test_cgroup();
		test_slurm();
		test_thaw_path();
		test_sweep();
	} else {
		skip(TESTS_CGROUP + TESTS_SLURM + TESTS_THAW_PATH, why);
	}
	_cleanup();
	ok(!_dir_exists(_ours) && !_dir_exists(_test_root),
	   "no cgroup of the test is left");
	munmap(_families, MAX_FAMILIES * sizeof(*_families));
	_families = NULL;
	_nfamilies = 0;
	return done_testing();
}
