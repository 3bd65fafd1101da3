/*
 * membus.c - bandwidth-aware gang pairing (see membus.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include <string.h>

#include "membus/membus.h"

void membus_window_init(struct membus_window *win, unsigned w)
{
	memset(win, 0, sizeof(*win));
	win->w = w < 1 ? 1 : w > MEMBUS_WINDOW_MAX ? MEMBUS_WINDOW_MAX : w;
}

void membus_window_add(struct membus_window *win, struct membus_sample s)
{
	win->s[win->next] = s;
	win->next = (win->next + 1) % win->w;
	if (win->filled < win->w)
		win->filled++;
}

struct membus_sample membus_window_mean(const struct membus_window *win)
{
	struct membus_sample mean = { 0, 0 };

	for (unsigned i = 0; i < win->filled; i++) {
		mean.mem += win->s[i].mem;
		mean.net += win->s[i].net;
	}
	if (win->filled) {
		mean.mem /= win->filled;
		mean.net /= win->filled;
	}
	return mean;
}

double membus_distance(const struct membus_app *app, double mem_rem,
		       double net_rem, uint32_t cpus_rem)
{
	double dm, dn;

	if (!cpus_rem)
		return INFINITY;
	dm = app->per_proc.mem - mem_rem / cpus_rem;
	dn = app->per_proc.net - net_rem / cpus_rem;
	return sqrt(dm * dm + dn * dn);
}

/* Give app i its processors and its bandwidth out of what remains. */
static void _take(const struct membus_app *app, uint32_t *cpus_rem,
		  double *mem_rem, double *net_rem)
{
	*cpus_rem = app->procs >= *cpus_rem ? 0 : *cpus_rem - app->procs;
	*mem_rem -= app->per_proc.mem * app->procs;
	*net_rem -= app->per_proc.net * app->procs;
}

/* The unselected application that fits and is nearest, or -1. */
static long _best(const struct membus_app *apps, size_t n,
		  const uint8_t *selected, uint32_t cpus_rem, double mem_rem,
		  double net_rem)
{
	double best_d = INFINITY;
	long best = -1;

	for (size_t i = 0; i < n; i++) {
		double d;

		if (selected[i] || !apps[i].procs || apps[i].procs > cpus_rem)
			continue;
		d = membus_distance(&apps[i], mem_rem, net_rem, cpus_rem);
		if (best < 0 || d < best_d) {
			best_d = d;
			best = (long)i;
		}
	}
	return best;
}

size_t membus_select(const struct membus_app *apps, size_t n, uint32_t cpus,
		     double mem, double net, uint8_t *selected)
{
	uint32_t cpus_rem = cpus;
	size_t count = 0;
	long best;

	memset(selected, 0, n);
	if (!n)
		return 0;
	/* the first application always runs: no starvation */
	selected[0] = 1;
	count++;
	_take(&apps[0], &cpus_rem, &mem, &net);
	while (cpus_rem > 0 &&
	       (best = _best(apps, n, selected, cpus_rem, mem, net)) >= 0) {
		selected[best] = 1;
		count++;
		_take(&apps[best], &cpus_rem, &mem, &net);
	}
	return count;
}

void membus_order(const uint32_t *totals, size_t n, size_t *order)
{
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	/* insertion sort: stable, and n is a node's handful of jobs */
	for (size_t i = 1; i < n; i++) {
		size_t cur = order[i], j = i;

		while (j > 0 && totals[order[j - 1]] < totals[cur]) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = cur;
	}
}

size_t membus_allocate(const struct membus_app *apps, const size_t *order,
		       size_t n, uint32_t cpus, uint8_t *run)
{
	size_t count = 0;

	memset(run, 0, n);
	for (size_t k = 0; k < n && (cpus > 0 || !count); k++) {
		size_t i = order[k];

		if (count && apps[i].procs > cpus)
			continue;
		run[i] = 1;
		count++;
		cpus = apps[i].procs >= cpus ? 0 : cpus - apps[i].procs;
	}
	return count;
}

void membus_rotate(size_t *list, size_t n, const uint8_t *ran)
{
	size_t out = 0;

	/* idle ones first, in order, then the ones that ran, in order */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t k = out; k < n; k++) {
			size_t id = list[k];

			if ((ran[id] != 0) != (pass == 1))
				continue;
			memmove(&list[out + 1], &list[out], (k - out) * sizeof(*list));
			list[out++] = id;
		}
	}
}
