/*
 * simulate.c - event loop: arrivals in time order, departures from a
 * binary heap; after every event one engine decision pass.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "coalloc/route.h"
#include "coalloc_sim/simulate.h"

struct departure {
	double time;
	uint32_t job;		/* index into the job array */
};

struct heap {
	struct departure *d;
	size_t n;
};

static void heap_push(struct heap *h, struct departure x)
{
	size_t i = h->n++;

	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (h->d[parent].time <= x.time)
			break;
		h->d[i] = h->d[parent];
		i = parent;
	}
	h->d[i] = x;
}

static struct departure heap_pop(struct heap *h)
{
	struct departure top = h->d[0], last = h->d[--h->n];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->d[c + 1].time < h->d[c].time)
			c++;
		if (last.time <= h->d[c].time)
			break;
		h->d[i] = h->d[c];
		i = c;
	}
	if (h->n)
		h->d[i] = last;
	return top;
}

bool sim_saturated(double wait_q2, double wait_q4)
{
	return wait_q4 > 1.5 * wait_q2 + 20.0;
}

struct run {
	const struct sim_job *jobs;
	size_t njobs;
	struct coalloc_engine *e;
	struct heap heap;
	double *start;
	double now, last_arrival, busy_area;
	uint64_t busy;
	double wsum[4];
	size_t wcnt[4];
};

static void advance(struct run *r, double t)
{
	if (r->now < r->last_arrival) {
		double until = t < r->last_arrival ? t : r->last_arrival;

		r->busy_area += (double)r->busy * (until - r->now);
	}
	r->now = t;
}

static void start_jobs(struct run *r)
{
	const struct coalloc_start *st;
	size_t n = coalloc_engine_schedule(r->e, r->now, &st);

	for (size_t i = 0; i < n; i++) {
		uint32_t j = st[i].id - 1;

		r->start[j] = r->now;
		for (unsigned k = 0; k < st[i].ncomp; k++)
			r->busy += st[i].size[k];
		heap_push(&r->heap, (struct departure){
			.time = r->now + r->jobs[j].service, .job = j });
	}
}

void sim_job_request(const struct sim_job *sj, uint32_t id,
		     enum coalloc_policy policy, struct coalloc_request *req)
{
	*req = (struct coalloc_request) {
		.id = id, .type = sj->type, .submit_time = sj->arrival,
	};
	if (sj->type == COALLOC_REQ_FLEXIBLE) {
		for (unsigned k = 0; k < sj->ncomp; k++)
			req->total += sj->size[k];
	} else {
		req->ncomp = sj->ncomp;
		memcpy(req->size, sj->size, sj->ncomp * sizeof(req->size[0]));
		memcpy(req->want_site, sj->want_site,
		       sj->ncomp * sizeof(req->want_site[0]));
	}
	req->queue = coalloc_route(policy, req, (int)sj->origin);
}

static int arrive(struct run *r, size_t i, enum coalloc_policy policy)
{
	const struct sim_job *sj = &r->jobs[i];
	struct coalloc_request req;
	int rc;

	sim_job_request(sj, (uint32_t)(i + 1), policy, &req);
	rc = coalloc_engine_submit(r->e, &req);
	if (rc)
		return rc;
	start_jobs(r);
	/* sample the backlog an arriving job leaves behind, per quarter */
	unsigned quarter = (unsigned)(4 * i / r->njobs);

	r->wsum[quarter] += (double)coalloc_engine_pending(r->e);
	r->wcnt[quarter]++;
	return 0;
}

static void depart(struct run *r)
{
	struct departure d = heap_pop(&r->heap);
	const struct sim_job *sj = &r->jobs[d.job];

	advance(r, d.time);
	for (unsigned k = 0; k < sj->ncomp; k++)
		r->busy -= sj->size[k];
	coalloc_engine_depart(r->e, d.job + 1);
	start_jobs(r);
}

static void summarise(const struct run *r, const struct sim_config *sc,
		      struct sim_result *res)
{
	double sum = 0, sl = 0, sg = 0;
	size_t n = 0, first = (size_t)(sc->warmup * (double)r->njobs);
	uint64_t procs = 0;

	for (size_t i = first; i < r->njobs; i++) {
		const struct sim_job *j = &r->jobs[i];
		struct coalloc_request req;
		double resp;

		if (r->start[i] < 0)
			continue;	/* rejected */
		resp = r->start[i] + j->service - j->arrival;
		sum += resp;
		n++;
		sim_job_request(j, (uint32_t)(i + 1), sc->policy, &req);
		if (req.queue == COALLOC_QUEUE_GLOBAL) {
			sg += resp;
			res->n_global++;
		} else {
			sl += resp;
			res->n_local++;
		}
	}
	res->mean_total = n ? sum / (double)n : NAN;
	res->mean_local = res->n_local ? sl / (double)res->n_local : NAN;
	res->mean_global = res->n_global ? sg / (double)res->n_global : NAN;
	for (unsigned i = 0; i < sc->nsites; i++)
		procs += sc->site_procs[i];
	res->utilization = r->last_arrival > 0 ?
		r->busy_area / ((double)procs * r->last_arrival) : 0;
	res->wait_q2 = r->wcnt[1] ? r->wsum[1] / (double)r->wcnt[1] : 0;
	res->wait_q4 = r->wcnt[3] ? r->wsum[3] / (double)r->wcnt[3] : 0;
	res->saturated = sim_saturated(res->wait_q2, res->wait_q4);
}

int sim_run(const struct sim_job *jobs, size_t njobs,
	    const struct sim_config *sc, struct sim_result *res)
{
	struct coalloc_config cfg;
	struct run r = { .jobs = jobs, .njobs = njobs };
	size_t next = 0;
	int rc = -ENOMEM;

	memset(res, 0, sizeof(*res));
	if (!njobs || njobs > UINT32_MAX - 1)
		return -EINVAL;
	coalloc_config_init(&cfg, sc->policy, sc->nsites, 1);
	memcpy(cfg.site_procs, sc->site_procs, sizeof(cfg.site_procs));
	cfg.seed = sc->seed;
	cfg.aging_wait = sc->aging_wait;
	r.e = coalloc_engine_create(&cfg);
	r.heap.d = malloc(njobs * sizeof(*r.heap.d));
	r.start = malloc(njobs * sizeof(*r.start));
	if (!r.e || !r.heap.d || !r.start)
		goto out;
	r.last_arrival = jobs[njobs - 1].arrival;
	while (next < njobs || r.heap.n) {
		/* a departure at the same instant as an arrival goes first */
		if (next < njobs &&
		    (!r.heap.n || jobs[next].arrival < r.heap.d[0].time)) {
			advance(&r, jobs[next].arrival);
			r.start[next] = -1;
			rc = arrive(&r, next, sc->policy);
			if (rc == -E2BIG) {
				res->rejected++;
			} else if (rc) {
				goto out;
			}
			next++;
		} else {
			depart(&r);
		}
	}
	summarise(&r, sc, res);
	rc = 0;
out:
	coalloc_engine_destroy(r.e);
	free(r.heap.d);
	free(r.start);
	return rc;
}
