/*
 * simulate.h - the discrete-event simulation of one policy on one job
 * stream, driven by the coalloc engine.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_SIM_SIMULATE_H
#define COALLOC_SIM_SIMULATE_H

#include <stdbool.h>
#include <stddef.h>

#include "coalloc/engine.h"
#include "coalloc_sim/workload.h"

struct sim_config {
	enum coalloc_policy policy;
	unsigned nsites;
	uint32_t site_procs[COALLOC_MAX_SITES];
	uint64_t seed;		/* for the engine's *-RD choices */
	double aging_wait;	/* COALLOC_AGING_OFF for the paper */
	double warmup;		/* fraction of the first jobs not measured */
};

struct sim_result {
	double mean_total;	/* mean response time, measured jobs */
	double mean_local;	/* ... of jobs from local queues (NAN: none) */
	double mean_global;	/* ... of jobs from the global queue */
	size_t n_local, n_global;
	double utilization;	/* busy share of processors until the last
				 * arrival */
	double wait_q2, wait_q4;	/* mean waiting jobs, 2nd / 4th quarter
					 * of the arrivals */
	bool saturated;
	size_t rejected;	/* jobs the engine refused (too large) */
};

/*
 * The saturation rule: the mean number of waiting jobs seen by arrivals
 * in the last quarter of the run exceeds 1.5 times that of the second
 * quarter plus 20 jobs: the queues grow instead of fluctuating.
 */
bool sim_saturated(double wait_q2, double wait_q4);

/*
 * The engine request of a simulated job, as id, and its queue by
 * lib/coalloc's coalloc_route(), the select plugin's rule, from its
 * origin site.
 */
void sim_job_request(const struct sim_job *sj, uint32_t id,
		     enum coalloc_policy policy, struct coalloc_request *req);

/* Run one simulation; returns 0, or a negative errno. */
int sim_run(const struct sim_job *jobs, size_t njobs,
	    const struct sim_config *sc, struct sim_result *res);

#endif /* COALLOC_SIM_SIMULATE_H */
