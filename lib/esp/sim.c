/*
 * sim.c - the ESP scheduling simulator (see sim.h).
 *
 * An event loop over one plan: at each instant, jobs that are done leave,
 * arrivals join their queue, the policy places what it may, the active
 * row is chosen (priority row, empty-row skip, slice expiry), and the
 * jobs of the active row progress until the next instant (an arrival, an
 * end, a slice expiry or the end of a switch overhead).  Remaining times
 * are kept per job as "left as of since", so ends fall on exact sums of
 * the plan's times.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "coalloc/matrix.h"
#include "coalloc/order.h"
#include "esp/sim.h"
#include "num/errbuf.h"

/* Instants closer than this are one (plan times are in milliseconds). */
#define EPS 1e-6

enum _state { _FUTURE, _QUEUED, _PLACED, _DONE };

struct _job {
	enum _state state;
	int row;		/* matrix row once placed */
	double left;		/* run seconds still to do, as of since */
	double since;		/* since when it progresses; < 0: not */
};

/* A running job's estimated end, for EASY's reservation. */
struct _end {
	double at;
	uint32_t size;
};

struct _sim {
	const struct esp_plan *plan;
	const struct esp_sim_opts *o;
	struct esp_sim_result *res;
	struct _job *jobs;
	size_t *order;		/* plan jobs by submit time, stable */
	size_t narrived;
	size_t *queue, nqueue;	/* the general queue, arrival order */
	size_t *zq, nzq;	/* waiting Z jobs (preempt or drain) */
	struct _end *ends;	/* scratch for backfill */
	bool *run;		/* scratch: who progresses now */
	struct coalloc_matrix *m;
	unsigned first;		/* first ordinary row: 1 with preempt */
	unsigned rows;
	uint32_t used[ESP_SIM_MAX_MPL + 1];	/* processors held per row */
	unsigned cur;		/* the row that progresses */
	unsigned resume;	/* the ordinary row a Z job interrupted */
	double t, slice_end, overhead_end;
	size_t done, cap_steps;
	char *err;
	size_t errlen;
};

static const struct {
	const char *name;	/* --policy */
	const char *label;	/* in tables */
} _policies[ESP_SIM_POLICY_COUNT] = {
	[ESP_SIM_FCFS] = { "fcfs", "FCFS" },
	[ESP_SIM_BFF] = { "bff", "BFF" },
	[ESP_SIM_BACKFILL] = { "backfill", "backfill" },
	[ESP_SIM_FIRSTFIT] = { "firstfit", "first fit" },
	[ESP_SIM_SMALLEST] = { "smallest", "smallest first" },
};

static const char *const _alternate_names[ESP_SIM_ALT_COUNT] = {
	[ESP_SIM_ALT_NONE] = "none",
	[ESP_SIM_ALT_REPLICAS] = "replicas",
	[ESP_SIM_ALT_MIGRATE] = "migrate",
};

void esp_sim_opts_default(struct esp_sim_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->policy = ESP_SIM_FCFS;
	o->mpl = 1;
	o->slice = ESP_SIM_SLICE_DEFAULT;
	o->immediate = ESP_SIM_IMMEDIATE_DEFAULT;
}

const char *esp_sim_policy_name(enum esp_sim_policy p)
{
	if ((unsigned)p >= ESP_SIM_POLICY_COUNT)
		return NULL;
	return _policies[p].name;
}

const char *esp_sim_policy_label(enum esp_sim_policy p)
{
	if ((unsigned)p >= ESP_SIM_POLICY_COUNT)
		return NULL;
	return _policies[p].label;
}

int esp_sim_policy_parse(const char *s, enum esp_sim_policy *p)
{
	for (unsigned i = 0; s && i < ESP_SIM_POLICY_COUNT; i++) {
		if (!strcasecmp(s, _policies[i].name)) {
			*p = (enum esp_sim_policy)i;
			return 0;
		}
	}
	return -1;
}

const char *esp_sim_alternate_name(enum esp_sim_alternate a)
{
	if ((unsigned)a >= ESP_SIM_ALT_COUNT)
		return NULL;
	return _alternate_names[a];
}

int esp_sim_alternate_parse(const char *s, enum esp_sim_alternate *a)
{
	for (unsigned i = 0; s && i < ESP_SIM_ALT_COUNT; i++) {
		if (!strcasecmp(s, _alternate_names[i])) {
			*a = (enum esp_sim_alternate)i;
			return 0;
		}
	}
	return -1;
}

/* The simulation's message (errbuf_fail), then -1. */
#define _fail(s, ...) errbuf_fail((s)->err, (s)->errlen, __VA_ARGS__)

static const struct esp_job *_pj(const struct _sim *s, size_t i)
{
	return &s->plan->jobs[i];
}

static uint32_t _id(size_t i)
{
	return (uint32_t)i + 1;	/* the matrix keeps 0 for free cells */
}

static int _check_opts(struct _sim *s)
{
	const struct esp_sim_opts *o = s->o;

	if ((unsigned)o->policy >= ESP_SIM_POLICY_COUNT)
		return _fail(s, "unknown policy %d", (int)o->policy);
	if ((unsigned)o->alternate >= ESP_SIM_ALT_COUNT)
		return _fail(s, "unknown alternate scheduling %d",
			     (int)o->alternate);
	if (o->mpl < 1 || o->mpl > ESP_SIM_MAX_MPL)
		return _fail(s, "MPL %u: expected 1 to %d", o->mpl,
			     ESP_SIM_MAX_MPL);
	if (!(o->slice > 0) || !isfinite(o->slice))
		return _fail(s, "time slice %g: expected > 0", o->slice);
	if (!(o->switch_cost >= 0) || !isfinite(o->switch_cost))
		return _fail(s, "switch cost %g: expected >= 0",
			     o->switch_cost);
	if (!(o->launch >= 0) || !isfinite(o->launch))
		return _fail(s, "launch %g: expected >= 0", o->launch);
	if (!(o->immediate >= 0) || !isfinite(o->immediate))
		return _fail(s, "immediate %g: expected >= 0", o->immediate);
	if (o->preempt && o->drain)
		return _fail(s, "preempt and drain exclude each other");
	/* a reservation needs the end of every holder; rows blur it */
	if (o->policy == ESP_SIM_BACKFILL && o->mpl > 1)
		return _fail(s, "backfill works on one row only (MPL 1)");
	return 0;
}

static int _check_plan(struct _sim *s)
{
	const struct esp_plan *p = s->plan;

	/* the matrix holds rows x procs cells */
	if (!p->procs || p->procs > ESP_SIM_MAX_PROCS)
		return _fail(s, "plan: %u processors", p->procs);
	if (!p->njobs || !p->jobs || p->njobs >= UINT32_MAX)
		return _fail(s, "plan: no jobs");
	for (size_t i = 0; i < p->njobs; i++) {
		const struct esp_job *j = &p->jobs[i];

		if (!j->size || j->size > p->procs)
			return _fail(s, "job %s: %u processors on a machine "
				     "of %u", j->name, j->size, p->procs);
		if (!(j->seconds >= 0) || !isfinite(j->seconds) ||
		    !(j->submit >= 0) || !isfinite(j->submit))
			return _fail(s, "job %s: bad time", j->name);
	}
	return 0;
}

/* Plan jobs by submit time; ties keep the plan's order (insertion sort:
 * the plan is already sorted, this only guards hand-made ones). */
static void _sort_order(struct _sim *s)
{
	for (size_t i = 0; i < s->plan->njobs; i++) {
		double at = _pj(s, i)->submit;
		size_t k = i;

		for (; k && _pj(s, s->order[k - 1])->submit > at; k--)
			s->order[k] = s->order[k - 1];
		s->order[k] = i;
	}
}

static int _init(struct _sim *s)
{
	size_t n = s->plan->njobs;
	struct coalloc_matrix_config mc = {
		.rows = s->o->mpl + (s->o->preempt ? 1 : 0),
		.cols = s->plan->procs,
		.mode = COALLOC_MATRIX_GANG,
		.priority_row = s->o->preempt,
	};

	s->jobs = calloc(n, sizeof(*s->jobs));
	s->order = calloc(n, sizeof(*s->order));
	s->queue = calloc(n, sizeof(*s->queue));
	s->zq = calloc(n, sizeof(*s->zq));
	s->ends = calloc(n, sizeof(*s->ends));
	s->run = calloc(n, sizeof(*s->run));
	s->res->jobs = calloc(n, sizeof(*s->res->jobs));
	s->m = coalloc_matrix_create(&mc);
	if (!s->jobs || !s->order || !s->queue || !s->zq || !s->ends ||
	    !s->run || !s->res->jobs || !s->m)
		return _fail(s, "out of memory");
	s->res->njobs = n;
	for (size_t i = 0; i < n; i++) {
		struct esp_sim_job *rj = &s->res->jobs[i];

		s->jobs[i].left = _pj(s, i)->seconds + s->o->launch;
		s->jobs[i].since = -1;
		s->jobs[i].row = -1;
		rj->submit = _pj(s, i)->submit;
		rj->placed = rj->start = rj->end = rj->suspended = NAN;
	}
	_sort_order(s);
	s->rows = mc.rows;
	s->first = s->o->preempt ? 1 : 0;
	s->cur = s->resume = s->first;
	coalloc_matrix_set_active(s->m, s->first);
	s->slice_end = INFINITY;
	return 0;
}

/* Seconds a job still has to run at the current instant. */
static double _left_now(const struct _sim *s, const struct _job *j)
{
	return j->since >= 0 ? j->left - (s->t - j->since) : j->left;
}

static uint32_t _free(const struct _sim *s, unsigned r)
{
	return s->plan->procs - s->used[r];
}

/* The first ordinary row with room for size processors, or -1: where the
 * matrix will put the job. */
static int _row_for(const struct _sim *s, uint32_t size)
{
	for (unsigned r = s->first; r < s->rows; r++)
		if (_free(s, r) >= size)
			return (int)r;
	return -1;
}

static uint32_t _max_free(const struct _sim *s)
{
	uint32_t best = 0;

	for (unsigned r = s->first; r < s->rows; r++)
		if (_free(s, r) > best)
			best = _free(s, r);
	return best;
}

static bool _ordinary_busy(const struct _sim *s)
{
	for (unsigned r = s->first; r < s->rows; r++)
		if (s->used[r])
			return true;
	return false;
}

static void _taken(struct _sim *s, size_t i, int row)
{
	s->used[row] += _pj(s, i)->size;
	s->jobs[i].row = row;
	s->jobs[i].state = _PLACED;
	s->res->jobs[i].placed = s->t;
	s->res->jobs[i].row = (unsigned)row;
}

static int _place(struct _sim *s, size_t i)
{
	uint32_t size = _pj(s, i)->size;
	int want = _row_for(s, size);
	int rc = coalloc_matrix_place(s->m, _id(i), size);

	/* the matrix and our counts are one model: they must agree */
	if (rc < 0 || rc != want)
		return _fail(s, "job %s: matrix placed it in row %d, "
			     "expected %d", _pj(s, i)->name, rc, want);
	_taken(s, i, rc);
	return 0;
}

static void _dequeue(size_t *q, size_t *n, size_t k)
{
	memmove(&q[k], &q[k + 1], (*n - k - 1) * sizeof(*q));
	(*n)--;
}

/* Jobs whose run is complete at the current instant leave. */
static void _finish(struct _sim *s)
{
	for (size_t i = 0; i < s->plan->njobs; i++) {
		struct _job *j = &s->jobs[i];
		struct esp_sim_job *rj = &s->res->jobs[i];

		if (j->state != _PLACED || j->since < 0 ||
		    j->since + j->left > s->t + EPS)
			continue;
		rj->end = j->since + j->left;
		rj->suspended = rj->end - rj->start - _pj(s, i)->seconds -
				s->o->launch;
		if (rj->suspended < 0)	/* rounding of the sums */
			rj->suspended = 0;
		coalloc_matrix_remove(s->m, _id(i));
		s->used[j->row] -= _pj(s, i)->size;
		j->state = _DONE;
		j->since = -1;
		j->left = 0;
		s->done++;
	}
}

static void _arrive(struct _sim *s)
{
	while (s->narrived < s->plan->njobs) {
		size_t i = s->order[s->narrived];
		const struct esp_job *pj = _pj(s, i);

		if (pj->submit > s->t + EPS)
			break;
		if (pj->full && (s->o->preempt || s->o->drain))
			s->zq[s->nzq++] = i;
		else
			s->queue[s->nqueue++] = i;
		s->jobs[i].state = _QUEUED;
		s->narrived++;
	}
}

/* Z jobs take the priority row at once, one at a time. */
static int _start_preempting(struct _sim *s)
{
	while (s->nzq && !s->used[0]) {
		size_t i = s->zq[0];
		int rc = coalloc_matrix_place_priority(s->m, _id(i),
						       _pj(s, i)->size);

		if (rc < 0)
			return _fail(s, "job %s: priority row refused it (%d)",
				     _pj(s, i)->name, rc);
		_taken(s, i, 0);
		_dequeue(s->zq, &s->nzq, 0);
	}
	return 0;
}

/*
 * Drain: waiting Z jobs come before every queued job and nothing else
 * starts while one waits for a free machine (row).  Returns 1 when one
 * still waits.
 */
static int _start_draining(struct _sim *s)
{
	while (s->nzq) {
		if (_row_for(s, _pj(s, s->zq[0])->size) < 0)
			return 1;
		if (_place(s, s->zq[0]))
			return -1;
		_dequeue(s->zq, &s->nzq, 0);
	}
	return 0;
}

static int _fcfs(struct _sim *s)
{
	while (s->nqueue && _row_for(s, _pj(s, s->queue[0])->size) >= 0) {
		if (_place(s, s->queue[0]))
			return -1;
		_dequeue(s->queue, &s->nqueue, 0);
	}
	return 0;
}

static int _bff(struct _sim *s)
{
	for (;;) {
		uint32_t room = _max_free(s), best_size = 0;
		size_t best = SIZE_MAX;

		for (size_t k = 0; k < s->nqueue; k++) {
			uint32_t size = _pj(s, s->queue[k])->size;

			if (size <= room && size > best_size) {
				best = k;
				best_size = size;
			}
		}
		if (best == SIZE_MAX)
			return 0;
		if (_place(s, s->queue[best]))
			return -1;
		_dequeue(s->queue, &s->nqueue, best);
	}
}

/* Place queue[k] when a row has room for it; true when placed.  -1 on
 * failure (with the message set). */
static int _place_if_fits(struct _sim *s, size_t k)
{
	if (_row_for(s, _pj(s, s->queue[k])->size) < 0)
		return 0;
	return _place(s, s->queue[k]) ? -1 : 1;
}

/*
 * firstfit, smallest: every queued job that fits, in the order's
 * sequence (lib/coalloc/order.c, as select/coalloc); the queue is in
 * arrival order, so a job's place in it is its seq.  With aging, an
 * oldest job that has waited that long and does not fit stops the rest.
 */
static int _ordered(struct _sim *s, enum coalloc_queue_order order)
{
	struct coalloc_order_key *keys;
	bool *placed;
	size_t n = s->nqueue, kept = 0;
	int rc = 0;

	if (!n)
		return 0;
	if (s->o->aging > 0 &&
	    s->t - _pj(s, s->queue[0])->submit >= s->o->aging - EPS) {
		rc = _place_if_fits(s, 0);
		if (rc <= 0)
			return rc;
		_dequeue(s->queue, &s->nqueue, 0);
		return _ordered(s, order);
	}
	keys = calloc(n, sizeof(*keys));
	placed = calloc(n, sizeof(*placed));
	if (!keys || !placed) {
		free(keys);
		free(placed);
		return _fail(s, "out of memory");
	}
	for (size_t k = 0; k < n; k++) {
		keys[k].procs = _pj(s, s->queue[k])->size;
		keys[k].seq = k;
		keys[k].ref = (uint32_t)k;
	}
	coalloc_order_sort(order, keys, n);
	for (size_t i = 0; i < n && rc >= 0; i++) {
		rc = _place_if_fits(s, keys[i].ref);
		placed[keys[i].ref] = rc > 0;
	}
	for (size_t k = 0; k < n; k++)
		if (!placed[k])
			s->queue[kept++] = s->queue[k];
	s->nqueue = kept;
	free(keys);
	free(placed);
	return rc < 0 ? -1 : 0;
}

/* Seconds before the ordinary row progresses again: the overhead under
 * way, the Z job holding the priority row and the Z jobs queued for it. */
static double _delay(const struct _sim *s)
{
	double d = fmax(0, s->overhead_end - s->t);

	if (!s->first)
		return d;
	for (size_t i = 0; i < s->plan->njobs; i++)
		if (s->jobs[i].state == _PLACED && s->jobs[i].row == 0)
			d += _left_now(s, &s->jobs[i]);
	for (size_t k = 0; k < s->nzq; k++)
		d += _pj(s, s->zq[k])->seconds;
	return d;
}

static int _cmp_end(const void *a, const void *b)
{
	const struct _end *x = a, *y = b;

	return (x->at > y->at) - (x->at < y->at);
}

/*
 * EASY's reservation for the head: the earliest time enough processors
 * are free for it (*shadow) and the processors it leaves over then
 * (*extra).  Ends are a priori: the plan's times.
 */
static void _reservation(struct _sim *s, double delay, uint32_t need,
			 double *shadow, uint32_t *extra)
{
	uint32_t avail = _free(s, s->first);
	size_t n = 0;

	for (size_t i = 0; i < s->plan->njobs; i++) {
		const struct _job *j = &s->jobs[i];

		if (j->state != _PLACED || j->row != (int)s->first)
			continue;
		s->ends[n].at = s->t + delay + _left_now(s, j);
		s->ends[n++].size = _pj(s, i)->size;
	}
	qsort(s->ends, n, sizeof(*s->ends), _cmp_end);
	*shadow = s->t + delay;
	for (size_t k = 0; k < n && avail < need; k++) {
		avail += s->ends[k].size;
		*shadow = s->ends[k].at;
	}
	*extra = avail - need;
}

static int _backfill(struct _sim *s)
{
	uint32_t extra, room;
	double shadow, delay;
	size_t k = 1;

	if (_fcfs(s))
		return -1;
	if (!s->nqueue)
		return 0;
	delay = _delay(s);
	_reservation(s, delay, _pj(s, s->queue[0])->size, &shadow, &extra);
	room = _free(s, s->first);
	while (k < s->nqueue) {
		const struct esp_job *c = _pj(s, s->queue[k]);
		bool before = s->t + delay + c->seconds <= shadow + EPS;

		if (c->size > room || (!before && c->size > extra)) {
			k++;
			continue;
		}
		if (_place(s, s->queue[k]))
			return -1;
		room -= c->size;
		if (!before)
			extra -= c->size;
		_dequeue(s->queue, &s->nqueue, k);
	}
	return 0;
}

static int _schedule(struct _sim *s)
{
	int rc = s->o->preempt ? _start_preempting(s) : _start_draining(s);

	if (rc)
		return rc < 0 ? -1 : 0;
	switch (s->o->policy) {
	case ESP_SIM_FCFS:
		return _fcfs(s);
	case ESP_SIM_BFF:
		return _bff(s);
	case ESP_SIM_FIRSTFIT:
		return _ordered(s, COALLOC_ORDER_FIRSTFIT);
	case ESP_SIM_SMALLEST:
		return _ordered(s, COALLOC_ORDER_SMALLEST);
	default:
		return _backfill(s);
	}
}

/* The next row with jobs of its own: the matrix would also give a slice
 * to a row of replicas only, whose jobs have their own rows' turns. */
static unsigned _rotate(struct _sim *s)
{
	unsigned a = coalloc_matrix_rotate(s->m);

	for (unsigned k = 0; k < s->rows && !s->used[a]; k++)
		a = coalloc_matrix_rotate(s->m);
	return a;
}

/* After a Z job: the interrupted row if it still has jobs, else the next
 * busy one. */
static unsigned _after_priority(struct _sim *s)
{
	if (s->used[s->resume]) {
		coalloc_matrix_set_active(s->m, s->resume);
		return s->resume;
	}
	return _rotate(s);
}

/* Choose the active row; a change that suspends jobs may cost. */
static void _switch(struct _sim *s)
{
	bool expired = s->o->mpl > 1 && s->t >= s->slice_end - EPS;
	unsigned a = coalloc_matrix_active_row(s->m);

	if (s->first && s->used[0])
		a = 0;	/* place_priority made it active */
	else if (s->first && a == 0)
		a = _after_priority(s);
	else if (!s->used[a] || expired)
		a = _rotate(s);
	if (a != s->cur) {
		if (s->used[s->cur]) {
			double from = fmax(s->t, s->overhead_end);

			s->res->switches++;
			if (s->o->switch_cost > 0) {
				s->overhead_end = s->t + s->o->switch_cost;
				s->res->overhead += s->overhead_end - from;
			}
		}
		if (a == 0 && s->first)
			s->resume = s->cur;
		s->cur = a;
		s->slice_end = fmax(s->t, s->overhead_end) + s->o->slice;
	} else if (expired || s->slice_end == INFINITY) {
		s->slice_end = s->t + s->o->slice;
	}
}

static int _step(struct _sim *s, uint32_t busy)
{
	struct esp_sim_result *r = s->res;

	if (r->nsteps && r->steps[r->nsteps - 1].busy == busy)
		return 0;
	if (r->nsteps && r->steps[r->nsteps - 1].t >= s->t - EPS) {
		/* several changes at one instant: keep the last */
		r->steps[r->nsteps - 1].busy = busy;
		if (r->nsteps > 1 && r->steps[r->nsteps - 2].busy == busy)
			r->nsteps--;
		return 0;
	}
	if (r->nsteps == s->cap_steps) {
		size_t cap = s->cap_steps ? 2 * s->cap_steps : 64;
		struct esp_sim_step *st = realloc(r->steps, cap * sizeof(*st));

		if (!st)
			return _fail(s, "out of memory");
		r->steps = st;
		s->cap_steps = cap;
	}
	r->steps[r->nsteps].t = s->t;
	r->steps[r->nsteps++].busy = busy;
	return 0;
}

/*
 * Migration: the idle processors of the active row take jobs of the
 * other rows, in rotation order, then placement (plan) order, while they
 * fit.  Not while a Z job holds the machine.
 */
static void _migrate(struct _sim *s)
{
	uint32_t idle = _free(s, s->cur);

	if (s->first && s->used[0])
		return;
	for (unsigned k = 1; k < s->rows && idle; k++) {
		unsigned r = (s->cur + k) % s->rows;

		for (size_t i = 0; i < s->plan->njobs; i++) {
			if (s->jobs[i].state != _PLACED ||
			    s->jobs[i].row != (int)r || s->run[i] ||
			    _pj(s, i)->size > idle)
				continue;
			s->run[i] = true;
			idle -= _pj(s, i)->size;
		}
	}
}

/* Who progresses now: the jobs of the active row (and their replicas
 * there), plus what alternate scheduling adds; nobody during overhead. */
static void _who_runs(struct _sim *s)
{
	bool live = s->t >= s->overhead_end - EPS;

	if (live && s->o->alternate == ESP_SIM_ALT_REPLICAS)
		coalloc_matrix_replicate(s->m);
	for (size_t i = 0; i < s->plan->njobs; i++)
		s->run[i] = live && s->jobs[i].state == _PLACED &&
			    coalloc_matrix_job_runs(s->m, _id(i));
	if (live && s->o->alternate == ESP_SIM_ALT_MIGRATE)
		_migrate(s);
}

/* The running jobs progress from now on; the others keep what they have
 * left. */
static int _progress(struct _sim *s, uint32_t *busy)
{
	_who_runs(s);
	*busy = 0;
	for (size_t i = 0; i < s->plan->njobs; i++) {
		struct _job *j = &s->jobs[i];

		if (j->state != _PLACED)
			continue;
		if (s->run[i]) {
			if (j->since < 0) {
				j->since = s->t;
				if (isnan(s->res->jobs[i].start))
					s->res->jobs[i].start = s->t;
			}
			*busy += _pj(s, i)->size;
		} else if (j->since >= 0) {
			j->left -= s->t - j->since;
			j->since = -1;
		}
	}
	return s->o->chronology ? _step(s, *busy) : 0;
}

static double _next_event(const struct _sim *s)
{
	double next = INFINITY;

	if (s->narrived < s->plan->njobs)
		next = _pj(s, s->order[s->narrived])->submit;
	for (size_t i = 0; i < s->plan->njobs; i++)
		if (s->jobs[i].state == _PLACED && s->jobs[i].since >= 0)
			next = fmin(next, s->jobs[i].since + s->jobs[i].left);
	if (s->overhead_end > s->t + EPS)
		next = fmin(next, s->overhead_end);
	if (s->o->mpl > 1 && _ordinary_busy(s) && !(s->first && s->used[0]))
		next = fmin(next, s->slice_end);
	return next;
}

static int _loop(struct _sim *s)
{
	double busy_area = 0;
	uint32_t busy = 0;

	for (;;) {
		double next;

		_finish(s);
		_arrive(s);
		if (s->done == s->plan->njobs)
			break;
		if (_schedule(s))
			return -1;
		_switch(s);
		if (_progress(s, &busy))
			return -1;
		next = _next_event(s);
		if (!isfinite(next))
			return _fail(s, "no job can progress at %.3f s", s->t);
		next = fmax(next, s->t);
		busy_area += (double)busy * (next - s->t);
		s->t = next;
	}
	s->res->busy = busy_area;
	return s->o->chronology ? _step(s, 0) : 0;
}

static size_t _find_z(const struct _sim *s, size_t skip, bool block0)
{
	for (size_t i = 0; i < s->plan->njobs; i++)
		if (i != skip && _pj(s, i)->full &&
		    (!block0 || _pj(s, i)->block == 0))
			return i;
	return SIZE_MAX;
}

/* The full-configuration rules of runlog.h, on the simulated times. */
static void _z_rules(struct _sim *s)
{
	struct esp_sim_result *r = s->res;
	size_t z1 = _find_z(s, SIZE_MAX, true), z2 = _find_z(s, z1, false);

	r->z1_submit = r->z1_start = r->z1_wait = NAN;
	r->z2_end = NAN;
	r->z2_limit = ESP_Z2_WITHIN_SHARE * r->elapsed;
	if (z1 != SIZE_MAX) {
		const struct esp_sim_job *zj = &r->jobs[z1];

		r->z1_submit = zj->submit;
		r->z1_start = zj->start;
		r->z1_wait = zj->start - zj->submit;
		for (size_t i = 0; i < r->njobs; i++)
			if (i != z1 && r->jobs[i].start > zj->submit + EPS &&
			    r->jobs[i].start < zj->start - EPS)
				r->z1_overtaken++;
		r->z_first_immediate = r->z1_wait <= s->o->immediate + EPS &&
				       !r->z1_overtaken;
	}
	if (z2 != SIZE_MAX) {
		r->z2_end = r->jobs[z2].end;
		r->z_second_within_90 = r->z2_end <= r->z2_limit + EPS;
	}
}

static void _results(struct _sim *s)
{
	struct esp_sim_result *r = s->res;
	double p = s->plan->procs;

	for (size_t i = 0; i < r->njobs; i++) {
		r->work += (double)_pj(s, i)->size * _pj(s, i)->seconds;
		r->elapsed = fmax(r->elapsed, r->jobs[i].end);
	}
	r->efficiency = r->elapsed > 0 ? r->work / (p * r->elapsed) : 0;
	r->efficiency_with_reboot =
		r->work / (p * (r->elapsed + s->plan->reboot));
	r->utilization = r->elapsed > 0 ? r->busy / (p * r->elapsed) : 0;
	_z_rules(s);
}

static void _cleanup(struct _sim *s)
{
	coalloc_matrix_destroy(s->m);
	free(s->jobs);
	free(s->order);
	free(s->queue);
	free(s->zq);
	free(s->ends);
	free(s->run);
}

int esp_sim_run(const struct esp_plan *plan, const struct esp_sim_opts *o,
		struct esp_sim_result *res, char *err, size_t errlen)
{
	struct _sim s = { .plan = plan, .o = o, .res = res, .err = err,
			  .errlen = errlen };
	int rc;

	if (err && errlen)
		err[0] = '\0';
	memset(res, 0, sizeof(*res));
	if (!plan || !o)
		return _fail(&s, "no plan or options");
	rc = _check_opts(&s);
	if (!rc)
		rc = _check_plan(&s);
	if (!rc)
		rc = _init(&s);
	if (!rc)
		rc = _loop(&s);
	if (!rc)
		_results(&s);
	_cleanup(&s);
	return rc;
}

void esp_sim_result_free(struct esp_sim_result *res)
{
	if (!res)
		return;
	free(res->jobs);
	free(res->steps);
	memset(res, 0, sizeof(*res));
}
