/*
 * output.h - coalloc-sim results: summaries over replications, and the
 * text table, JSON (json-c) and gnuplot bar chart that show them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_SIM_OUTPUT_H
#define COALLOC_SIM_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "coalloc/policy.h"
#include "num/stats.h"
#include "coalloc_sim/simulate.h"

struct policy_summary {
	enum coalloc_policy policy;
	struct stat_ci total, local, global, utilization;
	unsigned replications, saturated_reps;
	bool saturated;		/* in at least half of the replications */
};

/* Summarise the replications of one policy. */
void summarise_policy(enum coalloc_policy policy,
		      const struct sim_result *res, unsigned reps,
		      struct policy_summary *out);

void print_table(FILE *fp, const char *heading,
		 const struct policy_summary *s, unsigned n);

/* Returns 0, or -1 after printing an error. */
int print_json(FILE *fp, const struct policy_summary *s, unsigned n,
	       double offered);

/* Bar chart like the paper's figures; 0 or -1 after printing an error. */
int plot_png(const char *png, const char *title,
	     const struct policy_summary *s, unsigned n);

#endif /* COALLOC_SIM_OUTPUT_H */
