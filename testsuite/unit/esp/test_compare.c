/*
 * test_compare.c - the multi-seed ESP comparison (lib/esp/compare.h):
 * grouping by configuration, the best built-in, and the differences
 * paired by seed, on runs whose answers are worked by hand.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include <string.h>

#include "esp/compare.h"
#include "tap.h"

#define LIN "select/linear, sched/backfill"
#define CT "select/cons_tres, sched/backfill, suspend preemption"
#define CO "select/coalloc, gang rows MPL 2, slice 35s, preemption"

static void test_builtin(void)
{
	ok(esp_label_is_builtin(LIN), "linear is built in");
	ok(esp_label_is_builtin(CT), "cons_tres is built in");
	ok(esp_label_is_builtin("select/cons_tres"), "  a bare name too");
	ok(!esp_label_is_builtin(CO), "coalloc is not");
	ok(!esp_label_is_builtin("select/linearish"), "  nor a longer name");
}

static void test_groups(void)
{
	/*
	 * linear: 0.70 0.74 0.72 (mean 0.72); cons_tres: 0.75 0.77 0.79
	 * (mean 0.77, the best built-in); coalloc: 0.80 0.85 0.84 (0.83),
	 * paired differences 0.05 0.08 0.05: mean 0.06, sd sqrt(0.0003),
	 * half-width t(2) * 0.01 = 0.04303.  coalloc's seed 2 was run twice:
	 * the later run (0.85) counts.
	 */
	const struct esp_cmp_run runs[] = {
		{ LIN, 1, 0.70 }, { CT, 1, 0.75 }, { CO, 1, 0.80 },
		{ LIN, 2, 0.74 }, { CT, 2, 0.77 }, { CO, 2, 0.10 },
		{ CO, 2, 0.85 },
		{ LIN, 3, 0.72 }, { CT, 3, 0.79 }, { CO, 3, 0.84 },
	};
	struct esp_cmp_group g[10];
	size_t n = esp_compare_groups(runs, sizeof(runs) / sizeof(runs[0]), g);

	is_int(n, 3, "three configurations");
	is_str(g[0].label, LIN, "  in order of first appearance");
	is_int(g[2].runs, 3, "  a seed run twice counts once");
	is_double(g[0].e.mean, 0.72, 1e-12, "linear: mean 0.72");
	is_double(g[2].e.mean, 0.83, 1e-12, "coalloc: mean 0.83 (later run)");
	ok(g[1].best_builtin && !g[0].best_builtin && !g[2].best_builtin,
	   "cons_tres is the best built-in");
	ok(isnan(g[1].diff.mean), "  no difference against itself");
	is_int(g[2].paired, 3, "coalloc: 3 seeds paired");
	is_double(g[2].diff.mean, 0.06, 1e-12, "  E - best = +0.06");
	is_double(g[2].diff.ci95, 4.303 * 0.01, 1e-9,
		  "  half-width t(2) * sd / sqrt(3) = 0.043");
	is_double(g[0].diff.mean, -0.05, 1e-12, "linear: -0.05");
}

static void test_unpaired(void)
{
	/* coalloc ran seeds 1 and 2, linear 2 and 3; seed 1 of linear was
	 * incomplete (NAN): only seed 2 pairs */
	const struct esp_cmp_run runs[] = {
		{ CO, 1, 0.9 }, { CO, 2, 0.8 },
		{ LIN, 1, NAN }, { LIN, 2, 0.7 }, { LIN, 3, 0.6 },
	};
	struct esp_cmp_group g[5];

	is_int(esp_compare_groups(runs, 5, g), 2, "unpaired: two groups");
	is_int(g[0].paired, 1, "  one seed pairs");
	is_double(g[0].diff.mean, 0.1, 1e-12, "  its difference +0.1");
	ok(isnan(g[0].diff.ci95), "  no interval from one pair");
	is_double(g[1].e.mean, 0.65, 1e-12, "  linear's mean skips the NAN");
}

static void test_no_builtin(void)
{
	const struct esp_cmp_run runs[] = { { CO, 1, 0.9 }, { CO, 2, 0.8 } };
	struct esp_cmp_group g[2];

	is_int(esp_compare_groups(runs, 2, g), 1, "coalloc alone: one group");
	ok(isnan(g[0].diff.mean) && !g[0].best_builtin,
	   "  no built-in, no difference");
}

int main(void)
{
	test_builtin();
	test_groups();
	test_unpaired();
	test_no_builtin();
	return done_testing();
}
