/*
 * reduce.c - the second phase of Algorithm 1 (Koukis and Koziris, section
 * 4): the coordinator sums the nodes' candidate vectors S_l into S_total
 * and sorts it; every node then allocates its processors in that order.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "membus/membus.h"

void membus_tally_init(struct membus_tally *t)
{
	memset(t, 0, sizeof(*t));
}

void membus_tally_free(struct membus_tally *t)
{
	free(t->apps);
	membus_tally_init(t);
}

static struct membus_tally_app *_find(struct membus_tally *t, const char *id)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->apps[i].id, id))
			return &t->apps[i];
	return NULL;
}

static struct membus_tally_app *_append(struct membus_tally *t, const char *id)
{
	struct membus_tally_app *app;

	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 8;
		struct membus_tally_app *apps = realloc(t->apps,
							cap * sizeof(*apps));

		if (!apps)
			return NULL;
		t->apps = apps;
		t->cap = cap;
	}
	app = &t->apps[t->n++];
	memset(app, 0, sizeof(*app));
	memcpy(app->id, id, strlen(id) + 1);
	return app;
}

int membus_tally_add(struct membus_tally *t, const char *id, bool selected,
		     uint32_t nnodes)
{
	struct membus_tally_app *app;

	if (strlen(id) >= MEMBUS_ID_LEN)
		return -1;
	app = _find(t, id);
	if (!app && !(app = _append(t, id)))
		return -1;
	app->voters++;
	app->total += selected ? 1 : 0;
	/* voters may disagree after a job grew or shrank: the largest wins,
	 * so that a doubt makes the application incomplete (it runs) */
	if (nnodes > app->nnodes)
		app->nnodes = nnodes;
	return 0;
}

void membus_tally_decide(const struct membus_tally *t, uint32_t gone,
			 size_t *order, uint8_t *complete)
{
	uint32_t *totals = t->n ? malloc(t->n * sizeof(*totals)) : NULL;

	for (size_t i = 0; i < t->n; i++) {
		/* 64 bits: voters + gone never wraps past nnodes */
		complete[i] = (uint64_t)t->apps[i].voters + gone >=
			      t->apps[i].nnodes;
		if (totals)
			totals[i] = t->apps[i].total;
	}
	if (totals) {
		membus_order(totals, t->n, order);
		free(totals);
	} else {
		/* out of memory: report order; nothing is lost but the sort */
		for (size_t i = 0; i < t->n; i++)
			order[i] = i;
	}
}

/* The ranked applications' indices, sorted by rank (insertion sort). */
static size_t _by_rank(const int *rank, size_t n, size_t *idx)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		size_t j = m++;

		if (rank[i] < 0) {
			m--;
			continue;
		}
		while (j > 0 && rank[idx[j - 1]] > rank[i]) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = i;
	}
	return m;
}

size_t membus_apply(const struct membus_app *apps, const int *rank,
		    const uint8_t *forced, size_t n, uint32_t cpus,
		    uint8_t *run)
{
	size_t *idx = n ? malloc(n * sizeof(*idx)) : NULL;
	size_t count = 0, ranked, allocated = 0;

	/* out of memory: everything runs, as without a decision */
	memset(run, idx ? 0 : 1, n);
	ranked = idx ? _by_rank(rank, n, idx) : 0;
	for (size_t k = 0; k < ranked && (cpus > 0 || !allocated); k++) {
		size_t i = idx[k];

		if (allocated && apps[i].procs > cpus)
			continue;
		run[i] = 1;
		allocated++;
		cpus = apps[i].procs >= cpus ? 0 : cpus - apps[i].procs;
	}
	free(idx);
	for (size_t i = 0; i < n; i++) {
		if (rank[i] < 0 || forced[i])
			run[i] = 1;
		count += run[i];
	}
	return count;
}
