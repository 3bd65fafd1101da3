/*
 * test_sim.c - the ESP scheduling simulator on small hand-made plans with
 * known answers: FCFS's blocking head, best fit first, EASY backfilling,
 * preemption and drain for Z jobs, gang rows with a time slice (plain,
 * with a switch cost, with the matrix's replicas and with migration),
 * E = W / (P T) exactly; and, when the ESP-1 mix is in the tree, that
 * preemption helps BFF on 512 processors.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "esp/mix.h"
#include "esp/plan.h"
#include "esp/sim.h"
#include "tap.h"

#ifndef ESP_MIX_DIR
#define ESP_MIX_DIR "contribs/esp"
#endif

#define EPS 1e-6
#define MAXJ 16

/* A job of a hand-made plan: name, size, seconds, submit, Z job. */
struct hj {
	const char *name;
	uint32_t size;
	double seconds, submit;
	bool full;
};

struct hplan {
	struct esp_plan plan;
	struct esp_job jobs[MAXJ];
};

static void hp_make(struct hplan *h, uint32_t procs, const struct hj *j,
		    size_t n)
{
	bool z1_seen = false;

	memset(h, 0, sizeof(*h));
	h->plan.procs = procs;
	h->plan.compress = 1;
	h->plan.jobs = h->jobs;
	h->plan.njobs = n;
	for (size_t i = 0; i < n; i++) {
		struct esp_job *pj = &h->jobs[i];

		snprintf(pj->name, sizeof(pj->name), "%s", j[i].name);
		pj->size = j[i].size;
		pj->seconds = j[i].seconds;
		pj->submit = j[i].submit;
		pj->full = j[i].full;
		/* the first Z job listed is the block-0 one */
		pj->block = pj->full && !z1_seen ? 0 : 1;
		z1_seen |= pj->full;
		h->plan.work += pj->size * pj->seconds;
	}
}

static struct esp_sim_opts opts(enum esp_sim_policy p)
{
	struct esp_sim_opts o;

	esp_sim_opts_default(&o);
	o.policy = p;
	return o;
}

static int sim(const struct hplan *h, const struct esp_sim_opts *o,
	       struct esp_sim_result *r)
{
	char err[256];
	int rc = esp_sim_run(&h->plan, o, r, err, sizeof(err));

	if (rc)
		diag("esp_sim_run: %s", err);
	return rc;
}

static double start(const struct esp_sim_result *r, size_t i)
{
	return r->jobs[i].start;
}

static double end(const struct esp_sim_result *r, size_t i)
{
	return r->jobs[i].end;
}

/* E = W / (P T), and the utilization integral agrees with it. */
static void check_e(const struct hplan *h, const struct esp_sim_result *r,
		    double t, const char *what)
{
	double w = h->plan.work, p = h->plan.procs;

	is_double(r->elapsed, t, EPS, "%s: T = %g", what, t);
	is_double(r->efficiency, w / (p * t), 1e-12, "%s: E = W/(P T) = %g",
		  what, w / (p * t));
	is_double(r->busy, w, 1e-6, "%s: busy processor-seconds = W", what);
}

/*
 * P = 10; at 0: A(5, 100) B(2, 50) C(4, 50) D(3, 50).
 * FCFS: A, B at 0; C (4) fits only when B ends, at 50; D (3) fits at 0
 * but is blocked behind C until 100.  BFF: A, then the largest that fits
 * the 5 left, C; at 50 D (3) before B (2).
 */
static const struct hj fit_jobs[] = {
	{ "A", 5, 100, 0, false }, { "B", 2, 50, 0, false },
	{ "C", 4, 50, 0, false }, { "D", 3, 50, 0, false },
};

static void test_fcfs(void)
{
	struct hplan h;
	struct esp_sim_opts o = opts(ESP_SIM_FCFS);
	struct esp_sim_result r;

	hp_make(&h, 10, fit_jobs, 4);
	if (!ok(!sim(&h, &o, &r), "fcfs: runs"))
		return;
	is_double(start(&r, 1), 0, EPS, "fcfs: B starts with A");
	is_double(start(&r, 2), 50, EPS, "fcfs: C waits for room");
	is_double(start(&r, 3), 100, EPS, "fcfs: D (3) is blocked behind the "
		  "head C although 3 processors are free at 0");
	check_e(&h, &r, 150, "fcfs");
	esp_sim_result_free(&r);

	/* the head blocks even a job that fits at once */
	{
		static const struct hj j[] = {
			{ "A", 6, 100, 0, false }, { "B", 6, 50, 0, false },
			{ "C", 2, 10, 0, false },
		};

		hp_make(&h, 10, j, 3);
		if (!ok(!sim(&h, &o, &r), "fcfs blocking: runs"))
			return;
		is_double(start(&r, 2), 100, EPS, "fcfs: C (2) waits behind "
			  "the blocked head B (6)");
		check_e(&h, &r, 150, "fcfs blocking");
		esp_sim_result_free(&r);
	}
}

static void test_bff(void)
{
	struct hplan h;
	struct esp_sim_opts o = opts(ESP_SIM_BFF);
	struct esp_sim_result r;

	hp_make(&h, 10, fit_jobs, 4);
	if (!ok(!sim(&h, &o, &r), "bff: runs"))
		return;
	is_double(start(&r, 0), 0, EPS, "bff: A (5) first");
	is_double(start(&r, 2), 0, EPS, "bff: C (4) is the largest that fits "
		  "the 5 left");
	is_double(start(&r, 3), 50, EPS, "bff: D (3) before B (2) at 50");
	is_double(start(&r, 1), 50, EPS, "bff: B (2) fills the rest at 50");
	check_e(&h, &r, 100, "bff");
	is_double(r.efficiency, 0.95, 1e-12, "bff: E = 950 / 1000");
	esp_sim_result_free(&r);
}

/*
 * select/coalloc's queue orders on fit_jobs.  firstfit: A, B, then D (3)
 * in the 3 left (C, 4, does not fit), C at 50.  smallest: B, D, C (2, 3,
 * 4) at 0, A (5) when they end at 50.
 */
static void test_orders(void)
{
	struct hplan h;
	struct esp_sim_opts o = opts(ESP_SIM_FIRSTFIT);
	struct esp_sim_result r;

	hp_make(&h, 10, fit_jobs, 4);
	if (!ok(!sim(&h, &o, &r), "firstfit: runs"))
		return;
	ok(start(&r, 0) == 0 && start(&r, 1) == 0 && start(&r, 3) == 0,
	   "firstfit: A, B and D (3 in the 3 left) at 0");
	is_double(start(&r, 2), 50, EPS, "firstfit: C (4) when B and D end");
	check_e(&h, &r, 100, "firstfit");
	esp_sim_result_free(&r);

	o = opts(ESP_SIM_SMALLEST);
	if (!ok(!sim(&h, &o, &r), "smallest: runs"))
		return;
	ok(start(&r, 1) == 0 && start(&r, 3) == 0 && start(&r, 2) == 0,
	   "smallest: B, D and C (2, 3, 4) at 0");
	is_double(start(&r, 0), 50, EPS, "smallest: A (5) waits for them");
	check_e(&h, &r, 150, "smallest");
	esp_sim_result_free(&r);
}

/*
 * Aging: P = 10; X(8, 100) at 0, W(4, 50) at 1, N1(2, 30) at 2, N2(2, 30)
 * at 40.  firstfit starts N1 and N2 in the 2 free processors as they come;
 * with aging 20, W has waited 39 s when N2 arrives: nothing passes it, so
 * N2 starts with W when X ends.
 */
static void test_order_aging(void)
{
	static const struct hj j[] = {
		{ "X", 8, 100, 0, false }, { "W", 4, 50, 1, false },
		{ "N1", 2, 30, 2, false }, { "N2", 2, 30, 40, false },
	};
	struct hplan h;
	struct esp_sim_opts o = opts(ESP_SIM_FIRSTFIT);
	struct esp_sim_result r;

	hp_make(&h, 10, j, 4);
	if (!ok(!sim(&h, &o, &r), "firstfit, no aging: runs"))
		return;
	is_double(start(&r, 2), 2, EPS, "no aging: N1 passes W at once");
	is_double(start(&r, 3), 40, EPS, "no aging: N2 passes W too");
	esp_sim_result_free(&r);
	o.aging = 20;
	if (!ok(!sim(&h, &o, &r), "firstfit, aging 20: runs"))
		return;
	is_double(start(&r, 2), 2, EPS, "aging 20: N1 passes W before W has waited 20 s");
	is_double(start(&r, 3), 100, EPS, "aging 20: N2 does not pass W after it");
	is_double(start(&r, 1), 100, EPS, "aging 20: W starts when X ends");
	esp_sim_result_free(&r);
}

/* Launch cost: each job holds its processors launch seconds longer. */
static void test_launch(void)
{
	struct hplan h;
	struct esp_sim_opts o = opts(ESP_SIM_FCFS);
	struct esp_sim_result r;

	o.launch = 10;
	hp_make(&h, 10, fit_jobs, 4);
	if (!ok(!sim(&h, &o, &r), "launch 10: runs"))
		return;
	is_double(end(&r, 0), 110, EPS, "launch 10: A (100 s) ends at 110");
	is_double(start(&r, 2), 60, EPS, "launch 10: C waits for B's 50 + 10");
	is_double(r.jobs[0].suspended, 0, EPS, "launch 10: the launch is not counted as suspended");
	is_double(r.elapsed, 170, EPS, "launch 10: T = 170 (D after A's 110)");
	is_double(r.efficiency, 950.0 / 1700, 1e-12, "launch 10: E = W / (P T), the launches lost");
	is_double(r.busy, 950 + 10 * 14, 1e-6, "launch 10: busy = W + 10 s x 14 processors");
	esp_sim_result_free(&r);
}

/*
 * EASY: P = 10; at 0: A(6, 100), B(8, 50) blocked (reservation at 100,
 * 2 processors extra), C(4, 101) would delay B: refused; D(4, 100) ends
 * by 100: backfilled.
 */
static void test_backfill(void)
{
	static const struct hj j[] = {
		{ "A", 6, 100, 0, false }, { "B", 8, 50, 0, false },
		{ "C", 4, 101, 0, false }, { "D", 4, 100, 0, false },
		{ "E", 2, 500, 0, false },
	};
	struct hplan h;
	struct esp_sim_opts o = opts(ESP_SIM_BACKFILL);
	struct esp_sim_result r;

	/* without E first: the extra processors stay free */
	hp_make(&h, 10, j, 4);
	if (!ok(!sim(&h, &o, &r), "backfill: runs"))
		return;
	is_double(start(&r, 3), 0, EPS, "backfill: D starts at once (ends "
		  "by the head's reservation)");
	is_double(start(&r, 2), 150, EPS, "backfill: C refused (it would "
		  "delay the head), runs after B");
	is_double(start(&r, 1), 100, EPS, "backfill: the head B is not "
		  "delayed");
	check_e(&h, &r, 251, "backfill");
	esp_sim_result_free(&r);

	/* a long job goes too if it fits the processors the head leaves
	 * over at its reservation: E (2, 500 s) in B's 2 extra ones */
	{
		static const struct hj j2[] = {
			{ "A", 6, 100, 0, false }, { "B", 8, 50, 0, false },
			{ "E", 2, 500, 0, false }, { "C", 4, 101, 0, false },
		};

		hp_make(&h, 10, j2, 4);
		if (!ok(!sim(&h, &o, &r), "backfill extra: runs"))
			return;
		is_double(start(&r, 2), 0, EPS, "backfill: E (2, long) uses "
			  "the head's 2 extra processors");
		is_double(start(&r, 3), 150, EPS, "backfill: C (4) still "
			  "refused: only 2 free and it would delay B");
		is_double(start(&r, 1), 100, EPS, "backfill: B still at 100");
		esp_sim_result_free(&r);
	}
	o.mpl = 2;
	ok(esp_sim_run(&h.plan, &o, &r, NULL, 0) == -1,
	   "backfill with MPL 2 is refused");
	esp_sim_result_free(&r);
}

/*
 * Preemption: P = 10; A(6, 100), B(4, 50) at 0, Z(10, 30) at 20.  Z runs
 * 20-50; A and B end exactly 30 s later than alone.
 */
static void test_preempt(void)
{
	static const struct hj j[] = {
		{ "A", 6, 100, 0, false }, { "B", 4, 50, 0, false },
		{ "Z", 10, 30, 20, true },
	};
	static const struct hj j2[] = {
		{ "A", 6, 100, 0, false }, { "B", 4, 50, 0, false },
		{ "Z1", 10, 30, 20, true }, { "Z2", 10, 30, 60, true },
	};
	struct hplan h;
	struct esp_sim_opts o = opts(ESP_SIM_BFF);
	struct esp_sim_result r;

	o.preempt = true;
	hp_make(&h, 10, j, 3);
	if (!ok(!sim(&h, &o, &r), "preempt: runs"))
		return;
	is_double(start(&r, 2), 20, EPS, "preempt: Z starts on arrival");
	is_double(end(&r, 0), 130, EPS, "preempt: A ends 30 s (Z) later");
	is_double(end(&r, 1), 80, EPS, "preempt: B ends 30 s (Z) later");
	is_double(r.jobs[0].suspended, 30, EPS, "preempt: A suspended 30 s");
	is_int(r.jobs[2].row, 0, "preempt: Z in the priority row");
	is_double(r.z1_wait, 0, EPS, "preempt: Z1 waits 0 s");
	ok(r.z_first_immediate && !r.z1_overtaken, "preempt: Z1 rule kept");
	check_e(&h, &r, 130, "preempt");
	esp_sim_result_free(&r);

	/* two Z jobs: A runs 0-20, 50-60, 90-160; B 0-20, 50-60, 90-110 */
	hp_make(&h, 10, j2, 4);
	if (!ok(!sim(&h, &o, &r), "preempt twice: runs"))
		return;
	is_double(start(&r, 3), 60, EPS, "preempt: Z2 starts on arrival");
	is_double(end(&r, 0), 160, EPS, "preempt: A ends 60 s later");
	is_double(end(&r, 1), 110, EPS, "preempt: B ends 60 s later");
	is_double(r.z2_end, 90, EPS, "preempt: Z2 ends at 90");
	ok(r.z_second_within_90 && r.z2_limit > 143.99 && r.z2_limit < 144.01,
	   "preempt: Z2 ends within 0.9 T = 144");
	check_e(&h, &r, 160, "preempt twice");
	esp_sim_result_free(&r);

	/* the reboot only enters E with reboot */
	h.plan.reboot = 40;
	if (!ok(!sim(&h, &o, &r), "preempt reboot: runs"))
		return;
	is_double(r.efficiency_with_reboot, h.plan.work / (10.0 * 200),
		  1e-12, "E with reboot = W / (P (T + 40))");
	esp_sim_result_free(&r);
}

/*
 * Z without preemption: P = 10, A(6, 100) at 0, Z(10, 30) at 20, B(4, 10)
 * at 30.  Plain BFF lets B pass Z (the Z rule is broken); drain keeps B
 * back, the machine empties and Z runs at 100, B at 130.
 */
static void test_drain(void)
{
	static const struct hj j[] = {
		{ "A", 6, 100, 0, false }, { "Z", 10, 30, 20, true },
		{ "B", 4, 10, 30, false },
	};
	struct hplan h;
	struct esp_sim_opts o = opts(ESP_SIM_BFF);
	struct esp_sim_result r;

	hp_make(&h, 10, j, 3);
	if (!ok(!sim(&h, &o, &r), "plain bff: runs"))
		return;
	is_double(start(&r, 2), 30, EPS, "plain bff: B passes the Z job");
	is_int(r.z1_overtaken, 1, "plain bff: one job overtook Z1");
	ok(!r.z_first_immediate, "plain bff: Z1 rule broken");
	esp_sim_result_free(&r);

	o.drain = true;
	if (!ok(!sim(&h, &o, &r), "drain: runs"))
		return;
	is_double(start(&r, 1), 100, EPS, "drain: Z waits for the machine");
	is_double(start(&r, 2), 130, EPS, "drain: B waits for Z");
	is_int(r.z1_overtaken, 0, "drain: nobody overtook Z1");
	is_double(r.z1_wait, 80, EPS, "drain: Z1 waited 80 s");
	ok(!r.z_first_immediate, "drain: 80 s is not 'at once'");
	check_e(&h, &r, 140, "drain");
	esp_sim_result_free(&r);

	o.preempt = true;
	ok(esp_sim_run(&h.plan, &o, &r, NULL, 0) == -1,
	   "preempt and drain together are refused");
	esp_sim_result_free(&r);
}

/*
 * Gang, MPL 2, slice 100: two full-machine jobs A(10, 150), B(10, 120).
 * A 0-100, B 100-200, A 200-250 (its row empties), B 250-270.
 */
static void test_gang(void)
{
	static const struct hj j[] = {
		{ "A", 10, 150, 0, false }, { "B", 10, 120, 0, false },
	};
	static const struct hj jz[] = {
		{ "A", 10, 150, 0, false }, { "B", 10, 120, 0, false },
		{ "Z", 10, 30, 50, true },
	};
	struct hplan h;
	struct esp_sim_opts o = opts(ESP_SIM_FCFS);
	struct esp_sim_result r;

	o.mpl = 2;
	o.slice = 100;
	o.chronology = true;
	hp_make(&h, 10, j, 2);
	if (!ok(!sim(&h, &o, &r), "gang: runs"))
		return;
	is_int(r.jobs[0].row, 0, "gang: A in row 0");
	is_int(r.jobs[1].row, 1, "gang: B in row 1");
	is_double(start(&r, 1), 100, EPS, "gang: B first runs at 100");
	is_double(end(&r, 0), 250, EPS, "gang: A ends at 250");
	is_double(end(&r, 1), 270, EPS, "gang: B ends at 270");
	is_int(r.switches, 2, "gang: two switches suspend a row");
	ok(r.nsteps == 2 && r.steps[0].busy == 10 && r.steps[1].t == 270 &&
	   r.steps[1].busy == 0, "gang: chronology busy 10 then 0 at T");
	check_e(&h, &r, 270, "gang");
	is_double(r.efficiency, 1.0, 1e-12, "gang: E = 1, never idle");
	esp_sim_result_free(&r);

	/* 5 s per suspending switch: A 0-100, B 105-205, A 210-260, B
	 * 260-280 (A's row was empty: nothing to swap out) */
	o.switch_cost = 5;
	if (!ok(!sim(&h, &o, &r), "gang switch cost: runs"))
		return;
	is_double(end(&r, 0), 260, EPS, "gang switch cost: A ends at 260");
	is_double(end(&r, 1), 280, EPS, "gang switch cost: B ends at 280");
	is_double(r.overhead, 10, EPS, "gang switch cost: 10 s lost");
	check_e(&h, &r, 280, "gang switch cost");
	esp_sim_result_free(&r);

	/* a Z job at 50 with preemption: the priority row, then A's row
	 * again with a fresh slice: Z 50-80, A 80-180, B 180-300 */
	o.switch_cost = 0;
	o.preempt = true;
	hp_make(&h, 10, jz, 3);
	if (!ok(!sim(&h, &o, &r), "gang preempt: runs"))
		return;
	is_double(start(&r, 2), 50, EPS, "gang preempt: Z at once");
	is_double(end(&r, 0), 180, EPS, "gang preempt: A resumes, ends 180");
	is_double(start(&r, 1), 180, EPS, "gang preempt: B starts at 180");
	check_e(&h, &r, 300, "gang preempt");
	esp_sim_result_free(&r);
}

/*
 * Alternate scheduling under gang (MPL 2, slice 100, FCFS).
 * Replicas: A(6, 100) and A2(4, 300) in row 0, B(6, 100) in row 1; A2's
 * columns are free in row 1, so it runs throughout: T = 300, not 400.
 * Migrate: A(6, 300), A2(4, 50) in row 0, B(4, 200) in row 1; from 50
 * B runs on A2's processors and at 100 A on B's row's idle ones:
 * T = 300, not 500.
 */
static void test_alternate(void)
{
	static const struct hj jr[] = {
		{ "A", 6, 100, 0, false }, { "A2", 4, 300, 0, false },
		{ "B", 6, 100, 0, false },
	};
	static const struct hj jm[] = {
		{ "A", 6, 300, 0, false }, { "A2", 4, 50, 0, false },
		{ "B", 4, 200, 0, false },
	};
	struct hplan h;
	struct esp_sim_opts o = opts(ESP_SIM_FCFS);
	struct esp_sim_result r;

	o.mpl = 2;
	o.slice = 100;
	hp_make(&h, 10, jr, 3);
	if (!ok(!sim(&h, &o, &r), "gang plain: runs"))
		return;
	is_double(end(&r, 1), 400, EPS, "gang plain: A2 ends at 400");
	esp_sim_result_free(&r);
	o.alternate = ESP_SIM_ALT_REPLICAS;
	if (!ok(!sim(&h, &o, &r), "replicas: runs"))
		return;
	is_double(end(&r, 1), 300, EPS, "replicas: A2 runs in both rows");
	is_double(end(&r, 2), 200, EPS, "replicas: B ends at 200");
	check_e(&h, &r, 300, "replicas");
	esp_sim_result_free(&r);

	hp_make(&h, 10, jm, 3);
	o.alternate = ESP_SIM_ALT_NONE;
	if (!ok(!sim(&h, &o, &r), "gang plain 2: runs"))
		return;
	is_double(r.elapsed, 500, EPS, "gang plain 2: T = 500");
	esp_sim_result_free(&r);
	o.alternate = ESP_SIM_ALT_MIGRATE;
	if (!ok(!sim(&h, &o, &r), "migrate: runs"))
		return;
	is_int(r.jobs[2].row, 1, "migrate: B placed in row 1");
	is_double(start(&r, 2), 50, EPS, "migrate: B starts on A2's "
		  "processors at 50");
	is_double(end(&r, 2), 250, EPS, "migrate: B ends at 250");
	is_double(end(&r, 0), 300, EPS, "migrate: A never stops");
	check_e(&h, &r, 300, "migrate");
	esp_sim_result_free(&r);
}

static void test_errors(void)
{
	static const struct hj j[] = { { "X", 11, 10, 0, false } };
	struct hplan h;
	struct esp_sim_opts o = opts(ESP_SIM_FCFS);
	struct esp_sim_result r;
	enum esp_sim_policy p;
	enum esp_sim_alternate a;
	char err[128];

	hp_make(&h, 10, j, 1);
	ok(esp_sim_run(&h.plan, &o, &r, err, sizeof(err)) == -1 &&
	   strstr(err, "X"), "a job larger than the machine is refused, "
	   "named: %s", err);
	esp_sim_result_free(&r);
	o.mpl = 0;
	ok(esp_sim_run(&h.plan, &o, &r, err, sizeof(err)) == -1,
	   "MPL 0 is refused");
	esp_sim_result_free(&r);
	ok(!esp_sim_policy_parse("BFF", &p) && p == ESP_SIM_BFF &&
	   esp_sim_policy_parse("sjf", &p) == -1, "policy names parse");
	ok(!esp_sim_alternate_parse("migrate", &a) &&
	   a == ESP_SIM_ALT_MIGRATE && !strcmp(esp_sim_policy_name(
		   ESP_SIM_BACKFILL), "backfill"), "alternate names parse");
}

/*
 * ESP-1 on 512 processors: BFF with preemption beats BFF without, seed by
 * seed, and keeps the Z rules.  "Without" obeying the rules is drain (the
 * machine empties for the Z jobs); plain BFF would run them last, when
 * the machine happens to be empty, at the same E and breaking the rule.
 */
static void test_esp1(void)
{
	const char *path = ESP_MIX_DIR "/esp1.mix";
	struct esp_mix mix;
	char err[ESP_ERR_LEN];
	unsigned better = 0, kept = 0, broken = 0;
	const unsigned seeds = 10;

	if (access(path, R_OK) || esp_mix_load(path, &mix, err, sizeof(err))) {
		for (int k = 0; k < 3; k++)
			ok(1, "# SKIP %s not readable", path);
		return;
	}
	for (unsigned s = 1; s <= seeds; s++) {
		struct esp_plan_opts po = { .procs = 512, .seed = s,
					    .reboot = ESP_T3E_REBOOT };
		struct esp_sim_opts o = opts(ESP_SIM_BFF);
		struct esp_sim_result pre, drain, plain;
		struct esp_plan plan;

		if (esp_plan_make(&mix, &po, &plan, err, sizeof(err))) {
			diag("plan: %s", err);
			return;
		}
		o.preempt = true;
		esp_sim_run(&plan, &o, &pre, err, sizeof(err));
		o.preempt = false;
		o.drain = true;
		esp_sim_run(&plan, &o, &drain, err, sizeof(err));
		o.drain = false;
		esp_sim_run(&plan, &o, &plain, err, sizeof(err));
		better += pre.efficiency > drain.efficiency;
		kept += pre.z_first_immediate && pre.z_second_within_90;
		broken += !plain.z_first_immediate && plain.z1_overtaken > 0;
		esp_sim_result_free(&pre);
		esp_sim_result_free(&drain);
		esp_sim_result_free(&plain);
		esp_plan_free(&plan);
	}
	is_int(better, seeds, "esp1: BFF + preempt beats BFF without, every "
	       "seed");
	is_int(kept, seeds, "esp1: with preemption both Z rules hold");
	is_int(broken, seeds, "esp1: plain BFF lets jobs pass the first Z "
	       "job");
}

int main(void)
{
	test_fcfs();
	test_bff();
	test_backfill();
	test_orders();
	test_order_aging();
	test_launch();
	test_preempt();
	test_drain();
	test_gang();
	test_alternate();
	test_errors();
	test_esp1();
	return done_testing();
}
