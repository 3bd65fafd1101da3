/*
 * analyze.c - efficiency, utilization and the full-configuration rules of
 * an ESP run (see runlog.h; equations (1) and (2) of Wong et al.).
 *
 * A job counts as running from its start to its end, less its suspended
 * intervals.  A job that started but has no end line (killed without a
 * word, or the log was read while it ran) is taken to run to T, the last
 * end seen: past T nothing is known, and T is what the efficiency divides
 * by.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include <string.h>

#include "esp/plan.h"
#include "esp/runlog.h"

/* T: the last end among the jobs, 0 when none ended. */
static double _elapsed(const struct esp_run *run)
{
	double t = 0;
	size_t i;

	for (i = 0; i < run->njobs; i++)
		if (!isnan(run->jobs[i].end) && run->jobs[i].end > t)
			t = run->jobs[i].end;
	return t;
}

/*
 * Seconds of [a, b] the job spent suspended: the union of its intervals
 * clipped to [a, b].  They are sorted by from, so one pass merges them.
 */
static double _suspended_within(const struct esp_run_job *j, double a,
				double b)
{
	double cur = a, sum = 0;
	size_t i;

	for (i = 0; i < j->nsusp; i++) {
		double lo = fmax(j->susp[i].from, cur);
		double hi = fmin(j->susp[i].to, b);

		if (hi > lo) {
			sum += hi - lo;
			cur = hi;
		}
	}
	return sum;
}

/* Seconds of [0, T] the job was running. */
static double _running(const struct esp_run_job *j, double T)
{
	double a, b;

	if (isnan(j->start))
		return 0;
	a = fmax(j->start, 0);
	b = fmin(esp_job_end_or(j, T), T);
	if (b <= a)
		return 0;
	return b - a - _suspended_within(j, a, b);
}

double esp_utilization_at(const struct esp_run *run, double t)
{
	double T = _elapsed(run), procs = 0;
	size_t i;

	if (!run->procs)
		return 0;
	for (i = 0; i < run->njobs; i++)
		if (esp_job_state_at(&run->jobs[i], T, t) == ESP_JOB_RUNNING)
			procs += run->jobs[i].size;
	return procs / run->procs;
}

/* The first Z job is the block-0 full one; the second the other full one. */
static void _find_z(const struct esp_run *run,
		    const struct esp_run_job **z1,
		    const struct esp_run_job **z2)
{
	size_t i;

	*z1 = *z2 = NULL;
	for (i = 0; i < run->njobs && !*z1; i++)
		if (run->jobs[i].full && run->jobs[i].block == 0)
			*z1 = &run->jobs[i];
	for (i = 0; i < run->njobs && !*z2; i++)
		if (run->jobs[i].full && &run->jobs[i] != *z1)
			*z2 = &run->jobs[i];
}

/*
 * Jobs that started after z1's submission and more than `tie` seconds
 * before z1 itself: they overtook it.  Jobs launched in the same
 * scheduler pass as z1 tie.  While z1 never started, every later start
 * overtook it.
 */
static size_t _overtaken(const struct esp_run *run,
			 const struct esp_run_job *z1, double tie)
{
	double limit = isnan(z1->start) ? INFINITY : z1->start - tie;
	size_t i, n = 0;

	for (i = 0; i < run->njobs; i++) {
		const struct esp_run_job *j = &run->jobs[i];

		if (j != z1 && !isnan(j->start) && j->start > z1->submit &&
		    j->start <= limit)
			n++;
	}
	return n;
}

static void _rules_z(const struct esp_run *run, double immediate,
		     double tie, struct esp_result *res)
{
	const struct esp_run_job *z1, *z2;

	_find_z(run, &z1, &z2);
	res->z1_submit = res->z1_start = res->z1_wait = NAN;
	res->z1_overtaken = 0;
	res->z_first_immediate = false;
	if (z1) {
		res->z1_submit = z1->submit;
		res->z1_start = z1->start;
		res->z1_wait = z1->start - z1->submit;	/* NAN if not started */
		res->z1_overtaken = _overtaken(run, z1, tie);
		res->z_first_immediate = !isnan(z1->start) &&
					 res->z1_wait <= immediate &&
					 res->z1_overtaken == 0;
	}
	res->z2_end = z2 ? z2->end : NAN;
	/* a cancelled Z job did not run to its end: it does not pass */
	res->z_second_within_90 = z2 && !z2->cancelled && !isnan(z2->end) &&
				  z2->end <= res->z2_limit;
}

/*
 * The work E divides: the mix's, for a finished run where every job
 * completed; otherwise only what the completed jobs did, so that an
 * aborted run's figures stay a utilization (<= 1), not an ESP result.
 */
static double _work(const struct esp_run *run, const struct esp_result *res)
{
	double done = 0;

	if (run->finished && !res->missing)
		return run->work;
	for (size_t i = 0; i < run->njobs; i++) {
		const struct esp_run_job *j = &run->jobs[i];

		if (!isnan(j->end) && !j->cancelled)
			done += j->size * j->seconds;
	}
	return done;
}

void esp_analyze(const struct esp_run *run, double immediate, double tie,
		 struct esp_result *res)
{
	double T = _elapsed(run), P = run->procs, W;
	size_t i;

	memset(res, 0, sizeof(*res));
	res->elapsed = T;
	for (i = 0; i < run->njobs; i++) {
		const struct esp_run_job *j = &run->jobs[i];

		if (!isnan(j->end) && !j->cancelled)
			res->completed++;
		if (j->restarts)
			res->restarted++;
		res->busy += j->size * _running(j, T);
	}
	res->missing = run->njobs - res->completed;
	W = _work(run, res);
	if (T > 0 && P > 0) {
		res->efficiency = W / (P * T);
		res->efficiency_with_reboot = W / (P * (T + run->reboot));
		res->utilization = res->busy / (P * T);
	}
	res->z2_limit = ESP_Z2_WITHIN_SHARE * T;
	_rules_z(run, immediate, tie, res);
	esp_loss_compute(run, T, W, &res->loss, NULL, NULL);
}
