/*
 * test_energy.c - the ECM and EDM formulas (1)-(4) of Sriprayoonsakul and
 * Uthayopas: charge, discharge, the floor R, the cap, garbage inputs and
 * the boost level.
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

int main(void)
{
	cosched_energy_defaults(&params);
	test_defaults();
	test_ecm();
	test_edm();
	test_garbage();
	test_initial_and_level();
	return done_testing();
}
