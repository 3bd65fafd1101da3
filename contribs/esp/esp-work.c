/*
 * esp-work - the job program of the ESP utilization test.
 *
 *   esp-work --seconds T [--log FILE] [--burn] [--job ID] [--tick MS]
 *
 * Occupies its allocation for T seconds of *running* time: time spent
 * stopped (a gang row swapped out, a preempting job) does not count, so a
 * suspension really costs the test elapsed time, as it did on the T3E.
 *
 * Running time is measured in ticks on CLOCK_MONOTONIC, sleeping (or,
 * with --burn, spinning on arithmetic).  A stopped process cannot tell it
 * was stopped, but it sees the clock jump: a gap between two consecutive
 * readings longer than expected by more than a margin is a stop when
 * either a SIGCONT arrived meanwhile (proctrack/linuxproc resumes with
 * SIGCONT) or, as a cgroup freezer thaws without any signal, what is
 * left of the gap once the time spent waiting for a CPU is taken out
 * exceeds 100 ms and, when burning, the process blocked in it (a freezer
 * or a stop puts a running task to sleep, a voluntary context switch).  That wait is the
 * kernel's run_delay (/proc/thread-self/schedstat): a frozen or stopped
 * task is not runnable and does not add to it, a task behind others on a
 * busy CPU does.  A virtual CPU taken by the hypervisor (steal time)
 * neither blocks the task nor adds to run_delay: when burning, it is no
 * stop either (asleep, it cannot be told from a freezer's).
 * So a freeze of a fifth of a second (gang rows switched by the node
 * agents) is a stop, and a long wait on an overloaded host is not.
 * Without schedstat, only a blocked gap over a second beyond the expected
 * time is a stop (lib/esp/gap.h has the rule).  Stopped gaps are not counted, and each is logged.  A stop
 * inside a sleeping tick began somewhere in it: half the tick counts as
 * run, the unbiased guess (a whole tick lost per stop would cost a job a
 * tenth of its running time under stops every fifth of a second).
 *
 * Every job appends `start`, `suspend` and `end` lines to the run's log
 * (lib/esp/runlog.h), each with one write(2) under O_APPEND so lines of
 * concurrent jobs never interleave.  A job Slurm runs again (a requeue:
 * SLURM_RESTART_COUNT) tags its lines restart=N, so that the log tells
 * the lines of its runs apart.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "esp/gap.h"
#include "num/num.h"
#include "version/version.h"

#define PROG "esp-work"

#define NSEC 1000000000LL
#define MSEC 1000000LL

#define TICK_DEFAULT_MS 50
#define TICK_MAX_MS 1000
#define SECONDS_MAX (366.0 * 86400.0)	/* a year of running time */
#define MARGIN_MIN (20 * MSEC)

/* How often the --alive file's time is renewed while running. */
#define ALIVE_PERIOD NSEC

#define EXIT_USAGE 2
#define EXIT_FAIL 1

struct options {
	double seconds;
	const char *log;
	const char *alive_dir;
	bool burn;
	bool have_job;
	uint32_t job;
	long tick_ms;
};

struct work {
	int64_t target;		/* running time to reach, ns */
	int64_t tick;		/* ns */
	int64_t margin;		/* tolerated lateness of a reading, ns */
	bool burn;
	uint32_t job;
	char restart[32];	/* " restart=N" of a requeued job, or "" */
	int log_fd;		/* -1: no log */
	bool log_failed;
	int alive_fd;		/* -1: no --alive file */
	int schedstat_fd;	/* -1: the kernel keeps no run_delay */
	char alive_path[4096];
	int64_t alive_at;	/* monotonic time of its last renewal */
	int64_t run;		/* running time so far, ns */
	int64_t suspended;	/* stopped time so far, ns */
	unsigned nsusp;
};

/* Set by the handlers; the main loop does everything else. */
static volatile sig_atomic_t _n_cont;	/* SIGCONTs received */
static volatile sig_atomic_t _stop_sig;	/* SIGTERM or SIGINT, once */

static void _on_cont(int sig)
{
	(void)sig;
	/* SIGCONT is blocked while this runs: the increment cannot race. */
	_n_cont++;
}

static void _on_stop(int sig)
{
	if (!_stop_sig)
		_stop_sig = sig;
}

/* ------------------------------------------------------------ options */

static void _usage(FILE *out)
{
	fprintf(out,
		"usage: " PROG " --seconds T [--log FILE] [--alive DIR] [--burn] [--job ID]\n"
		"                [--tick MS]\n"
		"  --seconds T  run for T seconds of running time (not counting\n"
		"               time stopped by a suspend), T > 0, decimals allowed\n"
		"  --log FILE   append start, suspend and end lines to FILE\n"
		"  --alive DIR  keep the time of DIR/JOBID current while running\n"
		"               (every second; removed at the end), so that a\n"
		"               stopped job shows\n"
		"  --burn       spin on the CPU instead of sleeping\n"
		"  --job ID     job id for the log (default $SLURM_JOB_ID, else 0)\n"
		"  --tick MS    measuring tick, 1 to %d ms (default %d)\n"
		"  --help       this text\n"
		"  --version    the suite's version\n", TICK_MAX_MS, TICK_DEFAULT_MS);
}

static int _bad(const char *opt, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int _bad(const char *opt, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": --%s: ", opt);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

static int _parse_seconds(const char *s, double *out)
{
	double v;

	if (num_parse_double(s, &v))
		return _bad("seconds", "'%s' is not a number of seconds", s);
	if (v <= 0)
		return _bad("seconds", "must be positive, not '%s'", s);
	if (v > SECONDS_MAX)
		return _bad("seconds", "'%s' is more than a year", s);
	*out = v;
	return 0;
}

/* A decimal integer in [min, max], nothing else (no sign, no blanks). */
static int _parse_uint(const char *s, uint64_t min, uint64_t max,
		       uint64_t *out)
{
	uint64_t v;

	if (num_parse_u64(s, &v) || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int _parse_args(int argc, char **argv, struct options *opt)
{
	static const struct option longopts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "log", required_argument, NULL, 'l' },
		{ "alive", required_argument, NULL, 'a' },
		{ "burn", no_argument, NULL, 'b' },
		{ "job", required_argument, NULL, 'j' },
		{ "tick", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	bool have_seconds = false;
	int c;

	opterr = 0;	/* our messages name the option */
	while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (_parse_seconds(optarg, &opt->seconds))
				return -1;
			have_seconds = true;
			break;
		case 'l':
			if (!*optarg)
				return _bad("log", "empty file name");
			opt->log = optarg;
			break;
		case 'a':
			if (!*optarg)
				return _bad("alive", "empty directory name");
			opt->alive_dir = optarg;
			break;
		case 'b':
			opt->burn = true;
			break;
		case 'j':
			if (_parse_uint(optarg, 0, UINT32_MAX, &v))
				return _bad("job", "'%s' is not a job id", optarg);
			opt->job = v;
			opt->have_job = true;
			break;
		case 't':
			if (_parse_uint(optarg, 1, TICK_MAX_MS, &v))
				return _bad("tick", "'%s' is not a whole number of milliseconds from 1 to %d",
					    optarg, TICK_MAX_MS);
			opt->tick_ms = v;
			break;
		case 'h':
			_usage(stdout);
			exit(0);
		case ':':
			/* optopt is the long option's val */
			for (int i = 0; longopts[i].name; i++)
				if (longopts[i].val == optopt)
					return _bad(longopts[i].name, "missing value");
			fprintf(stderr, PROG ": missing value for '%s'\n",
				argv[optind - 1]);
			return -1;
		default:
			/* optopt: the unknown short option, 0 for a long one */
			if (optopt)
				fprintf(stderr, PROG ": unknown option '-%c' (see --help)\n",
					optopt);
			else
				fprintf(stderr, PROG ": unknown option '%s' (see --help)\n",
					argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, PROG ": unexpected argument '%s'\n",
			argv[optind]);
		return -1;
	}
	if (!have_seconds)
		return _bad("seconds", "missing (how long to run is required)");
	return 0;
}

/* --job, else $SLURM_JOB_ID, else 0. */
static uint32_t _job_id(const struct options *opt)
{
	const char *env = getenv("SLURM_JOB_ID");
	uint64_t v;

	if (opt->have_job)
		return opt->job;
	if (!env || !*env)
		return 0;
	if (_parse_uint(env, 0, UINT32_MAX, &v)) {
		fprintf(stderr, PROG ": ignoring SLURM_JOB_ID='%s' (not a job id)\n",
			env);
		return 0;
	}
	return v;
}

/* " restart=N" from $SLURM_RESTART_COUNT when it is N > 0, else "". */
static void _restart_tag(char *buf, size_t len)
{
	const char *env = getenv("SLURM_RESTART_COUNT");
	uint64_t v;

	buf[0] = '\0';
	if (!env || !*env)
		return;
	if (_parse_uint(env, 0, UINT32_MAX, &v)) {
		fprintf(stderr, PROG ": ignoring SLURM_RESTART_COUNT='%.32s' (not a count)\n",
			env);
		return;
	}
	if (v)
		snprintf(buf, len, " restart=%" PRIu32, (uint32_t)v);
}

/* ------------------------------------------------------------ clocks */

static int64_t _now(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (int64_t)ts.tv_sec * NSEC + ts.tv_nsec;
}

static int64_t _mono(void)
{
	return _now(CLOCK_MONOTONIC);
}

/*
 * The epoch time of monotonic instant m.  Measuring uses CLOCK_MONOTONIC
 * only (NTP steps must not count as running or stopped time); the log
 * wants wall-clock stamps, so convert with a pair of readings taken now.
 */
static int64_t _epoch_of(int64_t m)
{
	int64_t rt = _now(CLOCK_REALTIME);

	return rt - (_mono() - m);
}

/* ------------------------------------------------------------ log */

/* "1700000000.123456": epoch seconds with microseconds. */
static void _fmt_epoch(char *buf, size_t len, int64_t ns)
{
	int64_t us = ns / 1000;

	snprintf(buf, len, "%" PRId64 ".%06" PRId64, us / 1000000,
		 us % 1000000);
}

/* "12.345": a duration in seconds, milliseconds kept. */
static double _secs(int64_t ns)
{
	return (double)ns / NSEC;
}

/*
 * One line "<epoch> <text>\n" with a single write(2): under O_APPEND each
 * write lands whole at the end, so the lines of concurrent jobs never
 * mix.  A line too long for the stack buffer (a huge node list) is built
 * on the heap.  Failures are reported once and make the exit status 1,
 * but the job keeps occupying its allocation as planned.
 */
static void _log(struct work *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void _log(struct work *w, const char *fmt, ...)
{
	char stack[1024], stamp[32], *line = stack;
	va_list ap;
	int n, m;
	ssize_t wr = -1;

	if (w->log_fd < 0)
		return;
	_fmt_epoch(stamp, sizeof(stamp), _now(CLOCK_REALTIME));
	n = snprintf(line, sizeof(stack), "%s ", stamp);
	va_start(ap, fmt);
	m = vsnprintf(line + n, sizeof(stack) - n, fmt, ap);
	va_end(ap);
	if (m < 0)
		goto fail;
	if ((size_t)(n + m + 1) >= sizeof(stack)) {
		line = malloc(n + m + 2);
		if (!line)
			goto fail;
		memcpy(line, stamp, n - 1);
		line[n - 1] = ' ';
		va_start(ap, fmt);
		vsnprintf(line + n, m + 1, fmt, ap);
		va_end(ap);
	}
	line[n + m] = '\n';
	do
		wr = write(w->log_fd, line, n + m + 1);
	while (wr < 0 && errno == EINTR);
	if (line != stack)
		free(line);
	if (wr != n + m + 1)
		goto fail;
	return;
fail:
	if (!w->log_failed)
		fprintf(stderr, PROG ": cannot write the log: %s\n",
			wr < 0 ? strerror(errno) : "short write");
	w->log_failed = true;
}

static void _log_start(struct work *w)
{
	const char *nodes = getenv("SLURM_JOB_NODELIST");
	char host[HOST_NAME_MAX + 1] = "unknown";

	if (!nodes || !*nodes) {
		if (gethostname(host, sizeof(host)) == 0)
			host[sizeof(host) - 1] = '\0';
		nodes = host;
	}
	_log(w, "start job=%" PRIu32 "%s nodes=%s", w->job, w->restart, nodes);
}

static void _log_suspend(struct work *w, int64_t from, int64_t to)
{
	char f[32], t[32];

	_fmt_epoch(f, sizeof(f), _epoch_of(from));
	_fmt_epoch(t, sizeof(t), _epoch_of(to));
	_log(w, "suspend job=%" PRIu32 "%s from=%s to=%s", w->job, w->restart,
	     f, t);
}

static void _log_end(struct work *w, bool cancelled)
{
	_log(w, "end job=%" PRIu32 "%s run=%.3f suspended=%.3f%s", w->job,
	     w->restart, _secs(w->run), _secs(w->suspended),
	     cancelled ? " cancelled=1" : "");
}

/* ------------------------------------------------------------ alive */

/*
 * DIR/JOBID, whose modification time the job renews every second while it
 * runs: a driver that sees it age while Slurm says the job runs knows its
 * processes are stopped (esp-driver run --stall).  Failures only warn:
 * the job still occupies its allocation as planned.
 */
static void _alive_open(struct work *w, const char *dir)
{
	if ((size_t)snprintf(w->alive_path, sizeof(w->alive_path), "%s/%" PRIu32,
			     dir, w->job) >= sizeof(w->alive_path)) {
		fprintf(stderr, PROG ": --alive: %s: name too long\n", dir);
		return;
	}
	w->alive_fd = open(w->alive_path, O_WRONLY | O_CREAT | O_CLOEXEC |
			   O_NOFOLLOW, 0644);
	if (w->alive_fd < 0)
		fprintf(stderr, PROG ": --alive: %s: %s\n", w->alive_path,
			strerror(errno));
	w->alive_at = _mono();
}

static void _alive_renew(struct work *w, int64_t now)
{
	if (w->alive_fd < 0 || now - w->alive_at < ALIVE_PERIOD)
		return;
	futimens(w->alive_fd, NULL);
	w->alive_at = now;
}

static void _alive_close(struct work *w)
{
	if (w->alive_fd < 0)
		return;
	close(w->alive_fd);
	unlink(w->alive_path);
}

/* ------------------------------------------------------------ work */

/* Some arithmetic the compiler cannot drop, a few microseconds of it. */
static void _spin(void)
{
	static volatile double sink = 1.0;
	double x = sink;

	for (int i = 0; i < 2000; i++)
		x = x * 1.000000001 + 1e-9;
	sink = x;
}

/*
 * Spend one tick of len ns from the reading start.  Returns in *now the
 * reading that ends it and in *last the reading before that one: a stop
 * shows as the gap between them.  Sleeping there is one gap (last is
 * start); burning reads the clock every few microseconds and returns at
 * the first long gap, so the CPU time before a stop still counts.  A
 * signal ends the tick early, which is harmless: what counts is the
 * clock.
 */
static void _tick(const struct work *w, int64_t start, int64_t len,
		  int64_t *last, int64_t *now)
{
	struct timespec ts = { .tv_sec = len / NSEC, .tv_nsec = len % NSEC };
	int64_t prev = start, t;

	if (!w->burn) {
		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
		*last = start;
		*now = _mono();
		return;
	}
	for (;;) {
		_spin();
		t = _mono();
		if (t - start >= len || t - prev > w->margin || _stop_sig)
			break;
		prev = t;
	}
	*last = prev;
	*now = t;
}

/* The thread's time spent runnable but waiting for a CPU, ns; -1 when
 * the kernel does not say. */
static int64_t _run_delay(const struct work *w)
{
	char buf[96], *field;
	ssize_t n;
	uint64_t delay;

	if (w->schedstat_fd < 0)
		return -1;
	n = pread(w->schedstat_fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* "cpu_ns run_delay_ns timeslices\n" */
	field = strchr(buf, ' ');
	if (!field)
		return -1;
	field++;
	field[strcspn(field, " \n")] = '\0';
	if (num_parse_u64(field, &delay) || delay > INT64_MAX)
		return -1;
	return (int64_t)delay;
}

/* How often the thread left the CPU of its own accord so far (it slept,
 * was frozen or stopped), -1 when unknown. */
static long _blocks(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return -1;
	return ru.ru_nvcsw;
}

/* Times blocked between two _blocks readings, -1 when unknown. */
static long _blocked(long before, long after)
{
	return before < 0 || after < 0 ? -1 : after - before;
}

/*
 * Run until w->target ns of running time; false when stopped by a
 * signal.  A SIGCONT counts for the gap it was seen after; one landing
 * between a reading and the look at the counter would be credited to the
 * neighbouring gap, a window of nanoseconds against a tick spent asleep
 * or spinning (and a stop of over a second is caught anyway).
 */
static bool _work(struct work *w, int64_t *wall)
{
	int64_t begin = _mono(), prev = begin, last, now, expect, len;
	int64_t credit;
	int64_t delay_before = _run_delay(w), delay;
	long blocks_before = _blocks(), blocks;
	sig_atomic_t seen = _n_cont, n;
	struct esp_gap gap = { .margin = w->margin };

	while (w->run < w->target && !_stop_sig) {
		len = w->target - w->run;
		if (len > w->tick)
			len = w->tick;
		_tick(w, prev, len, &last, &now);
		n = _n_cont;
		gap.cont = n != seen;
		seen = n;

		/* the wait and the blocks since prev, a superset of the
		 * gap's: at worst a stop is taken for a wait, never a wait
		 * for a stop */
		delay = _run_delay(w);
		gap.waited = delay >= 0 && delay_before >= 0 ?
			     delay - delay_before : -1;
		delay_before = delay;
		/* asleep, a freezer may freeze the task in place, with no
		 * switch beyond the sleep's own: blocks tell only burning */
		blocks = _blocks();
		gap.blocked = w->burn ? _blocked(blocks_before, blocks) : -1;
		blocks_before = blocks;

		expect = w->burn ? 0 : len;
		gap.over = now - last - expect;
		if (esp_gap_is_stop(&gap)) {
			/* a sleeping tick ran until the stop, which came
			 * anywhere in it: half of it is the unbiased guess
			 * (stops every fifth of a second add up otherwise) */
			credit = expect / 2;
			w->run += last - prev + credit;
			w->suspended += now - last - credit;
			w->nsusp++;
			_log_suspend(w, last + credit, now);
		} else {
			w->run += now - prev;
		}
		_alive_renew(w, now);
		prev = now;
	}
	*wall = prev - begin;
	return !_stop_sig;
}

static int _install_handlers(void)
{
	struct sigaction sa = { .sa_handler = _on_cont };

	/* No SA_RESTART: a signal should end the current sleep. */
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGCONT, &sa, NULL))
		return -1;
	sa.sa_handler = _on_stop;
	if (sigaction(SIGTERM, &sa, NULL) || sigaction(SIGINT, &sa, NULL))
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	struct options opt = { .tick_ms = TICK_DEFAULT_MS };
	struct work w = { .log_fd = -1, .alive_fd = -1, .schedstat_fd = -1 };
	int64_t wall;
	bool completed;
	int rc;

	if (coalloc_version_wanted(argc, argv))
		return coalloc_version_print("esp-work");

	if (_parse_args(argc, argv, &opt))
		return EXIT_USAGE;

	w.target = llround(opt.seconds * NSEC);
	w.tick = opt.tick_ms * MSEC;
	w.margin = w.tick / 2 > MARGIN_MIN ? w.tick / 2 : MARGIN_MIN;
	w.burn = opt.burn;
	w.job = _job_id(&opt);
	_restart_tag(w.restart, sizeof(w.restart));
	w.schedstat_fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);

	if (_install_handlers()) {
		fprintf(stderr, PROG ": sigaction: %s\n", strerror(errno));
		return EXIT_FAIL;
	}
	if (opt.log) {
		w.log_fd = open(opt.log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
				0644);
		if (w.log_fd < 0) {
			fprintf(stderr, PROG ": cannot open the log %s: %s\n",
				opt.log, strerror(errno));
			return EXIT_FAIL;
		}
	}

	if (opt.alive_dir)
		_alive_open(&w, opt.alive_dir);
	_log_start(&w);
	completed = _work(&w, &wall);
	_alive_close(&w);
	_log_end(&w, !completed);

	printf(PROG ": job=%" PRIu32 " run=%.3f suspended=%.3f wall=%.3f stops=%u%s\n",
	       w.job, _secs(w.run), _secs(w.suspended), _secs(wall), w.nsusp,
	       completed ? "" : " cancelled=1");
	fflush(stdout);

	if (w.log_fd >= 0)
		close(w.log_fd);
	if (!completed)
		rc = 128 + _stop_sig;
	else
		rc = w.log_failed ? EXIT_FAIL : 0;
	return rc;
}
