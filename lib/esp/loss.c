/*
 * loss.c - the loss breakdown of an ESP run (see loss.h).
 *
 * Nothing changes between two consecutive change points (submissions,
 * starts, ends, stops, launch windows opening, the last start), so each
 * stretch between them is classified once, at its middle, node by node.
 * O(stretches * sum of job sizes): a few million steps for a mix of a few
 * hundred jobs.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "esp/hostlist.h"
#include "esp/loss.h"
#include "esp/runlog.h"

/* Distinct nodes a run log may name (bounds memory on a hostile log). */
#define NODES_MAX 65536

const char *const esp_loss_names[ESP_LOSS_NCAUSES] = {
	[ESP_LOSS_IDLE_WAITING] = "idle_waiting",
	[ESP_LOSS_ROW_SWITCH] = "row_switch",
	[ESP_LOSS_LAUNCH] = "launch",
	[ESP_LOSS_TAIL] = "tail",
	[ESP_LOSS_Z_DRAIN] = "z_drain",
	[ESP_LOSS_OTHER] = "other",
};

typedef char node_name[ESP_HOST_NAME_MAX + 1];

/* Node names and their index, in a hash set (linear probing). */
struct names {
	node_name *v;
	size_t n, cap;
	uint32_t *slot;		/* index + 1; 0: empty */
	size_t nslots;		/* a power of two, > 2 * NODES_MAX */
};

/* Per job: its node indices, and when its launch window opens. */
struct job_nodes {
	uint32_t *idx;
	size_t n, cap;
	double launch_from;	/* NAN: never started */
};

struct model {
	const struct esp_run *run;
	double T, per_node;	/* processors per node */
	bool by_node;
	struct names names;
	struct job_nodes *jobs;
	double last_start;
	/* per node, for the stretch being classified */
	uint8_t *running, *stopped, *launching;
};

/* ------------------------------------------------------------ nodes */

static uint64_t _hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* Room for element n of *v (doubling); -1 when out of memory. */
static int _room(void **v, size_t *cap, size_t n, size_t size)
{
	size_t want = *cap ? 2 * *cap : 16;
	void *p;

	if (n < *cap)
		return 0;
	if (!(p = realloc(*v, want * size)))
		return -1;
	*v = p;
	*cap = want;
	return 0;
}

/* The index of name, added when new; -1 past NODES_MAX or out of memory. */
static long _node_index(struct names *nm, const char *name)
{
	size_t mask = nm->nslots - 1, i = _hash(name) & mask;

	for (; nm->slot[i]; i = (i + 1) & mask)
		if (!strcmp(nm->v[nm->slot[i] - 1], name))
			return nm->slot[i] - 1;
	if (nm->n == NODES_MAX)
		return -1;
	if (_room((void **)&nm->v, &nm->cap, nm->n, sizeof(*nm->v)))
		return -1;
	strcpy(nm->v[nm->n], name);
	nm->slot[i] = (uint32_t)++nm->n;
	return nm->n - 1;
}

struct job_collect {
	struct names *names;
	struct job_nodes *job;
};

static int _add_node(const char *name, void *arg)
{
	struct job_collect *c = arg;
	struct job_nodes *jn = c->job;
	long idx = _node_index(c->names, name);

	if (idx < 0)
		return -1;
	if (_room((void **)&jn->idx, &jn->cap, jn->n, sizeof(*jn->idx)))
		return -1;
	jn->idx[jn->n++] = (uint32_t)idx;
	return 0;
}

/* Every started job's nodes; false when a list cannot be read. */
static bool _read_nodes(struct model *m)
{
	struct names *nm = &m->names;

	nm->nslots = 1;
	while (nm->nslots <= 2 * NODES_MAX)
		nm->nslots *= 2;
	nm->slot = calloc(nm->nslots, sizeof(*nm->slot));
	if (!nm->slot)
		return false;
	for (size_t i = 0; i < m->run->njobs; i++) {
		struct job_collect c = { nm, &m->jobs[i] };

		if (!isnan(m->run->jobs[i].start) &&
		    esp_hostlist_each(m->run->jobs[i].nodes, NODES_MAX,
				      _add_node, &c) <= 0)
			return false;
	}
	return nm->n > 0;
}

/* ------------------------------------------------------- launch windows */

static bool _shares_node(const struct job_nodes *k, const uint8_t *mark)
{
	for (size_t i = 0; i < k->n; i++)
		if (mark[k->idx[i]])
			return true;
	return false;
}

/*
 * A started job's launch window opens when it was submitted and the last
 * earlier job on any of its nodes had ended.  O(jobs^2 * nodes per job).
 */
static void _launch_windows(struct model *m, uint8_t *mark)
{
	const struct esp_run *run = m->run;

	for (size_t i = 0; i < run->njobs; i++) {
		const struct esp_run_job *j = &run->jobs[i];
		struct job_nodes *jn = &m->jobs[i];
		double free_at = 0;

		if (isnan(j->start))
			continue;
		for (size_t n = 0; n < jn->n; n++)
			mark[jn->idx[n]] = 1;
		for (size_t k = 0; k < run->njobs; k++) {
			double end = run->jobs[k].end;

			if (k != i && !isnan(end) && end <= j->start &&
			    end > free_at && _shares_node(&m->jobs[k], mark))
				free_at = end;
		}
		for (size_t n = 0; n < jn->n; n++)
			mark[jn->idx[n]] = 0;
		jn->launch_from = fmax(j->submit, free_at);
	}
}

/* ------------------------------------------------------- classification */

static bool _waiting(const struct esp_run_job *j, double t)
{
	return j->submit <= t && (isnan(j->start) || t < j->start);
}

static void _set_nodes(uint8_t *flags, const struct job_nodes *jn)
{
	for (size_t n = 0; n < jn->n; n++)
		flags[jn->idx[n]] = 1;
}

/* The stretch around t, node by node (the model knows the nodes). */
static void _classify_nodes(const struct model *m, double t,
			    struct esp_loss_segment *seg)
{
	const struct esp_run *run = m->run;
	size_t nn = m->names.n;
	bool any_waiting = false, z_waiting = false;
	enum esp_loss_cause idle_cause;

	memset(m->running, 0, nn);
	memset(m->stopped, 0, nn);
	memset(m->launching, 0, nn);
	for (size_t i = 0; i < run->njobs; i++) {
		const struct esp_run_job *j = &run->jobs[i];
		const struct job_nodes *jn = &m->jobs[i];

		if (_waiting(j, t)) {
			any_waiting = true;
			z_waiting |= j->full;
			if (jn->launch_from <= t)	/* false when NAN */
				_set_nodes(m->launching, jn);
			continue;
		}
		switch (esp_job_state_at(j, m->T, t)) {
		case ESP_JOB_RUNNING:
			_set_nodes(m->running, jn);
			break;
		case ESP_JOB_STOPPED:
			_set_nodes(m->stopped, jn);
			break;
		case ESP_JOB_OFF:
			break;
		}
	}
	idle_cause = z_waiting ? ESP_LOSS_Z_DRAIN :
		     any_waiting ? ESP_LOSS_IDLE_WAITING :
		     t >= m->last_start ? ESP_LOSS_TAIL : ESP_LOSS_OTHER;
	for (size_t n = 0; n < nn; n++) {
		if (m->running[n])
			seg->running += m->per_node;
		else if (m->launching[n])
			seg->idle[ESP_LOSS_LAUNCH] += m->per_node;
		else if (m->stopped[n])
			seg->idle[ESP_LOSS_ROW_SWITCH] += m->per_node;
		else
			seg->idle[idle_cause] += m->per_node;
	}
}

/* Without nodes: only running processors, and the rest idle, "other". */
static void _classify_procs(const struct model *m, double t,
			    struct esp_loss_segment *seg)
{
	for (size_t i = 0; i < m->run->njobs; i++)
		if (esp_job_state_at(&m->run->jobs[i], m->T, t) ==
		    ESP_JOB_RUNNING)
			seg->running += m->run->jobs[i].size;
	seg->idle[ESP_LOSS_OTHER] = fmax(m->run->procs - seg->running, 0);
}

/* ------------------------------------------------------- change points */

static int _cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void _push(double *v, size_t *n, double t, double T)
{
	if (!isnan(t))
		v[(*n)++] = fmin(fmax(t, 0), T);
}

/* Sorted, unique, in [0, T]: every time a stretch's class can change. */
static double *_change_points(const struct model *m, size_t *n)
{
	const struct esp_run *run = m->run;
	size_t cap = 3, k;
	double *v;

	for (size_t i = 0; i < run->njobs; i++)
		cap += 4 + 2 * run->jobs[i].nsusp;
	if (!(v = malloc(cap * sizeof(*v))))
		return NULL;
	*n = 0;
	_push(v, n, 0, m->T);
	_push(v, n, m->T, m->T);
	_push(v, n, m->last_start, m->T);
	for (size_t i = 0; i < run->njobs; i++) {
		const struct esp_run_job *j = &run->jobs[i];

		_push(v, n, j->submit, m->T);
		_push(v, n, j->start, m->T);
		_push(v, n, j->end, m->T);
		_push(v, n, m->jobs[i].launch_from, m->T);
		for (size_t s = 0; s < j->nsusp; s++) {
			_push(v, n, j->susp[s].from, m->T);
			_push(v, n, j->susp[s].to, m->T);
		}
	}
	qsort(v, *n, sizeof(*v), _cmp_double);
	for (size_t i = k = 0; i < *n; i++)
		if (!k || v[i] != v[k - 1])
			v[k++] = v[i];
	*n = k;
	return v;
}

/* ------------------------------------------------------------ the whole */

static bool _model_init(struct model *m, const struct esp_run *run,
			double T)
{
	memset(m, 0, sizeof(*m));
	m->run = run;
	m->T = T;
	m->last_start = -INFINITY;
	for (size_t i = 0; i < run->njobs; i++)
		if (!isnan(run->jobs[i].start))
			m->last_start = fmax(m->last_start, run->jobs[i].start);
	m->jobs = calloc(run->njobs ? run->njobs : 1, sizeof(*m->jobs));
	if (!m->jobs)
		return false;
	for (size_t i = 0; i < run->njobs; i++)
		m->jobs[i].launch_from = NAN;
	m->by_node = _read_nodes(m);
	if (m->by_node) {
		size_t nn = m->names.n;

		m->per_node = (double)run->procs / (double)nn;
		m->running = calloc(nn, 1);
		m->stopped = calloc(nn, 1);
		m->launching = calloc(nn, 1);
		if (!m->running || !m->stopped || !m->launching)
			return false;
		_launch_windows(m, m->launching);
	}
	return true;
}

static void _model_free(struct model *m)
{
	for (size_t i = 0; m->jobs && i < m->run->njobs; i++)
		free(m->jobs[i].idx);
	free(m->jobs);
	free(m->names.v);
	free(m->names.slot);
	free(m->running);
	free(m->stopped);
	free(m->launching);
}

int esp_loss_compute(const struct esp_run *run, double T, double W,
		     struct esp_loss *out, struct esp_loss_segment **segs,
		     size_t *nsegs)
{
	struct esp_loss_segment *sv = NULL;
	double *pts = NULL, named = 0;
	size_t npts = 0, ns = 0;
	struct model m;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	out->total = run->procs * T - W;
	if (segs)
		*segs = NULL, *nsegs = 0;
	if (!_model_init(&m, run, T) || !(pts = _change_points(&m, &npts)))
		goto done;
	if (segs && !(sv = calloc(npts ? npts : 1, sizeof(*sv))))
		goto done;
	out->by_node = m.by_node;
	for (size_t i = 0; i + 1 < npts; i++) {
		struct esp_loss_segment seg = { .from = pts[i],
						.to = pts[i + 1] };
		double mid = (seg.from + seg.to) / 2;

		if (m.by_node)
			_classify_nodes(&m, mid, &seg);
		else
			_classify_procs(&m, mid, &seg);
		for (int c = 0; c < ESP_LOSS_OTHER; c++)
			out->cause[c] += seg.idle[c] * (seg.to - seg.from);
		if (sv)
			sv[ns++] = seg;
	}
	rc = 0;
done:
	for (int c = 0; c < ESP_LOSS_OTHER; c++)
		named += out->cause[c];
	out->cause[ESP_LOSS_OTHER] = out->total - named;
	if (segs && !rc) {
		*segs = sv;
		*nsegs = ns;
	} else {
		free(sv);
	}
	free(pts);
	_model_free(&m);
	return rc;
}
