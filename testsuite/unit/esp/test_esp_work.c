/*
 * test_esp_work.c - esp-work without Slurm: the test stops and resumes
 * the program itself (SIGSTOP/SIGCONT as proctrack/linuxproc does, a
 * ptrace stop as a stand-in for the cgroup freezer, which thaws without
 * SIGCONT, a short one too) and checks the run log against its own
 * clock; a wait for the CPU behind a SCHED_FIFO task is no stop.
 *
 * About 13 seconds: each case runs esp-work for real time.
 *
 * test-alone: esp-work must burn a CPU for its whole run and count 50 ms
 * stops to within a tick; tests beside it on the CPUs take both away.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"

#ifndef ESP_WORK_PATH
#error "build with -DESP_WORK_PATH=\"path/to/esp-work\""
#endif

#define MAX_LINES 16

static const char *_prog;	/* esp-work under test */
static char _dir[] = "/tmp/test_esp_work.XXXXXX";
static char _log_path[64], _out_path[64], _err_path[64];

struct line {
	double t;
	char ev[16];
	char rest[256];
};

struct result {
	int status;		/* from wait4 */
	double cpu;		/* user + system seconds */
	struct line lines[MAX_LINES];
	int nlines;
	char out[512];		/* stdout */
	char err[1024];		/* stderr */
};

/* ------------------------------------------------------------ helpers */

static double _rt(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void _sleep(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s,
			       .tv_nsec = (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Start esp-work with argv (argv[0] filled in), stdout and stderr to
 * files; env "JOB/NODES" sets SLURM_JOB_ID and SLURM_JOB_NODELIST, NULL
 * clears them (the test may itself run inside a Slurm job).
 */
static const char *_restart_count;	/* SLURM_RESTART_COUNT, or unset */

static pid_t _spawn(const char **argv, const char *job, const char *nodes)
{
	pid_t pid;

	fflush(stdout);	/* the child's freopen would write it again */
	pid = fork();

	if (pid)
		return pid;
	if (!freopen(_out_path, "w", stdout) || !freopen(_err_path, "w", stderr))
		_exit(126);
	unsetenv("SLURM_JOB_ID");
	unsetenv("SLURM_JOB_NODELIST");
	unsetenv("SLURM_RESTART_COUNT");
	if (_restart_count)
		setenv("SLURM_RESTART_COUNT", _restart_count, 1);
	if (job)
		setenv("SLURM_JOB_ID", job, 1);
	if (nodes)
		setenv("SLURM_JOB_NODELIST", nodes, 1);
	argv[0] = _prog;
	execv(_prog, (char *const *)argv);
	fprintf(stderr, "exec %s: %s\n", _prog, strerror(errno));
	_exit(127);
}

static void _read_log(struct result *r)
{
	FILE *f = fopen(_log_path, "r");
	char buf[512];
	int off;

	r->nlines = 0;
	if (!f)
		return;
	while (r->nlines < MAX_LINES && fgets(buf, sizeof(buf), f)) {
		struct line *l = &r->lines[r->nlines];

		buf[strcspn(buf, "\n")] = '\0';
		if (sscanf(buf, "%lf %15s %n", &l->t, l->ev, &off) != 2) {
			diag("  unparsable log line: %s", buf);
			continue;
		}
		snprintf(l->rest, sizeof(l->rest), "%s", buf + off);
		r->nlines++;
	}
	fclose(f);
}

/* Wait for pid and collect everything it left. */
static void _reap(pid_t pid, struct result *r)
{
	struct rusage ru;

	memset(r, 0, sizeof(*r));
	while (wait4(pid, &r->status, 0, &ru) < 0 && errno == EINTR)
		;
	r->cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		 ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	_read_log(r);
	tap_slurp(_out_path, r->out, sizeof(r->out));
	tap_slurp(_err_path, r->err, sizeof(r->err));
	r->out[strcspn(r->out, "\n")] = '\0';	/* one line is expected */
	r->err[strcspn(r->err, "\n")] = '\0';
}

static int _exit_code(const struct result *r)
{
	return WIFEXITED(r->status) ? WEXITSTATUS(r->status)
				    : 1000 + WTERMSIG(r->status);
}

/* The idx-th line of event ev, or NULL. */
static const struct line *_find(const struct result *r, const char *ev,
				int idx)
{
	for (int i = 0; i < r->nlines; i++)
		if (!strcmp(r->lines[i].ev, ev) && idx-- == 0)
			return &r->lines[i];
	return NULL;
}

static int _count(const struct result *r, const char *ev)
{
	int n = 0;

	while (_find(r, ev, n))
		n++;
	return n;
}

/* The value of key=NUMBER in a line, NAN when absent. */
static double _num(const struct line *l, const char *key)
{
	size_t klen = strlen(key);
	const char *p;

	if (!l)
		return NAN;
	for (p = l->rest; (p = strstr(p, key)); p += klen)
		if ((p == l->rest || p[-1] == ' ') && p[klen] == '=')
			return strtod(p + klen + 1, NULL);
	return NAN;
}

static bool _has(const struct line *l, const char *field)
{
	size_t n = strlen(field);
	const char *p;

	if (!l)
		return false;
	for (p = l->rest; (p = strstr(p, field)); p += n)
		if ((p == l->rest || p[-1] == ' ') &&
		    (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

static double _elapsed(const struct result *r)
{
	const struct line *s = _find(r, "start", 0), *e = _find(r, "end", 0);

	return s && e ? e->t - s->t : NAN;
}

static void _fresh(void)
{
	unlink(_log_path);
	unlink(_out_path);
	unlink(_err_path);
}

static void _show(const struct result *r)
{
	for (int i = 0; i < r->nlines; i++)
		diag("  log: %.6f %s %s", r->lines[i].t, r->lines[i].ev,
		     r->lines[i].rest);
	if (*r->out)
		diag("  stdout: %s", r->out);
	if (*r->err)
		diag("  stderr: %s", r->err);
}

/* ------------------------------------------------------------ cases */

/* Sleeping, stopped once by SIGSTOP/SIGCONT: the stop does not count. */
static void _test_stop_cont(void)
{
	const char *argv[] = { NULL, "--seconds", "2", "--log", _log_path,
			       "--job", "7", NULL };
	const struct line *s;
	struct result r;
	int failed = tap_failed_;
	double t_stop, t_cont;
	pid_t pid;

	_fresh();
	pid = _spawn(argv, NULL, NULL);
	_sleep(0.5);
	t_stop = _rt();
	kill(pid, SIGSTOP);
	_sleep(1.5);
	t_cont = _rt();
	kill(pid, SIGCONT);
	_reap(pid, &r);

	is_int(_exit_code(&r), 0, "stop/cont: esp-work exits 0");
	is_int(r.nlines, 3, "  the log has 3 lines");
	ok(_find(&r, "start", 0) && _has(_find(&r, "start", 0), "job=7"),
	   "  a start line with job=7");
	is_int(_count(&r, "suspend"), 1, "  one suspend line");
	s = _find(&r, "suspend", 0);
	is_double(_num(s, "to") - _num(s, "from"), 1.5, 0.15,
		  "  it lasts the 1.5 s stopped");
	is_double(_num(s, "from"), t_stop, 0.15, "  from: when SIGSTOP was sent");
	is_double(_num(s, "to"), t_cont, 0.15, "  to: when SIGCONT was sent");
	is_double(_num(_find(&r, "end", 0), "run"), 2.0, 0.3,
		  "  end: run=2 (running time only)");
	is_double(_num(_find(&r, "end", 0), "suspended"), 1.5, 0.3,
		  "  end: suspended=1.5");
	is_double(_elapsed(&r), 3.5, 0.3, "  end - start = 3.5 s of wall time");
	ok(strstr(r.out, "run=2.0") && strstr(r.out, "wall=3."),
	   "  summary line on stdout");
	diag("  accuracy: run %+.3f s, suspended %+.3f s, from %+.3f s, to %+.3f s",
	     _num(_find(&r, "end", 0), "run") - 2.0,
	     _num(_find(&r, "end", 0), "suspended") - 1.5,
	     _num(s, "from") - t_stop, _num(s, "to") - t_cont);
	if (tap_failed_ > failed)
		_show(&r);
}

/* The modification time of path in epoch seconds, NAN when absent. */
static double _mtime(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return NAN;
	return st.st_mtim.tv_sec + st.st_mtim.tv_nsec / 1e9;
}

/*
 * --alive DIR: DIR/JOBID is renewed every second while the job runs, ages
 * while it is stopped, and is gone at the end.
 */
static void _test_alive(void)
{
	char alive[96];
	const char *argv[] = { NULL, "--seconds", "3", "--alive", _dir,
			       "--job", "9", NULL };
	struct result r;
	double running_age, stopped_age;
	pid_t pid;

	_fresh();
	snprintf(alive, sizeof(alive), "%s/9", _dir);
	pid = _spawn(argv, NULL, NULL);
	_sleep(1.6);
	running_age = _rt() - _mtime(alive);
	kill(pid, SIGSTOP);
	_sleep(2.5);
	stopped_age = _rt() - _mtime(alive);
	kill(pid, SIGCONT);
	_reap(pid, &r);
	is_int(_exit_code(&r), 0, "alive: esp-work exits 0");
	ok(running_age >= 0 && running_age < 1.3,
	   "  running: DIR/JOBID renewed within the second (age %.2f s)",
	   running_age);
	ok(stopped_age >= 2.4, "  stopped 2.5 s: it aged (%.2f s)", stopped_age);
	ok(access(alive, F_OK) && errno == ENOENT, "  removed at the end");
}

/* A job Slurm runs again tags every line restart=N (runlog.h). */
static void _test_restart(void)
{
	const char *argv[] = { NULL, "--seconds", "0.3", "--log", _log_path,
			       NULL };
	struct result r;

	_fresh();
	_restart_count = "2";
	_reap(_spawn(argv, "9", "n1"), &r);
	ok(_has(_find(&r, "start", 0), "restart=2") &&
	   _has(_find(&r, "end", 0), "restart=2"),
	   "restart: SLURM_RESTART_COUNT=2 tags start and end restart=2");
	_fresh();
	_restart_count = "0";
	_reap(_spawn(argv, "9", "n1"), &r);
	ok(!_has(_find(&r, "start", 0), "restart="),
	   "  the first run (0) is not tagged");
	_fresh();
	_restart_count = "two";
	_reap(_spawn(argv, "9", "n1"), &r);
	ok(!_has(_find(&r, "start", 0), "restart=") &&
	   strstr(r.err, "ignoring SLURM_RESTART_COUNT='two'"),
	   "  a value that is no count is ignored, and said");
	_restart_count = NULL;
}

/* No stop: exactly T; SIGCONTs alone (nothing stopped) are no stop. */
static void _test_plain(void)
{
	const char *argv[] = { NULL, "--seconds", "1", "--log", _log_path,
			       NULL };
	const struct line *e;
	struct result r;
	int failed = tap_failed_;
	pid_t pid;

	_fresh();
	pid = _spawn(argv, "8", "n[1-2]");
	_sleep(0.3);
	kill(pid, SIGCONT);
	_sleep(0.3);
	kill(pid, SIGCONT);
	_reap(pid, &r);
	e = _find(&r, "end", 0);

	is_int(_exit_code(&r), 0, "plain: esp-work exits 0");
	ok(_has(_find(&r, "start", 0), "job=8") &&
	   _has(_find(&r, "start", 0), "nodes=n[1-2]"),
	   "  job and nodes from SLURM_JOB_ID and SLURM_JOB_NODELIST");
	is_int(_count(&r, "suspend"), 0, "  no suspend line (SIGCONT alone is no stop)");
	is_double(_num(e, "run"), 1.0, 0.05, "  run=1");
	is_double(_num(e, "suspended"), 0.0, 0.0, "  suspended=0");
	is_double(_elapsed(&r), 1.0, 0.2, "  end - start = 1 s");
	ok(r.cpu < 0.3, "  sleeps: %.3f s of CPU", r.cpu);
	if (tap_failed_ > failed)
		_show(&r);
}

/* --burn spends CPU, and a stop still does not count. */
static void _test_burn(void)
{
	const char *argv[] = { NULL, "--seconds", "1", "--burn", "--log",
			       _log_path, "--job", "9", NULL };
	const struct line *e, *s;
	struct result r;
	int failed = tap_failed_;
	pid_t pid;

	_fresh();
	pid = _spawn(argv, NULL, NULL);
	_sleep(0.4);
	kill(pid, SIGSTOP);
	_sleep(0.6);
	kill(pid, SIGCONT);
	_reap(pid, &r);
	e = _find(&r, "end", 0);
	s = _find(&r, "suspend", 0);

	is_int(_exit_code(&r), 0, "burn: esp-work exits 0");
	/*
	 * Sleeping costs about 0.02 s of CPU: a quarter of the second still
	 * tells burning apart when parallel tests share the two cores (0.5
	 * failed once under make -j2 DEBUG=1 check-unit).
	 */
	ok(r.cpu > 0.25, "  burns the CPU: %.3f s of CPU for 1 s", r.cpu);
	is_int(_count(&r, "suspend"), 1, "  one suspend line");
	is_double(_num(s, "to") - _num(s, "from"), 0.6, 0.1, "  of 0.6 s");
	is_double(_num(e, "run"), 1.0, 0.1, "  run=1");
	is_double(_elapsed(&r), 1.6, 0.2, "  end - start = 1.6 s");
	diag("  accuracy: run %+.3f s, suspended %+.3f s", _num(e, "run") - 1.0,
	     _num(e, "suspended") - 0.6);
	if (tap_failed_ > failed)
		_show(&r);
}

/*
 * A stop without SIGCONT, like a cgroup freezer's: a ptrace stop
 * (PTRACE_INTERRUPT, then PTRACE_DETACH resumes without a signal) of
 * stop_s seconds.  1.5 s is caught by the gap alone; 0.4 s (gang rows
 * switched by the node agents freeze for a fifth of a second) only with
 * the wait for a CPU taken out of the gap.
 */
static void _test_freeze(double stop_s)
{
	const char *argv[] = { NULL, "--seconds", "1", "--log", _log_path,
			       "--job", "10", NULL };
	const struct line *e, *s;
	struct result r;
	int failed = tap_failed_, st, err;
	pid_t pid;
	bool traced;

	_fresh();
	pid = _spawn(argv, NULL, NULL);
	_sleep(0.3);
	traced = !ptrace(PTRACE_SEIZE, pid, NULL, NULL) &&
		 !ptrace(PTRACE_INTERRUPT, pid, NULL, NULL) &&
		 waitpid(pid, &st, __WALL) == pid && WIFSTOPPED(st);
	err = errno;
	if (traced) {
		_sleep(stop_s);
		ptrace(PTRACE_DETACH, pid, NULL, NULL);
	}
	_reap(pid, &r);
	if (!traced) {
		for (int i = 0; i < 3; i++)
			printf("ok %d # SKIP ptrace refused here (%s)\n",
			       ++tap_count_, strerror(err));
		fflush(stdout);
		return;
	}
	e = _find(&r, "end", 0);
	s = _find(&r, "suspend", 0);
	is_int(_count(&r, "suspend"), 1,
	       "freeze: a %.1f s stop without SIGCONT is one suspend line", stop_s);
	is_double(_num(s, "to") - _num(s, "from"), stop_s, 0.15, "  of %.1f s",
		  stop_s);
	is_double(_num(e, "run"), 1.0, 0.3, "  run=1, exit %d",
		  _exit_code(&r));
	if (tap_failed_ > failed)
		_show(&r);
}

/* The value of key= in esp-work's summary on stdout, -1 if none. */
static double _summary(const struct result *r, const char *key)
{
	char pat[32];
	const char *at;

	snprintf(pat, sizeof(pat), " %s=", key);
	at = strstr(r->out, pat);
	return at ? atof(at + strlen(pat)) : -1;
}

/*
 * Gang rows the node agents switch stop a job every few hundred
 * milliseconds, anywhere in its 50 ms sleeping ticks.  Twenty stops of
 * 150 ms at their own pace: the time esp-work counts as stopped must be
 * the time it was (within 0.15 s), not each stop plus the tick it cut
 * short (which took a further 25 ms on average per stop from the job's
 * running time, half a second here).
 */
static void _test_many_freezes(void)
{
	const char *argv[] = { NULL, "--seconds", "6", NULL };
	double stopped = 0, t0;
	struct result r;
	int st, n = 0;
	bool traced;
	pid_t pid;

	_fresh();
	pid = _spawn(argv, NULL, NULL);
	_sleep(0.2);
	traced = !ptrace(PTRACE_SEIZE, pid, NULL, NULL);
	for (int i = 0; traced && i < 20; i++) {
		_sleep(0.07 + 0.013 * i);	/* the phase drifts over the ticks */
		if (ptrace(PTRACE_INTERRUPT, pid, NULL, NULL) ||
		    waitpid(pid, &st, __WALL) != pid || !WIFSTOPPED(st))
			break;
		t0 = _rt();
		_sleep(0.15);
		stopped += _rt() - t0;
		n++;
		if (ptrace(PTRACE_CONT, pid, NULL, NULL))
			break;
	}
	if (traced)
		ptrace(PTRACE_DETACH, pid, NULL, NULL);
	_reap(pid, &r);
	if (!traced || n < 20) {
		printf("ok %d # SKIP ptrace refused here (%d stops)\n",
		       ++tap_count_, n);
		fflush(stdout);
		return;
	}
	is_double(_summary(&r, "suspended"), stopped, 0.15,
		  "20 stops of 0.15 s in 50 ms ticks: %.3f s counted stopped, %.3f s stopped",
		  _summary(&r, "suspended"), stopped);
}

/* Spin on CPU 0 under SCHED_FIFO for secs (a child's whole life). */
static pid_t _fifo_hog(double secs)
{
	struct sched_param sp = { .sched_priority = 1 };
	cpu_set_t cpu0;
	pid_t pid = fork();

	if (pid)
		return pid;
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0) ||
	    sched_setscheduler(0, SCHED_FIFO, &sp))
		_exit(1);
	for (struct timespec t0, t; clock_gettime(CLOCK_MONOTONIC, &t0) == 0;) {
		do
			clock_gettime(CLOCK_MONOTONIC, &t);
		while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
		_exit(0);
	}
	_exit(1);
}

/* The kernel's run_delay of process pid, seconds (-1: unknown). */
static double _run_delay_of(pid_t pid)
{
	char path[64], buf[96];
	unsigned long long cpu, delay;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fgets(buf, sizeof(buf), f) ? sscanf(buf, "%llu %llu", &cpu, &delay) : 0;
	fclose(f);
	return n == 2 ? delay / 1e9 : -1;
}

/*
 * A wait for the CPU is no stop: esp-work --burn on CPU 0 behind a
 * SCHED_FIFO task that holds it for 0.5 s.  esp-work sees a gap of half
 * a second, but it was runnable all along (the kernel's run_delay), and
 * a job that is not stopped is running, as on a node of its own.
 */
static void _test_cpu_wait(void)
{
	const char *argv[] = { NULL, "--seconds", "1", "--burn", "--log",
			       _log_path, "--job", "11", NULL };
	struct result r;
	cpu_set_t cpu0;
	int failed = tap_failed_, st = -1;
	double waited;
	pid_t pid, hog;

	_fresh();
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	pid = _spawn(argv, NULL, NULL);
	(void)sched_setaffinity(pid, sizeof(cpu0), &cpu0);
	_sleep(0.2);
	hog = _fifo_hog(0.5);
	waitpid(hog, &st, 0);
	/* the kernel adds a wait to run_delay when the task gets the CPU
	 * back, which on a busy host is a little after the hog's end */
	_sleep(0.1);
	waited = _run_delay_of(pid);
	_reap(pid, &r);
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		for (int i = 0; i < 3; i++)
			printf("ok %d # SKIP no SCHED_FIFO on CPU 0 here\n",
			       ++tap_count_);
		fflush(stdout);
		return;
	}
	ok(waited >= 0.4, "cpu wait: esp-work waited %.3f s behind a SCHED_FIFO task on its CPU",
	   waited);
	is_int(_count(&r, "suspend"), 0, "  which is no stop");
	is_double(_elapsed(&r), 1.0, 0.2, "  end - start = 1 s: waiting counts as running");
	if (tap_failed_ > failed)
		_show(&r);
}

static void _test_term(void)
{
	const char *argv[] = { NULL, "--seconds", "5", "--log", _log_path,
			       "--job", "11", NULL };
	const struct line *e;
	struct result r;
	int failed = tap_failed_;
	double t0;
	pid_t pid;

	_fresh();
	t0 = _rt();
	pid = _spawn(argv, NULL, NULL);
	_sleep(0.5);
	kill(pid, SIGTERM);
	_reap(pid, &r);
	e = _find(&r, "end", 0);

	is_int(_exit_code(&r), 143, "SIGTERM: exit status 143");
	ok(_rt() - t0 < 1.5, "  at once");
	ok(_has(e, "cancelled=1"), "  end line with cancelled=1");
	is_double(_num(e, "run"), 0.5, 0.2, "  and the run so far");
	if (tap_failed_ > failed)
		_show(&r);
}

/* Without --log nothing is written; the summary still is. */
static void _test_no_log(void)
{
	const char *argv[] = { NULL, "--seconds", "0.2", NULL };
	struct result r;

	_fresh();
	_reap(_spawn(argv, NULL, NULL), &r);
	is_int(_exit_code(&r), 0, "no --log: exits 0");
	ok(access(_log_path, F_OK) && strstr(r.out, "run=0.2"),
	   "  logs nothing, prints the summary (%s)", r.out);
}

static void _test_usage(void)
{
	static const struct {
		const char *args[6];
		const char *msg;
	} bad[] = {
		{ { NULL }, "esp-work: --seconds: missing" },
		{ { "--seconds", NULL }, "esp-work: --seconds: missing value" },
		{ { "--seconds", "abc", NULL },
		  "esp-work: --seconds: 'abc' is not a number" },
		{ { "--seconds", "2x", NULL },
		  "esp-work: --seconds: '2x' is not a number" },
		{ { "--seconds", "-1", NULL },
		  "esp-work: --seconds: must be positive" },
		{ { "--seconds", "0", NULL },
		  "esp-work: --seconds: must be positive" },
		{ { "--seconds", "nan", NULL },
		  "esp-work: --seconds: 'nan' is not a number" },
		{ { "--seconds", "1", "--tick", "0", NULL },
		  "esp-work: --tick: '0' is not a whole number" },
		{ { "--seconds", "1", "--job", "-3", NULL },
		  "esp-work: --job: '-3' is not a job id" },
		{ { "--seconds", "1", "--frobnicate", NULL },
		  "unknown option '--frobnicate'" },
		{ { "--seconds", "1", "extra", NULL },
		  "unexpected argument 'extra'" },
	};
	const char *argv[10];
	struct result r;
	bool all = true;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int n = 1;

		/* first, or a --seconds without value would take it */
		argv[n++] = "--log";
		argv[n++] = _log_path;
		for (int j = 0; bad[i].args[j]; j++)
			argv[n++] = bad[i].args[j];
		argv[n] = NULL;
		_fresh();
		_reap(_spawn(argv, NULL, NULL), &r);
		if (_exit_code(&r) != 2 || !strstr(r.err, bad[i].msg) ||
		    !access(_log_path, F_OK)) {
			all = false;
			diag("  case %zu: exit %d, stderr '%s', want 2 and '%s', no log",
			     i, _exit_code(&r), r.err, bad[i].msg);
		}
	}
	ok(all, "bad options: exit 2 with a message naming the option, nothing logged");

	argv[1] = "--help";
	argv[2] = NULL;
	_reap(_spawn(argv, NULL, NULL), &r);
	ok(_exit_code(&r) == 0 && strstr(r.out, "usage: esp-work --seconds T"),
	   "--help: usage on stdout, exit 0");
}

int main(void)
{
	_prog = getenv("ESP_WORK") ? getenv("ESP_WORK") : ESP_WORK_PATH;
	if (access(_prog, X_OK)) {
		printf("1..0 # SKIP %s: %s\n", _prog, strerror(errno));
		return 0;
	}
	if (!mkdtemp(_dir)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	snprintf(_log_path, sizeof(_log_path), "%s/run.log", _dir);
	snprintf(_out_path, sizeof(_out_path), "%s/out", _dir);
	snprintf(_err_path, sizeof(_err_path), "%s/err", _dir);
	fflush(stdout);	/* nothing buffered may be duplicated by fork */

	plan(49);
	_test_stop_cont();
	_test_alive();
	_test_plain();
	_test_restart();
	_test_burn();
	_test_freeze(1.5);
	_test_freeze(0.4);
	_test_many_freezes();
	_test_cpu_wait();
	_test_term();
	_test_no_log();
	_test_usage();

	_fresh();
	rmdir(_dir);
	return done_testing();
}
