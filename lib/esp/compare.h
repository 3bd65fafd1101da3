/*
 * compare.h - ESP runs of several configurations over several seeds, each
 * seed giving every configuration the same plan: the mean E of each
 * configuration with its 95 % confidence interval, and the difference
 * against the best of Slurm's built-in selects, paired seed by seed.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ESP_COMPARE_H
#define ESP_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "num/stats.h"

struct esp_cmp_run {
	const char *label;	/* the configuration */
	uint64_t seed;
	double efficiency;	/* NAN: not an ESP result (incomplete) */
};

struct esp_cmp_group {
	const char *label;	/* of its first run */
	bool builtin;		/* a Slurm select (esp_label_is_builtin) */
	bool best_builtin;	/* the built-in of highest mean E */
	size_t runs;
	struct stat_ci e;
	/* E - E of the best built-in, over the seeds both ran (paired);
	 * NAN for the best built-in itself or without one */
	struct stat_ci diff;
	size_t paired;
};

/* Slurm's own selects, as esp(1) labels them: "select/linear, ...". */
bool esp_label_is_builtin(const char *label);

/*
 * Group runs by label, in order of first appearance, into out (room for n
 * groups).  A seed run twice under one label counts once (the later run).
 * Returns the number of groups.
 */
size_t esp_compare_groups(const struct esp_cmp_run *runs, size_t n,
			  struct esp_cmp_group *out);

#endif /* ESP_COMPARE_H */
