/*
 * job_test.c - select_p_job_test: can the job run, where, and when.
 *
 * The decision itself is lib/nodepick's; this file turns slurmctld's
 * bitmaps and job records into its arrays, and handles the three modes:
 *   TEST_ONLY  could the job ever run on these nodes (ignoring other jobs)
 *   RUN_NOW    pick free nodes now (or the preemptees that would free them)
 *   WILL_RUN   when would it start, releasing running jobs by end time
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "coalloc/engine.h"
#include "coalloc/placement.h"
#include "nodepick/nodepick.h"
#include "num/search.h"
#include "select_coalloc.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "num/errbuf.h"
#include "coalloc/sizes.h"

/* The arrays nodepick reads, sized to slurmctld's node table. */
struct pick_arrays {
	bool *usable;
	bool *required;
	bool *chosen;
	uint32_t *cpus;
	int *site;		/* site index per node, -1: none */
};

static void _arrays_alloc(struct pick_arrays *a)
{
	size_t n = node_record_count ? node_record_count : 1;

	a->usable = xcalloc(n, sizeof(bool));
	a->required = xcalloc(n, sizeof(bool));
	a->chosen = xcalloc(n, sizeof(bool));
	a->cpus = xcalloc(n, sizeof(uint32_t));
	a->site = xcalloc(n, sizeof(int));
}

static void _arrays_free(struct pick_arrays *a)
{
	xfree(a->usable);
	xfree(a->required);
	xfree(a->chosen);
	xfree(a->cpus);
	xfree(a->site);
}

/* CPUs of node i the job can use: all, unless it limits tasks per node. */
static uint32_t _usable_cpus(job_record_t *job_ptr, int i)
{
	job_details_t *d = job_ptr->details;
	uint32_t cpus = coalloc_node_cpus(i);
	uint32_t per_task = (d->cpus_per_task && d->cpus_per_task != NO_VAL16) ?
			    d->cpus_per_task : 1;

	if (d->ntasks_per_node && d->ntasks_per_node != NO_VAL16 &&
	    d->ntasks_per_node * per_task < cpus)
		cpus = d->ntasks_per_node * per_task;
	return cpus;
}

/* The arrays of one pick, filled from the job and slurmctld's tables. */
static void _fill_arrays(job_record_t *job_ptr, bitstr_t *bitmap,
			 const uint32_t *held, struct pick_arrays *a)
{
	job_details_t *d = job_ptr->details;

	for (int i = 0; i < node_record_count; i++) {
		if (!node_record_table_ptr[i])
			continue;
		a->usable[i] = bit_test(bitmap, i) && (!held || !held[i]);
		a->required[i] = d->req_node_bitmap &&
				 bit_test(d->req_node_bitmap, i);
		a->cpus[i] = _usable_cpus(job_ptr, i);
		a->site[i] = coalloc_site_of_node(i);
	}
}

/* nodepick on the usable nodes of one site (-1: of every site). */
static int _pick_in_site(const struct nodepick_request *req,
			 struct pick_arrays *a, int site, bool *chosen,
			 struct nodepick_result *result)
{
	bool *usable = a->usable;
	int rc;

	if (site >= 0) {
		usable = xcalloc(node_record_count ? node_record_count : 1,
				 sizeof(bool));
		for (int i = 0; i < node_record_count; i++)
			usable[i] = a->usable[i] && a->site[i] == site;
	}
	rc = nodepick_exclusive(req, &(struct nodepick_nodes){
					node_record_count, usable, a->required,
					a->cpus }, chosen, result);
	if (site >= 0)
		xfree(usable);
	return rc;
}

/* Usable nodes per site, for Worst Fit. */
static uint32_t *_idle_per_site(const struct pick_arrays *a, int nsites)
{
	uint32_t *idle = xcalloc(nsites ? nsites : 1, sizeof(*idle));

	for (int i = 0; i < node_record_count; i++)
		if (a->usable[i] && a->site[i] >= 0 && a->site[i] < nsites)
			idle[a->site[i]]++;
	return idle;
}

/*
 * A job without --coalloc.  In a site's local partition it runs on that
 * site.  Elsewhere it goes, whole, to the site with the most free nodes
 * that can hold it (Worst Fit), and only when no single site can does it
 * take nodes of several sites, as on any Slurm cluster.
 */
static int _pick_single(job_record_t *job_ptr, const struct nodepick_request *req,
			struct pick_arrays *a, struct nodepick_result *result)
{
	int only = coalloc_local_site_of_partition(
		job_ptr->part_ptr ? job_ptr->part_ptr->name : NULL);
	int nsites = coalloc_site_count();
	uint32_t *idle;
	bool *tried;
	int rc = -1;

	if (only >= 0)
		return _pick_in_site(req, a, only, a->chosen, result);
	idle = _idle_per_site(a, nsites);
	tried = xcalloc(nsites ? nsites : 1, sizeof(bool));
	for (int n = 0; rc && n < nsites; n++) {
		int best = -1;

		for (int s = 0; s < nsites; s++)
			if (!tried[s] && (best < 0 || idle[s] > idle[best]))
				best = s;
		tried[best] = true;
		rc = _pick_in_site(req, a, best, a->chosen, result);
	}
	if (rc)
		rc = _pick_in_site(req, a, -1, a->chosen, result);
	xfree(idle);
	xfree(tried);
	return rc;
}

/*
 * Nodes for components of size[k] on site[k]; all of them end up in
 * a->chosen.  'single' (or NULL) adds the job's CPU count and contiguity
 * when there is only one component.  Returns 0 or -1.
 */
static int _place_on_sites(struct pick_arrays *a, unsigned ncomp,
			   const uint32_t *size, const uint16_t *site,
			   const struct nodepick_request *single,
			   struct nodepick_result *result)
{
	struct nodepick_result total = { 0 };
	int rc = 0;

	for (unsigned k = 0; !rc && k < ncomp; k++) {
		struct nodepick_request req = {
			.min_nodes = size[k], .max_nodes = size[k],
			.want_nodes = size[k],
		};
		struct nodepick_result part;
		bool *chosen = xcalloc(node_record_count ? node_record_count : 1,
				       sizeof(bool));

		if (single && ncomp == 1) {
			req.min_cpus = single->min_cpus;
			req.contiguous = single->contiguous;
		}
		rc = _pick_in_site(&req, a, site[k], chosen, &part);
		for (int i = 0; !rc && i < node_record_count; i++)
			a->chosen[i] |= chosen[i];
		xfree(chosen);
		total.nodes += part.nodes;
		total.cpus += part.cpus;
	}
	if (!rc && result)
		*result = total;
	return rc ? -1 : 0;
}

/*
 * A job with --coalloc: its components (largest first) on distinct sites
 * as its request type says (lib/coalloc/placement.c), then nodes within
 * each site.  The components' sum is the job's node count.
 */
static int _pick_components(job_record_t *job_ptr,
			    const struct nodepick_request *job_req,
			    const struct coalloc_shape *shape,
			    struct pick_arrays *a,
			    struct nodepick_result *result)
{
	int nsites = coalloc_site_count();
	uint32_t total = shape->total, *idle;
	struct coalloc_fit fit;
	int rc = -1;

	for (unsigned k = 0; k < shape->ncomp; k++)
		total += shape->size[k];
	if (job_ptr->details->req_node_bitmap || job_req->contiguous ||
	    total < job_req->min_nodes ||
	    (job_req->max_nodes && total > job_req->max_nodes))
		return -1;
	idle = _idle_per_site(a, nsites);
	if (coalloc_shape_fit(idle, nsites, shape, -1, &fit) &&
	    !_place_on_sites(a, fit.ncomp, fit.size, fit.site, NULL, result))
		rc = result->cpus >= job_req->min_cpus ? 0 : -1;
	xfree(idle);
	return rc;
}

/* Reduce 'bitmap' to the chosen nodes. */
static void _set_chosen(bitstr_t *bitmap, const struct pick_arrays *a)
{
	bit_clear_all(bitmap);
	for (int i = 0; i < node_record_count; i++)
		if (a->chosen[i])
			bit_set(bitmap, i);
}

static bool _preempting(job_record_t *job_ptr)
{
	return coalloc_is_preempt_partition(job_ptr->part_ptr ?
					    job_ptr->part_ptr->name : NULL);
}

/* Placed in 'row' on the nodes of 'bitmap', would the job run while row
 * r is active: r is its row, or its nodes are free in r (a replica). */
static bool _runs_in(int row, int r, bitstr_t *bitmap)
{
	if (row == r)
		return true;
	for (int i = 0; i < node_record_count; i++)
		if (bit_test(bitmap, i) && node_usage_cell(r, i, NULL))
			return false;
	return true;
}

/*
 * Would a job placed in 'row' on the nodes of 'bitmap' run at once: its
 * row is the active one, or those nodes are free in the active row (the
 * matrix replicates it there), or it preempts (its row becomes active).
 * Else slurmd would run it beside the active row's jobs until the
 * suspend of the next pass reached its nodes: seconds of a node running
 * two rows.  Such a job waits for its row's turn instead.  Rows the node
 * agents switch need no wait: an agent freezes a new job's steps within a
 * quantum of its start, when it is not its row's turn.  While the running
 * row's slice is held past its end for a launch, only a job that runs in
 * the next row too starts.
 */
static bool _runs_at_once(job_record_t *job_ptr, int row, bitstr_t *bitmap)
{
	if (row < 0 || node_usage_local() || node_usage_fast_gang() ||
	    _preempting(job_ptr))
		return true;
	if (!_runs_in(row, node_usage_active_row(), bitmap))
		return false;
	/* the slice is held for a launch: a job the switch would stop does
	 * not start (steady starts held the other row back for good, and
	 * it would be stopped within seconds of its launch) */
	return !node_usage_draining() ||
	       _runs_in(row, node_usage_next_row(), bitmap);
}

/*
 * A job the policy manages: it starts only when the engine says it is its
 * turn, on the sites the engine chose (one component per site).
 */
static int _pick_turn(job_record_t *job_ptr, bitstr_t *bitmap)
{
	job_details_t *d = job_ptr->details;
	struct nodepick_request single = {
		.min_cpus = d->min_cpus, .contiguous = d->contiguous,
	};
	struct coalloc_start start;
	struct pick_arrays a;
	uint32_t *held;
	int rc, row;

	if (coalloc_queues_turn(job_ptr, &start))
		return EINVAL;
	/* the engine's rows are the matrix's ordinary rows (gang) */
	row = node_usage_first_row();
	if (!node_usage_local() && node_usage_rows() > row + 1)
		row += start.row;
	held = node_usage_snapshot(row);
	_arrays_alloc(&a);
	_fill_arrays(job_ptr, bitmap, held, &a);
	rc = _place_on_sites(&a, start.ncomp, start.size, start.site, &single,
			     NULL);
	if (rc) {
		info("%s: %pJ: its turn came but its sites lack free nodes (down, drained, reserved or busy outside the policy); it keeps its turn for a while",
		     plugin_type, job_ptr);
	} else {
		_set_chosen(bitmap, &a);
		if (_runs_at_once(job_ptr, row, bitmap)) {
			node_usage_plan(job_ptr->job_id, row);
		} else {	/* it keeps its turn until its row's */
			node_usage_want_row(row);
			rc = EAGAIN;
		}
	}
	_arrays_free(&a);
	xfree(held);
	return rc ? EINVAL : SLURM_SUCCESS;
}

/*
 * A managed job's components on distinct sites, by Worst Fit over the
 * nodes of 'bitmap' free in 'held' (NULL: every node); 'only' >= 0 keeps
 * a single component on that site.  On success 'bitmap' holds the nodes.
 */
static int _fit_sites(job_record_t *job_ptr, bitstr_t *bitmap,
		      const uint32_t *held, int only)
{
	struct coalloc_shape shape;
	struct coalloc_fit fit;
	struct pick_arrays a;
	char err[ERRBUF_LEN];
	uint32_t *idle;
	bool fits;

	if (coalloc_job_shape(job_ptr, &shape, err, sizeof(err)) < 0)
		return EINVAL;
	_arrays_alloc(&a);
	_fill_arrays(job_ptr, bitmap, held, &a);
	idle = _idle_per_site(&a, coalloc_site_count());
	fits = coalloc_shape_fit(idle, coalloc_site_count(), &shape,
				 shape.ncomp == 1 ? only : -1, &fit) &&
	       !_place_on_sites(&a, fit.ncomp, fit.size, fit.site, NULL, NULL);
	if (fits)
		_set_chosen(bitmap, &a);
	xfree(idle);
	_arrays_free(&a);
	return fits ? SLURM_SUCCESS : EINVAL;
}

/*
 * Submit-time check of a managed job: the policy can queue it, and every
 * component fits a distinct site of an empty system.
 */
static int _test_managed(job_record_t *job_ptr, bitstr_t *bitmap)
{
	if (coalloc_queues_valid(job_ptr))
		return EINVAL;
	/* leave a plausible selection: slurmctld shows its size meanwhile */
	return _fit_sites(job_ptr, bitmap, NULL, -1);
}

/*
 * Pick nodes from 'bitmap' that are free in 'held' (NULL: ignore other
 * jobs).  On success 'bitmap' is reduced to the chosen nodes.
 */
static int _pick(job_record_t *job_ptr, bitstr_t *bitmap, const uint32_t *held,
		 uint32_t min_nodes, uint32_t max_nodes, uint32_t req_nodes)
{
	job_details_t *d = job_ptr->details;
	struct nodepick_request req = {
		.min_nodes = min_nodes, .max_nodes = max_nodes,
		.want_nodes = req_nodes, .min_cpus = d->min_cpus,
		.contiguous = d->contiguous,
	};
	struct coalloc_shape shape;
	struct nodepick_result result;
	struct pick_arrays a;
	char err[ERRBUF_LEN];
	int rc, has_request;

	if (d->req_node_bitmap && !bit_super_set(d->req_node_bitmap, bitmap))
		return EINVAL;
	has_request = coalloc_job_shape(job_ptr, &shape, err, sizeof(err));
	if (has_request < 0)
		return EINVAL;
	_arrays_alloc(&a);
	_fill_arrays(job_ptr, bitmap, held, &a);
	if (has_request)
		rc = _pick_components(job_ptr, &req, &shape, &a, &result);
	else
		rc = _pick_single(job_ptr, &req, &a, &result);
	if (!rc)
		_set_chosen(bitmap, &a);
	_arrays_free(&a);
	return rc ? EINVAL : SLURM_SUCCESS;
}

/*
 * The rows a job may start in: a preempting job in the priority row,
 * others in the ordinary rows (first fit); local mode has no rows (-1).
 */
static void _rows_for(job_record_t *job_ptr, int *first, int *last)
{
	if (node_usage_local()) {
		*first = *last = -1;
	} else if (_preempting(job_ptr)) {
		*first = *last = 0;
	} else {
		*first = node_usage_first_row();
		*last = node_usage_rows() - 1;
	}
}

/*
 * _pick in the first row that holds the job and runs it at once; plans
 * that row.  *later: the first row that holds it but whose turn has not
 * come (-1: none); the caller decides whether it waits for that row.
 */
static int _pick_in_rows(job_record_t *job_ptr, bitstr_t *bitmap,
			 uint32_t min_nodes, uint32_t max_nodes,
			 uint32_t req_nodes, int *later)
{
	bitstr_t *orig = bit_copy(bitmap);
	int first, last, rc = EINVAL;

	*later = -1;
	_rows_for(job_ptr, &first, &last);
	for (int row = first; rc != SLURM_SUCCESS && row <= last; row++) {
		uint32_t *held = node_usage_snapshot(row);

		bit_copybits(bitmap, orig);
		rc = _pick(job_ptr, bitmap, held, min_nodes, max_nodes,
			   req_nodes);
		xfree(held);
		if (rc == SLURM_SUCCESS &&
		    !_runs_at_once(job_ptr, row, bitmap)) {
			if (*later < 0)
				*later = row;
			rc = EINVAL;
		}
		if (rc == SLURM_SUCCESS)
			node_usage_plan(job_ptr->job_id, row);
	}
	if (rc != SLURM_SUCCESS)
		bit_copybits(bitmap, orig);
	FREE_NULL_BITMAP(orig);
	return rc;
}

static void _release_job(uint32_t *held, job_record_t *job_ptr)
{
	for (int i = 0; i < node_record_count; i++)
		if (held[i] == job_ptr->job_id)
			held[i] = 0;
}

static int _release_each(void *x, void *arg)
{
	_release_job(arg, x);
	return 0;
}

/* List the candidates whose nodes the job would take. */
static void _list_preemptees(bitstr_t *bitmap, list_t *candidates,
			     list_t **preemptee_job_list)
{
	list_itr_t *it;
	job_record_t *cand;

	if (!preemptee_job_list)
		return;
	it = list_iterator_create(candidates);
	while ((cand = list_next(it))) {
		if (!cand->node_bitmap ||
		    !bit_overlap_any(bitmap, cand->node_bitmap))
			continue;
		if (!*preemptee_job_list)
			*preemptee_job_list = list_create(NULL);
		list_append(*preemptee_job_list, cand);
	}
	list_iterator_destroy(it);
}

/* Try with the candidates' nodes freed; on success name the preemptees. */
static int _pick_with_preemption(job_record_t *job_ptr, bitstr_t *bitmap,
				 uint32_t min_nodes, uint32_t max_nodes,
				 uint32_t req_nodes, list_t *candidates,
				 list_t **preemptee_job_list)
{
	uint32_t *held;
	int rc;

	int first, last;

	if (!candidates || !list_count(candidates))
		return EINVAL;
	_rows_for(job_ptr, &first, &last);
	held = node_usage_snapshot(first);
	list_for_each(candidates, _release_each, held);
	rc = _pick(job_ptr, bitmap, held, min_nodes, max_nodes, req_nodes);
	xfree(held);
	if (rc == SLURM_SUCCESS) {
		node_usage_plan(job_ptr->job_id, first);
		_list_preemptees(bitmap, candidates, preemptee_job_list);
	}
	return rc;
}

static int _run_now(job_record_t *job_ptr, bitstr_t *bitmap,
		    uint32_t min_nodes, uint32_t max_nodes, uint32_t req_nodes,
		    list_t *candidates, list_t **preemptee_job_list)
{
	bitstr_t *orig = bit_copy(bitmap);
	bool managed = coalloc_queues_manage(job_ptr);
	int rc, later = -1;

	if (managed)
		rc = _pick_turn(job_ptr, bitmap);
	else
		rc = _pick_in_rows(job_ptr, bitmap, min_nodes, max_nodes,
				   req_nodes, &later);
	if (later >= 0)		/* not now: when its row's turn comes */
		node_usage_want_row(later);
	if (rc != SLURM_SUCCESS && !managed) {
		bit_copybits(bitmap, orig);
		rc = _pick_with_preemption(job_ptr, bitmap, min_nodes,
					   max_nodes, req_nodes, candidates,
					   preemptee_job_list);
	}
	if (rc == SLURM_SUCCESS)
		coalloc_build_job_resources(job_ptr, bitmap);
	else
		bit_copybits(bitmap, orig);
	FREE_NULL_BITMAP(orig);
	return rc;
}

/* Sum of the usable CPUs of the nodes in 'bitmap' (WILL_RUN reports it). */
static void _set_total_cpus(job_record_t *job_ptr, bitstr_t *bitmap)
{
	uint32_t total = 0;

	for (int i = 0; i < node_record_count; i++)
		if (bit_test(bitmap, i))
			total += coalloc_node_cpus(i);
	job_ptr->total_cpus = total;
}

/* Nodes for the job in 'bitmap' free in 'held': on its sites ('only' for
 * a local job) when the policy manages it, anywhere otherwise. */
static int _pick_for(job_record_t *job_ptr, bool managed, int only,
		     bitstr_t *bitmap, const uint32_t *held, uint32_t min_nodes,
		     uint32_t max_nodes, uint32_t req_nodes)
{
	if (managed)
		return _fit_sites(job_ptr, bitmap, held, only);
	return _pick(job_ptr, bitmap, held, min_nodes, max_nodes, req_nodes);
}

/* What the release search tests: does the job fit after k jobs ended? */
struct release_search {
	job_record_t *job_ptr;
	bool managed;
	int only;		/* a local job's site, -1 otherwise */
	bitstr_t *bitmap, *orig;
	uint32_t min_nodes, max_nodes, req_nodes;
	struct release_order *order;
	uint32_t *held;		/* the nodes after the last k tested */
	uint32_t last_k;	/* 'bitmap' holds that test's pick */
};

static bool _fits_after(uint32_t k, void *arg)
{
	struct release_search *s = arg;
	struct coalloc_timer_start t0 = coalloc_timer_start();
	int rc;

	release_order_apply(s->order, k, s->held);
	bit_copybits(s->bitmap, s->orig);
	rc = _pick_for(s->job_ptr, s->managed, s->only, s->bitmap, s->held,
		       s->min_nodes, s->max_nodes, s->req_nodes);
	s->last_k = k;
	coalloc_timer_add(COALLOC_TIMER_RELEASE_PICK, &t0);
	return rc == SLURM_SUCCESS;
}

/*
 * The least number of running jobs (earliest end first) that must end
 * before the job fits in 'bitmap' (a copy of 'orig'), on its sites when
 * the policy manages it.  Ending more jobs never makes it stop fitting,
 * so bisection finds that number with about log2(jobs) node picks (a
 * pick after each job released took up to one per job: 99.7 % of
 * will_run's time at 1,024 nodes).  The start time is the end time of
 * the last job released, or the next second when it fits already.
 */
static int _start_when_freed(job_record_t *job_ptr, bool managed,
			     bitstr_t *bitmap, bitstr_t *orig,
			     uint32_t min_nodes, uint32_t max_nodes,
			     uint32_t req_nodes, time_t now)
{
	struct coalloc_timer_start t0 = coalloc_timer_start();
	struct release_search s = {
		.job_ptr = job_ptr, .managed = managed, .bitmap = bitmap,
		.orig = orig, .min_nodes = min_nodes, .max_nodes = max_nodes,
		.req_nodes = req_nodes,
		.only = coalloc_local_site_of_partition(
			job_ptr->part_ptr ? job_ptr->part_ptr->name : NULL),
	};
	uint32_t *snapshot, count, k;
	job_record_t *last;
	int first, unused;

	/* with rows: when the first row frees up (the latest start) */
	_rows_for(job_ptr, &first, &unused);
	snapshot = node_usage_snapshot(first);
	s.held = xcalloc(node_record_count ? node_record_count : 1,
			 sizeof(*s.held));
	s.order = release_order_create(job_list, snapshot);
	count = release_order_count(s.order);
	k = num_least_true(0, count, _fits_after, &s);
	if (k <= count && s.last_k != k)
		_fits_after(k, &s);	/* leave the pick of the answer */
	last = k ? release_order_job(s.order, k - 1) : NULL;
	if (k <= count)
		job_ptr->start_time = last && last->end_time > now ?
				      last->end_time : now + 1;
	release_order_destroy(s.order);
	xfree(s.held);
	xfree(snapshot);
	coalloc_timer_add(COALLOC_TIMER_WHEN_FREED, &t0);
	return k <= count ? SLURM_SUCCESS : EINVAL;
}

/*
 * When could the job start: now (in a row, or by preemption), at its
 * row's next turn, or when running jobs have ended.
 */
static int _will_run(job_record_t *job_ptr, bitstr_t *bitmap,
		     uint32_t min_nodes, uint32_t max_nodes, uint32_t req_nodes,
		     list_t *candidates, list_t **preemptee_job_list)
{
	bitstr_t *orig = bit_copy(bitmap);
	time_t now = time(NULL);
	enum coalloc_outlook outlook;
	uint32_t *held;
	int rc, later;

	/*
	 * A job the policy holds back has no start estimate: squeue shows
	 * the policy's reason.  One at the head of its queue, waiting only
	 * for room, gets the time enough nodes free, never "now": backfill
	 * would try to start it, the policy would refuse, and backfill would
	 * then reserve nodes for it anyway.
	 */
	outlook = coalloc_queues_manage(job_ptr) ?
		  coalloc_queues_outlook(job_ptr) : COALLOC_OUTLOOK_GRANTED;
	if (outlook != COALLOC_OUTLOOK_GRANTED) {
		rc = outlook == COALLOC_OUTLOOK_WAITS_FOR_NODES && job_list ?
		     _start_when_freed(job_ptr, true, bitmap, orig, min_nodes,
				       max_nodes, req_nodes, now) :
		     EINVAL;
		goto done;
	}
	rc = _pick_in_rows(job_ptr, bitmap, min_nodes, max_nodes, req_nodes,
			   &later);
	if (rc == SLURM_SUCCESS) {
		job_ptr->start_time = now;
		goto done;
	}
	if (later >= 0) {	/* at the latest, its row's next turn */
		held = node_usage_snapshot(later);
		bit_copybits(bitmap, orig);
		rc = _pick(job_ptr, bitmap, held, min_nodes, max_nodes,
			   req_nodes);
		xfree(held);
		job_ptr->start_time = now + node_usage_time_slice();
		goto done;
	}
	bit_copybits(bitmap, orig);
	rc = _pick_with_preemption(job_ptr, bitmap, min_nodes, max_nodes,
				   req_nodes, candidates, preemptee_job_list);
	if (rc == SLURM_SUCCESS) {
		job_ptr->start_time = now;	/* once preemption is done */
		goto done;
	}
	if (job_ptr->bit_flags & TEST_NOW_ONLY || !job_list)
		goto done;
	bit_copybits(bitmap, orig);
	rc = _start_when_freed(job_ptr, false, bitmap, orig, min_nodes,
			       max_nodes, req_nodes, now);
done:
	if (rc == SLURM_SUCCESS)
		_set_total_cpus(job_ptr, bitmap);
	else
		bit_copybits(bitmap, orig);
	FREE_NULL_BITMAP(orig);
	return rc;
}

/*
 * At submit: a --coalloc request no site can take is refused with its
 * reason in slurmctld's log (the SPANK plugin has told the user already,
 * unless the job came without it, e.g. through slurmrestd).
 */
static bool _request_refused(job_record_t *job_ptr)
{
	struct coalloc_shape shape;
	char err[ERRBUF_LEN];

	if (coalloc_job_shape(job_ptr, &shape, err, sizeof(err)) >= 0)
		return false;
	info("%s: %pJ refused: %s", plugin_type, job_ptr, err);
	return true;
}

static const enum coalloc_timer _timer_of_mode[] = {
	[SELECT_MODE_RUN_NOW] = COALLOC_TIMER_RUN_NOW,
	[SELECT_MODE_TEST_ONLY] = COALLOC_TIMER_TEST_ONLY,
	[SELECT_MODE_WILL_RUN] = COALLOC_TIMER_WILL_RUN,
};

int coalloc_job_test(job_record_t *job_ptr, bitstr_t *bitmap,
		     uint32_t min_nodes, uint32_t max_nodes,
		     uint32_t req_nodes, uint16_t mode,
		     list_t *preemptee_candidates, list_t **preemptee_job_list)
{
	struct coalloc_timer_start t0;
	bool preempting;
	int rc;

	if (!job_ptr->details || (uint32_t) bit_set_count(bitmap) < min_nodes)
		return EINVAL;

	node_usage_lock();
	t0 = coalloc_timer_start();
	preempting = _preempting(job_ptr);
	if (preempting)
		preempt_hold_note(job_ptr);
	switch (mode) {
	case SELECT_MODE_TEST_ONLY:
		if (_request_refused(job_ptr))
			rc = EINVAL;
		else if (coalloc_queues_manage(job_ptr))
			rc = _test_managed(job_ptr, bitmap);
		else
			rc = _pick(job_ptr, bitmap, NULL, min_nodes, max_nodes,
				   req_nodes);
		break;
	case SELECT_MODE_RUN_NOW:
		if (!preempting && preempt_hold_blocks(job_ptr, bitmap))
			rc = EINVAL;
		else
			rc = _run_now(job_ptr, bitmap, min_nodes, max_nodes,
				      req_nodes, preemptee_candidates,
				      preemptee_job_list);
		break;
	case SELECT_MODE_WILL_RUN:
		rc = _will_run(job_ptr, bitmap, min_nodes, max_nodes,
			       req_nodes, preemptee_candidates,
			       preemptee_job_list);
		break;
	default:
		error("%s: %pJ: unknown job_test mode %u", plugin_type,
		      job_ptr, mode);
		rc = EINVAL;
	}
	if (mode <= SELECT_MODE_WILL_RUN)
		coalloc_timer_add(_timer_of_mode[mode], &t0);
	coalloc_timers_report(false);
	node_usage_unlock();

	if (rc == SLURM_SUCCESS)
		job_ptr->best_switch = true;	/* no topology constraint */
	log_flag(SELECT_TYPE, "%s: %pJ mode=%u nodes=%u-%u(%u) cpus=%u: %s",
		 plugin_type, job_ptr, mode, min_nodes, max_nodes, req_nodes,
		 job_ptr->details->min_cpus,
		 rc == SLURM_SUCCESS ? "fits" : "does not fit");
	return rc;
}
