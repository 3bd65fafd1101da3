/*
 * test_cgroup2.c - the agent's cgroup v2 mechanisms (freeze.c's
 * cgroup.freeze, boost.c's cpu.weight) on this machine, whose controllers
 * are bound to v1.
 *
 * Freezing for real: the test mounts a cgroup2 hierarchy of its own (in a
 * private mount namespace, on a temporary directory) and freezes spinning
 * children through cgroup.freeze, in a group of ours and in a group shaped
 * like Slurm's v2 step (.../job_J/step_S/{slurm,user/task_0}).  A frozen
 * child is one whose counter stops; cgroup.events says "frozen 1".
 *
 * cpu.weight cannot be enabled on such a mount (the cpu controller is
 * v1's), so the weights are checked against a directory tree that mimics
 * cgroupfs (the test plays the kernel's part: the files a group has),
 * with the v2 code pointed at it by cgv2_set_root().  A process of a
 * Slurm job is weighed in place: its real v2 group on the mount is
 * Slurm-shaped and the mimic has the same path.
 *
 * Needs root; skipped (with the reason) otherwise or when the mount
 * fails.  Everything made is removed: groups, the mount, directories.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent_harness.h"
#include "boost/boost.h"
#include "host/cgroup.h"
#include "freeze/freeze.h"
#include "host/proc.h"
#include "tap.h"

#define WAIT_MS 5000		/* generous: a loaded 2-core machine */
#define STILL_MS 300		/* a frozen counter stays still this long */
#define MAX_KIDS 16

static char _tmp[64];		/* /tmp/test_cgroup2.XXXXXX */
static char _mnt[128];		/* _tmp/v2: our cgroup2 mount */
static char _mimic[128];	/* _tmp/mimic: a cgroupfs look-alike */
static char _test_rel[64];	/* coschedtest_<pid>: the test's groups */
static char _node[32];
static bool _mounted;
static volatile uint64_t *_counters;	/* one per child, shared */
static pid_t _kids[MAX_KIDS];
static int _nkids;

static void _sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static long _read_long(const char *path)
{
	char buf[64];

	tap_slurp(path, buf, sizeof(buf));
	return buf[0] ? strtol(buf, NULL, 10) : -1;
}

/* pid's v2 group ("0::" line), or "?". */
static const char *_v2_group(pid_t pid)
{
	static char line[512];
	char path[32];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "0::", 3)) {
			fclose(f);
			line[strcspn(line, "\n")] = '\0';
			return line + 3;
		}
	}
	if (f)
		fclose(f);
	return "?";
}

/* Move pid into the mount's group rel. */
static int _join(const char *rel, pid_t pid)
{
	char path[PATH_MAX], text[24];

	snprintf(path, sizeof(path), "%s/%s/cgroup.procs", _mnt, rel);
	snprintf(text, sizeof(text), "%d", (int)pid);
	return harness_write_file(path, text);
}

/* A child counting in _counters[slot] (ends with us, or after 120 s). */
static pid_t _spinner(void)
{
	int slot = _nkids;
	pid_t pid;

	if (slot >= MAX_KIDS)
		return -1;
	pid = fork();
	if (pid == 0) {
		time_t end = time(NULL) + 120;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		while (time(NULL) < end)
			_counters[slot]++;
		_exit(0);
	}
	if (pid > 0)
		_kids[_nkids++] = pid;
	return pid;
}

static int _slot(pid_t pid)
{
	for (int i = 0; i < _nkids; i++)
		if (_kids[i] == pid)
			return i;
	return 0;
}

/* Whether pid's counter moves within WAIT_MS. */
static bool _runs(pid_t pid)
{
	uint64_t before = _counters[_slot(pid)];

	for (int ms = 0; ms < WAIT_MS; ms += 10) {
		if (_counters[_slot(pid)] != before)
			return true;
		_sleep_ms(10);
	}
	return false;
}

/* Whether pid's counter stays still for STILL_MS. */
static bool _still(pid_t pid)
{
	uint64_t before = _counters[_slot(pid)];

	_sleep_ms(STILL_MS);
	return _counters[_slot(pid)] == before;
}

static struct proc_id _id_of(pid_t pid)
{
	struct proc_id id = { .pid = pid };
	struct proc_brief b;

	if (!proc_brief(pid, &b))
		id.start_ticks = b.start_ticks;
	return id;
}

/* Whether dir's cgroup.events says frozen (want) within WAIT_MS. */
static bool _events_frozen(const char *dir, bool want)
{
	char path[PATH_MAX], text[256];

	snprintf(path, sizeof(path), "%s/cgroup.events", dir);
	for (int ms = 0; ms < WAIT_MS; ms += 10) {
		bool frozen = strstr(tap_slurp(path, text, sizeof(text)),
				     "frozen 1") != NULL;

		if (frozen == want)
			return true;
		_sleep_ms(10);
	}
	return false;
}

/* ------------------------------------------------------------ freezing */

#define TESTS_FREEZE_OURS 9

static void test_freeze_ours(void)
{
	char err[512], dir[PATH_MAX], want[128];
	struct freeze_group *g = freeze_group_create(_node, 1, 0, FREEZE_CGROUP2,
						     err, sizeof(err));
	pid_t kid = _spinner();
	struct proc_id id = _id_of(kid);
	char origin[256];

	if (!ok(g && kid > 0, "cgroup2: a group freezing by cgroup.freeze (%s)",
		g ? "made" : err)) {
		skip(TESTS_FREEZE_OURS - 1, "no group");
		freeze_group_destroy(g);
		return;
	}
	snprintf(origin, sizeof(origin), "%s", _v2_group(kid));
	is_str(freeze_kind_name(freeze_group_kind(g)), "cgroup2",
	       "cgroup2: its kind is named cgroup2");
	snprintf(want, sizeof(want), "/coschedd/%s/1.0", _node);
	ok(!freeze_group_add(g, &id) && !strcmp(_v2_group(kid), want),
	   "cgroup2: a process of no Slurm step moves into our group (%s)",
	   _v2_group(kid));
	snprintf(dir, sizeof(dir), "%s%s", _mnt, want);
	is_str(freeze_group_path(g), dir, "cgroup2: the path the state file records");
	ok(!freeze_group_freeze(g) && _events_frozen(dir, true),
	   "cgroup2: freeze returns once cgroup.events says frozen 1");
	ok(_still(kid), "cgroup2: the frozen process does not run");
	ok(!freeze_group_thaw(g) && _events_frozen(dir, false) && _runs(kid),
	   "cgroup2: thawed, it runs again");
	ok(!freeze_group_freeze(g) && _still(kid),
	   "cgroup2: frozen again before destroy");
	freeze_group_destroy(g);
	ok(_runs(kid) && !strcmp(_v2_group(kid), origin) &&
	   access(dir, F_OK) && errno == ENOENT,
	   "cgroup2: destroy thaws, moves it back to %s, removes our group",
	   origin);
}

#define TESTS_FREEZE_SLURM 6

/*
 * Slurm's job groups by id, and by SLUID as 26.05's cgroup/v2 names them
 * unless CgroupJobIdPaths=yes.
 */
#define SLUID_DIR "s0C1JZ0K2Q5W3M"
static const char *const job_dirs[] = { "job_7", SLUID_DIR };
#define NJOB_DIRS (sizeof(job_dirs) / sizeof(job_dirs[0]))

/* Slurm's v2 step: slurmstepd in step_0/slurm, the task in user/task_0. */
static void test_freeze_slurm(const char *job_dir)
{
	char err[512], step[128], user[192], dir[PATH_MAX];
	char task_rel[256], stepd_rel[192];
	struct freeze_group *g;
	pid_t task = _spinner(), stepd = _spinner();
	struct proc_id id = _id_of(task);

	snprintf(step, sizeof(step), "%s/%s/step_0", _test_rel, job_dir);
	snprintf(stepd_rel, sizeof(stepd_rel), "%s/slurm", step);
	snprintf(user, sizeof(user), "%s/user", step);
	snprintf(task_rel, sizeof(task_rel), "%s/task_0", user);
	snprintf(dir, sizeof(dir), "%s/%s", _mnt, task_rel);
	harness_mkdir_p(dir);
	snprintf(dir, sizeof(dir), "%s/%s", _mnt, stepd_rel);
	harness_mkdir_p(dir);
	g = freeze_group_create(_node, 7, 0, FREEZE_CGROUP2, err, sizeof(err));
	if (!ok(g && task > 0 && stepd > 0 && !_join(task_rel, task) &&
		!_join(stepd_rel, stepd),
		"slurm v2: a task in .../%s/step_0/user/task_0, slurmstepd in step_0/slurm",
		job_dir)) {
		skip(TESTS_FREEZE_SLURM - 1, "no Slurm-shaped groups");
		freeze_group_destroy(g);
		return;
	}
	snprintf(dir, sizeof(dir), "%s/%s", _mnt, user);
	ok(!freeze_group_add(g, &id) && !strcmp(freeze_group_path(g), dir),
	   "slurm v2: the group frozen is the step's user group (%s)",
	   freeze_group_path(g));
	ok(strstr(_v2_group(task), "/step_0/user/task_0") != NULL,
	   "slurm v2: the task is not moved (%s)", _v2_group(task));
	ok(!freeze_group_freeze(g) && _still(task),
	   "slurm v2: freeze stops the task");
	ok(_runs(stepd), "slurm v2: slurmstepd's group keeps running");
	freeze_group_destroy(g);
	ok(_runs(task) && strstr(_v2_group(task), "/user/task_0") &&
	   !access(dir, F_OK),
	   "slurm v2: destroy thaws and leaves Slurm's groups as they were");
}

#define TESTS_THAW_PATH 3

/* What the guardian does with the state file's path. */
static void test_thaw_path(void)
{
	char rel[128], dir[PATH_MAX], file[PATH_MAX + 16];
	pid_t kid = _spinner();

	snprintf(rel, sizeof(rel), "%s/thaw", _test_rel);
	snprintf(dir, sizeof(dir), "%s/%s", _mnt, rel);
	snprintf(file, sizeof(file), "%s/cgroup.freeze", dir);
	if (!ok(kid > 0 && !harness_mkdir_p(dir) && !_join(rel, kid) &&
		!harness_write_file(file, "1") && _events_frozen(dir, true) && _still(kid),
		"thaw path: a v2 group frozen by hand")) {
		skip(TESTS_THAW_PATH - 1, "not frozen");
		return;
	}
	ok(!freeze_thaw_path(dir) && _events_frozen(dir, false) && _runs(kid),
	   "thaw path: freeze_thaw_path thaws a v2 group by its directory");
	ok(freeze_thaw_path(_tmp) == -1,
	   "thaw path: a directory that is no cgroup is refused");
}

/* ------------------------------------------------------------ weights */

/* A group of the mimic tree with the files the kernel would give it. */
static void _mimic_group(const char *rel, const char *weight, pid_t procs)
{
	char dir[PATH_MAX], file[PATH_MAX + 32], text[24];

	snprintf(dir, sizeof(dir), "%s/%s", _mimic, rel);
	harness_mkdir_p(dir);
	snprintf(file, sizeof(file), "%s/cgroup.subtree_control", dir);
	harness_write_file(file, "");
	snprintf(file, sizeof(file), "%s/cgroup.procs", dir);
	snprintf(text, sizeof(text), "%d\n", (int)procs);
	harness_write_file(file, procs ? text : "");
	if (weight) {
		snprintf(file, sizeof(file), "%s/cpu.weight", dir);
		harness_write_file(file, weight);
	}
}

static long _mimic_weight(const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s/cpu.weight", _mimic, rel);
	return _read_long(path);
}

#define TESTS_WEIGHT_OURS 7

static void test_weight_ours(struct boost *b)
{
	char err[512] = "", leaf[128], path[PATH_MAX], text[64];
	pid_t kid = _spinner();
	struct proc_id id = _id_of(kid);
	struct boost_saved saved;
	static const struct { int level; long weight; } levels[] = {
		{ 0, 100 }, { 1, 125 }, { 4, 244 }, { -3, 51 },
		{ 100, 10000 }, { -100, 1 },
	};
	bool all = true;

	/* what mkdir would give our groups in cgroupfs */
	snprintf(leaf, sizeof(leaf), "coschedd/%s/21.%d", _node, (int)kid);
	_mimic_group("coschedd", NULL, 0);
	snprintf(path, sizeof(path), "coschedd/%s", _node);
	_mimic_group(path, NULL, 0);
	_mimic_group(leaf, "", 0);
	int attached = kid > 0 ? boost_attach(b, &id, 21, &saved, err,
					       sizeof(err)) : -1;

	if (!ok(!attached, "weights: a process of no Slurm job attaches (%s)",
		attached ? err : "ok")) {
		skip(TESTS_WEIGHT_OURS - 1, "not attached");
		return;
	}
	snprintf(path, sizeof(path), "%s/%s/cgroup.procs", _mimic, leaf);
	ok(_read_long(path) == kid && saved.weight == 0 &&
	   !strcmp(saved.our_cgroup, leaf + 0),
	   "weights: it is moved into our leaf %s", leaf);
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", _mimic);
	ok(!strcmp(tap_slurp(path, text, sizeof(text)), "+cpu"),
	   "weights: cpu is enabled for the root's children");
	snprintf(path, sizeof(path), "%s/coschedd/%s/cgroup.subtree_control",
		 _mimic, _node);
	ok(!strcmp(tap_slurp(path, text, sizeof(text)), "+cpu"),
	   "weights: and for our node group's children (the leaf's parent)");
	ok(_mimic_weight(leaf) == 100, "weights: the leaf starts at 100");
	for (size_t i = 0; i < sizeof(levels) / sizeof(*levels); i++) {
		long got;

		if (boost_set(b, &id, &saved, levels[i].level)) {
			all = false;
			diag("boost_set level %d failed", levels[i].level);
			continue;
		}
		got = _mimic_weight(leaf);
		if (got != levels[i].weight) {
			all = false;
			diag("level %d: cpu.weight %ld, want %ld",
			     levels[i].level, got, levels[i].weight);
		}
	}
	ok(all, "weights: level 0 1 4 -3 100 -100 give cpu.weight 100 125 244 51 10000 1 (shares * 100 / 1024)");
	(void)boost_restore(&id, &saved);
	snprintf(path, sizeof(path), "%s/cgroup.procs", _mimic);
	ok(_read_long(path) == kid,
	   "weights: restore moves it back to the root group it came from");
}

#define TESTS_WEIGHT_SLURM 7

/* A Slurm job's process: its own task group's weight, in place. */
static void test_weight_slurm(struct boost *b, const char *job_dir)
{
	char err[512] = "", task[192], dir[PATH_MAX], path[PATH_MAX + 16];
	char text[64];
	pid_t kid = _spinner(), other = _spinner();
	struct proc_id id = _id_of(kid);
	struct boost_saved saved;
	int attached;

	snprintf(task, sizeof(task), "%s/%s/step_0/user/task_0", _test_rel, job_dir);
	snprintf(dir, sizeof(dir), "%s/%s", _mnt, task);
	_mimic_group(task, "100\n", kid);
	if (!ok(kid > 0 && !harness_mkdir_p(dir) && !_join(task, kid),
		"in place: a process in Slurm's task group %s", task)) {
		skip(TESTS_WEIGHT_SLURM - 1, "no Slurm-shaped group");
		return;
	}
	attached = boost_attach(b, &id, 9, &saved, err, sizeof(err));
	ok(!attached && saved.weight == 100 && !saved.our_cgroup[0],
	   "in place: it attaches, its group's weight 100 saved (%s)",
	   attached ? err : "ok");
	ok(strstr(_v2_group(kid), task) != NULL,
	   "in place: it is not moved (%s)", _v2_group(kid));
	ok(!boost_set(b, &id, &saved, 4) && _mimic_weight(task) == 244,
	   "in place: level 4 sets the task group's cpu.weight to 244");
	ok(!boost_restore(&id, &saved) && _mimic_weight(task) == 100,
	   "in place: restore puts back 100");
	/* another process in the same group: two restores could undo each
	 * other, so it is refused */
	snprintf(path, sizeof(path), "%s/%s/cgroup.procs", _mimic, task);
	snprintf(text, sizeof(text), "%d\n%d\n", (int)kid, (int)other);
	harness_write_file(path, text);
	ok(boost_attach(b, &id, 9, &saved, err, sizeof(err)) &&
	   strstr(err, "shares"),
	   "in place: a group shared with another process is refused (%s)", err);
	snprintf(text, sizeof(text), "%d\n", (int)kid);
	harness_write_file(path, text);
	snprintf(path, sizeof(path), "%s/%s/cpu.weight", _mimic, task);
	unlink(path);
	ok(boost_attach(b, &id, 9, &saved, err, sizeof(err)) &&
	   strstr(err, "subtree_control"),
	   "in place: without cpu.weight it says why (%s)", err);
}

/* ------------------------------------------------------------ setup */

static int _setup(char *why, size_t len)
{
	if (geteuid()) {
		snprintf(why, len, "needs root");
		return -1;
	}
	if (!mkdtemp(_tmp)) {
		snprintf(why, len, "mkdtemp: %s", strerror(errno));
		return -1;
	}
	snprintf(_mnt, sizeof(_mnt), "%s/v2", _tmp);
	snprintf(_mimic, sizeof(_mimic), "%s/mimic", _tmp);
	if (mkdir(_mnt, 0755) || mkdir(_mimic, 0755) ||
	    unshare(CLONE_NEWNS) ||
	    mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) ||
	    mount("none", _mnt, "cgroup2", 0, NULL)) {
		snprintf(why, len, "cannot mount cgroup2 in a private mount namespace: %s",
			 strerror(errno));
		return -1;
	}
	_mounted = true;
	return 0;
}

/* Groups under dir, deepest first (their processes are dead by now). */
static void _remove_groups(const char *dir)
{
	char cmd[PATH_MAX + 64];

	snprintf(cmd, sizeof(cmd), "find '%s' -depth -type d -exec rmdir {} + 2>/dev/null",
		 dir);
	(void)!system(cmd);
}

static void _cleanup(void)
{
	char path[PATH_MAX], cmd[PATH_MAX + 32];

	for (int i = 0; i < _nkids; i++) {
		kill(_kids[i], SIGKILL);
		waitpid(_kids[i], NULL, 0);
	}
	if (_mounted) {
		snprintf(path, sizeof(path), "%s/%s", _mnt, _test_rel);
		_remove_groups(path);
		snprintf(path, sizeof(path), "%s/coschedd/%s", _mnt, _node);
		_remove_groups(path);
		snprintf(path, sizeof(path), "%s/coschedd", _mnt);
		rmdir(path);	/* stays if another agent's groups are in it */
		umount2(_mnt, MNT_DETACH);
	}
	if (_tmp[0] && strcmp(_tmp, "/tmp/test_cgroup2.XXXXXX")) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", _tmp);
		(void)!system(cmd);
	}
}

int main(void)
{
	char why[256], err[512], path[PATH_MAX];
	struct boost *b;

	snprintf(_tmp, sizeof(_tmp), "/tmp/test_cgroup2.XXXXXX");
	snprintf(_node, sizeof(_node), "test-%d", (int)getpid());
	snprintf(_test_rel, sizeof(_test_rel), "coschedtest_%d", (int)getpid());
	_counters = mmap(NULL, MAX_KIDS * sizeof(*_counters),
			 PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			 -1, 0);
	if (_counters == MAP_FAILED || _setup(why, sizeof(why))) {
		printf("1..0 # SKIP %s\n",
		       _counters == MAP_FAILED ? "no shared memory" : why);
		_cleanup();
		return 0;
	}
	plan(1 + TESTS_FREEZE_OURS + NJOB_DIRS * TESTS_FREEZE_SLURM +
	     TESTS_THAW_PATH + 2 + TESTS_WEIGHT_OURS +
	     NJOB_DIRS * TESTS_WEIGHT_SLURM);
	snprintf(path, sizeof(path), "%s/%s", _mnt, _test_rel);
	/* the freezer's hierarchy: our own cgroup2 mount */
	ok(!cgv2_set_root(_mnt) && !harness_mkdir_p(path),
	   "the v2 code is pointed at our cgroup2 mount %s", _mnt);
	test_freeze_ours();
	for (size_t i = 0; i < NJOB_DIRS; i++)
		test_freeze_slurm(job_dirs[i]);
	test_thaw_path();

	/* the cpu hierarchy: the mimic (set before boost.c first looks) */
	_mimic_group("", NULL, 0);
	snprintf(path, sizeof(path), "%s/cgroup.controllers", _mimic);
	harness_write_file(path, "cpuset cpu io memory pids\n");
	ok(!cgv2_set_root(_mimic), "the v2 code is pointed at the mimic %s",
	   _mimic);
	b = boost_open(BOOST_CGROUP2, _node, err, sizeof(err));
	if (!ok(b && !strcmp(boost_mechanism(b), "cgroup-v2 cpu.weight"),
		"boost: --boost cgroup2 opens there (%s)",
		b ? boost_mechanism(b) : err)) {
		skip(TESTS_WEIGHT_OURS + NJOB_DIRS * TESTS_WEIGHT_SLURM,
		     "no mechanism");
	} else {
		test_weight_ours(b);
		for (size_t i = 0; i < NJOB_DIRS; i++)
			test_weight_slurm(b, job_dirs[i]);
	}
	boost_close(b);
	_cleanup();
	return done_testing();
}
