/*
 * compare.c - multi-seed ESP comparison (see compare.h).  O(n^2) in the
 * runs, which are tens.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "esp/compare.h"

static const char *const builtin_prefixes[] = {
	"select/linear", "select/cons_tres", "select/cons_res",
};

bool esp_label_is_builtin(const char *label)
{
	for (size_t i = 0; i < sizeof(builtin_prefixes) /
			       sizeof(builtin_prefixes[0]); i++) {
		size_t len = strlen(builtin_prefixes[i]);

		if (!strncmp(label, builtin_prefixes[i], len) &&
		    (!label[len] || label[len] == ','))
			return true;
	}
	return false;
}

/* The group's E for seed, from its last run with that seed; NAN if none. */
static double _e_of(const struct esp_cmp_run *runs, size_t n,
		    const char *label, uint64_t seed, bool *found)
{
	double e = NAN;

	*found = false;
	for (size_t i = 0; i < n; i++)
		if (runs[i].seed == seed && !strcmp(runs[i].label, label)) {
			e = runs[i].efficiency;
			*found = true;
		}
	return e;
}

/* Whether run i is the last of its label with its seed. */
static bool _last_of_seed(const struct esp_cmp_run *runs, size_t n, size_t i)
{
	for (size_t k = i + 1; k < n; k++)
		if (runs[k].seed == runs[i].seed &&
		    !strcmp(runs[k].label, runs[i].label))
			return false;
	return true;
}

static void _group_e(const struct esp_cmp_run *runs, size_t n,
		     struct esp_cmp_group *g)
{
	double *x = calloc(n ? n : 1, sizeof(*x));

	g->runs = 0;
	for (size_t i = 0; x && i < n; i++)
		if (!strcmp(runs[i].label, g->label) &&
		    _last_of_seed(runs, n, i))
			x[g->runs++] = runs[i].efficiency;
	g->e = x ? stat_ci(x, (unsigned)g->runs) :
		   (struct stat_ci){ NAN, NAN };
	free(x);
}

static void _group_diff(const struct esp_cmp_run *runs, size_t n,
			struct esp_cmp_group *g, const char *best)
{
	double *d = calloc(n ? n : 1, sizeof(*d));
	size_t k = 0;

	for (size_t i = 0; d && i < n; i++) {
		bool found;
		double b;

		if (strcmp(runs[i].label, g->label) ||
		    !_last_of_seed(runs, n, i))
			continue;
		b = _e_of(runs, n, best, runs[i].seed, &found);
		if (found && !isnan(b) && !isnan(runs[i].efficiency))
			d[k++] = runs[i].efficiency - b;
	}
	g->paired = k;
	g->diff = d && k ? stat_ci(d, (unsigned)k) :
		  (struct stat_ci){ NAN, NAN };
	free(d);
}

size_t esp_compare_groups(const struct esp_cmp_run *runs, size_t n,
			  struct esp_cmp_group *out)
{
	size_t ng = 0, best = (size_t)-1;

	for (size_t i = 0; i < n; i++) {
		size_t g;

		for (g = 0; g < ng && strcmp(out[g].label, runs[i].label); g++)
			;
		if (g < ng)
			continue;
		memset(&out[ng], 0, sizeof(out[ng]));
		out[ng].label = runs[i].label;
		out[ng].builtin = esp_label_is_builtin(runs[i].label);
		_group_e(runs, n, &out[ng]);
		ng++;
	}
	for (size_t g = 0; g < ng; g++)
		if (out[g].builtin && !isnan(out[g].e.mean) &&
		    (best == (size_t)-1 || out[g].e.mean > out[best].e.mean))
			best = g;
	for (size_t g = 0; g < ng; g++) {
		out[g].diff = (struct stat_ci){ NAN, NAN };
		if (best == (size_t)-1 || g == best)
			continue;
		_group_diff(runs, n, &out[g], out[best].label);
	}
	if (best != (size_t)-1)
		out[best].best_builtin = true;
	return ng;
}
