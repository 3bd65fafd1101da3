/*
 * test_runlog.c - the ESP run log: parsing (good logs, forward-compatible
 * ones, one test per kind of mistake), the analysis on logs whose answer
 * is computed by hand (efficiency, utilization, both full-configuration
 * rules passing and failing), and the outputs (CSV, JSON read back with
 * json-c, the chronology's data files, and its gnuplot script when gnuplot
 * is there).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE	/* nftw's FTW_DEPTH */
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "esp/runlog.h"
#include "tap.h"

#define EPS 1e-9

static char tmpdir[] = "/tmp/test_runlog.XXXXXX";
static char err[ESP_ERR_LEN];

/* ------------------------------------------------------------ helpers */

#define path_of(out, name) snprintf(out, sizeof(out), "%s/%s", tmpdir, name)

/* Logs are written with times relative to a t0 of the test's choosing. */
static FILE *logfp;
static double t0;

static void log_open(char *path, const char *name, double base)
{
	snprintf(path, PATH_MAX, "%s/%s", tmpdir, name);
	logfp = fopen(path, "w");
	if (!logfp) {
		perror(path);
		exit(2);
	}
	t0 = base;
}

static void L(double rel, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void L(double rel, const char *fmt, ...)
{
	va_list ap;

	fprintf(logfp, "%.6f ", t0 + rel);
	va_start(ap, fmt);
	vfprintf(logfp, fmt, ap);
	va_end(ap);
	fputc('\n', logfp);
}

/* A line written as is (for malformed times, blank lines). */
static void raw(const char *line)
{
	fprintf(logfp, "%s\n", line);
}

static void log_close(void)
{
	if (fclose(logfp)) {
		perror("fclose");
		exit(2);
	}
}

static int read_log(const char *path, struct esp_run *run)
{
	err[0] = '\0';
	return esp_runlog_read(path, run, err, sizeof(err));
}

static char *slurp(const char *path)
{
	static char buf[8192];
	FILE *fp = fopen(path, "r");
	size_t n;

	if (!fp)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

/* The line of a text file starting with prefix, or "". */
static const char *line_with(const char *text, const char *prefix)
{
	static char line[512];
	const char *p = text;

	while (p && *p) {
		size_t n = strcspn(p, "\n");

		if (!strncmp(p, prefix, strlen(prefix)) && n < sizeof(line)) {
			memcpy(line, p, n);
			line[n] = '\0';
			return line;
		}
		p += n + (p[n] == '\n');
	}
	return "";
}

/*
 * A step data file (x y rows) read as gnuplot's `steps` draws it: the y of
 * the last row at or before x; NAN before the first.  *rows counts them.
 */
static double step_at(const char *path, double x, int *rows)
{
	FILE *fp = fopen(path, "r");
	char line[256];
	double rx, ry, y = NAN;

	*rows = 0;
	if (!fp)
		return NAN;
	while (fgets(line, sizeof(line), fp)) {
		if (line[0] == '#')
			continue;
		if (sscanf(line, "%lf %lf", &rx, &ry) != 2)
			continue;
		(*rows)++;
		if (rx <= x + 1e-6)
			y = ry;
	}
	fclose(fp);
	return y;
}

static int _rm(const char *path, const struct stat *st, int flag,
	       struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* ------------------------------------------------------------ the run */

/*
 * P = 4, t0 at a realistic epoch.  Times after t0:
 *
 *   job  size  block  submit  start  suspended  end   run
 *   101  2     1      0       0      4-8        14    10
 *   102  2     1      0       0      4-8        16    12
 *   100  4     0 (Z1) 3       4      -          8     4
 *   103  1     2      10      20     -          32    12 (planned 10)
 *   104  4     3 (Z2) 16      16     -          20    4
 *
 * W = 2*10 + 2*12 + 4*4 + 1*10 + 4*4 = 86 (planned), T = 32,
 * E = 86 / 128, E_r (S = 8) = 86 / 160, busy = 20 + 24 + 16 + 12 + 16 =
 * 88 (job 103 ran 2 s over its plan), utilization = 88 / 128.
 * Z1 waited 1 s, nobody started in (3, 3]; Z2 ended at 20 <= 0.9 * 32.
 */
static void write_main(char *path)
{
	log_open(path, "main.log", 1700000000.25);
	L(0, "test mix=tiny procs=4 work=86.000 min_time=21.500 reboot=8.000 seed=7 compress=0.500 future=yes");
	L(0, "submit job=101 name=a.1 size=2 block=1 full=0 seconds=10.000");
	L(0, "submit job=102 name=a.2 size=2 block=1 full=0 seconds=12.000");
	L(0, "start job=101 nodes=n[1-2]");
	L(0, "start job=102 nodes=n[3,4]");
	L(3, "submit job=100 name=Z.1 size=4 block=0 full=1 seconds=4.000");
	L(4, "start job=100 nodes=n[1-4]");
	L(8, "end job=100 run=4.000 suspended=0.000");
	L(8, "suspend job=101 from=%.6f to=%.6f", t0 + 4, t0 + 8);
	L(8, "suspend job=102 from=%.6f to=%.6f", t0 + 4, t0 + 8);
	raw("");
	L(10, "submit job=103 name=b.1 size=1 block=2 full=0 seconds=10.000");
	L(10, "checkpoint job=103 level=3");
	L(11, "note free text, not key=value");
	L(14, "end job=101 run=10.000 suspended=4.000 color=red");
	L(16, "end job=102 run=12.000 suspended=4.000");
	L(16, "submit job=104 name=Z.2 size=4 block=3 full=1 seconds=4.000");
	L(16, "start job=104 nodes=n[1-4]");
	L(20, "end job=104 run=4.000 suspended=0.000");
	L(20, "start job=103 nodes=n1");
	L(32, "end job=103 run=12.000 suspended=0.000");
	L(32, "finish");
	log_close();
}

static void test_parse(const struct esp_run *run)
{
	static const uint32_t order[] = { 101, 102, 100, 103, 104 };
	const struct esp_run_job *j;
	size_t i;
	int same = 1;

	is_str(run->mix, "tiny", "mix");
	is_int(run->procs, 4, "procs");
	is_double(run->work, 86, EPS, "work");
	is_double(run->min_time, 21.5, EPS, "min_time");
	is_double(run->reboot, 8, EPS, "reboot");
	is_double(run->compress, 0.5, EPS, "compress");
	is_int(run->seed, 7, "seed");
	is_double(run->t0, 1700000000.25, 1e-6, "t0 is the test line's time");
	ok(run->finished, "finish line seen");
	is_int(run->njobs, 5, "five jobs");
	for (i = 0; i < 5 && run->njobs == 5; i++)
		same &= run->jobs[i].jobid == order[i];
	ok(same, "jobs in the order of their submit lines");
	if (run->njobs != 5)
		return;
	j = &run->jobs[1];
	is_str(j->name, "a.2", "name");
	is_int(j->size, 2, "size");
	is_int(j->block, 1, "block");
	ok(!j->full, "not full");
	is_double(j->seconds, 12, EPS, "planned seconds");
	is_double(j->submit, 0, 1e-6, "submit after t0");
	is_double(j->start, 0, 1e-6, "start after t0");
	is_double(j->end, 16, 1e-6, "end after t0");
	is_double(j->run, 12, EPS, "run as reported");
	is_double(j->suspended, 4, EPS, "suspended as reported");
	is_str(j->nodes, "n[3,4]", "nodes");
	is_int(j->nsusp, 1, "one suspended interval");
	if (j->nsusp == 1) {
		is_double(j->susp[0].from, 4, 1e-6, "suspended from, after t0");
		is_double(j->susp[0].to, 8, 1e-6, "suspended to, after t0");
	}
	ok(run->jobs[2].full && run->jobs[2].block == 0, "Z1 full, block 0");
	ok(!run->jobs[0].cancelled, "not cancelled");
}

static void test_analyze_main(const struct esp_run *run)
{
	struct esp_result res;

	esp_analyze(run, ESP_IMMEDIATE_DEFAULT, ESP_TIE_DEFAULT, &res);
	is_double(res.elapsed, 32, 1e-6, "T: the last end");
	is_double(res.efficiency, 86.0 / 128, 1e-9, "E = W / (P T)");
	is_double(res.efficiency_with_reboot, 86.0 / 160, 1e-9,
		  "E_r = W / (P (T + S))");
	is_double(res.busy, 88, 1e-6, "busy CPU-seconds, less suspensions");
	is_double(res.utilization, 88.0 / 128, 1e-9, "utilization");
	is_int(res.completed, 5, "all completed");
	is_int(res.missing, 0, "none missing");
	is_double(res.z1_submit, 3, 1e-6, "z1 submit");
	is_double(res.z1_start, 4, 1e-6, "z1 start");
	is_double(res.z1_wait, 1, 1e-6, "z1 wait");
	is_int(res.z1_overtaken, 0, "z1 not overtaken");
	ok(res.z_first_immediate, "Z1 immediate: passes");
	is_double(res.z2_end, 20, 1e-6, "z2 end");
	is_double(res.z2_limit, 0.9 * 32, 1e-6, "z2 limit 0.9 T");
	ok(res.z_second_within_90, "Z2 within 90 %%: passes");

	esp_analyze(run, 0.5, ESP_TIE_DEFAULT, &res);
	ok(!res.z_first_immediate, "Z1 fails with immediate below its wait");

	is_double(esp_utilization_at(run, -1), 0, EPS, "before t0: idle");
	is_double(esp_utilization_at(run, 0), 1, EPS, "t=0: 101 and 102");
	is_double(esp_utilization_at(run, 6), 1, EPS,
		  "t=6: Z1 only, 101 and 102 suspended");
	is_double(esp_utilization_at(run, 14), 0.5, EPS,
		  "t=14: 101 ended at 14, [start, end)");
	is_double(esp_utilization_at(run, 17), 1, EPS, "t=17: Z2");
	is_double(esp_utilization_at(run, 25), 0.25, EPS, "t=25: 103");
	is_double(esp_utilization_at(run, 32), 0, EPS, "t=T: idle");
}

/* ------------------------------------------------------------ Z rules */

/* Z1 overtaken by a job that started while it waited. */
static void test_overtaken(void)
{
	struct esp_run run;
	struct esp_result res;
	char path[PATH_MAX];

	log_open(path, "overtaken.log", 1000);
	L(0, "test procs=4 work=20");
	L(0, "submit job=1 size=2 block=1 seconds=5");
	L(0, "submit job=2 size=1 block=1 seconds=5");
	L(0, "submit job=3 size=1 block=1 seconds=5");
	L(0, "start job=1");
	L(3, "submit job=9 size=4 block=0 full=1 seconds=1");
	L(3.5, "start job=2");	/* overtakes */
	L(5.5, "start job=3");	/* within the tie of Z1's start */
	L(6, "start job=9");
	L(7, "end job=9");
	L(8, "end job=1");
	L(8.5, "end job=2");
	L(10, "end job=3");
	log_close();
	is_int(read_log(path, &run), 0, "overtaken: read");
	esp_analyze(&run, ESP_IMMEDIATE_DEFAULT, ESP_TIE_DEFAULT, &res);
	is_double(res.z1_wait, 3, 1e-9, "overtaken: waited 3 s");
	is_int(res.z1_overtaken, 1, "overtaken: once (the tie does not count)");
	ok(!res.z_first_immediate, "overtaken: Z1 fails");
	ok(!res.z_second_within_90, "no Z2: fails");
	ok(isnan(res.z2_end), "no Z2: end NAN");
	is_double(res.z2_limit, 9, 1e-9, "no Z2: limit still 0.9 T");
	esp_analyze(&run, ESP_IMMEDIATE_DEFAULT, 0.4, &res);
	is_int(res.z1_overtaken, 2, "overtaken: twice with a smaller tie");
	esp_run_free(&run);
}

/*
 * Z1 waits 17 s (nobody overtakes); Z2, submitted first in the file, ends
 * at T > 0.9 T; one job cancelled, one never started.
 */
static void test_late(void)
{
	struct esp_run run;
	struct esp_result res;
	char path[PATH_MAX];

	log_open(path, "late.log", 1000);
	L(0, "test procs=4 work=100");
	L(0, "submit job=5 size=2 block=1 seconds=10");
	L(0, "submit job=6 size=2 block=1 seconds=10");
	L(0, "start job=5");
	L(1, "submit job=8 size=4 block=3 full=1 seconds=5");
	L(2, "end job=5 run=2.000 suspended=0.000 cancelled=1");
	L(3, "submit job=7 size=4 block=0 full=1 seconds=4");
	L(20, "start job=7");
	L(24, "end job=7 run=4.000 suspended=0.000");
	L(25, "start job=8");
	L(30, "end job=8 run=5.000 suspended=0.000");
	log_close();
	is_int(read_log(path, &run), 0, "late: read");
	ok(!run.finished, "late: no finish line");
	ok(run.jobs[0].cancelled && !run.jobs[1].cancelled,
	   "late: cancelled flag kept");
	esp_analyze(&run, ESP_IMMEDIATE_DEFAULT, ESP_TIE_DEFAULT, &res);
	is_double(res.elapsed, 30, 1e-9, "late: T");
	/* unfinished, one job cancelled: E counts only the completed jobs'
	 * work (4 x 4 + 4 x 5), not the planned 100 */
	is_double(res.efficiency, 36.0 / 120, 1e-9, "late: E of what completed");
	is_double(res.efficiency_with_reboot, 36.0 / 120, 1e-9,
		  "late: E_r without reboot is E");
	is_double(res.busy, 40, 1e-9, "late: busy counts the cancelled job");
	is_double(res.utilization, 40.0 / 120, 1e-9, "late: utilization");
	is_int(res.completed, 2, "late: completed (cancelled is not)");
	is_int(res.missing, 2, "late: cancelled and never run are missing");
	is_double(res.z1_submit, 3, 1e-9, "late: Z1 is the block-0 one");
	is_double(res.z1_wait, 17, 1e-9, "late: Z1 waited 17 s");
	is_int(res.z1_overtaken, 0, "late: not overtaken");
	ok(!res.z_first_immediate, "late: Z1 waited too long: fails");
	is_double(res.z2_end, 30, 1e-9, "late: Z2 end");
	ok(!res.z_second_within_90, "late: Z2 after 0.9 T: fails");
	esp_analyze(&run, 17, ESP_TIE_DEFAULT, &res);
	ok(res.z_first_immediate, "late: Z1 passes with immediate = 17");
	esp_run_free(&run);
}

/*
 * Z1 never starts, Z2 is cancelled (in time, but that is no pass), job 1
 * starts and never ends (it runs to T).
 */
static void test_unfinished(void)
{
	struct esp_run run;
	struct esp_result res;
	char path[PATH_MAX];

	log_open(path, "unfinished.log", 1000);
	L(0, "test procs=2 work=10");
	L(0, "submit job=1 size=1 block=1 seconds=10");
	L(0, "submit job=2 size=2 block=0 full=1 seconds=1");
	L(0, "submit job=3 size=2 block=3 full=1 seconds=1");
	L(1, "start job=3");
	L(2, "end job=3 run=1.000 suspended=0.000 cancelled=1");
	L(2, "start job=1");
	L(4, "submit job=4 size=1 block=1 seconds=1");
	L(4, "start job=4");
	L(5, "end job=4 run=1.000 suspended=0.000");
	log_close();
	is_int(read_log(path, &run), 0, "unfinished: read");
	esp_analyze(&run, ESP_IMMEDIATE_DEFAULT, ESP_TIE_DEFAULT, &res);
	is_double(res.elapsed, 5, 1e-9, "unfinished: T");
	is_double(res.busy, 6, 1e-9, "unfinished: a job without end runs to T");
	is_double(res.utilization, 0.6, 1e-9, "unfinished: utilization");
	is_int(res.completed, 1, "unfinished: completed");
	is_int(res.missing, 3, "unfinished: missing");
	ok(!isnan(res.z1_submit) && isnan(res.z1_start) && isnan(res.z1_wait),
	   "unfinished: Z1 submitted, never started");
	is_int(res.z1_overtaken, 3, "unfinished: every later start overtook it");
	ok(!res.z_first_immediate, "unfinished: Z1 fails");
	is_double(res.z2_end, 2, 1e-9, "unfinished: cancelled Z2's end shown");
	ok(!res.z_second_within_90, "unfinished: cancelled Z2 fails");
	is_double(esp_utilization_at(&run, 4.5), 1, EPS,
		  "unfinished: job 1 counted while running");
	is_double(esp_utilization_at(&run, 6), 0, EPS,
		  "unfinished: nothing known past T");
	esp_run_free(&run);
}

/*
 * A job Slurm ran twice (a start a slurmctld crash lost, made again and
 * requeued): its first run's lines, even one logged after the second
 * run began, are dropped; the second run is the job's.
 */
static void test_restart(void)
{
	struct esp_run run;
	struct esp_result res;
	char path[PATH_MAX];
	const struct esp_run_job *j;

	log_open(path, "restart.log", 1000);
	L(0, "test procs=2 work=12");
	L(0, "submit job=1 size=1 block=1 seconds=10");
	L(0, "submit job=2 size=1 block=1 seconds=2");
	L(1, "start job=1 nodes=n1");
	L(2, "suspend job=1 from=1001.5 to=1001.8");
	L(3, "start job=2");
	L(5, "end job=2 run=2.000 suspended=0.000");
	L(6, "start job=1 restart=1 nodes=n2");
	L(7, "end job=1 run=3.000 suspended=0.000 cancelled=1");
	L(16, "end job=1 restart=1 run=10.000 suspended=0.000");
	log_close();
	is_int(read_log(path, &run), 0, "restart: read");
	j = &run.jobs[0];
	is_double(j->start, 6, 1e-9, "restart: the job's start is its second run's");
	is_double(j->end, 16, 1e-9, "  its end too, not the first run's late one");
	ok(!j->cancelled && j->nsusp == 0 && !strcmp(j->nodes, "n2"),
	   "  the first run's suspension, cancellation and nodes are dropped");
	ok(j->restart == 1 && j->restarts == 1, "  one earlier run");
	esp_analyze(&run, ESP_IMMEDIATE_DEFAULT, ESP_TIE_DEFAULT, &res);
	is_int(res.completed, 2, "restart: both jobs completed");
	is_int(res.restarted, 1, "  one of them restarted");
	is_double(res.efficiency, 12.0 / (2 * 16), 1e-9, "  E = W / (P T) as ever");
	esp_run_free(&run);

	/* the first run completed, but slurmctld died before it saved the
	 * end and ran the job again (18-ctld-faults on 26.05): the driver
	 * stopped at this; the last run is the job's, as above */
	log_open(path, "rerun.log", 1000);
	L(0, "test procs=2 work=12");
	L(0, "submit job=1 size=1 block=1 seconds=10");
	L(0, "submit job=2 size=1 block=1 seconds=2");
	L(1, "start job=1 nodes=n1");
	L(3, "start job=2");
	L(5, "end job=2 run=2.000 suspended=0.000");
	L(11, "end job=1 run=10.000 suspended=0.000");
	L(14, "start job=1 restart=1 nodes=n2");
	L(24, "end job=1 restart=1 run=10.000 suspended=0.000");
	log_close();
	is_int(read_log(path, &run), 0, "a run after the job completed: read");
	j = &run.jobs[0];
	ok(j->start == 14 && j->end == 24 && j->restarts == 1,
	   "  the last run is the job's (start %g, end %g, %u earlier)",
	   j->start, j->end, j->restarts);
	esp_analyze(&run, ESP_IMMEDIATE_DEFAULT, ESP_TIE_DEFAULT, &res);
	ok(res.completed == 2 && res.restarted == 1,
	   "  both completed, one restarted");
	esp_run_free(&run);
}

/* No Z job, no end line: T = 0. */
static void write_empty(char *path)
{
	log_open(path, "empty.log", 1000);
	L(0, "test procs=4 work=10 reboot=5");
	L(0, "submit job=1 size=1 seconds=1");
	L(1, "start job=1");
	log_close();
}

static void test_no_end(const struct esp_run *run)
{
	struct esp_result res;

	esp_analyze(run, ESP_IMMEDIATE_DEFAULT, ESP_TIE_DEFAULT, &res);
	is_double(res.elapsed, 0, 0, "no end: T = 0");
	ok(res.efficiency == 0 && res.efficiency_with_reboot == 0 &&
	   res.utilization == 0 && res.busy == 0, "no end: all zero, no NaN");
	is_int(res.completed, 0, "no end: none completed");
	is_int(res.missing, 1, "no end: one missing");
	ok(!res.z_first_immediate && !res.z_second_within_90,
	   "no Z jobs: both fail");
	ok(isnan(res.z1_submit) && isnan(res.z1_start) && isnan(res.z1_wait) &&
	   isnan(res.z2_end), "no Z jobs: times NAN");
}

/* ------------------------------------------------------------ errors */

/* The log (lines as given) must be refused with exactly "PATH line N..." */
static void refused(const char *const *lines, const char *want,
		    const char *what)
{
	struct esp_run run;
	char path[PATH_MAX], msg[PATH_MAX + ESP_ERR_LEN];
	size_t i;

	log_open(path, "bad.log", 0);
	for (i = 0; lines[i]; i++)
		raw(lines[i]);
	log_close();
	snprintf(msg, sizeof(msg), "%s%s", path, want);
	is_int(read_log(path, &run), -1, "%s: refused", what);
	is_str(err, msg, "%s: message", what);
	ok(run.njobs == 0 && !run.jobs, "%s: nothing kept", what);
}

#define LOG(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define TEST "5 test procs=4"

static void test_errors(void)
{
	struct esp_run run;
	char path[PATH_MAX], msg[PATH_MAX + 64];

	refused(LOG(TEST, "6 submit job=1 size=abc"),
		" line 2: key 'size': 'abc' is not a whole number from 1 to 4294967295",
		"size=abc");
	refused(LOG(TEST, "", "abc submit job=1 size=1"),
		" line 3: time 'abc' is not a number", "time not a number");
	refused(LOG(TEST, "6 start job=7"),
		" line 2: start of job 7 before its submit line",
		"start before submit");
	refused(LOG(TEST, "6 submit job=7 size=1", "7 suspend job=8 from=6 to=7"),
		" line 3: suspend of job 8 before its submit line",
		"suspend of an unknown job");
	refused(LOG(TEST, "6 end job=7"),
		" line 2: end of job 7 before its submit line",
		"end before submit");
	refused(LOG("4 submit job=1 size=1", TEST),
		" line 1: submit line before the test line",
		"job line before the test line");
	refused(LOG(TEST, "6 submit job=1 size=1", "6 submit job=1 size=2"),
		" line 3: job 1 submitted twice", "submitted twice");
	refused(LOG(TEST, "6 submit job=1 size=1 full=2"),
		" line 2: key 'full': '2' is not 0 or 1", "bad boolean");
	refused(LOG(TEST, "6 submit job=1 size=1", "7 suspend job=1 from=x to=7"),
		" line 3: key 'from': 'x' is not a time", "bad suspend time");
	refused(LOG(TEST, "6 submit job=1 size=1", "7 suspend job=1 from=7 to=6"),
		" line 3: key 'to': ends before from=7", "suspension backwards");
	refused(LOG(TEST, "6 submit job=1 size=1", "7 end job=1 run=-1"),
		" line 3: key 'run': -1 is below 0", "negative run");
	refused(LOG("5 test work=1"), " line 1: test line without procs=",
		"test without procs");
	refused(LOG(TEST, "6 submit job=1"), " line 2: submit line without size=",
		"submit without size");
	refused(LOG(TEST, "6 submit job=1 size=1 oops"),
		" line 2: 'oops' is not key=value", "bare word");
	refused(LOG(TEST, TEST), " line 2: a second test line", "two tests");
	refused(LOG(TEST, "6"), " line 2: no event after the time", "no event");
	refused(LOG(TEST, "6 submit job=1 size=1", "7 start job=1",
		    "8 start job=1"),
		" line 4: job 1 started twice", "started twice");
	refused(LOG(TEST, "6 submit job=1 size=1", "7 start job=1 restart=1",
		    "8 start job=1 restart=1"),
		" line 4: job 1 started twice", "started twice in one run");
	refused(LOG(TEST, "6 submit job=1 size=1", "7 start job=1",
		    "8 suspend job=1 restart=2 from=7 to=8"),
		" line 4: suspend of job 1's run restart=2 before its start",
		"a later run's line before its start");
	refused(LOG("5 hello", "", "6 future job=3"), ": no test line",
		"no test line");

	path_of(path, "absent.log");
	snprintf(msg, sizeof(msg), "%s: No such file or directory", path);
	is_int(read_log(path, &run), -1, "absent file refused");
	is_str(err, msg, "absent file: path and strerror");
}

/* ------------------------------------------------------------ outputs */

static void test_csv(const struct esp_run *run, const struct esp_run *empty)
{
	char path[PATH_MAX], msg[PATH_MAX + 64];
	const char *text;

	path_of(path, "jobs.csv");
	is_int(esp_write_csv(run, path, err, sizeof(err)), 0, "csv written");
	text = slurp(path);
	ok(text != NULL, "csv readable");
	if (!text)
		return;
	is_str(line_with(text, "job,"),
	       "job,name,block,size,full,seconds,submit,start,end,run,suspended,nodes",
	       "csv header");
	is_str(line_with(text, "102,"),
	       "102,a.2,1,2,0,12.000000,0.000000,0.000000,16.000000,12.000000,4.000000,\"n[3,4]\"",
	       "csv row, hostlist with a comma quoted");
	is_str(line_with(text, "100,"),
	       "100,Z.1,0,4,1,4.000000,3.000000,4.000000,8.000000,4.000000,0.000000,n[1-4]",
	       "csv row of Z1");

	is_int(esp_write_csv(empty, path, err, sizeof(err)), 0,
	       "csv of a run without ends");
	text = slurp(path);
	is_str(line_with(text, "1,"), "1,,0,1,0,1.000000,0.000000,1.000000,,,,",
	       "csv: unknown values empty");

	path_of(path, "nodir/jobs.csv");
	snprintf(msg, sizeof(msg), "%s: No such file or directory", path);
	is_int(esp_write_csv(run, path, err, sizeof(err)), -1,
	       "csv into a missing directory refused");
	is_str(err, msg, "csv error names path and strerror");
}

static json_object *jget(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v))
		diag("  key %s absent", key);
	return v;
}

/* "loss": every cause (loss.h), adding up to total = P*T - W = 128 - 86. */
static void test_json_loss(json_object *o)
{
	json_object *loss = jget(o, "loss"), *v;
	double sum = 0;
	int all = 1;

	ok(loss && json_object_is_type(loss, json_type_object),
	   "json: a loss object");
	for (int c = 0; loss && c < ESP_LOSS_NCAUSES; c++) {
		if (!(v = jget(loss, esp_loss_names[c])))
			all = 0;
		else
			sum += json_object_get_double(v);
	}
	ok(all, "json: loss has every cause");
	v = loss ? jget(loss, "total") : NULL;
	is_double(v ? json_object_get_double(v) : NAN, 128.0 - 86, 1e-9,
		  "json: loss.total = P*T - W");
	is_double(sum, 128.0 - 86, 1e-6, "json: the causes add up to it");
}

static void test_json(const struct esp_run *run, const struct esp_run *empty)
{
	static const struct {
		const char *key;
		double want;
	} nums[] = {
		{ "efficiency", 86.0 / 128 },
		{ "efficiency_with_reboot", 86.0 / 160 },
		{ "processors", 4 },
		{ "elapsed", 32 },
		{ "seed", 7 },
		{ "work", 86 },
		{ "min_time", 21.5 },
		{ "reboot", 8 },
		{ "compress", 0.5 },
		{ "busy", 88 },
		{ "utilization", 88.0 / 128 },
		{ "completed", 5 },
		{ "missing", 0 },
		{ "jobs", 5 },
		{ "z1_submit", 3 },
		{ "z1_start", 4 },
		{ "z1_wait", 1 },
		{ "z1_overtaken", 0 },
		{ "z2_end", 20 },
		{ "z2_limit", 28.8 },
	};
	struct esp_result res;
	char path[PATH_MAX];
	json_object *o, *v;
	size_t i;
	int good = 1;

	path_of(path, "results.json");
	esp_analyze(run, ESP_IMMEDIATE_DEFAULT, ESP_TIE_DEFAULT, &res);
	is_int(esp_write_json(run, &res, "run/A", path, err, sizeof(err)), 0,
	       "json written");
	o = json_object_from_file(path);
	ok(o && json_object_is_type(o, json_type_object), "json parses back");
	if (!o)
		return;
	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		v = jget(o, nums[i].key);
		if (!v || fabs(json_object_get_double(v) - nums[i].want) > 1e-9) {
			diag("  %s: got %s, want %g", nums[i].key,
			     v ? json_object_to_json_string(v) : "null",
			     nums[i].want);
			good = 0;
		}
	}
	ok(good, "json: every number as computed");
	test_json_loss(o);
	v = jget(o, "z_first_immediate");
	ok(v && json_object_is_type(v, json_type_boolean) &&
	   json_object_get_boolean(v), "json: z_first_immediate true");
	v = jget(o, "z_second_within_90");
	ok(v && json_object_is_type(v, json_type_boolean) &&
	   json_object_get_boolean(v), "json: z_second_within_90 true");
	v = jget(o, "efficiency");
	ok(v && json_object_is_type(v, json_type_double),
	   "json: efficiency is a double");
	v = jget(o, "label");
	is_str(v ? json_object_get_string(v) : NULL, "run/A", "json: label");
	v = jget(o, "mix");
	is_str(v ? json_object_get_string(v) : NULL, "tiny", "json: mix");
	json_object_put(o);

	esp_analyze(empty, ESP_IMMEDIATE_DEFAULT, ESP_TIE_DEFAULT, &res);
	is_int(esp_write_json(empty, &res, NULL, path, err, sizeof(err)), 0,
	       "json of a run without Z jobs");
	o = json_object_from_file(path);
	ok(o != NULL, "json parses back");
	if (!o)
		return;
	ok(json_object_object_get_ex(o, "z1_start", &v) && !v,
	   "json: absent Z1 start is null");
	ok(json_object_object_get_ex(o, "z2_end", &v) && !v,
	   "json: absent Z2 end is null");
	ok(json_object_object_get_ex(o, "label", &v) && !v,
	   "json: no label is null");
	v = jget(o, "z_first_immediate");
	ok(v && json_object_is_type(v, json_type_boolean) &&
	   !json_object_get_boolean(v), "json: z_first_immediate false");
	json_object_put(o);
}

/* cd dir && gnuplot utilization.gp must draw a PNG. */
static void check_gnuplot(const char *dir, const char *what)
{
	char cmd[PATH_MAX + 128], png[PATH_MAX];
	unsigned char magic[4] = { 0 };
	struct stat st;
	FILE *fp;

	if (system("command -v gnuplot >/dev/null 2>&1")) {
		ok(1, "# SKIP gnuplot not on PATH (%s)", what);
		return;
	}
	snprintf(cmd, sizeof(cmd), "cd '%s' && gnuplot utilization.gp", dir);
	snprintf(png, sizeof(png), "%s/utilization.png", dir);
	fp = NULL;
	if (!system(cmd) && !stat(png, &st) && st.st_size > 0)
		fp = fopen(png, "rb");
	if (fp) {
		if (fread(magic, 1, 4, fp) != 4)
			magic[0] = 0;
		fclose(fp);
	}
	ok(magic[0] == 0x89 && !memcmp(magic + 1, "PNG", 3),
	   "%s: gnuplot draws a non-empty PNG", what);
}

/*
 * loss.dat: each stretch at both ends; the bands start at the utilization
 * and their last top is 100 % (every processor runs or idles for a cause).
 */
static void test_loss_dat(const char *dir)
{
	char path[PATH_MAX], line[512];
	int rows = 0, stacked = 1;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/loss.dat", dir);
	fp = fopen(path, "r");
	ok(fp != NULL, "loss.dat written");
	while (fp && fgets(line, sizeof(line), fp)) {
		double v[2 + ESP_LOSS_NCAUSES];
		char *p = line, *end;
		int n = 0;

		if (line[0] == '#')
			continue;
		for (; n < 2 + ESP_LOSS_NCAUSES; n++, p = end) {
			v[n] = strtod(p, &end);
			if (end == p)
				break;
		}
		rows++;
		if (n != 2 + ESP_LOSS_NCAUSES || fabs(v[n - 1] - 100) > 1e-3)
			stacked = 0;
		for (int k = 2; k < n; k++)
			if (v[k] < v[k - 1] - 1e-9)
				stacked = 0;
	}
	if (fp)
		fclose(fp);
	ok(rows > 0 && rows % 2 == 0, "loss.dat: two rows a stretch (%d)",
	   rows);
	ok(stacked, "loss.dat: bands stacked from the utilization to 100 %%");
}

static void test_chronology(const struct esp_run *run,
			    const struct esp_run *empty)
{
	char dir[512], path[PATH_MAX];
	const char *text;
	int rows;

	path_of(dir, "chrono");
	is_int(esp_write_chronology(run, dir, "ESP 'tiny' on P=4", err,
				    sizeof(err)), 0, "chronology written");
	snprintf(path, sizeof(path), "%s/utilization.dat", dir);
	is_double(step_at(path, 0, &rows), 100, 1e-3, "dat: 100 %% at 0");
	is_int(rows, 7, "dat: a row per change point (0 4 8 14 16 20 32)");
	is_double(step_at(path, 6 / 21.5, &rows), 100, 1e-3,
		  "dat: 100 %% at t=6 (suspended jobs not counted)");
	is_double(step_at(path, 15 / 21.5, &rows), 50, 1e-3,
		  "dat: 50 %% at t=15");
	is_double(step_at(path, 25 / 21.5, &rows), 25, 1e-3,
		  "dat: 25 %% at t=25");
	is_double(step_at(path, 32 / 21.5, &rows), 0, 1e-3, "dat: 0 %% at T");
	snprintf(path, sizeof(path), "%s/starts.dat", dir);
	step_at(path, 0, &rows);
	is_int(rows, 5, "starts: one impulse per start");
	text = slurp(path);
	ok(text && strstr(text, "\n0.186047 4\n"),
	   "starts: Z1 at 4 / 21.5, height 4");
	test_loss_dat(dir);
	snprintf(path, sizeof(path), "%s/utilization.gp", dir);
	text = slurp(path);
	ok(text && strstr(text, "'loss.dat' using 1:2:3 with filledcurves"),
	   "gp: the idle processors shaded by cause");
	ok(text && strstr(text, "set title 'ESP ''tiny'' on P=4' noenhanced"),
	   "gp: title quoted");
	ok(text && strstr(text, "'Normalized Time'") &&
	   strstr(text, "set y2range [0:6]") &&
	   strstr(text, "set yrange [0:100]") &&
	   strstr(text, "pngcairo") && strstr(text, "axes x1y2 with impulses"),
	   "gp: axes as in the paper's figures");
	check_gnuplot(dir, "main run");

	path_of(dir, "chrono-empty");
	is_int(esp_write_chronology(empty, dir, NULL, err, sizeof(err)), 0,
	       "chronology of a run without ends");
	snprintf(path, sizeof(path), "%s/utilization.dat", dir);
	is_double(step_at(path, 0, &rows), 0, 1e-3, "empty: 0 %%");
	check_gnuplot(dir, "run without ends");

	is_int(esp_write_chronology(run, "/proc/no/such/dir", "x", err,
				    sizeof(err)), -1, "chronology: bad dir");
	ok(strstr(err, "/proc/no/such/dir") != NULL, "chronology: error names it");
}

int main(void)
{
	struct esp_run run, empty;
	char path[PATH_MAX];

	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 2;
	}
	write_main(path);
	is_int(read_log(path, &run), 0, "main log read (unknown keys, events)");
	if (err[0])
		diag("  %s", err);
	test_parse(&run);
	test_analyze_main(&run);
	test_overtaken();
	test_late();
	test_unfinished();
	test_restart();
	write_empty(path);
	is_int(read_log(path, &empty), 0, "log without ends read");
	test_no_end(&empty);
	test_errors();
	test_csv(&run, &empty);
	test_json(&run, &empty);
	test_chronology(&run, &empty);
	esp_run_free(&run);
	esp_run_free(&empty);
	ok(run.njobs == 0 && !run.jobs, "esp_run_free empties the run");
	esp_run_free(NULL);
	nftw(tmpdir, _rm, 8, FTW_DEPTH | FTW_PHYS);
	return done_testing();
}
