/*
 * energy.c - the Energy Charging (ECM) and Energy Discharging (EDM) models
 * of Sriprayoonsakul and Uthayopas, formulas (1)-(4), with t and R as the
 * slides define them (the paper variant) or read as rates over the time
 * since the previous update (the tick variant; see energy.h).
 *
 * Defaults.  The constants are chosen for the tick variant, so that a
 * typical fine-grained process - f = 1000 messages/s of m = 4 KiB,
 * updated every 1 ms tick - moves by about 10 boost levels per second in
 * every phase, so a level lasts about 100 ticks and P crosses the 0..15
 * range in 1.5 s:
 *
 *   ECM (1) charge while computing:     alpha f       = 0.01 x 1000 = 10/s
 *   ECM (2) discharge communicating:    beta / m      = 40 / 4      = 10/s
 *   EDM (3) fall while computing:       gamma / f     = 10000 / 1000 = 10/s
 *   EDM (4) rise while communicating:   epsilon m     = 2.5 x 4     = 10/s
 *
 * and P never exceeds max_priority = 15 levels.  The rates scale as the
 * slides intend: frequent talkers charge faster (ECM) and fall slower
 * (EDM), big messages discharge slower (ECM) and rise faster (EDM).
 * The paper variant keeps them (the slides give no values): with t the
 * age the same process moves by 10 levels per tick once it is a second
 * old, so P saturates within a few ticks of a phase change.
 *
 * No libm: only the classification macros of math.h are used, so users
 * of the library need not link -lm.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "cosched/energy.h"
#include "num/errbuf.h"

#define DEFAULT_ALPHA 0.01
#define DEFAULT_BETA 40.0
#define DEFAULT_GAMMA 10000.0
#define DEFAULT_EPSILON 2.5
#define DEFAULT_MAX_PRIORITY 15.0

void cosched_energy_defaults(struct cosched_energy_params *params)
{
	*params = (struct cosched_energy_params){
		.alpha = DEFAULT_ALPHA,
		.beta = DEFAULT_BETA,
		.gamma = DEFAULT_GAMMA,
		.epsilon = DEFAULT_EPSILON,
		.max_priority = DEFAULT_MAX_PRIORITY,
		.variant = COSCHED_ENERGY_PAPER,
	};
}

static const char *const variant_names[COSCHED_ENERGY_VARIANTS] = {
	[COSCHED_ENERGY_PAPER] = "paper",
	[COSCHED_ENERGY_TICK] = "tick",
};

const char *cosched_energy_variant_name(enum cosched_energy_variant variant)
{
	if ((unsigned int)variant >= COSCHED_ENERGY_VARIANTS)
		return "?";
	return variant_names[variant];
}

int cosched_energy_variant_parse(const char *text,
				 enum cosched_energy_variant *variant,
				 char *err, size_t err_len)
{
	for (int v = 0; v < COSCHED_ENERGY_VARIANTS; v++)
		if (text && !strcmp(text, variant_names[v])) {
			if (variant)
				*variant = (enum cosched_energy_variant)v;
			return 0;
		}
	errbuf_set(err, err_len, "expected paper or tick");
	return -1;
}

/*
 * Until the node's count is known (the agent's first read failed) the
 * paper's R falls back to the coscheduled processes, which are running
 * or waiting to, rather than to no floor at all.
 */
void cosched_energy_t_r(const struct cosched_energy_params *params,
			const struct cosched_energy_clock *clock,
			struct cosched_energy_sample *s)
{
	if (params->variant == COSCHED_ENERGY_TICK) {
		s->t = clock->dt;
		s->running = clock->coscheduled;
		return;
	}
	s->t = clock->age;
	s->running = clock->node_running >= 0 ? clock->node_running :
						clock->coscheduled;
}

/*
 * Inputs come from counters another process writes: NaN, negative or
 * infinite values are garbage and count as 0 (an infinite value would
 * otherwise turn into NaN at the first multiplication by 0).
 */
static double _sane(double x)
{
	return isfinite(x) && x > 0 ? x : 0;
}

/* The inputs of one step, made sane. */
struct step {
	double p_last, f, m, t, floor, cap;
	bool communicating;
};

static struct step _step(const struct cosched_energy_params *params,
			 double p_last, const struct cosched_energy_sample *s)
{
	return (struct step){
		.p_last = _sane(p_last),
		.f = _sane(s->f),
		.m = _sane(s->m),
		.t = _sane(s->t),
		.floor = _sane(s->running),
		.cap = _sane(params->max_priority),
		.communicating = s->communicating,
	};
}

/* P never above the cap, even when the floor R is (cap wins). */
static double _capped(double p, double cap)
{
	return p > cap ? cap : p;
}

/* A formula with the floor R: P at or below R is R. */
static double _floored(double p, double floor, double cap)
{
	return _capped(p > floor ? p : floor, cap);
}

double cosched_ecm_step(const struct cosched_energy_params *params,
			double p_last, const struct cosched_energy_sample *s)
{
	struct step st = _step(params, p_last, s);

	if (!st.communicating)					/* (1) */
		return _capped(_sane(params->alpha) * st.f * st.t + st.p_last,
			       st.cap);
	if (st.m == 0)			/* t/0: discharged at once */
		return _capped(st.floor, st.cap);
	return _floored(st.p_last - _sane(params->beta) * st.t / st.m,	/* (2) */
			st.floor, st.cap);
}

double cosched_edm_step(const struct cosched_energy_params *params,
			double p_last, const struct cosched_energy_sample *s)
{
	struct step st = _step(params, p_last, s);

	if (st.communicating)					/* (4) */
		return _capped(_sane(params->epsilon) * st.m * st.t + st.p_last,
			       st.cap);
	if (st.f == 0)			/* t/0: discharged at once */
		return _capped(st.floor, st.cap);
	return _floored(st.p_last - _sane(params->gamma) * st.t / st.f,	/* (3) */
			st.floor, st.cap);
}

double cosched_energy_initial(double running)
{
	return _sane(running);
}

/*
 * floor(P) without libm: P is made non-negative first, where truncation
 * is the floor.  A negative P (only from a caller's own arithmetic) is
 * no boost rather than a demotion: the models only ever raise priority.
 */
int cosched_energy_level(double p, bool communicating)
{
	if (!communicating || !(p > 0))
		return 0;
	if (p >= (double)INT_MAX)
		return INT_MAX;
	return (int)p;
}
