/*
 * test_membench.c - membench run for real on small blocks: bad options
 * refused with a message naming them, the start, progress and done lines
 * and their numbers, the strides of min, max and --stride, the bytes per
 * access (exact: counted lines, not timed), the stop signals, a
 * SIGSTOP/SIGCONT pause, and the log appended to.
 *
 * About 3 seconds: each run walks for real time.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"

#ifndef MEMBENCH_PATH
#error "build with -DMEMBENCH_PATH=\"path/to/membench\""
#endif

#define MAX_ARGS 24
#define OUT_MAX 16384
#define MAX_TICKS 64

static const char *prog;
static char dir[] = "/tmp/test_membench.XXXXXX";
static char out_path[64], err_path[64], log_path[64];

/* What one run left: exit status, stdout (or the log), stderr. */
struct result {
	int status;
	char out[OUT_MAX];
	char err[2048];
};

/* A progress line. */
struct tick {
	double t;
	uint64_t accesses;
	uint64_t bytes;
};

/* ------------------------------------------------------------ helpers */

static void sleep_s(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s,
			       .tv_nsec = (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* membench with args (NULL-terminated), stdout and stderr to files. */
static pid_t spawn(const char *const *args)
{
	const char *argv[MAX_ARGS + 2] = { prog };
	pid_t pid;
	int i;

	for (i = 0; args[i] && i < MAX_ARGS; i++)
		argv[i + 1] = args[i];
	fflush(stdout);	/* the child must not write the TAP buffer again */
	pid = fork();
	if (pid)
		return pid;
	if (!freopen(out_path, "w", stdout) || !freopen(err_path, "w", stderr))
		_exit(126);
	execv(prog, (char *const *)argv);
	fprintf(stderr, "exec %s: %s\n", prog, strerror(errno));
	_exit(127);
}

static void reap(pid_t pid, struct result *r, const char *read_from)
{
	if (pid < 0 || waitpid(pid, &r->status, 0) != pid)
		r->status = -1;
	tap_slurp(read_from, r->out, sizeof(r->out));
	tap_slurp(err_path, r->err, sizeof(r->err));
}

/* Run to the end; the output is stdout. */
static void run(const char *const *args, struct result *r)
{
	reap(spawn(args), r, out_path);
}

static int exit_code(const struct result *r)
{
	return WIFEXITED(r->status) ? WEXITSTATUS(r->status) : -1;
}

/* A test of the exit code, with stderr when it fails. */
static void exits_with(const struct result *r, int want, const char *what)
{
	if (!ok(exit_code(r) == want, "%s: exit %d", what, want))
		diag("  status 0x%x, stderr: %s", (unsigned)r->status, r->err);
}

/* A blank, a newline or the end: where a field's value stops. */
static bool value_end(char c)
{
	return c == ' ' || c == '\n' || c == '\0';
}

/* The first line of text starting with prefix, copied into line. */
static bool find_line(const char *text, const char *prefix, char *line,
		      size_t len)
{
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, prefix, strlen(prefix))) {
			size_t n = strcspn(p, "\n");

			snprintf(line, len, "%.*s", (int)n, p);
			return true;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	line[0] = '\0';
	return false;
}

/* The text after " name=" up to the next blank, or NULL. */
static const char *field(const char *line, const char *name)
{
	char key[64];
	const char *p;

	snprintf(key, sizeof(key), " %s=", name);
	p = strstr(line, key);
	return p ? p + strlen(key) : NULL;
}

static bool field_u64(const char *line, const char *name, uint64_t *out)
{
	const char *v = field(line, name);
	char *end;

	if (!v || *v < '0' || *v > '9')
		return false;
	errno = 0;
	*out = strtoull(v, &end, 10);
	return !errno && value_end(*end);
}

static bool field_double(const char *line, const char *name, double *out)
{
	const char *v = field(line, name);
	char *end;

	if (!v || !*v)
		return false;
	*out = strtod(v, &end);
	return end != v && value_end(*end);
}

static bool field_is(const char *line, const char *name, const char *want)
{
	const char *v = field(line, name);
	size_t n = strlen(want);

	return v && !strncmp(v, want, n) && value_end(v[n]);
}

/* The progress lines of text, in order: how many (-1: one unparsable). */
static int parse_ticks(const char *text, struct tick *ticks, int max)
{
	const char *p = text;
	int n = 0;

	while ((p = strstr(p, "membench t=")) && n < max) {
		struct tick *k = &ticks[n];
		int used = 0;

		if (sscanf(p, "membench t=%lf accesses=%" SCNu64 " bytes=%" SCNu64 "%n",
			   &k->t, &k->accesses, &k->bytes, &used) != 3 ||
		    (p[used] != '\n' && p[used] != '\0'))
			return -1;
		n++;
		p += used;
	}
	return n;
}

/* The whole numbers of a done line, and its timing. */
struct done {
	uint64_t words, stride, accesses;
	double seconds, rate, mem_bytes_per_s;
	bool parsed;
};

static struct done parse_done(const char *text)
{
	struct done d = { 0 };
	char line[512];

	d.parsed = find_line(text, "membench done ", line, sizeof(line)) &&
		   field_u64(line, "words", &d.words) &&
		   field_u64(line, "stride", &d.stride) &&
		   field_u64(line, "accesses", &d.accesses) &&
		   field_double(line, "seconds", &d.seconds) &&
		   field_double(line, "rate", &d.rate) &&
		   field_double(line, "mem_bytes_per_s", &d.mem_bytes_per_s);
	if (!d.parsed)
		diag("  no parsable done line in: %s", text);
	return d;
}

/* Wait (up to 5 s) until the log has a start line. */
static bool wait_for_start(void)
{
	char buf[OUT_MAX], line[256];
	int i;

	for (i = 0; i < 500; i++) {
		tap_slurp(log_path, buf, sizeof(buf));
		if (find_line(buf, "membench start ", line, sizeof(line)))
			return true;
		sleep_s(0.01);
	}
	return false;
}

/* ------------------------------------------------------------- tests */

static void refuses(const char *opt, const char *const *args)
{
	struct result r;

	run(args, &r);
	exits_with(&r, 2, opt);
	ok(strstr(r.err, opt) && !r.out[0],
	   "  the message names %s and nothing ran", opt);
}

static void test_bad_options(void)
{
	refuses("--variant", (const char *[]){ "--variant", "mid", NULL });
	refuses("--words", (const char *[]){ "--words", "0", NULL });
	refuses("--words", (const char *[]){ "--words", "12x", NULL });
	refuses("--stride", (const char *[]){ "--stride", "0", NULL });
	refuses("--stride", (const char *[]){ "--words", "16", "--stride", "17", NULL });
	refuses("--line-words", (const char *[]){ "--line-words", "513", NULL });
	refuses("--seconds", (const char *[]){ "--seconds", "-1", NULL });
	refuses("--seconds", (const char *[]){ "--seconds", NULL });
	refuses("--report", (const char *[]){ "--report", "0", NULL });
	refuses("--label", (const char *[]){ "--label", "a b", NULL });
	refuses("--bogus", (const char *[]){ "--bogus", NULL });
	refuses("extra", (const char *[]){ "--words", "64", "extra", NULL });
}

static void test_help(void)
{
	struct result r;

	run((const char *[]){ "--help", NULL }, &r);
	exits_with(&r, 0, "--help");
	ok(strstr(r.out, "--line-words") && strstr(r.out, "--variant"),
	   "  and lists the options");
}

/*
 * A 0.3 s run on a 512 KiB block with 8-word lines: every line and
 * number, the stride of the variant; bytes per access from the
 * progress lines (exact), or 0 when the run failed.
 */
static double check_variant(const char *variant, uint64_t want_stride)
{
	struct result r;
	struct tick ticks[MAX_TICKS];
	struct done d;
	char line[256];
	uint64_t v;
	bool grows = true, exact = true;
	int n, i;

	run((const char *[]){ "--variant", variant, "--words", "65536",
			      "--line-words", "8", "--seconds", "0.3",
			      "--report", "0.05", "--label", variant, NULL }, &r);
	exits_with(&r, 0, variant);
	ok(find_line(r.out, "membench start ", line, sizeof(line)) &&
	   field_u64(line, "pid", &v) && v > 0 &&
	   field_is(line, "variant", variant) &&
	   field_u64(line, "words", &v) && v == 65536 &&
	   field_u64(line, "line_words", &v) && v == 8,
	   "  start line: pid, variant, words, line_words (%s)", line);
	ok(field_u64(line, "stride", &v) && v == want_stride,
	   "  stride %" PRIu64, want_stride);

	n = parse_ticks(r.out, ticks, MAX_TICKS);
	ok(n >= 2, "  progress lines parse, at least 2 (%d)", n);
	for (i = 1; i < n; i++)
		grows = grows && ticks[i].t > ticks[i - 1].t &&
			ticks[i].accesses > ticks[i - 1].accesses &&
			ticks[i].bytes > ticks[i - 1].bytes;
	ok(n >= 2 && grows, "  time, accesses and bytes grow between lines");
	for (i = 0; i < n; i++)
		exact = exact && ticks[i].bytes == ticks[i].accesses * 8 * want_stride;
	ok(n >= 1 && exact, "  bytes = accesses x %" PRIu64 " exactly (a line of 64 per %" PRIu64 " accesses)",
	   8 * want_stride, 8 / want_stride);

	d = parse_done(r.out);
	ok(d.parsed && field_is(strstr(r.out, "membench done"), "variant", variant) &&
	   field_is(strstr(r.out, "membench done"), "label", variant) &&
	   d.words == 65536 && d.stride == want_stride,
	   "  done line: variant, words, stride, label");
	ok(d.seconds >= 0.3 && d.seconds < 3,
	   "  ran its 0.3 s (%.3f)", d.seconds);
	ok(n >= 1 && d.accesses >= ticks[n - 1].accesses &&
	   d.rate > 0 && d.rate * d.seconds > 0.99 * d.accesses &&
	   d.rate * d.seconds < 1.01 * d.accesses + 1e3,
	   "  accesses at least the last line's; rate x seconds = accesses");
	return d.parsed && d.rate > 0 ? d.mem_bytes_per_s / d.rate : 0;
}

static void test_min_and_max(void)
{
	double min = check_variant("min", 1);
	double max = check_variant("max", 8);

	ok(min > 0 && max / min > 0.99 * 8 && max / min < 1.01 * 8,
	   "max moves L = 8 times min's bytes per access (%.3f / %.3f)",
	   max, min);
}

/* Without --line-words, the CPU's line; max's stride is that. */
static void test_cpu_line(void)
{
	struct result r;
	char line[256];
	uint64_t stride = 0, lw = 0;

	run((const char *[]){ "--words", "4096", "--seconds", "0.02", NULL }, &r);
	exits_with(&r, 0, "defaults, on the CPU's line");
	ok(find_line(r.out, "membench start ", line, sizeof(line)) &&
	   field_is(line, "variant", "max") &&
	   field_u64(line, "stride", &stride) &&
	   field_u64(line, "line_words", &lw) && lw >= 1 && stride == lw,
	   "  variant max, stride = line_words (%s)", line);
}

/*
 * --stride 3 on 1000 words: each pass is 334 accesses touching lines
 * 0..124 (the last access, word 999, is on line 124), so bytes follow
 * from accesses exactly even when neither divides the other.
 */
static void test_custom_stride(void)
{
	struct result r;
	struct tick ticks[MAX_TICKS];
	char line[256];
	bool exact = true;
	int n, i;

	run((const char *[]){ "--variant", "max", "--stride", "3", "--words",
			      "1000", "--line-words", "8", "--seconds", "0.15",
			      "--report", "0.03", NULL }, &r);
	exits_with(&r, 0, "--stride 3");
	ok(find_line(r.out, "membench start ", line, sizeof(line)) &&
	   field_is(line, "stride", "3") && field_is(line, "variant", "custom"),
	   "  overrides the variant (%s)", line);
	n = parse_ticks(r.out, ticks, MAX_TICKS);
	for (i = 0; i < n; i++)
		exact = exact && ticks[i].accesses % 334 == 0 &&
			ticks[i].bytes == ticks[i].accesses / 334 * 125 * 64;
	ok(n >= 1 && exact, "  125 lines of 64 bytes per 334-access pass (%d lines)", n);
}

/* A stop signal mid-run, with no time limit: the done line, exit 0. */
static void test_stop_signal(int sig, const char *name)
{
	struct result r;
	struct done d;
	pid_t pid;

	pid = spawn((const char *[]){ "--words", "65536", "--log", log_path,
				      "--label", name, NULL });
	ok(wait_for_start(), "%s: the run starts", name);
	sleep_s(0.1);
	kill(pid, sig);
	reap(pid, &r, log_path);
	unlink(log_path);
	exits_with(&r, 0, "  after the signal");
	d = parse_done(r.out);
	ok(d.parsed && d.accesses > 0 && d.seconds >= 0.1 &&
	   field_is(strstr(r.out, "membench done"), "label", name),
	   "  done line with its accesses and label");
}

/*
 * Stopped for 0.5 s in a 1 s run: wall time counts the pause, and the
 * progress lines resume on their grid, not caught up one per missed
 * period (20 lines in a second of 0.05 s periods, 10 missed).
 */
static void test_stop_cont(void)
{
	struct result r;
	struct tick ticks[MAX_TICKS];
	struct done d;
	bool increasing = true;
	double gap = 0;
	pid_t pid;
	int n, i;

	pid = spawn((const char *[]){ "--words", "65536", "--seconds", "1",
				      "--report", "0.05", "--log", log_path,
				      NULL });
	ok(wait_for_start(), "SIGSTOP/SIGCONT: the run starts");
	sleep_s(0.12);
	kill(pid, SIGSTOP);
	sleep_s(0.5);
	kill(pid, SIGCONT);
	reap(pid, &r, log_path);
	unlink(log_path);
	exits_with(&r, 0, "  after SIGCONT");
	d = parse_done(r.out);
	ok(d.parsed && d.seconds >= 1 && d.seconds < 5,
	   "  stops at 1 s of wall time, the pause included (%.3f)", d.seconds);
	n = parse_ticks(r.out, ticks, MAX_TICKS);
	for (i = 1; i < n; i++) {
		increasing = increasing && ticks[i].t > ticks[i - 1].t;
		if (ticks[i].t - ticks[i - 1].t > gap)
			gap = ticks[i].t - ticks[i - 1].t;
	}
	ok(n >= 3 && n <= 14 && increasing && gap >= 0.4,
	   "  progress lines in time order, one gap of the pause (%.3f s), none caught up (%d lines)",
	   gap, n);
}

/* --log appends: two runs, two start and two done lines, stdout empty. */
static void test_log_appends(void)
{
	const char *args[] = { "--words", "1024", "--seconds", "0.02",
			       "--log", log_path, NULL };
	char out[OUT_MAX];
	struct result r1, r2;
	const char *p;
	int starts = 0, dones = 0;

	run(args, &r1);
	run(args, &r2);
	tap_slurp(log_path, out, sizeof(out));
	unlink(log_path);
	for (p = out; (p = strstr(p, "membench start ")); p++)
		starts++;
	for (p = out; (p = strstr(p, "membench done ")); p++)
		dones++;
	ok(exit_code(&r1) == 0 && exit_code(&r2) == 0 && starts == 2 &&
	   dones == 2, "--log: two runs append two start and two done lines");
	ok(!r1.out[0] && !r2.out[0], "  and write nothing to stdout");
}

int main(void)
{
	prog = getenv("MEMBENCH") ? getenv("MEMBENCH") : MEMBENCH_PATH;
	if (access(prog, X_OK)) {
		printf("1..0 # SKIP %s not built\n", prog);
		return 0;
	}
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(out_path, sizeof(out_path), "%s/out", dir);
	snprintf(err_path, sizeof(err_path), "%s/err", dir);
	snprintf(log_path, sizeof(log_path), "%s/log", dir);

	plan(65);
	test_bad_options();
	test_help();
	test_min_and_max();
	test_cpu_line();
	test_custom_stride();
	test_stop_signal(SIGTERM, "SIGTERM");
	test_stop_signal(SIGINT, "SIGINT");
	test_stop_signal(SIGALRM, "SIGALRM");
	test_stop_cont();
	test_log_appends();

	unlink(out_path);
	unlink(err_path);
	unlink(log_path);
	rmdir(dir);
	return done_testing();
}
