/*
 * engine.c - the co-allocation decision engine (see engine.h).
 *
 * Internally the queues are numbered 0..C-1 (local queue of site i) and C
 * (the global queue); only the policy's queues take part in the visiting
 * order.  Jobs live in a slot array linked into FCFS queues by index, and
 * an id map finds them, so submit, cancel and depart are O(1).  Under the
 * fcfs order a decision pass costs O((started + 1) * queues * C),
 * independent of how many jobs wait behind the queue heads; under
 * firstfit and smallest each queue's jobs are tried once a pass, in the
 * order's sequence (O(n log n) to sort, O(n * C) to try): processors
 * only get fewer during a pass, so a job that did not fit is not tried
 * again before the next one.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coalloc/engine.h"
#include "coalloc/idmap.h"
#include "coalloc/placement.h"
#include "coalloc/rng.h"

#define NO_SLOT (-1)

enum job_state {
	JOB_FREE,
	JOB_PENDING,
	JOB_RUNNING,
};

struct job {
	uint32_t id;
	uint8_t state;
	uint8_t ncomp;
	uint8_t row;		/* when running */
	uint8_t type;		/* enum coalloc_request_type */
	int16_t q;		/* internal queue index */
	double submit;
	uint64_t seq;		/* arrival order, for the queue orders */
	int32_t prev, next;	/* queue links; next doubles as free list */
	uint32_t size[COALLOC_MAX_SITES];	/* decreasing */
	uint16_t site[COALLOC_MAX_SITES];	/* when running */
	int16_t want[COALLOC_MAX_SITES];	/* ordered: named site of
						 * size[k], or SITE_ANY */
	uint32_t total;				/* flexible, while pending
						 * (ncomp is 0 until placed) */
};

struct queue {
	int32_t head, tail;
	size_t len;
	bool disabled;
	bool stamped;		/* disabled since the last departure */
	uint64_t disabled_at;	/* stamp, for LS-DO */
	/* firstfit, smallest: every waiting job with a lower seq was tried
	 * since the last departure and did not fit */
	uint64_t tried_below;
};

/*
 * One decision pass's walk through a queue under firstfit or smallest:
 * its jobs in the order's sequence, those before next already tried.
 */
struct scan {
	struct coalloc_order_key *keys;
	size_t n, next, cap;
	bool built;
};

struct coalloc_engine {
	struct coalloc_config cfg;
	enum coalloc_family family;
	const struct coalloc_policy_desc *desc;	/* its row (policy.c) */
	unsigned gq;		/* index of the global queue (= nsites) */
	uint32_t idle[COALLOC_MAX_ROWS][COALLOC_MAX_SITES];
	struct queue queue[COALLOC_MAX_SITES + 1];
	int order[COALLOC_MAX_SITES + 1];	/* visiting order */
	unsigned norder;
	struct job *jobs;
	size_t jobs_cap;
	int32_t free_slot;
	struct coalloc_idmap ids;
	struct coalloc_rng rng;
	uint64_t stamp;
	struct coalloc_start *out;
	size_t out_len, out_cap;
	size_t npending, nrunning;
	uint64_t next_seq;
	struct scan scan[COALLOC_MAX_SITES + 1];
};

void coalloc_config_init(struct coalloc_config *cfg,
			 enum coalloc_policy policy, unsigned nsites,
			 uint32_t procs)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->policy = policy;
	cfg->nsites = nsites;
	for (unsigned i = 0; i < nsites && i < COALLOC_MAX_SITES; i++)
		cfg->site_procs[i] = procs;
	cfg->seed = 1;
	cfg->rows = 1;
	cfg->aging_wait = COALLOC_AGING_DEFAULT_WAIT;
}

/* ------------------------------------------------------------ queues */

static int queue_public(const struct coalloc_engine *e, unsigned q)
{
	return q == e->gq ? COALLOC_QUEUE_GLOBAL : (int)q;
}

static int queue_internal(const struct coalloc_engine *e, int queue)
{
	if (queue == COALLOC_QUEUE_GLOBAL)
		return (int)e->gq;
	if (queue < 0 || (unsigned)queue >= e->cfg.nsites)
		return -1;
	return queue;
}

static bool queue_in_policy(const struct coalloc_engine *e, unsigned q)
{
	if (q == e->gq)
		return coalloc_policy_has_global(e->cfg.policy);
	return coalloc_policy_has_local(e->cfg.policy);
}

static void queue_append(struct coalloc_engine *e, unsigned q, int32_t slot)
{
	struct queue *qu = &e->queue[q];
	struct job *j = &e->jobs[slot];

	j->prev = qu->tail;
	j->next = NO_SLOT;
	if (qu->tail != NO_SLOT)
		e->jobs[qu->tail].next = slot;
	else
		qu->head = slot;
	qu->tail = slot;
	qu->len++;
}

static void queue_unlink(struct coalloc_engine *e, int32_t slot)
{
	struct job *j = &e->jobs[slot];
	struct queue *qu = &e->queue[j->q];

	if (j->prev != NO_SLOT)
		e->jobs[j->prev].next = j->next;
	else
		qu->head = j->next;
	if (j->next != NO_SLOT)
		e->jobs[j->next].prev = j->prev;
	else
		qu->tail = j->prev;
	qu->len--;
	j->prev = j->next = NO_SLOT;
}

static void queue_disable(struct coalloc_engine *e, unsigned q)
{
	struct queue *qu = &e->queue[q];

	qu->disabled = true;
	/* firstfit, smallest: a queue re-opened by a submission (or a
	 * cancel) and closed again keeps its place in LS-DO's order: it
	 * has had nothing that fits since it was first disabled */
	if (qu->stamped && !coalloc_order_head_blocks(e->cfg.order))
		return;
	qu->disabled_at = ++e->stamp;
	qu->stamped = true;
}

/* ------------------------------------------------------------ policy */

static bool any_local_empty(const struct coalloc_engine *e)
{
	for (unsigned i = 0; i < e->cfg.nsites; i++)
		if (e->queue[i].len == 0)
			return true;
	return false;
}

/* LQ: the global queue is longer than every local queue. */
static bool global_longest(const struct coalloc_engine *e)
{
	size_t glen = e->queue[e->gq].len;

	for (unsigned i = 0; i < e->cfg.nsites; i++)
		if (e->queue[i].len >= glen)
			return false;
	return true;
}

/* The policy's hold on a queue right now, or COALLOC_WHY_ELIGIBLE. */
static enum coalloc_why policy_hold(const struct coalloc_engine *e, unsigned q)
{
	bool global = q == e->gq;

	switch (e->family) {
	case COALLOC_FAMILY_GP:
		if (!global && e->queue[e->gq].len > 0)
			return COALLOC_WHY_HELD_GLOBAL_NONEMPTY;
		break;
	case COALLOC_FAMILY_LP:
		if (global && !any_local_empty(e))
			return COALLOC_WHY_HELD_NO_LOCAL_EMPTY;
		break;
	case COALLOC_FAMILY_LQ:
		if (global && !global_longest(e))
			return COALLOC_WHY_HELD_GLOBAL_SHORTER;
		if (!global && global_longest(e))
			return COALLOC_WHY_HELD_GLOBAL_LONGER;
		break;
	default:
		break;
	}
	return COALLOC_WHY_ELIGIBLE;
}

static void order_locals(struct coalloc_engine *e, unsigned first)
{
	for (unsigned i = 0; i < e->cfg.nsites; i++)
		e->order[e->norder++] = (int)((first + i) % e->cfg.nsites);
}

static void order_two_sided(struct coalloc_engine *e, bool global_first)
{
	e->norder = 0;
	if (global_first)
		e->order[e->norder++] = (int)e->gq;
	order_locals(e, 0);
	if (!global_first)
		e->order[e->norder++] = (int)e->gq;
}

/* LS-RO: sites of the departing job, larger components first, then the
 * sites it did not use in index order. */
static void order_release(struct coalloc_engine *e, const struct job *j)
{
	bool seen[COALLOC_MAX_SITES] = { false };

	e->norder = 0;
	for (unsigned k = 0; k < j->ncomp; k++) {
		e->order[e->norder++] = j->site[k];
		seen[j->site[k]] = true;
	}
	for (unsigned i = 0; i < e->cfg.nsites; i++)
		if (!seen[i])
			e->order[e->norder++] = (int)i;
}

/* LS-DO: the queues disabled since the last departure, in the order they
 * were disabled, then the others in their previous relative order. */
static void order_disabled(struct coalloc_engine *e)
{
	int prev[COALLOC_MAX_SITES + 1];
	unsigned n = e->norder, out = 0;

	memcpy(prev, e->order, n * sizeof(prev[0]));
	/* insertion sort of the disabled ones by stamp; n is tiny */
	for (unsigned i = 0; i < n; i++) {
		const struct queue *qi = &e->queue[prev[i]];
		unsigned pos;

		if (!qi->disabled)
			continue;
		pos = out;
		while (pos > 0 &&
		       e->queue[e->order[pos - 1]].disabled_at > qi->disabled_at) {
			e->order[pos] = e->order[pos - 1];
			pos--;
		}
		e->order[pos] = prev[i];
		out++;
	}
	for (unsigned i = 0; i < n; i++)
		if (!e->queue[prev[i]].disabled)
			e->order[out++] = prev[i];
}

/* The visiting order after a departure (before the queues are enabled,
 * so LS-DO can still see which ones were disabled). */
static void set_departure_order(struct coalloc_engine *e, const struct job *j)
{
	switch (e->desc->enable) {
	case COALLOC_ENABLE_RANDOM_START:
		e->norder = 0;
		order_locals(e, coalloc_rng_below(&e->rng, e->cfg.nsites));
		break;
	case COALLOC_ENABLE_RELEASE:
		order_release(e, j);
		break;
	case COALLOC_ENABLE_DISABLED:
		order_disabled(e);
		break;
	case COALLOC_ENABLE_RANDOM_SIDE:
		order_two_sided(e, coalloc_rng_below(&e->rng, 2) == 0);
		break;
	case COALLOC_ENABLE_FIXED:
		break;		/* the initial order stands */
	}
}

static void set_initial_order(struct coalloc_engine *e)
{
	e->norder = 0;
	switch (e->family) {
	case COALLOC_FAMILY_GS:
		e->order[e->norder++] = (int)e->gq;
		break;
	case COALLOC_FAMILY_LS:
		order_locals(e, 0);
		break;
	default:
		order_two_sided(e, e->desc->global_first);
		break;
	}
}

/* ------------------------------------------------------------ jobs */

static int32_t slot_alloc(struct coalloc_engine *e)
{
	if (e->free_slot == NO_SLOT) {
		size_t cap = e->jobs_cap ? e->jobs_cap * 2 : 256;
		struct job *jobs;

		if (cap > INT32_MAX)
			return NO_SLOT;
		jobs = realloc(e->jobs, cap * sizeof(*jobs));
		if (!jobs)
			return NO_SLOT;
		e->jobs = jobs;
		for (size_t s = cap; s-- > e->jobs_cap;) {
			jobs[s].state = JOB_FREE;
			jobs[s].next = e->free_slot;
			e->free_slot = (int32_t)s;
		}
		e->jobs_cap = cap;
	}
	int32_t slot = e->free_slot;

	e->free_slot = e->jobs[slot].next;
	return slot;
}

static void slot_release(struct coalloc_engine *e, int32_t slot)
{
	coalloc_idmap_del(&e->ids, e->jobs[slot].id);
	e->jobs[slot].state = JOB_FREE;
	e->jobs[slot].next = e->free_slot;
	e->free_slot = slot;
}

static struct job *job_find(const struct coalloc_engine *e, uint32_t id,
			    int32_t *slot)
{
	int32_t s = coalloc_idmap_get(&e->ids, id);

	if (slot)
		*slot = s;
	return s < 0 ? NULL : &e->jobs[s];
}

static bool request_valid(const struct coalloc_engine *e,
			  const struct coalloc_request *req)
{
	bool named[COALLOC_MAX_SITES] = { false };

	if (!req)
		return false;
	if (req->type == COALLOC_REQ_FLEXIBLE)
		return req->total > 0;
	if ((req->type != COALLOC_REQ_UNORDERED &&
	     req->type != COALLOC_REQ_ORDERED) ||
	    req->ncomp < 1 || req->ncomp > e->cfg.nsites)
		return false;
	for (unsigned k = 0; k < req->ncomp; k++) {
		int s = req->want_site[k];

		if (req->size[k] == 0)
			return false;
		if (req->type != COALLOC_REQ_ORDERED || s == COALLOC_SITE_ANY)
			continue;
		if (s < 0 || (unsigned)s >= e->cfg.nsites || named[s])
			return false;
		named[s] = true;
	}
	return true;
}

/* What a job asks for, as placement.h takes it. */
static void job_shape(const struct job *j, struct coalloc_shape *shape)
{
	shape->type = (enum coalloc_request_type)j->type;
	shape->ncomp = j->ncomp;
	shape->total = j->total;
	for (unsigned k = 0; k < j->ncomp; k++) {
		shape->size[k] = j->size[k];
		shape->site[k] = j->want[k];
	}
}

/* Whether a request spans sites: the global queue's kind of job. */
static bool request_multi_site(const struct coalloc_request *req)
{
	return req->type == COALLOC_REQ_FLEXIBLE || req->ncomp > 1;
}

/* Local queues restrict single-component jobs to their own site. */
static int only_site_for(const struct coalloc_engine *e, const struct job *j)
{
	if (j->q != (int)e->gq && j->ncomp == 1)
		return j->q;
	return -1;
}

static int job_fill(struct coalloc_engine *e,
		    const struct coalloc_request *req, int q, int32_t *slotp)
{
	int32_t slot;
	struct job *j;
	int rc;

	if (coalloc_idmap_get(&e->ids, req->id) >= 0)
		return -EEXIST;
	slot = slot_alloc(e);
	if (slot == NO_SLOT)
		return -ENOMEM;
	rc = coalloc_idmap_put(&e->ids, req->id, slot);
	if (rc) {
		e->jobs[slot].next = e->free_slot;
		e->free_slot = slot;
		return rc;
	}
	j = &e->jobs[slot];
	memset(j, 0, sizeof(*j));
	j->id = req->id;
	j->type = (uint8_t)req->type;
	j->q = (int16_t)q;
	j->submit = req->submit_time;
	j->seq = e->next_seq++;
	j->prev = j->next = NO_SLOT;
	if (req->type == COALLOC_REQ_FLEXIBLE) {
		j->total = req->total;
	} else {
		j->ncomp = (uint8_t)req->ncomp;
		memcpy(j->size, req->size, req->ncomp * sizeof(j->size[0]));
	}
	for (unsigned k = 0; k < j->ncomp; k++)
		j->want[k] = req->type == COALLOC_REQ_ORDERED ?
			     req->want_site[k] : COALLOC_SITE_ANY;
	*slotp = slot;
	return 0;
}

/* ------------------------------------------------------------ API */

struct coalloc_engine *coalloc_engine_create(const struct coalloc_config *cfg)
{
	struct coalloc_engine *e;

	if (!cfg || cfg->nsites < 1 || cfg->nsites > COALLOC_MAX_SITES ||
	    (unsigned)cfg->policy >= COALLOC_POLICY_COUNT ||
	    cfg->rows > COALLOC_MAX_ROWS ||
	    (unsigned)cfg->order >= COALLOC_ORDER_COUNT) {
		errno = EINVAL;
		return NULL;
	}
	for (unsigned i = 0; i < cfg->nsites; i++) {
		if (cfg->site_procs[i] == 0) {
			errno = EINVAL;
			return NULL;
		}
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		goto fail;
	e->cfg = *cfg;
	if (!e->cfg.rows)
		e->cfg.rows = 1;
	e->desc = coalloc_policy_desc(cfg->policy);
	e->family = e->desc->family;
	e->gq = cfg->nsites;
	e->free_slot = NO_SLOT;
	for (unsigned r = 0; r < e->cfg.rows; r++)
		for (unsigned i = 0; i < cfg->nsites; i++)
			e->idle[r][i] = cfg->site_procs[i];
	for (unsigned q = 0; q <= e->gq; q++)
		e->queue[q].head = e->queue[q].tail = NO_SLOT;
	coalloc_rng_seed(&e->rng, cfg->seed);
	set_initial_order(e);
	if (coalloc_idmap_init(&e->ids))
		goto fail;
	return e;
fail:
	free(e);
	errno = ENOMEM;
	return NULL;
}

void coalloc_engine_destroy(struct coalloc_engine *e)
{
	if (!e)
		return;
	coalloc_idmap_free(&e->ids);
	for (unsigned q = 0; q <= COALLOC_MAX_SITES; q++)
		free(e->scan[q].keys);
	free(e->jobs);
	free(e->out);
	free(e);
}

/*
 * The single site a job in local queue q is bound to, or -1: a local
 * queue serves its site's single-component jobs (an ordered one must name
 * that site), and under LS also the multi-site ones of its users.
 */
static int local_binding(const struct coalloc_engine *e, unsigned q,
			 const struct coalloc_request *req, bool *conflict)
{
	*conflict = false;
	if (q == e->gq || request_multi_site(req))
		return -1;
	if (req->type == COALLOC_REQ_ORDERED &&
	    req->want_site[0] != COALLOC_SITE_ANY && req->want_site[0] != (int)q)
		*conflict = true;
	return (int)q;
}

int coalloc_engine_submit(struct coalloc_engine *e,
			  const struct coalloc_request *req)
{
	struct coalloc_shape shape;
	struct coalloc_fit fit;
	int32_t slot;
	int q, only_site, rc;
	bool conflict;

	if (!request_valid(e, req))
		return -EINVAL;
	q = queue_internal(e, req->queue);
	if (q < 0 || !queue_in_policy(e, (unsigned)q))
		return -EINVAL;
	/* with both kinds of queue, the kind follows the request */
	if (e->family != COALLOC_FAMILY_GS && e->family != COALLOC_FAMILY_LS &&
	    ((unsigned)q == e->gq) != request_multi_site(req))
		return -EINVAL;
	only_site = local_binding(e, (unsigned)q, req, &conflict);
	if (conflict)
		return -EINVAL;
	rc = job_fill(e, req, q, &slot);
	if (rc)
		return rc;
	coalloc_sort_largest_first(e->jobs[slot].size, e->jobs[slot].want,
				   e->jobs[slot].ncomp);
	job_shape(&e->jobs[slot], &shape);
	if (!coalloc_shape_fit(e->cfg.site_procs, e->cfg.nsites, &shape,
			       only_site, &fit)) {
		slot_release(e, slot);	/* it could never fit: not queued */
		return -E2BIG;
	}
	e->jobs[slot].state = JOB_PENDING;
	queue_append(e, (unsigned)q, slot);
	e->npending++;
	/* firstfit, smallest: a disabled queue had nothing that fits; the
	 * new job has not been tried */
	if (!coalloc_order_head_blocks(e->cfg.order))
		e->queue[q].disabled = false;
	return 0;
}

static void occupy(struct coalloc_engine *e, const struct job *j)
{
	for (unsigned k = 0; k < j->ncomp; k++)
		e->idle[j->row][j->site[k]] -= j->size[k];
}

/*
 * Worst Fit in the first row where the job fits: sites in site[], the
 * row in *row.  Returns false when no row holds it now.
 */
static bool fit_any_row(const struct coalloc_engine *e, const struct job *j,
			struct coalloc_fit *fit, unsigned *row)
{
	struct coalloc_shape shape;

	job_shape(j, &shape);
	for (unsigned r = 0; r < e->cfg.rows; r++) {
		if (coalloc_shape_fit(e->idle[r], e->cfg.nsites, &shape,
				      only_site_for(e, j), fit)) {
			if (row)
				*row = r;
			return true;
		}
	}
	return false;
}

static int out_push(struct coalloc_engine *e, const struct job *j)
{
	struct coalloc_start *st;

	if (e->out_len == e->out_cap) {
		size_t cap = e->out_cap ? e->out_cap * 2 : 64;
		struct coalloc_start *out = realloc(e->out, cap * sizeof(*out));

		if (!out)
			return -ENOMEM;
		e->out = out;
		e->out_cap = cap;
	}
	st = &e->out[e->out_len++];
	st->id = j->id;
	st->queue = queue_public(e, (unsigned)j->q);
	st->row = j->row;
	st->ncomp = j->ncomp;
	memcpy(st->size, j->size, j->ncomp * sizeof(st->size[0]));
	memcpy(st->site, j->site, j->ncomp * sizeof(st->site[0]));
	return 0;
}

/*
 * Start the pending job in slot when it fits.  Returns 0 when it started,
 * -ENOSPC when it does not fit, -ENOMEM.
 */
static int try_job(struct coalloc_engine *e, int32_t slot)
{
	struct job *j = &e->jobs[slot];
	struct coalloc_fit fit;
	unsigned row;

	if (!fit_any_row(e, j, &fit, &row))
		return -ENOSPC;
	/* a flexible job gets its components here */
	j->ncomp = (uint8_t)fit.ncomp;
	memcpy(j->size, fit.size, fit.ncomp * sizeof(j->size[0]));
	memcpy(j->site, fit.site, fit.ncomp * sizeof(j->site[0]));
	j->row = (uint8_t)row;
	/* reserve the output slot first so a failure changes nothing */
	if (out_push(e, j))
		return -ENOMEM;
	queue_unlink(e, slot);
	occupy(e, j);
	j->state = JOB_RUNNING;
	e->npending--;
	e->nrunning++;
	return 0;
}

/*
 * Try the head of queue q: start it when it fits, else disable q.
 * Returns true when a job started.
 */
static bool try_head(struct coalloc_engine *e, unsigned q)
{
	if (try_job(e, e->queue[q].head) == 0)
		return true;
	queue_disable(e, q);
	return false;
}

static uint32_t job_procs(const struct job *j)
{
	uint32_t sum = 0;

	if (!j->ncomp)
		return j->total;	/* flexible, not placed yet */
	for (unsigned k = 0; k < j->ncomp; k++)
		sum += j->size[k];
	return sum;
}

/* The queue's jobs in the order's sequence, for this pass.  -ENOMEM. */
static int scan_build(struct coalloc_engine *e, unsigned q)
{
	struct scan *sc = &e->scan[q];
	size_t n = 0;

	if (sc->cap < e->queue[q].len) {
		struct coalloc_order_key *keys =
			realloc(sc->keys, e->queue[q].len * sizeof(*keys));

		if (!keys)
			return -ENOMEM;
		sc->keys = keys;
		sc->cap = e->queue[q].len;
	}
	/* the queue is in seq order: the untried jobs are at its tail */
	int32_t first = e->queue[q].tail;

	while (first != NO_SLOT && e->jobs[first].prev != NO_SLOT &&
	       e->jobs[e->jobs[first].prev].seq >= e->queue[q].tried_below)
		first = e->jobs[first].prev;
	if (first != NO_SLOT && e->jobs[first].seq < e->queue[q].tried_below)
		first = NO_SLOT;
	for (int32_t s = first; s != NO_SLOT; s = e->jobs[s].next) {
		sc->keys[n].procs = job_procs(&e->jobs[s]);
		sc->keys[n].seq = e->jobs[s].seq;
		sc->keys[n].ref = (uint32_t)s;
		n++;
	}
	if (coalloc_order_sorts(e->cfg.order))	/* firstfit: in seq already */
		coalloc_order_sort(e->cfg.order, sc->keys, n);
	sc->n = n;
	sc->next = 0;
	sc->built = true;
	return 0;
}

/*
 * firstfit, smallest: the next job of queue q, in the order's sequence,
 * that fits starts; when none does, q is disabled.  A job started since
 * the walk began (a starving head) is passed over.
 */
static bool try_queue_walk(struct coalloc_engine *e, unsigned q)
{
	struct scan *sc = &e->scan[q];

	if (!sc->built && scan_build(e, q))
		return try_head(e, q);
	while (sc->next < sc->n) {
		int32_t slot = (int32_t)sc->keys[sc->next++].ref;
		int rc;

		if (e->jobs[slot].state != JOB_PENDING)
			continue;
		rc = try_job(e, slot);
		if (rc == 0)
			return true;
		if (rc == -ENOMEM) {
			queue_disable(e, q);
			return false;
		}
	}
	/* every job of q has now been tried since the last departure */
	e->queue[q].tried_below = e->next_seq;
	queue_disable(e, q);
	return false;
}

/* One start from queue q, as its order allows.  True when a job started. */
static bool try_queue(struct coalloc_engine *e, unsigned q)
{
	if (coalloc_order_head_blocks(e->cfg.order))
		return try_head(e, q);
	return try_queue_walk(e, q);
}

/* Queue whose head is the oldest job that has waited aging_wait, or -1. */
static int starving_queue(const struct coalloc_engine *e, double now)
{
	int best = -1;
	double oldest = 0;

	if (e->cfg.aging_wait <= 0)
		return -1;
	for (unsigned q = 0; q <= e->gq; q++) {
		const struct job *j;

		if (e->queue[q].head == NO_SLOT)
			continue;
		j = &e->jobs[e->queue[q].head];
		if (now - j->submit < e->cfg.aging_wait)
			continue;
		if (best < 0 || j->submit < oldest) {
			best = (int)q;
			oldest = j->submit;
		}
	}
	return best;
}

/* One round: every enabled queue, at most one start each. */
static bool schedule_round(struct coalloc_engine *e, int skip)
{
	bool started = false;

	for (unsigned i = 0; i < e->norder; i++) {
		unsigned q = (unsigned)e->order[i];

		if ((int)q == skip || e->queue[q].disabled ||
		    e->queue[q].head == NO_SLOT ||
		    policy_hold(e, q) != COALLOC_WHY_ELIGIBLE)
			continue;
		if (try_queue(e, q))
			started = true;
	}
	return started;
}

size_t coalloc_engine_schedule(struct coalloc_engine *e, double now,
			       const struct coalloc_start **starts)
{
	bool started;

	e->out_len = 0;
	for (unsigned q = 0; q <= e->gq; q++)
		e->scan[q].built = false;
	do {
		int starving = starving_queue(e, now);

		started = false;
		if (starving >= 0) {
			/* served first, regardless of the policy's holds;
			 * while it does not fit nothing else starts */
			if (e->queue[starving].disabled ||
			    !try_head(e, (unsigned)starving))
				break;
			started = true;
		}
		if (schedule_round(e, starving))
			started = true;
	} while (started);
	if (starts)
		*starts = e->out;
	return e->out_len;
}

int coalloc_engine_depart(struct coalloc_engine *e, uint32_t id)
{
	int32_t slot;
	struct job *j = job_find(e, id, &slot);

	if (!j)
		return -ENOENT;
	if (j->state != JOB_RUNNING)
		return -EINVAL;
	for (unsigned k = 0; k < j->ncomp; k++)
		e->idle[j->row][j->site[k]] += j->size[k];
	set_departure_order(e, j);
	for (unsigned q = 0; q <= e->gq; q++) {
		e->queue[q].disabled = false;
		e->queue[q].stamped = false;
		e->queue[q].tried_below = 0;	/* room freed: try them all */
	}
	e->nrunning--;
	slot_release(e, slot);
	return 0;
}

int coalloc_engine_cancel(struct coalloc_engine *e, uint32_t id)
{
	int32_t slot;
	struct job *j = job_find(e, id, &slot);
	unsigned q;

	if (!j)
		return -ENOENT;
	if (j->state != JOB_PENDING)
		return -EINVAL;
	q = (unsigned)j->q;
	if (e->queue[q].head == slot)
		e->queue[q].disabled = false;
	queue_unlink(e, slot);
	e->npending--;
	slot_release(e, slot);
	return 0;
}

int coalloc_engine_add_running(struct coalloc_engine *e,
			       const struct coalloc_request *req,
			       const uint16_t *site)
{
	bool used[COALLOC_MAX_SITES] = { false };
	int16_t placed[COALLOC_MAX_SITES];
	int32_t slot;
	struct job *j;
	int q, rc;

	if (!request_valid(e, req) || !site || req->row >= e->cfg.rows)
		return -EINVAL;
	q = queue_internal(e, req->queue);
	if (q < 0)
		return -EINVAL;
	for (unsigned k = 0; k < req->ncomp; k++) {
		if (site[k] >= e->cfg.nsites || used[site[k]])
			return -EINVAL;
		used[site[k]] = true;
		if (e->idle[req->row][site[k]] < req->size[k])
			return -ENOSPC;
	}
	rc = job_fill(e, req, q, &slot);
	if (rc)
		return rc;
	j = &e->jobs[slot];
	for (unsigned k = 0; k < req->ncomp; k++)
		placed[k] = (int16_t)site[k];
	coalloc_sort_largest_first(j->size, placed, j->ncomp);
	for (unsigned k = 0; k < req->ncomp; k++)
		j->site[k] = (uint16_t)placed[k];
	j->row = (uint8_t)req->row;
	j->state = JOB_RUNNING;
	occupy(e, j);
	e->nrunning++;
	return 0;
}

/* The head of the queue of a starving job that cannot start now. */
static int draining_for(const struct coalloc_engine *e, double now)
{
	int q = starving_queue(e, now);
	struct coalloc_fit fit;
	const struct job *j;

	if (q < 0)
		return -1;
	j = &e->jobs[e->queue[q].head];
	if (!e->queue[q].disabled &&
	    fit_any_row(e, j, &fit, NULL))
		return -1;
	return q;
}

static enum coalloc_why why_pending(const struct coalloc_engine *e,
				    int32_t slot, double now)
{
	const struct job *j = &e->jobs[slot];
	unsigned q = (unsigned)j->q;
	struct coalloc_fit fit;
	int drain = draining_for(e, now);
	enum coalloc_why hold;

	bool head = e->queue[q].head == slot;

	if (!head && coalloc_order_head_blocks(e->cfg.order))
		return COALLOC_WHY_NOT_HEAD;
	/* draining for another queue's head, or (firstfit, smallest) for the
	 * head of this one */
	if (drain >= 0 && ((unsigned)drain != q || !head))
		return COALLOC_WHY_AGING_DRAIN;
	if (e->queue[q].disabled)
		return COALLOC_WHY_QUEUE_DISABLED;
	hold = policy_hold(e, q);
	/* only a starving head is served regardless of the policy's holds */
	if (hold != COALLOC_WHY_ELIGIBLE && drain < 0 &&
	    !(head && starving_queue(e, now) == (int)q))
		return hold;
	if (!fit_any_row(e, j, &fit, NULL))
		return COALLOC_WHY_NO_ROOM;
	return COALLOC_WHY_ELIGIBLE;
}

enum coalloc_why coalloc_engine_reason(const struct coalloc_engine *e,
				       uint32_t id, double now,
				       struct coalloc_reason *r)
{
	int32_t slot;
	const struct job *j = job_find(e, id, &slot);
	struct coalloc_reason mine;

	if (!r)
		r = &mine;
	memset(r, 0, sizeof(*r));
	r->policy = e->cfg.policy;
	r->order = e->cfg.order;
	r->global_len = e->queue[e->gq].len;
	if (!j) {
		r->why = COALLOC_WHY_UNKNOWN_JOB;
		return r->why;
	}
	r->known = true;
	r->queue = (unsigned)j->q == e->gq ? COALLOC_QUEUE_GLOBAL : (int)j->q;
	r->queue_len = e->queue[j->q].len;
	r->ncomp = j->ncomp;
	r->largest = j->ncomp ? j->size[0] : j->total;
	r->why = j->state == JOB_RUNNING ? COALLOC_WHY_RUNNING :
		 why_pending(e, slot, now);
	return r->why;
}

enum coalloc_job_state coalloc_engine_job_state(const struct coalloc_engine *e,
						uint32_t id)
{
	const struct job *j = job_find(e, id, NULL);

	if (!j)
		return COALLOC_JOB_UNKNOWN;
	return j->state == JOB_RUNNING ? COALLOC_JOB_RUNNING :
					 COALLOC_JOB_PENDING;
}

enum coalloc_why coalloc_engine_why(const struct coalloc_engine *e,
				    uint32_t id, double now,
				    char *buf, size_t len)
{
	struct coalloc_reason r;

	coalloc_engine_reason(e, id, now, &r);
	if (buf && len)
		coalloc_reason_format(&r, NULL, buf, len);
	return r.why;
}

enum coalloc_policy coalloc_engine_policy(const struct coalloc_engine *e)
{
	return e->cfg.policy;
}

unsigned coalloc_engine_nsites(const struct coalloc_engine *e)
{
	return e->cfg.nsites;
}

uint32_t coalloc_engine_idle(const struct coalloc_engine *e, unsigned site)
{
	uint32_t sum = 0;

	for (unsigned r = 0; r < e->cfg.rows; r++)
		sum += coalloc_engine_idle_row(e, r, site);
	return sum;
}

uint32_t coalloc_engine_idle_row(const struct coalloc_engine *e, unsigned row,
				 unsigned site)
{
	return site < e->cfg.nsites && row < e->cfg.rows ?
	       e->idle[row][site] : 0;
}

int coalloc_engine_disable_queue(struct coalloc_engine *e, int queue,
				 uint32_t head_id)
{
	int q = queue_internal(e, queue);

	if (q < 0 || !queue_in_policy(e, (unsigned)q))
		return -EINVAL;
	/* a stale record would hold a queue whose head nothing tried:
	 * only a departure would free it, and none may come.  Under
	 * firstfit and smallest every submission enables its queue, and
	 * the jobs came back as submissions. */
	if (!head_id || coalloc_engine_queue_head(e, queue) != head_id ||
	    !coalloc_order_head_blocks(e->cfg.order))
		return -ESTALE;
	queue_disable(e, (unsigned)q);
	return 0;
}

size_t coalloc_engine_queue_length(const struct coalloc_engine *e, int queue)
{
	int q = queue_internal(e, queue);

	return q < 0 ? 0 : e->queue[q].len;
}

uint32_t coalloc_engine_queue_head(const struct coalloc_engine *e, int queue)
{
	int q = queue_internal(e, queue);

	if (q < 0 || e->queue[q].head == NO_SLOT)
		return 0;
	return e->jobs[e->queue[q].head].id;
}

bool coalloc_engine_queue_enabled(const struct coalloc_engine *e, int queue)
{
	int q = queue_internal(e, queue);

	return q >= 0 && queue_in_policy(e, (unsigned)q) &&
	       !e->queue[q].disabled;
}

size_t coalloc_engine_pending(const struct coalloc_engine *e)
{
	return e->npending;
}

size_t coalloc_engine_pending_ids(const struct coalloc_engine *e,
				  uint32_t *ids, size_t max)
{
	size_t n = 0;

	for (unsigned q = 0; q <= e->gq; q++)
		for (int32_t i = e->queue[q].head; i != NO_SLOT && n < max;
		     i = e->jobs[i].next)
			ids[n++] = e->jobs[i].id;
	return n;
}

size_t coalloc_engine_running(const struct coalloc_engine *e)
{
	return e->nrunning;
}

unsigned coalloc_engine_visit_order(const struct coalloc_engine *e,
				    int *queues, unsigned max)
{
	unsigned n = e->norder < max ? e->norder : max;

	for (unsigned i = 0; i < n; i++)
		queues[i] = queue_public(e, (unsigned)e->order[i]);
	return n;
}

int coalloc_engine_placement(const struct coalloc_engine *e, uint32_t id,
			     struct coalloc_start *out)
{
	const struct job *j = job_find(e, id, NULL);

	if (!j)
		return -ENOENT;
	if (j->state != JOB_RUNNING)
		return -EINVAL;
	out->id = j->id;
	out->queue = queue_public(e, (unsigned)j->q);
	out->row = j->row;
	out->ncomp = j->ncomp;
	memcpy(out->size, j->size, j->ncomp * sizeof(out->size[0]));
	memcpy(out->site, j->site, j->ncomp * sizeof(out->site[0]));
	return 0;
}
