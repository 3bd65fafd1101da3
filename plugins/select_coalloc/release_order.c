/*
 * release_order.c - the running jobs in the order they end, for a start
 * estimate: which nodes are free once the first k of them have ended.
 *
 * WILL_RUN asks after how many ended jobs a waiting job fits.  Releasing
 * them one at a time and picking nodes after each cost a pick over every
 * node for every job released (1,024 picks for one estimate on 1,024
 * one-node jobs).  Here each node carries the rank of the job holding it,
 * so the node state after any k releases is one pass over the nodes, and
 * job_test.c can bisect on k.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdlib.h>

#include "select_coalloc.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"

#define NOT_RELEASED UINT32_MAX

struct release_order {
	job_record_t **jobs;	/* running or suspended, earliest end first */
	uint32_t count;
	uint32_t *rank;		/* per node: its holder's index in jobs */
	const uint32_t *held;	/* per node: holder job id, 0 free */
};

struct id_rank {
	uint32_t job_id;
	uint32_t rank;
};

static int _collect(void *x, void *arg)
{
	job_record_t *job_ptr = x;
	struct release_order *o = arg;

	if ((IS_JOB_RUNNING(job_ptr) || IS_JOB_SUSPENDED(job_ptr)) &&
	    job_ptr->end_time)
		o->jobs[o->count++] = job_ptr;
	return 0;
}

static int _by_end_time(const void *x, const void *y)
{
	const job_record_t *a = *(job_record_t *const *) x;
	const job_record_t *b = *(job_record_t *const *) y;

	if (a->end_time != b->end_time)
		return (a->end_time > b->end_time) - (a->end_time < b->end_time);
	/* a total order, so that every estimate releases ties alike */
	return (a->job_id > b->job_id) - (a->job_id < b->job_id);
}

static int _by_job_id(const void *x, const void *y)
{
	const struct id_rank *a = x, *b = y;

	return (a->job_id > b->job_id) - (a->job_id < b->job_id);
}

/* Each node's holder looked up among the jobs by id (n log n, not n^2). */
static void _rank_nodes(struct release_order *o)
{
	struct id_rank *ids = xcalloc(o->count ? o->count : 1, sizeof(*ids));

	for (uint32_t r = 0; r < o->count; r++)
		ids[r] = (struct id_rank) { o->jobs[r]->job_id, r };
	qsort(ids, o->count, sizeof(*ids), _by_job_id);
	for (int i = 0; i < node_record_count; i++) {
		struct id_rank key = { o->held[i], 0 }, *hit = NULL;

		if (o->held[i] && o->held[i] != NO_VAL)
			hit = bsearch(&key, ids, o->count, sizeof(*ids),
				      _by_job_id);
		o->rank[i] = hit ? hit->rank : NOT_RELEASED;
	}
	xfree(ids);
}

struct release_order *release_order_create(list_t *jobs, const uint32_t *held)
{
	struct release_order *o = xmalloc(sizeof(*o));
	int n = list_count(jobs);

	o->jobs = xcalloc(n > 0 ? n : 1, sizeof(*o->jobs));
	o->rank = xcalloc(node_record_count ? node_record_count : 1,
			  sizeof(*o->rank));
	o->held = held;
	list_for_each(jobs, _collect, o);
	qsort(o->jobs, o->count, sizeof(*o->jobs), _by_end_time);
	_rank_nodes(o);
	return o;
}

uint32_t release_order_count(const struct release_order *o)
{
	return o->count;
}

job_record_t *release_order_job(const struct release_order *o, uint32_t k)
{
	return k < o->count ? o->jobs[k] : NULL;
}

void release_order_apply(const struct release_order *o, uint32_t k,
			 uint32_t *out)
{
	for (int i = 0; i < node_record_count; i++)
		out[i] = o->rank[i] < k ? 0 : o->held[i];
}

void release_order_destroy(struct release_order *o)
{
	if (!o)
		return;
	xfree(o->jobs);
	xfree(o->rank);
	xfree(o);
}
