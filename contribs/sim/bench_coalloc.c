/*
 * bench_coalloc.c - cost of one engine decision pass with 10,000 queued
 * jobs on 4 sites x 1,024 processors (--procs N: N a site; 256 is a
 * 1,024-node cluster), for every policy, measured side by side with a
 * plain single-queue FCFS pass (Worst Fit placement, no policy, no
 * queues) over the same jobs; each under every QueueOrder (fcfs,
 * firstfit, smallest), with the cost of a pass after one submission to
 * a full system (firstfit and smallest re-open the queue: only the new
 * job is tried).
 *
 * Targets live here, never in timed tests: a pass should cost well under
 * a millisecond, so that it fits a slurmctld scheduling cycle easily.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "coalloc/coalloc.h"
#include "coalloc/route.h"
#include "num/num.h"
#include "version/version.h"

#define NJOBS 10000
#define NSITES 4
#define ITERATIONS 31

static uint32_t procs = 1024;	/* a site's */

struct bjob {
	unsigned ncomp;
	uint32_t size[NSITES];	/* decreasing */
	unsigned origin;
};

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* D(0.9) on [1, 8] (the paper's sizes), 25/25/25/25 composition. */
static void make_jobs(struct bjob *jobs)
{
	static const unsigned sizes[] = { 1, 1, 1, 2, 2, 2, 3, 4, 4, 4, 5,
					  6, 7, 8, 8 };
	struct coalloc_rng rng;

	coalloc_rng_seed(&rng, 42);
	for (int i = 0; i < NJOBS; i++) {
		struct bjob *j = &jobs[i];

		j->ncomp = 1 + coalloc_rng_below(&rng, NSITES);
		for (unsigned k = 0; k < j->ncomp; k++)
			j->size[k] = sizes[coalloc_rng_below(&rng, 15)];
		/* insertion sort, decreasing */
		for (unsigned k = 1; k < j->ncomp; k++)
			for (unsigned m = k; m && j->size[m] > j->size[m - 1];
			     m--) {
				uint32_t t = j->size[m];

				j->size[m] = j->size[m - 1];
				j->size[m - 1] = t;
			}
		j->origin = coalloc_rng_below(&rng, NSITES);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return v[n / 2];
}

/* The baseline: one FCFS queue, Worst Fit, stop at the first misfit. */
static size_t fcfs_pass(const struct bjob *jobs, uint32_t *idle)
{
	uint16_t site[NSITES];
	size_t started = 0;

	for (int i = 0; i < NJOBS; i++) {
		const struct bjob *j = &jobs[i];

		if (!coalloc_worst_fit(idle, NSITES, j->size, j->ncomp, -1,
				       site))
			break;
		for (unsigned k = 0; k < j->ncomp; k++)
			idle[site[k]] -= j->size[k];
		started++;
	}
	return started;
}

static struct coalloc_engine *loaded_engine(enum coalloc_policy p,
					    enum coalloc_queue_order order,
					    const struct bjob *jobs)
{
	struct coalloc_config cfg;
	struct coalloc_engine *e;

	coalloc_config_init(&cfg, p, NSITES, procs);
	cfg.order = order;
	e = coalloc_engine_create(&cfg);
	if (!e)
		return NULL;
	for (int i = 0; i < NJOBS; i++) {
		struct coalloc_request r = {
			.id = (uint32_t)i + 1, .ncomp = jobs[i].ncomp,
		};

		memcpy(r.size, jobs[i].size, sizeof(r.size));
		r.queue = coalloc_route(p, &r, (int)jobs[i].origin);
		if (coalloc_engine_submit(e, &r)) {
			coalloc_engine_destroy(e);
			return NULL;
		}
	}
	return e;
}

struct timing {
	double full, idle, after_depart, after_submit;
	size_t started;
};

/* One more job, like the first (its queue, its sizes). */
static void submit_one(struct coalloc_engine *e, enum coalloc_policy p,
		       const struct bjob *jobs, uint32_t id)
{
	struct coalloc_request r = {
		.id = id, .ncomp = jobs[0].ncomp,
	};

	memcpy(r.size, jobs[0].size, sizeof(r.size));
	r.queue = coalloc_route(p, &r, (int)jobs[0].origin);
	coalloc_engine_submit(e, &r);
}

/* Full pass on an empty system, a pass with nothing to do, a pass after
 * one departure, and one after a submission; medians over ITERATIONS
 * fresh engines. */
static int time_policy(enum coalloc_policy p, enum coalloc_queue_order order,
		       const struct bjob *jobs, struct timing *t)
{
	double full[ITERATIONS], idle[ITERATIONS], dep[ITERATIONS];
	double sub[ITERATIONS];

	for (int it = 0; it < ITERATIONS; it++) {
		struct coalloc_engine *e = loaded_engine(p, order, jobs);
		const struct coalloc_start *st;
		double t0, t1, t2, t3, t4;
		size_t n;

		if (!e)
			return -1;
		t0 = now_us();
		n = coalloc_engine_schedule(e, 0, &st);
		t1 = now_us();
		coalloc_engine_schedule(e, 0, &st);
		t2 = now_us();
		coalloc_engine_depart(e, 1 + (uint32_t)(it % 64));
		coalloc_engine_schedule(e, 0, &st);
		t3 = now_us();
		submit_one(e, p, jobs, NJOBS + 1);
		coalloc_engine_schedule(e, 0, &st);
		t4 = now_us();
		full[it] = t1 - t0;
		idle[it] = t2 - t1;
		dep[it] = t3 - t2;
		sub[it] = t4 - t3;
		t->started = n;
		coalloc_engine_destroy(e);
	}
	t->full = median(full, ITERATIONS);
	t->idle = median(idle, ITERATIONS);
	t->after_depart = median(dep, ITERATIONS);
	t->after_submit = median(sub, ITERATIONS);
	return 0;
}

static double time_fcfs(const struct bjob *jobs, size_t *started)
{
	double v[ITERATIONS];

	for (int it = 0; it < ITERATIONS; it++) {
		uint32_t idle[NSITES] = { procs, procs, procs, procs };
		double t0 = now_us();

		*started = fcfs_pass(jobs, idle);
		v[it] = now_us() - t0;
	}
	return median(v, ITERATIONS);
}

int main(int argc, char **argv)
{
	struct bjob *jobs;
	double base, worst = 0;
	size_t base_started;
	int rc = 1;
	uint64_t n;

	if (coalloc_version_wanted(argc, argv))
		return coalloc_version_print("bench_coalloc");
	if (argc == 3 && !strcmp(argv[1], "--procs") &&
	    num_parse_range(argv[2], 8, 65536, &n) == 0) {
		procs = (uint32_t) n;
	} else if (argc != 1) {
		fprintf(stderr, "usage: bench_coalloc [--procs 8..65536] | --version\n");
		return 2;
	}
	jobs = calloc(NJOBS, sizeof(*jobs));
	if (!jobs)
		return 1;
	make_jobs(jobs);
	base = time_fcfs(jobs, &base_started);
	printf("bench-coalloc: one decision pass, %d queued jobs, %d x %d "
	       "processors, D(0.9) on [1,8], 25/25/25/25\n"
	       "baseline FCFS (one queue, Worst Fit): %.1f us, %zu started\n\n",
	       NJOBS, NSITES, procs, base, base_started);
	printf("%-6s %-9s %8s %14s %10s %14s %13s %13s\n", "policy",
	       "order", "started", "full pass us", "ratio", "idle pass us",
	       "1 depart us", "1 submit us");
	for (int o = 0; o < COALLOC_ORDER_COUNT; o++) {
		for (int p = 0; p < COALLOC_POLICY_COUNT; p++) {
			struct timing t;
			double most;

			if (time_policy((enum coalloc_policy)p,
					(enum coalloc_queue_order)o, jobs, &t))
				goto out;
			printf("%-6s %-9s %8zu %14.1f %9.2fx %14.2f %13.2f %13.2f\n",
			       coalloc_policy_name(p), coalloc_order_name(o),
			       t.started, t.full, t.full / base, t.idle,
			       t.after_depart, t.after_submit);
			most = fmax(t.full, fmax(t.after_depart, t.after_submit));
			if (most > worst)
				worst = most;
		}
	}
	printf("\nworst pass %.1f us (target: < 1000 us): %s\n", worst,
	       worst < 1000 ? "ok" : "SLOW");
	rc = 0;
out:
	free(jobs);
	return rc;
}
