/*
 * test_props.c - randomised property tests of the engine over many seeds:
 * jobs are conserved, no site is over-committed, placements are valid, a
 * pass leaves no eligible job behind, and with aging every job starts.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdlib.h>

#include "coalloc/coalloc.h"
#include "tap.h"

#define MAXJ 4096

enum { S_NONE, S_PENDING, S_RUNNING, S_DONE, S_CANCELLED };

struct shadow {
	uint8_t state[MAXJ];
	int queue[MAXJ];
	unsigned ncomp[MAXJ];
	uint32_t size[MAXJ][COALLOC_MAX_SITES];
	uint16_t site[MAXJ][COALLOC_MAX_SITES];
	double submit[MAXJ], start[MAXJ];
};

struct world {
	struct coalloc_engine *e;
	struct coalloc_config cfg;
	struct coalloc_rng rng;
	struct shadow *sh;
	uint32_t next_id;
};

static const char *check_start(struct world *w,
			       const struct coalloc_start *st)
{
	bool used[COALLOC_MAX_SITES] = { false };
	uint32_t id = st->id;

	if (id >= MAXJ || w->sh->state[id] != S_PENDING)
		return "started a job that was not pending";
	if (st->ncomp != w->sh->ncomp[id])
		return "component count changed";
	for (unsigned k = 0; k < st->ncomp; k++) {
		if (st->site[k] >= w->cfg.nsites || used[st->site[k]])
			return "components not on distinct sites";
		used[st->site[k]] = true;
		if (k && st->size[k] > st->size[k - 1])
			return "components not largest first";
	}
	if (st->queue >= 0 && st->ncomp == 1 &&
	    st->site[0] != (unsigned)st->queue)
		return "local job placed off its site";
	w->sh->state[id] = S_RUNNING;
	for (unsigned k = 0; k < st->ncomp; k++) {
		w->sh->size[id][k] = st->size[k];
		w->sh->site[id][k] = st->site[k];
	}
	return NULL;
}

/* Busy + idle = capacity on every site; counts agree with the shadow. */
static const char *check_world(struct world *w)
{
	uint64_t busy[COALLOC_MAX_SITES] = { 0 };
	size_t pending = 0, running = 0;

	for (uint32_t id = 1; id < w->next_id; id++) {
		if (w->sh->state[id] == S_PENDING)
			pending++;
		if (w->sh->state[id] != S_RUNNING)
			continue;
		running++;
		for (unsigned k = 0; k < w->sh->ncomp[id]; k++)
			busy[w->sh->site[id][k]] += w->sh->size[id][k];
	}
	for (unsigned s = 0; s < w->cfg.nsites; s++)
		if (busy[s] + coalloc_engine_idle(w->e, s) !=
		    w->cfg.site_procs[s])
			return "site over-committed or processors lost";
	if (pending != coalloc_engine_pending(w->e) ||
	    running != coalloc_engine_running(w->e))
		return "jobs not conserved";
	return NULL;
}

static void random_request(struct world *w, struct coalloc_request *r)
{
	unsigned maxc = w->cfg.nsites < 4 ? w->cfg.nsites : 4;

	r->id = w->next_id++;
	r->ncomp = 1 + coalloc_rng_below(&w->rng, maxc);
	for (unsigned k = 0; k < r->ncomp; k++)
		r->size[k] = 1 + coalloc_rng_below(&w->rng, 12);
	r->queue = coalloc_policy_queue_for(w->cfg.policy, r->ncomp,
					    coalloc_rng_below(&w->rng,
							      w->cfg.nsites));
}

static const char *do_submit(struct world *w, double now)
{
	struct coalloc_request r = { .submit_time = now };
	int rc;

	random_request(w, &r);
	rc = coalloc_engine_submit(w->e, &r);
	if (rc == -E2BIG)
		return NULL;
	if (rc)
		return "submit failed";
	w->sh->state[r.id] = S_PENDING;
	w->sh->queue[r.id] = r.queue;
	w->sh->ncomp[r.id] = r.ncomp;
	w->sh->submit[r.id] = now;
	return NULL;
}

static const char *do_schedule(struct world *w, double now)
{
	const struct coalloc_start *st;
	size_t n = coalloc_engine_schedule(w->e, now, &st);

	for (size_t i = 0; i < n; i++) {
		const char *err = check_start(w, &st[i]);

		if (err)
			return err;
		w->sh->start[st[i].id] = now;
	}
	/* a pass leaves every queue disabled, empty or held */
	for (uint32_t id = 1; id < w->next_id; id++)
		if (w->sh->state[id] == S_PENDING &&
		    coalloc_engine_why(w->e, id, now, NULL, 0) ==
		    COALLOC_WHY_ELIGIBLE)
			return "an eligible job was left behind";
	return NULL;
}

/* A random job in the given state, or 0. */
static uint32_t pick(struct world *w, int state)
{
	uint32_t n = w->next_id - 1, first;

	if (!n)
		return 0;
	first = 1 + coalloc_rng_below(&w->rng, n);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t id = 1 + (first - 1 + i) % n;

		if (w->sh->state[id] == state)
			return id;
	}
	return 0;
}

static const char *do_restore(struct world *w)
{
	struct coalloc_request r = { 0 };
	uint32_t idle[COALLOC_MAX_SITES];
	uint16_t site[COALLOC_MAX_SITES];

	random_request(w, &r);
	for (unsigned s = 0; s < w->cfg.nsites; s++)
		idle[s] = coalloc_engine_idle(w->e, s);
	/* a placement that fits, in whatever order the caller lists it */
	if (!coalloc_worst_fit(idle, w->cfg.nsites, r.size, r.ncomp, -1,
			       site))
		return NULL;
	if (coalloc_engine_add_running(w->e, &r, site))
		return "add_running refused a valid placement";
	w->sh->state[r.id] = S_RUNNING;
	w->sh->ncomp[r.id] = r.ncomp;
	for (unsigned k = 0; k < r.ncomp; k++) {
		w->sh->size[r.id][k] = r.size[k];
		w->sh->site[r.id][k] = site[k];
	}
	return NULL;
}

static const char *step(struct world *w, double now)
{
	uint32_t op = coalloc_rng_below(&w->rng, 20), id;

	if (op < 8)
		return do_submit(w, now);
	if (op < 13)
		return do_schedule(w, now);
	if (op < 18) {
		id = pick(w, S_RUNNING);
		if (!id)
			return NULL;
		w->sh->state[id] = S_DONE;
		return coalloc_engine_depart(w->e, id) ? "depart failed" : NULL;
	}
	if (op == 18) {
		id = pick(w, S_PENDING);
		if (!id)
			return NULL;
		w->sh->state[id] = S_CANCELLED;
		return coalloc_engine_cancel(w->e, id) ? "cancel failed" : NULL;
	}
	return do_restore(w);
}

static const char *random_run(uint64_t seed, struct shadow *sh)
{
	struct world w = { .sh = sh, .next_id = 1 };
	const char *err = NULL;
	unsigned nsites;

	memset(sh, 0, sizeof(*sh));
	coalloc_rng_seed(&w.rng, seed);
	nsites = 1 + coalloc_rng_below(&w.rng, 6);
	coalloc_config_init(&w.cfg, (enum coalloc_policy)coalloc_rng_below(
				    &w.rng, COALLOC_POLICY_COUNT), nsites, 1);
	for (unsigned s = 0; s < nsites; s++)
		w.cfg.site_procs[s] = 4 + coalloc_rng_below(&w.rng, 29);
	w.cfg.seed = seed;
	w.cfg.aging_wait = coalloc_rng_below(&w.rng, 2) ? 50 : 0;
	w.e = coalloc_engine_create(&w.cfg);
	for (int i = 0; i < 1500 && !err && w.next_id < MAXJ - 1; i++) {
		err = step(&w, i);
		if (!err)
			err = check_world(&w);
	}
	coalloc_engine_destroy(w.e);
	return err;
}

static void test_random_invariants(struct shadow *sh)
{
	const char *err = NULL;
	uint64_t s;

	for (s = 1; s <= 300 && !err; s++)
		err = random_run(s, sh);
	ok(!err, "300 random runs: conserved, never over-committed, valid "
	   "placements, no eligible job left (%s, seed %llu)",
	   err ? err : "ok", (unsigned long long)(s - 1));
}

/*
 * Overload (offered load about 1.2) with a stream that keeps the favoured
 * queues busy, so GP starves local jobs and LP global ones.  With aging
 * every job of the first third must have started by the end.
 */
static unsigned overload_run(enum coalloc_policy p, double wait,
			     uint64_t seed, struct shadow *sh)
{
	struct world w = { .sh = sh, .next_id = 1 };
	double end[MAXJ] = { 0 }, horizon = 300, dt = 0.05, t;
	uint32_t run[MAXJ];
	unsigned late = 0, nrun = 0;

	memset(sh, 0, sizeof(*sh));
	coalloc_rng_seed(&w.rng, seed);
	coalloc_config_init(&w.cfg, p, 4, 16);
	w.cfg.aging_wait = wait;
	w.e = coalloc_engine_create(&w.cfg);
	for (t = 0; t < horizon; t += dt) {
		const struct coalloc_start *st;
		size_t n;

		/* mean demand 4.7 jobs x 16.25 processors per unit of time
		 * on 64 processors: offered load about 1.2 */
		if (coalloc_rng_uniform(&w.rng) < 4.7 * dt &&
		    w.next_id < MAXJ - 1)
			do_submit(&w, t);
		for (unsigned i = 0; i < nrun;) {
			uint32_t id = run[i];

			if (end[id] > t) {
				i++;
				continue;
			}
			coalloc_engine_depart(w.e, id);
			sh->state[id] = S_DONE;
			run[i] = run[--nrun];
		}
		n = coalloc_engine_schedule(w.e, t, &st);
		for (size_t i = 0; i < n; i++) {
			sh->state[st[i].id] = S_RUNNING;
			end[st[i].id] = t + 2 * coalloc_rng_uniform(&w.rng);
			run[nrun++] = st[i].id;
		}
	}
	for (uint32_t id = 1; id < w.next_id; id++)
		if (sh->submit[id] < horizon / 3 && sh->state[id] == S_PENDING)
			late++;
	coalloc_engine_destroy(w.e);
	return late;
}

static void test_aging_starts_all(struct shadow *sh)
{
	static const enum coalloc_policy pol[] = {
		COALLOC_POLICY_GP, COALLOC_POLICY_LP_GF, COALLOC_POLICY_LQ,
		COALLOC_POLICY_LS_OR, COALLOC_POLICY_EQ_GF, COALLOC_POLICY_GS,
	};
	unsigned late = 0, starved = 0;

	for (unsigned i = 0; i < sizeof(pol) / sizeof(pol[0]); i++) {
		for (uint64_t s = 1; s <= 5; s++) {
			late += overload_run(pol[i], 5, s, sh);
			if (pol[i] == COALLOC_POLICY_GP)
				starved += overload_run(pol[i], 0, s, sh);
		}
	}
	is_int(late, 0, "with aging every job of the first third started "
	       "under overload (6 policies x 5 seeds)");
	ok(starved > 0, "without aging GP does starve jobs (%u never "
	   "started)", starved);
}

int main(void)
{
	struct shadow *sh = calloc(1, sizeof(*sh));

	if (!sh)
		return 1;
	test_random_invariants(sh);
	test_aging_starts_all(sh);
	free(sh);
	return done_testing();
}
