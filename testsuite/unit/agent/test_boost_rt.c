/*
 * test_boost_rt.c - the rt boost mechanism on real processes: what it
 * saves and puts back (policy, RT priority, SCHED_RESET_ON_FORK, nice,
 * of every thread), what it refuses, and the safety it rests on.
 *
 * The safety test: a child spinning for ever, made SCHED_RR by the rt
 * mechanism (boost_set), pinned to one CPU with an ordinary SCHED_OTHER
 * spinner.  Over 2 s, from their CPU times: the ordinary one must still
 * run, and the RT one must leave at least 4 % of the CPU to others (the
 * kernel's RT throttling, or since Linux 6.12 its fair server, keeps 5 %
 * by default for SCHED_OTHER, which every ordinary task on that CPU
 * shares); restore must leave the spinner at SCHED_OTHER.  The refusals run in children: one in a mount
 * namespace of its own where sched_rt_runtime_us reads -1, one where a
 * tmpfs on /sys/kernel/debug shows RT_RUNTIME_SHARE on, one as an
 * unprivileged user who may not set SCHED_RR.  The RT_RUNTIME_SHARE
 * verdict is also checked on given kernel releases and feature lists.
 *
 * Needs root and the kernel's RT throttling on; skipped otherwise.
 * Every RT child also has RLIMIT_RTTIME, dies with the test and ends
 * itself (alarm), so a broken run cannot leave one behind.  About 4 s.
 *
 * test-alone: the safety test measures two spinners' shares of one CPU,
 * which a test running beside it on that CPU would take part of.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "boost/boost.h"
#include "boost/boost_rt.h"
#include "kids.h"
#include "tap.h"

#define JOB_ID 42u
#define OWN_NICE 3
#define NOBODY 65534
#define RT_CPU_LIMIT_US 20000000	/* RLIMIT_RTTIME of RT children */
#define SHARE_WINDOW_MS 2000
/* Under an RT spinner, of the CPU: the kernel leaves SCHED_OTHER 5 %
 * (950000 of 1000000 us), shared by every ordinary task on that CPU, so
 * one of them gets less on a busy machine; 0 without the throttling. */
#define MIN_SHARE 0.0025
#define MAX_RT_SHARE 0.96
#define TESTS_NAMES 6
#define TESTS_REFUSALS 4
#define TESTS_SHARE 11
#define TESTS_SAVE 14
#define TESTS_FORKED 4
#define TESTS_UNPRIV 3
#define TESTS_THROTTLE 5

static char _err[512];
static int _report[2] = { -1, -1 };	/* children's results */
static int _cpu = -1;		/* the CPU of the safety test */

/* ------------------------------------------------------------ children */

/* A real-time child cannot hold a CPU past this, whatever happens. */
static void _limit_rt(void)
{
	struct rlimit lim = { RT_CPU_LIMIT_US, RT_CPU_LIMIT_US };

	(void)setrlimit(RLIMIT_RTTIME, &lim);
}

static void _pin(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(_cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		_exit(1);
}

/* Two threads spinning at SCHED_BATCH, nice OWN_NICE. */
static void _body_batch(int fd)
{
	struct sched_param zero = { 0 };
	pthread_t t;

	/* before the thread exists, so that it inherits both */
	if (sched_setscheduler(0, SCHED_BATCH, &zero) ||
	    setpriority(PRIO_PROCESS, 0, OWN_NICE) ||
	    pthread_create(&t, NULL, kids_thread_spin, NULL))
		_exit(1);
	kids_ready(fd);
	kids_spin();
}

/* Asleep at SCHED_OTHER with SCHED_RESET_ON_FORK of its own. */
static void _body_reset(int fd)
{
	struct sched_param zero = { 0 };

	if (sched_setscheduler(0, SCHED_OTHER | SCHED_RESET_ON_FORK, &zero))
		_exit(1);
	kids_ready(fd);
	for (;;)
		pause();
}

/* A second thread at SCHED_FIFO 5 (as root), asleep. */
static void _body_rt_thread(int fd)
{
	struct sched_param five = { .sched_priority = 5 };
	pthread_t t;

	if (pthread_create(&t, NULL, kids_thread_sleep, NULL) ||
	    pthread_setschedparam(t, SCHED_FIFO, &five))
		_exit(1);
	kids_ready(fd);
	for (;;)
		pause();
}

/* Spins at nice OWN_NICE; on SIGUSR1 forks a child that sleeps and
 * reports its pid. */
static void _body_forker(int fd)
{
	sigset_t usr1;
	int sig;

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	if (setpriority(PRIO_PROCESS, 0, OWN_NICE))
		_exit(1);
	kids_ready(fd);
	for (;;) {
		pid_t self = getpid(), kid;

		if (sigwait(&usr1, &sig))
			_exit(1);
		kid = fork();
		if (kid == 0) {
			kids_die_with(self);
			for (;;)
				pause();
		}
		if (write(_report[1], &kid, sizeof(kid)) != sizeof(kid))
			_exit(1);
	}
}

/*
 * As nobody, without RT rights (RLIMIT_RTPRIO 0); on SIGUSR1, while
 * boosted, tries to raise its RT priority and to take SCHED_RESET_ON_FORK
 * off, and reports the errno of each (0: it could).
 */
static void _body_unprivileged(int fd)
{
	struct rlimit none = { 0, 0 };
	struct sched_param p1 = { 1 }, p2 = { 2 };
	sigset_t usr1;
	int sig, got[2];

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	if (setrlimit(RLIMIT_RTPRIO, &none) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		_exit(1);
	kids_ready(fd);
	if (sigwait(&usr1, &sig))
		_exit(1);
	got[0] = sched_setscheduler(0, SCHED_RR | SCHED_RESET_ON_FORK, &p2) ?
		 errno : 0;
	got[1] = sched_setscheduler(0, SCHED_RR, &p1) ? errno : 0;
	if (write(_report[1], got, sizeof(got)) != sizeof(got))
		_exit(1);
	for (;;)
		pause();
}

static void _body_pinned_rt_spin(int fd)
{
	_pin();
	_limit_rt();
	kids_ready(fd);
	kids_spin();
}

static void _body_pinned_spin(int fd)
{
	_pin();
	kids_ready(fd);
	kids_spin();
}

/* ------------------------------------------------------------ kernel view */

struct want {
	int policy;		/* with SCHED_RESET_ON_FORK when expected */
	int prio;
	int nice;		/* checked for normal policies only */
};

static bool _thread_is(pid_t tid, const struct want *w)
{
	struct sched_param p;
	int policy = sched_getscheduler(tid), nice;

	errno = 0;
	nice = getpriority(PRIO_PROCESS, (id_t)tid);
	if (policy != w->policy || sched_getparam(tid, &p) ||
	    p.sched_priority != w->prio)
		return false;
	if ((w->policy & ~SCHED_RESET_ON_FORK) == SCHED_RR)
		return true;
	return !errno && nice == w->nice;
}

/* How many threads of pid are as w says (-1: unreadable). */
static int _threads_as(pid_t pid, const struct want *w)
{
	char path[64];
	struct dirent *e;
	int n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && _thread_is(atoi(e->d_name), w))
			n++;
	closedir(d);
	return n;
}

static const struct want RR_BOOSTED = {
	SCHED_RR | SCHED_RESET_ON_FORK, BOOST_RT_PRIORITY, 0 };

/* The share of a CPU pid got over ms. */
static double _share(pid_t pid, int ms)
{
	struct timespec t0, t1;
	unsigned long long c0 = kids_cpu_ns(pid), c1;
	double wall;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	kids_sleep_ms(ms);
	c1 = kids_cpu_ns(pid);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	wall = (double)(t1.tv_sec - t0.tv_sec) * 1e9 +
	       (double)(t1.tv_nsec - t0.tv_nsec);
	return (double)(c1 - c0) / wall;
}

/* ------------------------------------------------------------ tests */

static void test_names(void)
{
	enum boost_kind kind = BOOST_AUTO;
	struct boost *b;

	is_str(boost_kind_name(BOOST_RT), "rt", "name of rt");
	ok(!boost_kind_parse("rt", &kind) && kind == BOOST_RT, "parse rt");
	ok(boost_kind_parse("RT", &kind) && boost_kind_parse("fifo", &kind),
	   "parse refuses other spellings");
	b = boost_open(BOOST_RT, "n1", _err, sizeof(_err));
	if (!ok(b && boost_kind(b) == BOOST_RT &&
		!strcmp(boost_mechanism(b), "SCHED_RR"),
		"rt opens as root with the throttling on: %s",
		b ? boost_mechanism(b) : _err))
		diag("  %s", _err);
	ok(b && strstr(boost_describe(b), "SCHED_RR 1") &&
	   strstr(boost_describe(b), "throttling"),
	   "its description names the policy and the throttling: %s",
	   b ? boost_describe(b) : "-");
	boost_close(b);
	b = boost_open(BOOST_AUTO, "n1", _err, sizeof(_err));
	ok(b && boost_kind(b) != BOOST_RT, "auto never picks rt (%s)",
	   b ? boost_kind_name(boost_kind(b)) : _err);
	boost_close(b);
}

/* boost_open(BOOST_RT) in a child after prepare(); its message back. */
static int _open_in_child(int (*prepare)(void), char *msg, size_t len)
{
	int fds[2], status = -1;
	pid_t pid;
	ssize_t n;

	msg[0] = '\0';
	if (pipe(fds))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct boost *b = NULL;

		close(fds[0]);
		if (!prepare())
			b = boost_open(BOOST_RT, "n1", _err, sizeof(_err));
		else
			snprintf(_err, sizeof(_err), "prepare: %s",
				 strerror(errno));
		if (write(fds[1], _err, strlen(_err)) < 0)
			_exit(3);
		_exit(b ? 0 : 2);
	}
	close(fds[1]);
	n = pid > 0 ? read(fds[0], msg, len - 1) : -1;
	msg[n > 0 ? n : 0] = '\0';
	close(fds[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A private mount namespace where sched_rt_runtime_us reads -1. */
static int _throttling_off(void)
{
	char file[] = "/tmp/test_boost_rt.XXXXXX";
	int fd = mkstemp(file), rc;

	if (fd < 0 || write(fd, "-1\n", 3) != 3)
		return -1;
	close(fd);
	rc = unshare(CLONE_NEWNS) ||
	     mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) ||
	     mount(file, "/proc/sys/kernel/sched_rt_runtime_us", "none",
		   MS_BIND, NULL) ? -1 : 0;
	unlink(file);
	return rc;
}

/* A private mount namespace whose debugfs shows RT_RUNTIME_SHARE on. */
static int _rt_share_on(void)
{
	FILE *f;

	if (unshare(CLONE_NEWNS) ||
	    mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) ||
	    mount("tmpfs", "/sys/kernel/debug", "tmpfs", 0, "mode=0700") ||
	    mkdir("/sys/kernel/debug/sched", 0700))
		return -1;
	f = fopen(boost_rt_features_files[0], "w");
	if (!f)
		return -1;
	fputs("GENTLE_FAIR_SLEEPERS START_DEBIT RT_RUNTIME_SHARE NO_LB_MIN\n", f);
	return fclose(f) ? -1 : 0;
}

static int _unprivileged(void)
{
	struct rlimit none = { 0, 0 };

	return setrlimit(RLIMIT_RTPRIO, &none) ||
	       setresuid(NOBODY, NOBODY, NOBODY) ? -1 : 0;
}

static void test_refusals(void)
{
	char msg[512];
	struct boost *b;
	int rc;

	rc = _open_in_child(_throttling_off, msg, sizeof(msg));
	ok(rc == 2 && strstr(msg, "boost=rt") &&
	   strstr(msg, "sched_rt_runtime_us is -1"),
	   "refused when RT throttling is off, naming the setting: %s", msg);
	rc = _open_in_child(_rt_share_on, msg, sizeof(msg));
	ok(rc == 2 && strstr(msg, "boost=rt") &&
	   strstr(msg, "RT_RUNTIME_SHARE is on"),
	   "refused when debugfs shows RT_RUNTIME_SHARE on: %s", msg);
	rc = _open_in_child(_unprivileged, msg, sizeof(msg));
	ok(rc == 2 && strstr(msg, "boost=rt") &&
	   strstr(msg, "cannot set SCHED_RR"),
	   "refused when SCHED_RR cannot be set: %s", msg);
	b = boost_open(BOOST_RT, "n1", _err, sizeof(_err));
	ok(b && sched_getscheduler(0) == SCHED_OTHER,
	   "the check (SCHED_RR tried on itself) leaves the caller as it was");
	boost_close(b);
}

struct share_case {
	const char *release, *features;
	int want;
	const char *says;	/* in the message when refused */
	const char *what;
};

static const struct share_case SHARE_CASES[] = {
	{ "4.19.0-25-amd64", "START_DEBIT RT_RUNTIME_SHARE NO_LB_MIN\n", -1,
	  "RT_RUNTIME_SHARE is on", "4.19, feature on: refused" },
	{ "6.1.0-13-amd64", "RT_RUNTIME_SHARE", -1, "RT_RUNTIME_SHARE is on",
	  "6.1, turned on by hand (first word): refused" },
	{ "4.19.0", "START_DEBIT NO_RT_RUNTIME_SHARE NO_LB_MIN\n", 0, NULL,
	  "4.19, NO_RT_RUNTIME_SHARE: allowed" },
	{ "6.18.0", "START_DEBIT TTWU_QUEUE\n", 0, NULL,
	  "a kernel without the feature: allowed" },
	{ "5.10.0", NULL, 0, NULL, "5.10, features unreadable: allowed" },
	{ "6.1.0", NULL, 0, NULL, "6.1, features unreadable: allowed" },
	{ "5.9.16", NULL, -1, "5.10 or later",
	  "5.9, features unreadable: refused, naming 5.10" },
	{ "4.19.0", NULL, -1, "mount debugfs",
	  "4.19, features unreadable: refused, saying to mount debugfs" },
	{ "garbage", NULL, -1, "5.10 or later",
	  "an unparsable release, features unreadable: refused" },
};

static void test_share(void)
{
	const char *none[] = { "/nonexistent/sched/features", NULL };
	char file[] = "/tmp/test_boost_rt.XXXXXX";
	const char *on[] = { none[0], file, NULL };
	int fd;

	for (size_t i = 0; i < sizeof(SHARE_CASES) / sizeof(SHARE_CASES[0]); i++) {
		const struct share_case *c = &SHARE_CASES[i];
		int rc;

		_err[0] = '\0';
		rc = boost_rt_share_verdict(c->release, c->features, _err,
					    sizeof(_err));
		ok(rc == c->want && (!c->says || strstr(_err, c->says)),
		   "RT_RUNTIME_SHARE: %s%s%s", c->what, rc ? ": " : "",
		   rc ? _err : "");
	}
	fd = mkstemp(file);
	if (fd >= 0 && write(fd, "A RT_RUNTIME_SHARE B\n", 21) != 21) {
		close(fd);
		fd = -1;
	}
	ok(fd >= 0 && boost_rt_share_check(on, _err, sizeof(_err)) &&
	   strstr(_err, "RT_RUNTIME_SHARE is on"),
	   "the first readable features file of the list is the one read");
	if (fd >= 0) {
		close(fd);
		unlink(file);
	}
	_err[0] = '\0';
	ok(boost_rt_share_check(boost_rt_features_files, _err, sizeof(_err)) == 0,
	   "this kernel: RT_RUNTIME_SHARE off, or 5.10+ with the features unreadable %s",
	   _err);
}

static void test_save(struct boost *b)
{
	static const struct want own = { SCHED_BATCH, 0, OWN_NICE };
	static const struct want demoted = { SCHED_BATCH, 0, OWN_NICE + 3 };
	struct boost_saved saved, forged;
	pid_t s = kids_spawn(_body_batch, NULL), r, t;
	struct proc_id id, rid, tid;

	proc_identify(s, &id);
	if (!ok(!boost_attach(b, &id, JOB_ID, &saved, _err, sizeof(_err)),
		"attach a spinner of two threads at SCHED_BATCH, nice %d",
		OWN_NICE))
		diag("  %s", _err);
	ok(saved.kind == BOOST_RT && saved.policy == SCHED_BATCH &&
	   saved.rt_priority == 0 && !saved.reset_on_fork &&
	   saved.nice == OWN_NICE,
	   "saved: policy %d, priority %d, reset %d, nice %d", saved.policy,
	   saved.rt_priority, saved.reset_on_fork, saved.nice);
	ok(!boost_set(b, &id, &saved, 10), "set level 10");
	is_int(_threads_as(s, &RR_BOOSTED), 2,
	       "every thread SCHED_RR 1 with SCHED_RESET_ON_FORK");
	ok(!boost_set(b, &id, &saved, 0), "set level 0");
	is_int(_threads_as(s, &own), 2,
	       "every thread back at SCHED_BATCH, nice %d, no reset flag",
	       OWN_NICE);
	ok(!boost_set(b, &id, &saved, -3) && _threads_as(s, &demoted) == 2,
	   "level -3: its own policy at nice own+3");
	boost_set(b, &id, &saved, 10);
	ok(!boost_restore(&id, &saved) && _threads_as(s, &own) == 2,
	   "restore from a boost: every thread as saved");
	boost_set(b, &id, &saved, -3);
	boost_set(b, &id, &saved, 10);
	ok(!kids_guardian_restore(&id, &saved) && _threads_as(s, &own) == 2,
	   "the guardian restores from saved alone");

	boost_set(b, &id, &saved, 10);
	forged = saved;
	forged.policy = SCHED_FIFO;
	forged.rt_priority = 50;
	ok(boost_restore(&id, &forged) && _threads_as(s, &RR_BOOSTED) == 2,
	   "a saved real-time policy is never given (restore refuses it)");
	boost_restore(&id, &saved);

	r = kids_spawn(_body_reset, NULL);
	proc_identify(r, &rid);
	boost_attach(b, &rid, JOB_ID, &forged, _err, sizeof(_err));
	boost_set(b, &rid, &forged, 10);
	boost_restore(&rid, &forged);
	ok(forged.reset_on_fork &&
	   sched_getscheduler(r) == (SCHED_OTHER | SCHED_RESET_ON_FORK),
	   "a process's own SCHED_RESET_ON_FORK is saved and kept");
	kids_reap(r);

	t = kids_spawn(_body_rt_thread, NULL);
	proc_identify(t, &tid);
	_err[0] = '\0';
	ok(boost_attach(b, &tid, JOB_ID, &forged, _err, sizeof(_err)) &&
	   strstr(_err, "real-time thread"),
	   "a process with a real-time thread is refused: %s", _err);
	kids_reap(t);

	kids_reap(s);
	is_int(boost_restore(&id, &saved), 0, "restore of an exited process");
	ok(boost_set(b, &id, &saved, 10), "a boost of an exited one fails");
}

/* The pid of the next child the forker reports, or 0. */
static pid_t _forked(pid_t forker)
{
	pid_t kid = 0;

	kill(forker, SIGUSR1);
	if (read(_report[0], &kid, sizeof(kid)) != sizeof(kid))
		return 0;
	return kid;
}

static int _persist_calls;

static int _persist(void *arg)
{
	(void)arg;
	_persist_calls++;
	return 0;
}

static void test_forked(struct boost *b)
{
	static const struct want child_reset = { SCHED_OTHER, 0, 0 };
	static const struct want own = { SCHED_OTHER, 0, OWN_NICE };
	struct boost_saved saved;
	pid_t f = kids_spawn(_body_forker, NULL), kid;
	struct proc_id id;

	proc_identify(f, &id);
	boost_attach(b, &id, JOB_ID, &saved, _err, sizeof(_err));
	boost_on_new_nice(b, _persist, NULL);
	ok(!boost_set(b, &id, &saved, 10) && _persist_calls == 1,
	   "forked: a boost notes (and persists) the nice 0 children get");
	kid = _forked(f);
	ok(kid > 0 && _threads_as(kid, &child_reset) == 1,
	   "forked: a child forked while boosted is SCHED_OTHER at nice 0");
	ok(!boost_restore(&id, &saved) && _threads_as(f, &own) == 1,
	   "forked: restore");
	ok(kid > 0 && _threads_as(kid, &own) == 1,
	   "forked: the child is back at the process's nice %d", OWN_NICE);
	boost_on_new_nice(b, NULL, NULL);
	kids_reap(f);
}

static void test_unprivileged(struct boost *b)
{
	struct boost_saved saved;
	pid_t u = kids_spawn(_body_unprivileged, NULL);
	struct proc_id id;
	int got[2] = { -1, -1 };

	proc_identify(u, &id);
	ok(!boost_attach(b, &id, JOB_ID, &saved, _err, sizeof(_err)) &&
	   !boost_set(b, &id, &saved, 10) &&
	   _threads_as(u, &RR_BOOSTED) == 1,
	   "an unprivileged process is boosted");
	kill(u, SIGUSR1);
	if (read(_report[0], got, sizeof(got)) != sizeof(got))
		got[0] = got[1] = -1;
	ok(got[0] == EPERM, "it cannot raise its RT priority (%s)",
	   strerror(got[0]));
	ok(got[1] == EPERM,
	   "it cannot take SCHED_RESET_ON_FORK off to pass RT on (%s)",
	   strerror(got[1]));
	boost_restore(&id, &saved);
	kids_reap(u);
}

static void test_throttle(struct boost *b)
{
	struct want normal = { SCHED_OTHER, 0, 0 };
	struct boost_saved saved;
	pid_t rt, plain;
	struct proc_id id;
	unsigned long long rt0;
	double share, rt_share, after;

	_cpu = kids_last_cpu();
	rt = kids_spawn(_body_pinned_rt_spin, NULL);
	plain = kids_spawn(_body_pinned_spin, NULL);
	proc_identify(rt, &id);
	ok(rt > 0 && plain > 0 &&
	   !boost_attach(b, &id, JOB_ID, &saved, _err, sizeof(_err)) &&
	   !boost_set(b, &id, &saved, 10) &&
	   _threads_as(rt, &RR_BOOSTED) == 1,
	   "safety: a spinner pinned to CPU %d is SCHED_RR by boost_set",
	   _cpu);
	rt0 = kids_cpu_ns(rt);
	share = _share(plain, SHARE_WINDOW_MS);
	rt_share = (double)(kids_cpu_ns(rt) - rt0) / (SHARE_WINDOW_MS * 1e6);
	diag("safety: over %d ms the SCHED_RR spinner got %.1f %% of CPU %d, the SCHED_OTHER one %.2f %%",
	     SHARE_WINDOW_MS, rt_share * 100, _cpu, share * 100);
	ok(share >= MIN_SHARE,
	   "safety: a SCHED_OTHER spinner on that CPU still runs: %.2f %% of it (at least %.2f %%)",
	   share * 100, MIN_SHARE * 100);
	ok(rt_share <= MAX_RT_SHARE,
	   "safety: the RT spinner leaves the others at least %.0f %% of the CPU (it got %.1f %%)",
	   (1 - MAX_RT_SHARE) * 100, rt_share * 100);
	normal.nice = saved.nice;	/* the test's own, under nice(1) */
	ok(!boost_restore(&id, &saved) && _threads_as(rt, &normal) == 1,
	   "safety: after restore the spinner is SCHED_OTHER again");
	after = _share(plain, SHARE_WINDOW_MS / 4);
	ok(after > share, "safety: the SCHED_OTHER one then gets more (%.1f %%)",
	   after * 100);
	kids_reap(rt);
	kids_reap(plain);
}

/* Why the whole test cannot run here, or NULL. */
static const char *_unusable(void)
{
	static char why[128];
	long long runtime, period;

	if (geteuid())
		return "not root: boost=rt needs CAP_SYS_NICE";
	if (boost_rt_throttle(&runtime, &period))
		return "no /proc/sys/kernel/sched_rt_runtime_us";
	if (runtime < 0) {
		snprintf(why, sizeof(why),
			 "kernel.sched_rt_runtime_us is -1: an RT spinner would hold a CPU");
		return why;
	}
	return NULL;
}

int main(void)
{
	const char *why = _unusable();
	struct boost *b;

	if (why) {
		printf("1..0 # SKIP %s\n", why);
		return 0;
	}
	kids_set_lifetime(60);	/* RT children end themselves */
	kids_guardian_start(boost_restore);	/* before any boost opens */
	if (pipe(_report))
		return 1;
	atexit(kids_reap_all);
	plan(TESTS_NAMES + TESTS_REFUSALS + TESTS_SHARE + TESTS_SAVE + TESTS_FORKED +
	     TESTS_UNPRIV + TESTS_THROTTLE);
	test_names();
	test_refusals();
	test_share();
	b = boost_open(BOOST_RT, "n1", _err, sizeof(_err));
	if (!b) {
		diag("boost_open: %s", _err);
		skip(TESTS_SAVE + TESTS_FORKED + TESTS_UNPRIV + TESTS_THROTTLE,
		     "boost_open(rt) failed");
	} else {
		test_save(b);
		test_forked(b);
		test_unprivileged(b);
		test_throttle(b);
	}
	boost_close(b);
	kids_reap_all();
	kids_guardian_stop();
	return done_testing();
}
