/*
 * test_energy.c - the ECM and EDM formulas (1)-(4) of Sriprayoonsakul and
 * Uthayopas: charge, discharge, the floor R, the cap, garbage inputs and
 * the boost level; t and R of the paper and tick variants, and the
 * variant's names.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <limits.h>
#include <math.h>

#include "cosched/energy.h"
#include "tap.h"

#define EPS 1e-9

static struct cosched_energy_params params;

static struct cosched_energy_sample sample(double f, double m, double t,
					   double running, bool comm)
{
	struct cosched_energy_sample s = {
		.f = f, .m = m, .t = t, .running = running,
		.communicating = comm,
	};

	return s;
}

static double ecm(double p, double f, double m, double t, double r, bool comm)
{
	struct cosched_energy_sample s = sample(f, m, t, r, comm);

	return cosched_ecm_step(&params, p, &s);
}

static double edm(double p, double f, double m, double t, double r, bool comm)
{
	struct cosched_energy_sample s = sample(f, m, t, r, comm);

	return cosched_edm_step(&params, p, &s);
}

static void test_defaults(void)
{
	is_double(params.alpha, 0.01, EPS, "alpha 0.01");
	is_double(params.beta, 40, EPS, "beta 40");
	is_double(params.gamma, 10000, EPS, "gamma 10000");
	is_double(params.epsilon, 2.5, EPS, "epsilon 2.5");
	is_double(params.max_priority, 15, EPS, "max_priority 15");
	is_str(cosched_energy_variant_name(params.variant), "paper",
	       "the paper's t and R by default");
}

/* f = 1000/s, m = 4 KiB: 10 levels per second in every phase. */
static void test_ecm(void)
{
	double p = 1;

	is_double(ecm(2, 1000, 4, 1, 1, false), 12, EPS,
		  "(1) computing 1 s at 1000 msg/s charges 10");
	is_double(ecm(2, 500, 4, 0.2, 1, false), 3, EPS,
		  "(1) charge is alpha f t");
	is_double(ecm(2, 0, 4, 1, 1, false), 2, EPS,
		  "(1) no messages, no charge");
	is_double(ecm(12, 1000, 4, 0.5, 1, true), 7, EPS,
		  "(2) communicating 0.5 s with 4 KiB discharges 5");
	is_double(ecm(12, 1000, 8, 0.5, 1, true), 9.5, EPS,
		  "(2) larger messages discharge slower");
	is_double(ecm(3, 1000, 4, 1, 2, true), 2, EPS,
		  "(2) floor: not below R");
	is_double(ecm(2.5, 1000, 4, 0.01, 2.5, true), 2.5, EPS,
		  "(2) P at R stays R");
	is_double(ecm(1, 1000, 4, 0.001, 4, true), 4, EPS,
		  "(2) below R is lifted to R");
	is_double(ecm(9, 1000, 0, 0.001, 3, true), 3, EPS,
		  "(2) m = 0 drops P to R");
	is_double(ecm(14, 1000, 4, 1, 1, false), 15, EPS,
		  "(1) capped at max_priority");
	is_double(ecm(3, 1000, 4, 1, 20, true), 15, EPS,
		  "(2) even a floor above max_priority is capped");

	for (int tick = 0; tick < 500; tick++)
		p = ecm(p, 1000, 4, 0.001, 1, false);
	is_double(p, 6, 1e-6, "500 ticks of 1 ms computing charge 5");
	for (int tick = 0; tick < 200; tick++)
		p = ecm(p, 1000, 4, 0.001, 1, true);
	is_double(p, 4, 1e-6, "200 ticks communicating discharge 2");
	for (int tick = 0; tick < 5000; tick++)
		p = ecm(p, 1000, 4, 0.001, 1, false);
	is_double(p, 15, EPS, "long computing saturates at max_priority");
}

static void test_edm(void)
{
	is_double(edm(12, 1000, 4, 0.5, 1, false), 7, EPS,
		  "(3) computing 0.5 s at 1000 msg/s falls 5");
	is_double(edm(12, 2000, 4, 0.5, 1, false), 9.5, EPS,
		  "(3) frequent talkers fall slower");
	is_double(edm(3, 1000, 4, 1, 2, false), 2, EPS,
		  "(3) floor: not below R");
	is_double(edm(9, 0, 4, 0.001, 3, false), 3, EPS,
		  "(3) f = 0 drops P to R");
	is_double(edm(3, 1000, 4, 1, 1, true), 13, EPS,
		  "(4) communicating 1 s with 4 KiB rises 10");
	is_double(edm(3, 1000, 0, 1, 1, true), 3, EPS,
		  "(4) m = 0 rises nothing");
	is_double(edm(10, 1000, 64, 1, 1, true), 15, EPS,
		  "(4) capped at max_priority");
	is_double(edm(3, 0, 4, 1, 1, true), 13, EPS,
		  "(4) f plays no part while communicating");
	is_double(edm(3, 1000, 4, 1, 30, false), 15, EPS,
		  "(3) a floor above max_priority is capped");
}

static void test_garbage(void)
{
	double p;

	is_double(ecm(2, NAN, 4, 1, 1, false), 2, EPS, "NaN f is 0");
	is_double(ecm(2, -5, 4, 1, 1, false), 2, EPS, "negative f is 0");
	is_double(ecm(2, 1000, 4, -1, 1, false), 2, EPS, "negative t is 0");
	is_double(ecm(NAN, 1000, 4, 0.1, 1, false), 1, EPS,
		  "NaN P_last is 0");
	is_double(ecm(5, 1000, NAN, 0.1, 1, true), 1, EPS,
		  "NaN m is 0: drops to R");
	is_double(ecm(5, 1000, 4, 0.1, NAN, true), 4, EPS, "NaN R is 0");
	is_double(edm(5, -1, 4, 0.1, 2, false), 2, EPS,
		  "negative f is 0: drops to R");
	p = ecm(5, INFINITY, 4, INFINITY, 1, false);
	ok(!isnan(p) && p <= 15, "infinite inputs give no NaN (%g)", p);
	p = edm(5, 1000, INFINITY, 1, 1, true);
	ok(!isnan(p) && p <= 15, "infinite m gives no NaN (%g)", p);
}

static void test_initial_and_level(void)
{
	is_double(cosched_energy_initial(3), 3, EPS, "initial P is R");
	is_double(cosched_energy_initial(-2), 0, EPS, "negative R is 0");
	is_double(cosched_energy_initial(NAN), 0, EPS, "NaN R is 0");

	is_int(cosched_energy_level(7.9, true), 7, "level floor(P)");
	is_int(cosched_energy_level(7.0, true), 7, "level of a whole P");
	is_int(cosched_energy_level(7.9, false), 0, "no level computing");
	is_int(cosched_energy_level(0.5, true), 0, "below 1: no level");
	is_int(cosched_energy_level(-3.5, true), 0, "negative P: no level");
	is_int(cosched_energy_level(NAN, true), 0, "NaN P: no level");
	is_int(cosched_energy_level(1e30, true), INT_MAX,
	       "huge P does not overflow");
}

/* A variant's parse: its value, or "ERR" with the message in perr. */
static const char *parsed(const char *text, char *perr, size_t len)
{
	enum cosched_energy_variant v = COSCHED_ENERGY_VARIANTS;

	perr[0] = '\0';
	if (cosched_energy_variant_parse(text, &v, perr, len))
		return "ERR";
	return cosched_energy_variant_name(v);
}

static void test_variant_names(void)
{
	char perr[256];

	is_str(parsed("paper", perr, sizeof(perr)), "paper", "paper parses");
	is_str(parsed("tick", perr, sizeof(perr)), "tick", "tick parses");
	tap_refused(parsed("rate", perr, sizeof(perr)), perr, "rate",
		    "expected paper or tick");
	tap_refused(parsed("Paper", perr, sizeof(perr)), perr, "Paper",
		    "expected paper or tick");
	tap_refused(parsed("", perr, sizeof(perr)), perr, "",
		    "expected paper or tick");
	tap_refused(parsed("tick ", perr, sizeof(perr)), perr, "tick ",
		    "expected paper or tick");
	tap_refused(parsed(NULL, perr, sizeof(perr)), perr, NULL,
		    "expected paper or tick");
	is_int(cosched_energy_variant_parse("bad", NULL, NULL, 0), -1,
	       "no buffers: still refused");
	is_str(cosched_energy_variant_name(COSCHED_ENERGY_VARIANTS), "?",
	       "out of range: ?");
}

/* t and R of variant for a process 2.5 s old, 1 ms tick, 6 running, 4
 * coscheduled (node_running as given). */
static struct cosched_energy_sample t_r(enum cosched_energy_variant variant,
					double node_running)
{
	struct cosched_energy_params p = params;
	struct cosched_energy_clock clock = {
		.age = 2.5, .dt = 0.001, .node_running = node_running,
		.coscheduled = 4,
	};
	struct cosched_energy_sample s = sample(1000, 4, -1, -1, true);

	p.variant = variant;
	cosched_energy_t_r(&p, &clock, &s);
	return s;
}

static void test_t_and_r(void)
{
	struct cosched_energy_sample s = t_r(COSCHED_ENERGY_PAPER, 6);

	is_double(s.t, 2.5, EPS, "paper: t is the age");
	is_double(s.running, 6, EPS, "paper: R is the node's running");
	s = t_r(COSCHED_ENERGY_PAPER, 0);
	is_double(s.running, 0, EPS, "paper: none running is R = 0");
	s = t_r(COSCHED_ENERGY_PAPER, -1);
	is_double(s.running, 4, EPS,
		  "paper: running unknown, R is the coscheduled");
	s = t_r(COSCHED_ENERGY_PAPER, NAN);
	is_double(s.running, 4, EPS, "paper: NaN running is unknown too");
	s = t_r(COSCHED_ENERGY_TICK, 6);
	is_double(s.t, 0.001, EPS, "tick: t is the tick");
	is_double(s.running, 4, EPS, "tick: R is the coscheduled");
	is_double(s.f, 1000, EPS, "f untouched");
	is_double(s.m, 4, EPS, "m untouched");
	ok(s.communicating, "communicating untouched");
}

/* One paper step of model for a process age s old, R = running. */
static double paper(double (*model)(double, double, double, double, double,
				    bool),
		    double p, double f, double m, double age, double running,
		    bool comm)
{
	struct cosched_energy_clock clock = {
		.age = age, .dt = 0.001, .node_running = running,
		.coscheduled = 99,
	};
	struct cosched_energy_sample s = sample(f, m, 0, 0, comm);

	cosched_energy_t_r(&params, &clock, &s);
	return model(p, s.f, s.m, s.t, s.running, comm);
}

/* The formulas as written: t the age (0.5 s), R the running (3). */
static void test_paper(void)
{
	is_double(paper(ecm, 3, 100, 4, 0.5, 3, false), 3.5, EPS,
		  "(1) P = alpha f age + P_last = 0.01 x 100 x 0.5 + 3");
	is_double(paper(ecm, 12, 100, 4, 0.5, 3, true), 7, EPS,
		  "(2) P = -beta age / m + P_last = -40 x 0.5 / 4 + 12");
	is_double(paper(ecm, 6, 100, 4, 0.5, 3, true), 3, EPS,
		  "(2) 6 - 5 is below R = 3: R");
	is_double(paper(ecm, 4, 100, 4, 0.5, 0, true), 0, EPS,
		  "(2) nothing else running, R = 0: 4 - 5 stops at 0");
	is_double(paper(edm, 12, 2000, 4, 0.5, 3, false), 9.5, EPS,
		  "(3) P = -gamma age / f + P_last = -10000 x 0.5 / 2000 + 12");
	is_double(paper(edm, 4, 2000, 4, 0.5, 3, false), 3, EPS,
		  "(3) 4 - 2.5 is below R = 3: R");
	is_double(paper(edm, 3, 100, 4, 0.5, 3, true), 8, EPS,
		  "(4) P = epsilon m age + P_last = 2.5 x 4 x 0.5 + 3");
	is_double(paper(ecm, 3, 1000, 4, 2, 3, false), 15, EPS,
		  "(1) 0.01 x 1000 x 2 + 3 = 23 is capped at 15");
	is_double(paper(edm, 3, 1000, 4, 2, 3, true), 15, EPS,
		  "(4) 2.5 x 4 x 2 + 3 = 23 is capped at 15");
	is_double(paper(ecm, 16, 1000, 4, 0.001, 20, true), 15, EPS,
		  "(2) a running count above the cap: the cap wins");
	is_double(paper(ecm, 3, 1000, 4, 0, 3, false), 3, EPS,
		  "(1) at age 0 nothing has charged");
}

/*
 * What the formulas imply applied every 1 ms to P_last: the paper's
 * steps grow with the age, the tick's do not.  A process 1 s old (1000
 * messages of 4 KiB per second, R = 2 either way) computing or
 * communicating: the ticks until P is at target.
 */
static int ticks_to(double (*model)(double, double, double, double, double,
				    bool),
		    enum cosched_energy_variant variant, double p, bool comm,
		    double target)
{
	struct cosched_energy_params saved = params;
	int tick = 0;

	params.variant = variant;
	for (double age = 1; tick < 10000 && (p - target > 1e-6 ||
					     target - p > 1e-6);
	     age += 0.001, tick++) {
		struct cosched_energy_clock clock = {
			.age = age, .dt = 0.001, .node_running = 2,
			.coscheduled = 2,
		};
		struct cosched_energy_sample s = sample(1000, 4, 0, 0, comm);

		cosched_energy_t_r(&params, &clock, &s);
		p = model(p, s.f, s.m, s.t, s.running, comm);
	}
	params = saved;
	return tick;
}

static void test_saturation(void)
{
	is_int(ticks_to(ecm, COSCHED_ENERGY_PAPER, 2, false, 15), 2,
	       "paper: ECM computing goes from R to the cap in 2 ticks");
	is_int(ticks_to(ecm, COSCHED_ENERGY_PAPER, 15, true, 2), 2,
	       "paper: ECM communicating falls from the cap to R in 2 ticks");
	is_int(ticks_to(edm, COSCHED_ENERGY_PAPER, 2, true, 15), 2,
	       "paper: EDM communicating rises to the cap in 2 ticks");
	is_int(ticks_to(edm, COSCHED_ENERGY_PAPER, 15, false, 2), 2,
	       "paper: EDM computing falls to R in 2 ticks");
	is_int(ticks_to(ecm, COSCHED_ENERGY_TICK, 2, false, 15), 1300,
	       "tick: ECM computing takes 1.3 s from 2 to 15 (10 levels/s)");
	is_int(ticks_to(edm, COSCHED_ENERGY_TICK, 15, false, 2), 1300,
	       "tick: EDM computing takes 1.3 s from 15 to 2");
}

int main(void)
{
	cosched_energy_defaults(&params);
	test_defaults();
	test_ecm();
	test_edm();
	test_garbage();
	test_initial_and_level();
	test_variant_names();
	test_t_and_r();
	test_paper();
	test_saturation();
	return done_testing();
}
