/*
 * test_loss.c - where an ESP run's efficiency went (lib/esp/loss.h): node
 * lists expanded like Slurm's, and the breakdown of P*T - W on runs built
 * in memory whose every cause is computed by hand in the comments.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "esp/hostlist.h"
#include "esp/loss.h"
#include "esp/runlog.h"
#include "tap.h"

#define EPS 1e-9

/* ------------------------------------------------------------ hostlist */

static char names[4096];

static int _join(const char *name, void *arg)
{
	(void)arg;
	if (names[0])
		strcat(names, " ");
	strcat(names, name);
	return 0;
}

static long expand(const char *list, size_t max)
{
	names[0] = '\0';
	return esp_hostlist_each(list, max, _join, NULL);
}

static void test_hostlist(void)
{
	static const char *const bad[] = {
		"", "n[1-4", "n1]", "n[[1]]", "n[1][2]", "n[4-1]", "n[]",
		"n[1-]", "n[-3]", "n[a]", "a,,b", "n[1-4],", "n[1,,2]",
		"n[1234567890]",
		/* 65 characters: over ESP_HOST_NAME_MAX */
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	};

	is_int(expand("n[1-4,7],m03,gpu[08-10]", 100), 9, "a hostlist of 9");
	is_str(names, "n1 n2 n3 n4 n7 m03 gpu08 gpu09 gpu10",
	       "  expanded in order, zero padding kept");
	is_int(expand("rack[1-2]-a", 100), 2, "a suffix after the bracket");
	is_str(names, "rack1-a rack2-a", "  rack1-a rack2-a");
	is_int(expand("n1", 100), 1, "one name");
	is_int(expand("n[1-4]", 3), -1, "more names than max: refused");
	is_int(expand("n[1-999999999]", 1000), -1,
	       "a range past max is refused before it is walked");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		is_int(expand(bad[i], 100), -1, "malformed: '%s'", bad[i]);
}

/* ------------------------------------------------------------ runs */

#define MAX_JOBS 8

static struct esp_run run;
static struct esp_run_job jobs[MAX_JOBS];
static struct esp_interval susp[MAX_JOBS][2];

static void run_reset(unsigned procs)
{
	memset(&run, 0, sizeof(run));
	memset(jobs, 0, sizeof(jobs));
	run.procs = procs;
	run.jobs = jobs;
	run.finished = true;
}

static struct esp_run_job *job(double submit, double start, double end,
			       unsigned size, double seconds,
			       const char *nodes)
{
	struct esp_run_job *j = &jobs[run.njobs];

	j->jobid = (uint32_t)++run.njobs;
	j->submit = submit;
	j->start = start;
	j->end = end;
	j->size = size;
	j->seconds = seconds;
	snprintf(j->nodes, sizeof(j->nodes), "%s", nodes);
	run.work += size * seconds;
	return j;
}

static void stopped(struct esp_run_job *j, double from, double to)
{
	j->susp = susp[j - jobs];
	j->susp[j->nsusp].from = from;
	j->susp[j->nsusp].to = to;
	j->nsusp++;
}

static double causes_sum(const struct esp_loss *l)
{
	double s = 0;

	for (int c = 0; c < ESP_LOSS_NCAUSES; c++)
		s += l->cause[c];
	return s;
}

#define is_cause(l, c, want) \
	is_double((l)->cause[c], want, EPS, "  %s = %g", esp_loss_names[c], \
		  (double)(want))

/*
 * P = 4 on n[1-4].  W = 2*10 + 4*5 + 1*3 = 43, T = 23.5, total 51.
 *  [0,1)      job 1 launching on n1-2 (2), n3-4 jobs wait (2 waiting)
 *  [1,11)     job 1 runs; job 2 waits for n1-2: n3-4 waiting (20)
 *  [11,12)    job 1 ended, job 2 launching on all (4 launch)
 *  [12,17)    job 2 runs
 *  [17,20)    nothing submitted waits (12 other)
 *  [20,20.5)  job 3 launching on n1 (0.5), n2-4 waiting (1.5)
 *  [20.5,23.5) job 3 runs, last start passed: n2-4 tail (9)
 */
static void test_launch_wait_tail(void)
{
	struct esp_loss_segment *segs;
	struct esp_result res;
	double covered = 0;
	size_t nsegs;

	run_reset(4);
	job(0, 1, 11, 2, 10, "n[1-2]");
	job(0, 12, 17, 4, 5, "n[1-4]");
	job(20, 20.5, 23.5, 1, 3, "n1");
	esp_analyze(&run, ESP_IMMEDIATE_DEFAULT, ESP_TIE_DEFAULT, &res);
	ok(res.loss.by_node, "launch, wait, tail: nodes known");
	is_double(res.loss.total, 51, EPS, "  total = P*T - W = 51");
	is_cause(&res.loss, ESP_LOSS_LAUNCH, 6.5);
	is_cause(&res.loss, ESP_LOSS_IDLE_WAITING, 23.5);
	is_cause(&res.loss, ESP_LOSS_TAIL, 9);
	is_cause(&res.loss, ESP_LOSS_OTHER, 12);
	is_cause(&res.loss, ESP_LOSS_ROW_SWITCH, 0);
	is_cause(&res.loss, ESP_LOSS_Z_DRAIN, 0);
	is_double(causes_sum(&res.loss), res.loss.total, EPS,
		  "  the causes add up to the total");
	is_int(esp_loss_compute(&run, res.elapsed, run.work, &res.loss, &segs,
				&nsegs), 0, "  segments computed");
	for (size_t i = 0; i < nsegs; i++) {
		double procs = segs[i].running;

		for (int c = 0; c < ESP_LOSS_NCAUSES; c++)
			procs += segs[i].idle[c];
		if (fabs(procs - 4) > EPS)
			break;
		covered += segs[i].to - segs[i].from;
	}
	is_double(covered, 23.5, EPS,
		  "  every segment accounts for all 4 processors, over [0,T]");
	free(segs);
}

/*
 * P = 4.  Job 1 (n1-2, 10 s planned) runs 0-12, stopped 4-6; the full job
 * 2 is submitted at 2 and starts at 14.  W = 20 + 8 = 28, T = 16, total 36.
 *  [0,2)   n3-4 idle, nothing waits (4 other)
 *  [2,4)   n3-4 drain for job 2 (4)
 *  [4,6)   n1-2 held by stopped job 1 (4 row_switch), n3-4 drain (4)
 *  [6,12)  n3-4 drain (12)
 *  [12,14) job 2 launching on all (8 launch)
 */
static void test_switch_drain(void)
{
	struct esp_result res;
	struct esp_run_job *j;

	run_reset(4);
	j = job(0, 0, 12, 2, 10, "n[1-2]");
	stopped(j, 4, 6);
	j = job(2, 14, 16, 4, 2, "n[1-4]");
	j->full = true;
	esp_analyze(&run, ESP_IMMEDIATE_DEFAULT, ESP_TIE_DEFAULT, &res);
	is_double(res.loss.total, 36, EPS, "switch and drain: total 36");
	is_cause(&res.loss, ESP_LOSS_ROW_SWITCH, 4);
	is_cause(&res.loss, ESP_LOSS_Z_DRAIN, 20);
	is_cause(&res.loss, ESP_LOSS_LAUNCH, 8);
	is_cause(&res.loss, ESP_LOSS_OTHER, 4);
	is_cause(&res.loss, ESP_LOSS_IDLE_WAITING, 0);
	is_cause(&res.loss, ESP_LOSS_TAIL, 0);
}

/* A node list cut to fit the log line: nodes unknown, all is "other". */
static void test_unknown_nodes(void)
{
	struct esp_result res;

	run_reset(4);
	job(0, 1, 11, 2, 10, "n[1-2]");
	job(0, 12, 17, 4, 5, "n[1-4,");
	esp_analyze(&run, ESP_IMMEDIATE_DEFAULT, ESP_TIE_DEFAULT, &res);
	ok(!res.loss.by_node, "a cut node list: nodes not known");
	is_double(res.loss.cause[ESP_LOSS_OTHER], res.loss.total, EPS,
		  "  everything is 'other' (%g)", res.loss.total);
	is_double(res.loss.total, 4 * 17 - 40, EPS, "  total still P*T - W");
}

int main(void)
{
	test_hostlist();
	test_launch_wait_tail();
	test_switch_drain();
	test_unknown_nodes();
	return done_testing();
}
