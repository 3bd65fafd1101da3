/*
 * workload.h - job streams for coalloc-sim: the synthetic workload of
 * Bucur and Epema (section 3) and replay of Standard Workload Format
 * traces.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_SIM_WORKLOAD_H
#define COALLOC_SIM_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "coalloc/engine.h"

struct sim_job {
	double arrival;
	double service;
	enum coalloc_request_type type;	/* workload_apply_mix() */
	unsigned ncomp;
	uint32_t size[COALLOC_MAX_SITES];
	int16_t want_site[COALLOC_MAX_SITES];	/* ordered: component's site */
	unsigned origin;	/* the local queue it is submitted to */
};

/* The share of each request type, in the order of --request-mix. */
enum { MIX_ORDERED, MIX_UNORDERED, MIX_FLEXIBLE, MIX_TYPES };

struct workload_params {
	unsigned nsites;
	uint32_t site_procs[COALLOC_MAX_SITES];
	double q;		/* D(q) */
	unsigned n1, n2;	/* D(q) support [n1, n2] */
	double comp_pct[COALLOC_MAX_SITES];	/* % of k+1-component jobs */
	bool unbalanced;	/* local queue 0 gets twice the others' share */
	double utilization;	/* offered (gross = net: no communication) */
	double service_mean;
	size_t njobs;
	double request_mix[MIX_TYPES];	/* fractions, sum 1 (default 0,1,0) */
};

/* The paper's defaults: 4 x 32, D(0.9) on [1, 8], 25/25/25/25, U 0.8. */
void workload_defaults(struct workload_params *wp);

/* Mean component size E[D(q)] on [n1, n2]. */
double workload_dq_mean(double q, unsigned n1, unsigned n2);

/* Arrival rate giving the offered utilization of wp. */
double workload_arrival_rate(const struct workload_params *wp);

/*
 * Generate wp->njobs jobs for a seed; the stream depends on the seed and
 * the workload only, never on the policy, so every policy sees the same
 * jobs.  Returns 0, -EINVAL, -ENOMEM; *jobs is malloc'ed.
 */
int workload_generate(const struct workload_params *wp, uint64_t seed,
		      struct sim_job **jobs);

/*
 * Load an SWF trace (see coalloc-sim(1) for the mapping): a job of P
 * processors becomes k = ceil(P / split) components (k <= nsites), sizes
 * as equal as possible; its local queue is (partition - 1) mod nsites.
 * When wp->utilization > 0 the arrival times are scaled to offer it.
 * Returns the job count (>= 0) or -1 with a message in err.
 */
long workload_load_swf(const char *path, const struct workload_params *wp,
		       unsigned split, struct sim_job **jobs, char *err,
		       size_t errlen);

/*
 * Give each multi-component job a request type drawn from wp->request_mix
 * (single-component jobs stay the paper's local jobs): an ordered job
 * names a distinct random site for every component, a flexible one asks
 * for the sum of its sizes, split when it starts.  Its own random stream
 * (from seed) leaves arrivals, sizes and queues as they were, so mixes
 * compare on the same jobs.  Returns 0 or -EINVAL for a bad mix.
 */
int workload_apply_mix(const struct workload_params *wp, uint64_t seed,
		       struct sim_job *jobs, size_t njobs);

#endif /* COALLOC_SIM_WORKLOAD_H */
