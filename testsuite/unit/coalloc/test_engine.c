/*
 * test_engine.c - hand-built scenarios that pin the semantics of every
 * queue policy of Bucur and Epema (section 2.5) in the engine.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdarg.h>

#include "coalloc/coalloc.h"
#include "engine_fixture.h"
#include "tap.h"

#define G COALLOC_QUEUE_GLOBAL

static struct coalloc_engine *mk(enum coalloc_policy p, unsigned nsites,
				 uint32_t procs)
{
	struct coalloc_config cfg;

	coalloc_config_init(&cfg, p, nsites, procs);
	cfg.aging_wait = COALLOC_AGING_OFF;
	return coalloc_engine_create(&cfg);
}

/* submit(e, id, queue, t, ncomp, size...) */
static int submit(struct coalloc_engine *e, uint32_t id, int queue, double t,
		  unsigned ncomp, ...)
{
	struct coalloc_request r = { .id = id, .ncomp = ncomp, .queue = queue,
				     .submit_time = t };
	va_list ap;

	va_start(ap, ncomp);
	for (unsigned k = 0; k < ncomp; k++)
		r.size[k] = va_arg(ap, unsigned);
	va_end(ap);
	return coalloc_engine_submit(e, &r);
}

/* Run a pass; write the started ids (up to max) and return the count. */
static size_t pass(struct coalloc_engine *e, double now, uint32_t *ids,
		   size_t max)
{
	const struct coalloc_start *st;
	size_t n = coalloc_engine_schedule(e, now, &st);

	for (size_t i = 0; i < n && i < max; i++)
		ids[i] = st[i].id;
	return n;
}

static void test_names(void)
{
	enum coalloc_policy p;
	int all = 1;

	for (int i = 0; i < COALLOC_POLICY_COUNT; i++) {
		if (coalloc_policy_parse(coalloc_policy_name(i), &p) ||
		    (int)p != i)
			all = 0;
	}
	ok(all, "every policy name parses back to itself");
	is_str(coalloc_policy_name(COALLOC_POLICY_LS_DO), "LS-DO", "LS-DO");
	is_str(coalloc_policy_name(COALLOC_POLICY_GS), "GS", "GS");
	ok(!coalloc_policy_parse("lp_gf", &p) && p == COALLOC_POLICY_LP_GF,
	   "lp_gf parses as LP-GF");
	is_int(coalloc_policy_parse("GANG", &p), -EINVAL, "unknown name");
	is_int(coalloc_policy_parse("LS-", &p), -EINVAL, "prefix rejected");
	is_int(coalloc_policy_queue_for(COALLOC_POLICY_GS, 1, 2), G,
	       "GS routes everything to the global queue");
	is_int(coalloc_policy_queue_for(COALLOC_POLICY_LS_OR, 3, 2), 2,
	       "LS routes multi-component jobs locally");
	is_int(coalloc_policy_queue_for(COALLOC_POLICY_EQ_GF, 3, 2), G,
	       "EQ routes multi-component jobs globally");
	is_int(coalloc_policy_queue_for(COALLOC_POLICY_EQ_GF, 1, 2), 2,
	       "EQ routes single-component jobs locally");
}

static void test_worst_fit(void)
{
	uint32_t idle[4] = { 10, 30, 20, 30 };
	uint32_t sizes[3] = { 25, 8, 5 };
	uint32_t big[3] = { 25, 25, 25 };
	uint16_t site[3];

	ok(coalloc_worst_fit(idle, 4, sizes, 3, -1, site),
	   "WF: request fits");
	ok(site[0] == 1 && site[1] == 3 && site[2] == 2,
	   "WF: largest on the emptiest site, ties to the lowest index, "
	   "distinct sites (got %u %u %u)", site[0], site[1], site[2]);
	ok(!coalloc_worst_fit(idle, 4, big, 3, -1, site),
	   "WF: no fit when the third emptiest site is too small");
	ok(!coalloc_worst_fit(idle, 4, sizes, 1, 0, site),
	   "WF: a local job only fits its own site");
	ok(coalloc_worst_fit(idle, 4, sizes, 1, 3, site) && site[0] == 3,
	   "WF: local job placed on its site");
}

static void test_errors(void)
{
	struct coalloc_engine *gp = mk(COALLOC_POLICY_GP, 2, 8);
	struct coalloc_engine *ls = mk(COALLOC_POLICY_LS_OR, 2, 8);
	struct coalloc_engine *gs = mk(COALLOC_POLICY_GS, 2, 8);
	struct coalloc_request r = { .id = 9, .ncomp = 2, .queue = G };
	uint16_t sites[2] = { 1, 1 };

	is_int(submit(gp, 1, 0, 0, 2, 1, 1), -EINVAL,
	       "GP: multi-component job in a local queue rejected");
	is_int(submit(gp, 1, G, 0, 1, 1), -EINVAL,
	       "GP: single-component job in the global queue rejected");
	is_int(submit(ls, 1, G, 0, 2, 1, 1), -EINVAL,
	       "LS: the global queue does not exist");
	is_int(submit(gs, 1, 0, 0, 1, 1), -EINVAL,
	       "GS: local queues do not exist");
	is_int(submit(gs, 1, G, 0, 3, 1, 1, 1), -EINVAL,
	       "more components than sites rejected");
	is_int(submit(gs, 1, G, 0, 1, 9), -E2BIG,
	       "a job larger than any site can never fit");
	is_int(submit(gs, 1, G, 0, 1, 0), -EINVAL, "zero-size component");
	is_int(submit(gs, 1, G, 0, 1, 8), 0, "submit ok");
	is_int(submit(gs, 1, G, 0, 1, 8), -EEXIST, "duplicate id rejected");
	is_int(coalloc_engine_depart(gs, 1), -EINVAL, "depart of pending job");
	is_int(coalloc_engine_depart(gs, 77), -ENOENT, "depart of unknown");
	is_int(coalloc_engine_cancel(gs, 77), -ENOENT, "cancel of unknown");
	r.size[0] = r.size[1] = 2;
	is_int(coalloc_engine_add_running(gs, &r, sites), -EINVAL,
	       "add_running: repeated site rejected");
	sites[0] = 0;
	r.size[1] = 9;
	is_int(coalloc_engine_add_running(gs, &r, sites), -ENOSPC,
	       "add_running: over capacity rejected");
	r.size[1] = 3;
	is_int(coalloc_engine_add_running(gs, &r, sites), 0, "add_running ok");
	is_int(coalloc_engine_idle(gs, 0), 6, "add_running: site 0 charged");
	is_int(coalloc_engine_idle(gs, 1), 5, "add_running: site 1 charged");
	is_int(coalloc_engine_cancel(gs, 9), -EINVAL, "cancel of running job");
	is_int(coalloc_engine_depart(gs, 9), 0, "depart of restored job");
	is_int(coalloc_engine_idle(gs, 1), 8, "depart gives processors back");
	coalloc_engine_destroy(gp);
	coalloc_engine_destroy(ls);
	coalloc_engine_destroy(gs);
}

/* A queue whose head does not fit stays disabled until a departure. */
static void test_disabled_until_departure(void)
{
	struct coalloc_engine *e = mk(COALLOC_POLICY_LS_OR, 2, 8);
	uint32_t ids[8];
	char why[160];

	is_int(running(e, 100, 0, 6), 0, "site 0 mostly busy");
	submit(e, 1, 0, 0, 1, 4);
	submit(e, 2, 0, 0, 1, 1);
	is_int(pass(e, 0, ids, 8), 0, "head of q0 (4 procs) does not fit");
	ok(!coalloc_engine_queue_enabled(e, 0), "q0 disabled");
	is_int(coalloc_engine_why(e, 1, 0, why, sizeof(why)),
	       COALLOC_WHY_QUEUE_DISABLED, "why: queue disabled (%s)", why);
	is_int(coalloc_engine_why(e, 2, 0, NULL, 0), COALLOC_WHY_NOT_HEAD,
	       "why: job behind the head is not at head");
	is_str(why, "local queue 0 disabled: its head did not fit; enabled "
	       "again at the next departure", "  numbered by the engine");
	{	/* the numbers, for a caller that names its queues */
		struct coalloc_reason r;

		coalloc_engine_reason(e, 2, 0, &r);
		ok(r.known && r.queue == 0 && r.queue_len == 2,
		   "reason: job 2 waits in queue 0 behind 1 job");
		coalloc_reason_format(&r, "siteA", why, sizeof(why));
		is_str(why, "not at head of local queue of siteA (2 waiting)",
		       "  in the caller's words");
		coalloc_engine_reason(e, 99, 0, &r);
		ok(!r.known && r.why == COALLOC_WHY_UNKNOWN_JOB,
		   "reason: an unknown job");
	}
	is_int(coalloc_engine_job_state(e, 1), COALLOC_JOB_PENDING,
	       "job state: the disabled queue's head is pending");
	is_int(coalloc_engine_job_state(e, 100), COALLOC_JOB_RUNNING,
	       "job state: a running job");
	is_int(coalloc_engine_job_state(e, 99), COALLOC_JOB_UNKNOWN,
	       "job state: an unknown job");
	submit(e, 3, 1, 1, 1, 8);
	is_int(pass(e, 1, ids, 8), 1, "another queue still works");
	is_int(ids[0], 3, "q1 job started");
	ok(!coalloc_engine_queue_enabled(e, 0), "q0 still disabled after a "
	   "pass without departure");
	is_int(coalloc_engine_depart(e, 3), 0, "departure from site 1");
	ok(coalloc_engine_queue_enabled(e, 0), "departure enables q0");
	is_int(pass(e, 2, ids, 8), 0, "q0 head still does not fit");
	ok(!coalloc_engine_queue_enabled(e, 0), "... so q0 disabled again");
	coalloc_engine_depart(e, 100);
	is_int(pass(e, 3, ids, 8), 2, "after site 0 frees, q0 drains");
	ok(ids[0] == 1 && ids[1] == 2, "in FCFS order");
	is_int(coalloc_engine_job_state(e, 2), COALLOC_JOB_RUNNING,
	       "job state: started");
	coalloc_engine_depart(e, 2);
	is_int(coalloc_engine_job_state(e, 2), COALLOC_JOB_UNKNOWN,
	       "job state: a departed job is unknown");
	coalloc_engine_destroy(e);
}

/* At most one job per queue per round; rounds repeat. */
static void test_rounds(void)
{
	struct coalloc_engine *e = mk(COALLOC_POLICY_LS_OR, 2, 10);
	struct coalloc_engine *eq = mk(COALLOC_POLICY_EQ_GF, 2, 10);
	uint32_t ids[8];
	int okay;

	for (uint32_t i = 0; i < 3; i++) {
		submit(e, 10 + i, 0, 0, 1, 1);
		submit(e, 20 + i, 1, 0, 1, 1);
	}
	is_int(pass(e, 0, ids, 8), 6, "LS-OR: six jobs start");
	okay = ids[0] == 10 && ids[1] == 20 && ids[2] == 11 &&
	       ids[3] == 21 && ids[4] == 12 && ids[5] == 22;
	ok(okay, "LS-OR: rounds alternate between the queues");
	for (uint32_t i = 0; i < 2; i++) {
		submit(eq, 10 + i, 0, 0, 1, 1);
		submit(eq, 30 + i, G, 0, 2, 1, 1);
	}
	is_int(pass(eq, 0, ids, 8), 4, "EQ-GF: four jobs start");
	okay = ids[0] == 30 && ids[1] == 10 && ids[2] == 31 && ids[3] == 11;
	ok(okay, "EQ-GF: global first in every round");
	coalloc_engine_destroy(e);
	coalloc_engine_destroy(eq);
}

/* Fill four 10-processor sites with one job, then let the heads of the
 * given queues fail one pass at a time, in the given order. */
static struct coalloc_engine *disable_in_order(enum coalloc_policy p,
					       const int *queues, unsigned n)
{
	struct coalloc_engine *e = mk(p, 4, 10);
	uint32_t ids[4];

	submit(e, 1, 0, 0, 4, 10, 10, 10, 10);
	pass(e, 0, ids, 4);
	for (unsigned i = 0; i < n; i++) {
		submit(e, 10 + (uint32_t)queues[i], queues[i], 1, 1, 5);
		pass(e, 1, ids, 4);
	}
	return e;
}

static void test_ls_do(void)
{
	const int disabled[4] = { 2, 0, 3, 1 };
	const int some[2] = { 2, 0 };
	struct coalloc_engine *e = disable_in_order(COALLOC_POLICY_LS_DO,
						    disabled, 4);
	int order[5];
	uint32_t ids[8];

	coalloc_engine_depart(e, 1);
	coalloc_engine_visit_order(e, order, 5);
	ok(order[0] == 2 && order[1] == 0 && order[2] == 3 && order[3] == 1,
	   "LS-DO: queues enabled in the order they were disabled "
	   "(got %d %d %d %d)", order[0], order[1], order[2], order[3]);
	is_int(pass(e, 2, ids, 8), 4, "LS-DO: all heads start");
	ok(ids[0] == 12 && ids[1] == 10 && ids[2] == 13 && ids[3] == 11,
	   "LS-DO: and they start in that order");
	coalloc_engine_destroy(e);

	e = disable_in_order(COALLOC_POLICY_LS_DO, some, 2);
	coalloc_engine_depart(e, 1);
	coalloc_engine_visit_order(e, order, 5);
	ok(order[0] == 2 && order[1] == 0 && order[2] == 1 && order[3] == 3,
	   "LS-DO: queues never disabled follow, in their old order "
	   "(got %d %d %d %d)", order[0], order[1], order[2], order[3]);
	coalloc_engine_destroy(e);

	e = disable_in_order(COALLOC_POLICY_LS_OR, disabled, 4);
	coalloc_engine_depart(e, 1);
	coalloc_engine_visit_order(e, order, 5);
	ok(order[0] == 0 && order[1] == 1 && order[2] == 2 && order[3] == 3,
	   "LS-OR: the fixed order whatever was disabled");
	pass(e, 2, ids, 8);
	ok(ids[0] == 10 && ids[1] == 11 && ids[2] == 12 && ids[3] == 13,
	   "LS-OR: starts in the fixed order");
	coalloc_engine_destroy(e);
}

static void test_ls_ro(void)
{
	struct coalloc_engine *e = mk(COALLOC_POLICY_LS_RO, 4, 10);
	struct coalloc_start pl;
	uint32_t ids[4];
	int order[4];

	running(e, 100, 0, 5);
	running(e, 101, 1, 3);
	/* idle 5 7 10 10: WF puts 7 on site 2, 4 on site 3, 2 on site 1 */
	submit(e, 1, 3, 0, 3, 2, 7, 4);
	is_int(pass(e, 0, ids, 4), 1, "LS-RO: the 3-component job starts");
	coalloc_engine_placement(e, 1, &pl);
	ok(pl.size[0] == 7 && pl.site[0] == 2 && pl.size[1] == 4 &&
	   pl.site[1] == 3 && pl.size[2] == 2 && pl.site[2] == 1,
	   "WF: largest first, each on the emptiest distinct site");
	coalloc_engine_depart(e, 1);
	coalloc_engine_visit_order(e, order, 4);
	ok(order[0] == 2 && order[1] == 3 && order[2] == 1 && order[3] == 0,
	   "LS-RO: release order by component size, unused sites last "
	   "(got %d %d %d %d)", order[0], order[1], order[2], order[3]);
	coalloc_engine_destroy(e);
}

static void test_ls_rd(void)
{
	struct coalloc_engine *a = mk(COALLOC_POLICY_LS_RD, 4, 10);
	struct coalloc_engine *b = mk(COALLOC_POLICY_LS_RD, 4, 10);
	int seen[4] = { 0 }, rotations = 1, same = 1;
	uint32_t ids[4];

	for (uint32_t i = 0; i < 200; i++) {
		int oa[4], ob[4];

		submit(a, i + 1, 0, 0, 1, 1);
		submit(b, i + 1, 0, 0, 1, 1);
		pass(a, 0, ids, 4);
		pass(b, 0, ids, 4);
		coalloc_engine_depart(a, i + 1);
		coalloc_engine_depart(b, i + 1);
		coalloc_engine_visit_order(a, oa, 4);
		coalloc_engine_visit_order(b, ob, 4);
		seen[oa[0]]++;
		for (int k = 0; k < 4; k++) {
			rotations &= oa[k] == (oa[0] + k) % 4;
			same &= oa[k] == ob[k];
		}
	}
	ok(rotations, "LS-RD: a fixed cyclic order from the chosen start");
	ok(seen[0] && seen[1] && seen[2] && seen[3],
	   "LS-RD: every queue comes first sometimes (%d %d %d %d)",
	   seen[0], seen[1], seen[2], seen[3]);
	ok(same, "LS-RD: deterministic for a seed");
	coalloc_engine_destroy(a);
	coalloc_engine_destroy(b);
}

/* Global head that does not fit, local job that would. */
static void global_blocked(struct coalloc_engine *e)
{
	running(e, 100, 0, 4);
	submit(e, 1, G, 0, 2, 8, 8);
	submit(e, 2, 1, 0, 1, 1);
}

static void test_gp(void)
{
	struct coalloc_engine *e = mk(COALLOC_POLICY_GP, 2, 8);
	struct coalloc_engine *eq = mk(COALLOC_POLICY_EQ_GF, 2, 8);
	uint32_t ids[4];
	char why[160];

	global_blocked(e);
	is_int(pass(e, 0, ids, 4), 0,
	       "GP: no local job starts while the global queue is non-empty");
	is_int(coalloc_engine_why(e, 2, 0, why, sizeof(why)),
	       COALLOC_WHY_HELD_GLOBAL_NONEMPTY, "why: %s", why);
	global_blocked(eq);
	is_int(pass(eq, 0, ids, 4), 1, "EQ-GF: the same local job starts");
	coalloc_engine_depart(e, 100);
	is_int(pass(e, 1, ids, 4), 1, "GP: global job starts at departure");
	is_int(ids[0], 1, "... the global one");
	coalloc_engine_depart(e, 1);
	is_int(pass(e, 2, ids, 4), 1, "GP: local starts once global empty");
	is_int(ids[0], 2, "... the local one");
	coalloc_engine_destroy(e);
	coalloc_engine_destroy(eq);
}

/* Both local heads blocked, a global job that fits. */
static void locals_blocked(struct coalloc_engine *e)
{
	running(e, 100, 0, 7);
	running(e, 101, 1, 1);
	submit(e, 1, 0, 0, 1, 4);
	submit(e, 2, 1, 0, 1, 8);
	submit(e, 3, G, 0, 2, 1, 1);
}

static void test_lp(void)
{
	struct coalloc_engine *e = mk(COALLOC_POLICY_LP_GF, 2, 8);
	struct coalloc_engine *eq = mk(COALLOC_POLICY_EQ_LF, 2, 8);
	uint32_t ids[4];
	char why[160];

	locals_blocked(e);
	is_int(pass(e, 0, ids, 4), 0, "LP: no global job starts while "
	       "every local queue is non-empty");
	is_int(coalloc_engine_why(e, 3, 0, why, sizeof(why)),
	       COALLOC_WHY_HELD_NO_LOCAL_EMPTY, "why: %s", why);
	locals_blocked(eq);
	is_int(pass(eq, 0, ids, 4), 1, "EQ-LF: the global job starts");
	is_int(coalloc_engine_cancel(e, 2), 0, "local queue 1 empties");
	is_int(pass(e, 1, ids, 4), 1, "LP: global job starts once a local "
	       "queue is empty");
	is_int(ids[0], 3, "... the global one");
	coalloc_engine_destroy(e);
	coalloc_engine_destroy(eq);
}

static void test_lp_eq_orders(void)
{
	static const enum coalloc_policy lf[] = { COALLOC_POLICY_LP_LF,
						  COALLOC_POLICY_EQ_LF };
	static const enum coalloc_policy gf[] = { COALLOC_POLICY_LP_GF,
						  COALLOC_POLICY_EQ_GF };

	for (int i = 0; i < 2; i++) {
		struct coalloc_engine *a = mk(lf[i], 2, 8);
		struct coalloc_engine *b = mk(gf[i], 2, 8);
		int oa[3], ob[3];

		running(a, 1, 0, 1);
		running(b, 1, 0, 1);
		coalloc_engine_depart(a, 1);
		coalloc_engine_depart(b, 1);
		coalloc_engine_visit_order(a, oa, 3);
		coalloc_engine_visit_order(b, ob, 3);
		ok(oa[0] == 0 && oa[1] == 1 && oa[2] == G,
		   "%s: locals enabled first", coalloc_policy_name(lf[i]));
		ok(ob[0] == G && ob[1] == 0 && ob[2] == 1,
		   "%s: global enabled first", coalloc_policy_name(gf[i]));
		coalloc_engine_destroy(a);
		coalloc_engine_destroy(b);
	}
}

static void test_lq(void)
{
	struct coalloc_engine *e = mk(COALLOC_POLICY_LQ, 2, 4);
	uint32_t ids[4];
	char why[160];

	running(e, 100, 0, 4);
	running(e, 101, 1, 4);
	submit(e, 1, G, 0, 2, 1, 1);
	submit(e, 2, 0, 0, 1, 1);
	pass(e, 0, ids, 4);
	is_int(coalloc_engine_why(e, 1, 0, why, sizeof(why)),
	       COALLOC_WHY_HELD_GLOBAL_SHORTER,
	       "LQ: global (1) not longer than q0 (1): %s", why);
	submit(e, 3, G, 0, 2, 1, 1);
	submit(e, 4, G, 0, 2, 1, 1);
	coalloc_engine_depart(e, 100);
	is_int(pass(e, 1, ids, 4), 0, "LQ: global longest and does not fit, "
	       "the local job that fits is held");
	is_int(coalloc_engine_why(e, 2, 1, why, sizeof(why)),
	       COALLOC_WHY_HELD_GLOBAL_LONGER, "why: %s", why);
	coalloc_engine_cancel(e, 3);
	coalloc_engine_cancel(e, 4);
	is_int(pass(e, 2, ids, 4), 1, "LQ: lengths cross, locals work again");
	is_int(ids[0], 2, "... the local job started");
	coalloc_engine_destroy(e);
}

static void test_gs(void)
{
	struct coalloc_engine *e = mk(COALLOC_POLICY_GS, 2, 4);
	const struct coalloc_start *st;
	size_t n;

	submit(e, 1, G, 0, 1, 3);
	submit(e, 2, G, 0, 1, 3);
	submit(e, 3, G, 0, 1, 2);
	submit(e, 4, G, 0, 1, 1);
	n = coalloc_engine_schedule(e, 0, &st);
	is_int(n, 2, "GS: FCFS stops at the head that does not fit");
	ok(st[0].site[0] == 0 && st[1].site[0] == 1,
	   "GS: single-component jobs go to any site by WF");
	is_int(coalloc_engine_why(e, 4, 0, NULL, 0), COALLOC_WHY_NOT_HEAD,
	       "GS: no backfilling past the head");
	coalloc_engine_destroy(e);
}

static struct coalloc_engine *mk_aging(enum coalloc_policy p, double wait)
{
	struct coalloc_config cfg;

	coalloc_config_init(&cfg, p, 2, 4);
	cfg.aging_wait = wait;
	return coalloc_engine_create(&cfg);
}

static void test_aging(void)
{
	struct coalloc_engine *e = mk_aging(COALLOC_POLICY_GP, 10);
	struct coalloc_engine *d = mk_aging(COALLOC_POLICY_LS_OR, 10);
	struct coalloc_config cfg;
	uint32_t ids[4];

	coalloc_config_init(&cfg, COALLOC_POLICY_GP, 2, 4);
	ok(cfg.aging_wait == COALLOC_AGING_DEFAULT_WAIT && cfg.aging_wait > 0,
	   "aging is on by default");
	running(e, 100, 0, 4);
	submit(e, 2, 1, 0, 1, 1);
	submit(e, 1, G, 1, 2, 4, 4);
	is_int(pass(e, 5, ids, 4), 0, "GP: the local job is held at t=5");
	is_int(pass(e, 11, ids, 4), 1, "aging: at t=11 it is starving and "
	       "its queue is served first");
	is_int(ids[0], 2, "... the starving local job");

	running(d, 100, 0, 3);
	submit(d, 1, 0, 0, 1, 4);
	submit(d, 2, 1, 1, 1, 1);
	is_int(pass(d, 2, ids, 4), 1, "before the wait: others still start");
	submit(d, 3, 1, 3, 1, 1);
	is_int(pass(d, 12, ids, 4), 0, "starving head does not fit: drain");
	is_int(coalloc_engine_why(d, 3, 12, NULL, 0), COALLOC_WHY_AGING_DRAIN,
	       "why: draining for the starving job");
	coalloc_engine_depart(d, 100);
	is_int(pass(d, 13, ids, 4), 2, "after the departure both start");
	ok(ids[0] == 1 && ids[1] == 3, "the starving job first");
	coalloc_engine_destroy(e);
	coalloc_engine_destroy(d);
}

/* Gang rows: each row offers every site again; a job takes one row. */
static void test_rows(void)
{
	struct coalloc_config cfg;
	struct coalloc_engine *e;
	const struct coalloc_start *st;
	struct coalloc_start pl;
	struct coalloc_request r = { .id = 50, .ncomp = 1, .queue = G,
				     .row = 1, .size = { 1 } };
	uint16_t site0 = 0;
	char why[160];

	coalloc_config_init(&cfg, COALLOC_POLICY_GS, 2, 4);
	cfg.aging_wait = COALLOC_AGING_OFF;
	is_int(cfg.rows, 1, "config_init: one row");
	cfg.rows = COALLOC_MAX_ROWS + 1;
	ok(!coalloc_engine_create(&cfg), "too many rows refused");
	cfg.rows = 2;
	e = coalloc_engine_create(&cfg);
	ok(e != NULL, "engine with 2 rows");
	submit(e, 1, G, 0, 2, 4, 4);
	submit(e, 2, G, 1, 2, 4, 4);
	submit(e, 3, G, 2, 1, 1);
	is_int(coalloc_engine_schedule(e, 3, &st), 2,
	       "two whole-system jobs start, one per row");
	is_int(st[0].row, 0, "first in row 0");
	is_int(st[1].row, 1, "second in row 1");
	is_int(coalloc_engine_idle(e, 0), 0, "site 0 idle in no row");
	is_int(coalloc_engine_why(e, 3, 3, why, sizeof(why)),
	       COALLOC_WHY_QUEUE_DISABLED, "third waits (%s)", why);
	is_int(coalloc_engine_depart(e, 1), 0, "row 0 job leaves");
	is_int(coalloc_engine_idle_row(e, 0, 1), 4, "row 0 idle again");
	is_int(coalloc_engine_idle_row(e, 1, 1), 0, "row 1 still full");
	is_int(coalloc_engine_schedule(e, 4, &st), 1, "third starts");
	is_int(st[0].row, 0, "in the first row with room");
	is_int(coalloc_engine_placement(e, 3, &pl), 0, "placement known");
	is_int(pl.row, 0, "placement names the row");
	coalloc_engine_depart(e, 3);
	is_int(coalloc_engine_add_running(e, &r, &site0), -ENOSPC,
	       "add_running into a full row: ENOSPC");
	r.row = 0;
	is_int(coalloc_engine_add_running(e, &r, &site0), 0,
	       "add_running into the row with room");
	r.id = 51;
	r.row = 2;
	is_int(coalloc_engine_add_running(e, &r, &site0), -EINVAL,
	       "add_running into a row that does not exist");
	coalloc_engine_destroy(e);
}

/* A queue's disabled state can be restored after a restart, while the
 * head that had not fit is still its head. */
static void test_disable_queue(void)
{
	struct coalloc_engine *e = mk(COALLOC_POLICY_LS_OR, 2, 4);
	struct coalloc_config cfg;
	uint32_t ids[4];

	is_int(coalloc_engine_disable_queue(e, G, 1), -EINVAL,
	       "LS has no global queue to disable");
	is_int(coalloc_engine_disable_queue(e, 1, 1), -ESTALE,
	       "an empty queue is not disabled: its saved head is gone");
	submit(e, 1, 1, 0, 1, 1);
	submit(e, 2, 1, 0, 1, 1);
	is_int((int)coalloc_engine_queue_head(e, 1), 1, "job 1 heads q1");
	is_int((int)coalloc_engine_queue_head(e, 0), 0, "q0 has no head");
	is_int(coalloc_engine_disable_queue(e, 1, 2), -ESTALE,
	       "a record naming another head is stale");
	is_int(coalloc_engine_disable_queue(e, 1, 0), -ESTALE,
	       "so is one without a head (0.9's state file)");
	ok(coalloc_engine_queue_enabled(e, 1), "  q1 stays enabled");
	is_int(coalloc_engine_disable_queue(e, 1, 1), 0,
	       "the record of its head disables q1");
	ok(!coalloc_engine_queue_enabled(e, 1), "q1 disabled");
	is_int(pass(e, 0, ids, 4), 0, "disabled queue starts nothing");
	running(e, 9, 0, 1);
	coalloc_engine_depart(e, 9);
	ok(coalloc_engine_queue_enabled(e, 1), "a departure enables it");
	is_int(pass(e, 1, ids, 4), 2, "and its two jobs start");
	coalloc_engine_destroy(e);

	/* firstfit: submissions enable queues; the jobs came back as such */
	coalloc_config_init(&cfg, COALLOC_POLICY_LS_OR, 2, 4);
	cfg.order = COALLOC_ORDER_FIRSTFIT;
	e = coalloc_engine_create(&cfg);
	submit(e, 1, 1, 0, 1, 1);
	is_int(coalloc_engine_disable_queue(e, 1, 1), -ESTALE,
	       "firstfit: no record holds");
	coalloc_engine_destroy(e);
}

/* The lost start a stale record caused (26.05 re-executes slurmctld at
 * every reconfiguration): GP with aging, the starving local job's queue
 * restored disabled from a file written before its jobs came, and no
 * departure to come.  It must start. */
static void test_stale_disable_aging(void)
{
	struct coalloc_config cfg;
	struct coalloc_engine *e;
	uint32_t ids[4];

	coalloc_config_init(&cfg, COALLOC_POLICY_GP, 2, 4);
	cfg.aging_wait = 5;
	e = coalloc_engine_create(&cfg);
	ok(!running(e, 50, 0, 4), "site 0 full");
	submit(e, 7, 1, 0, 1, 1);		/* y: fits site 1 */
	submit(e, 8, G, 1, 2, 2, 2);		/* x: cannot fit */
	coalloc_engine_disable_queue(e, G, 8);
	is_int(coalloc_engine_disable_queue(e, 1, 3), -ESTALE,
	       "site 1's record names job 3, long gone: stale");
	is_int(pass(e, 10, ids, 4), 1, "aging starts the starving local job");
	is_int((int)ids[0], 7, "  it is y");
	coalloc_engine_destroy(e);
}

/* Ordered and flexible requests: placement, queues and refusals. */
static void test_request_types(void)
{
	struct coalloc_engine *e = mk(COALLOC_POLICY_GS, 2, 8);
	const struct coalloc_start *st;
	struct coalloc_request r = { .id = 1, .type = COALLOC_REQ_ORDERED,
				     .ncomp = 1, .size = { 4 },
				     .want_site = { 1 }, .queue = G };
	struct coalloc_reason reason;
	char why[160];

	ok(!running(e, 100, 1, 2), "site 1 has 6 idle, site 0 has 8");
	ok(!coalloc_engine_submit(e, &r), "ordered 4@1 queued");
	ok(coalloc_engine_schedule(e, 0, &st) == 1 && st[0].site[0] == 1,
	   "it runs on the site it names, not the emptier one");
	r = (struct coalloc_request){ .id = 2, .type = COALLOC_REQ_FLEXIBLE,
				      .total = 10, .queue = G };
	ok(!coalloc_engine_submit(e, &r), "flexible 10 queued");
	ok(coalloc_engine_schedule(e, 0, &st) == 1 && st[0].ncomp == 2 &&
	   st[0].size[0] == 8 && st[0].site[0] == 0 && st[0].size[1] == 2 &&
	   st[0].site[1] == 1, "split: all 8 of site 0, 2 of site 1");
	r.id = 3;
	r.total = 3;
	ok(!coalloc_engine_submit(e, &r) &&
	   coalloc_engine_schedule(e, 0, &st) == 0, "flexible 3: no room");
	ok(coalloc_engine_reason(e, 3, 0, &reason) ==
	   COALLOC_WHY_QUEUE_DISABLED && reason.ncomp == 0 &&
	   reason.largest == 3, "its reason: no components yet, 3 in all");
	reason.why = COALLOC_WHY_NO_ROOM;
	coalloc_reason_format(&reason, NULL, why, sizeof(why));
	ok(strstr(why, "flexible, 3 in all") != NULL, "said: %s", why);
	ok(!coalloc_engine_depart(e, 2), "the flexible job departs");
	ok(coalloc_engine_idle(e, 0) == 8 && coalloc_engine_idle(e, 1) == 2,
	   "its processors come back to both sites");
	r.id = 4;
	r.total = 17;
	is_int(coalloc_engine_submit(e, &r), -E2BIG,
	       "flexible larger than all sites: never fits");
	r = (struct coalloc_request){ .id = 5, .type = COALLOC_REQ_ORDERED,
				      .ncomp = 2, .size = { 4, 9 },
				      .want_site = { 0, COALLOC_SITE_ANY },
				      .queue = G };
	is_int(coalloc_engine_submit(e, &r), -E2BIG,
	       "the free component has only the other site, too small");
	r.want_site[0] = 1;
	r.want_site[1] = 1;
	is_int(coalloc_engine_submit(e, &r), -EINVAL, "a site named twice");
	coalloc_engine_destroy(e);

	e = mk(COALLOC_POLICY_LP_GF, 2, 8);
	r = (struct coalloc_request){ .id = 6, .type = COALLOC_REQ_FLEXIBLE,
				      .total = 4, .queue = 0 };
	is_int(coalloc_engine_submit(e, &r), -EINVAL,
	       "LP: a flexible job is not a local queue's");
	r.queue = G;
	ok(!coalloc_engine_submit(e, &r), "LP: it goes in the global queue");
	r = (struct coalloc_request){ .id = 7, .type = COALLOC_REQ_ORDERED,
				      .ncomp = 1, .size = { 4 },
				      .want_site = { 1 }, .queue = 0 };
	is_int(coalloc_engine_submit(e, &r), -EINVAL,
	       "LP: a single component naming site 1 is not site 0's job");
	r.queue = 1;
	ok(!coalloc_engine_submit(e, &r), "it is site 1's local job");
	coalloc_engine_destroy(e);
}

/* The queued jobs' ids, which select/coalloc checks against slurmctld's
 * table: a job purged before a walk saw it cancelled leaves. */
static void test_pending_ids(void)
{
	struct coalloc_engine *e = mk(COALLOC_POLICY_LS_OR, 2, 4);
	uint32_t ids[4] = { 0 };

	is_int((int)coalloc_engine_pending_ids(e, ids, 4), 0, "pending_ids: none");
	submit(e, 1, 1, 0, 1, 1);
	submit(e, 2, 1, 1, 1, 1);
	submit(e, 3, 0, 2, 1, 1);
	running(e, 9, 0, 1);
	is_int((int)coalloc_engine_pending_ids(e, ids, 4), 3,
	       "pending_ids: the three queued, not the running one");
	ok(ids[0] == 3 && ids[1] == 1 && ids[2] == 2,
	   "  queue by queue, each in its order (%u %u %u)", ids[0], ids[1],
	   ids[2]);
	is_int((int)coalloc_engine_pending_ids(e, ids, 2), 2, "  at most max");
	coalloc_engine_cancel(e, 1);
	is_int((int)coalloc_engine_pending_ids(e, ids, 4), 2,
	       "  a cancelled one is gone");
	coalloc_engine_destroy(e);
}

int main(void)
{
	test_request_types();
	test_names();
	test_worst_fit();
	test_errors();
	test_disabled_until_departure();
	test_rounds();
	test_ls_do();
	test_ls_ro();
	test_ls_rd();
	test_gp();
	test_lp();
	test_lp_eq_orders();
	test_lq();
	test_gs();
	test_aging();
	test_rows();
	test_disable_queue();
	test_stale_disable_aging();
	test_pending_ids();
	return done_testing();
}
