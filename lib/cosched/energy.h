/*
 * energy.h - the Energy Charging and Energy Discharging Models of
 * Sriprayoonsakul and Uthayopas (formulas (1)-(4)): a priority P per
 * process that charges or discharges with the process's communication
 * statistics.
 *
 *   ECM, computing:      P = alpha f t + P_last                      (1)
 *   ECM, communicating:  P = -beta t / m + P_last, but not below R   (2)
 *   EDM, computing:      P = -gamma t / f + P_last, not below R      (3)
 *   EDM, communicating:  P = epsilon m t + P_last                    (4)
 *
 * f: communication frequency of the process (messages per second since it
 * started), m: its mean message size (KiB).  The slides define, under
 * both models:
 *
 *   "t = time elapsed since the execution started"
 *   "R = number of running process"
 *   "Charge/Discharge rate is calculated from process statistics
 *    [...] Amount of running process in the system"
 *   (2), (3): "P = ... + P_last if P > R;  R if P <= R"
 *   "The priority will not fall below the number of running process,
 *    thus guarantee priority boost while communication"
 *   "Coscheduler adjust the priority only when the process is in
 *    communication state. The priority is leave as is while it computes"
 *
 * The formulas are the same in both variants; what t and R are is not:
 *
 *   paper (default)  as written: t the seconds since the process started
 *       executing (its age, over which f is counted too), R the processes
 *       running on the node (state R) at the update.  Applied at every
 *       tick to P_last, each step moves P by an amount that grows with
 *       the age (alpha f t is alpha times every message so far), so P
 *       soon goes from one bound to the other within a tick or two of a
 *       phase change: ECM sits at the cap while computing and falls to R
 *       once it communicates; EDM sits at R while computing and reaches
 *       the cap once it communicates.  The level applied while
 *       communicating is then about R (ECM) or max_priority (EDM).
 *   tick  a rate reading: t the time since the previous update, R the
 *       coscheduled processes of the node; P moves by a rate per second
 *       and crosses its range in about 1.5 s (energy.c).
 *
 * Both bound P the same way: never below R in (2) and (3), as the slides
 * say (they give (1) and (4) no floor; the P of their condition is read
 * as the formula's result), and never above max_priority, our cap (the
 * slides give none; when R is above it, the cap wins).  The priority is
 * applied only while the process communicates, as boost level
 * cosched_energy_level(); see coschedd(8).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_COSCHED_ENERGY_H
#define COALLOC_COSCHED_ENERGY_H

#include <stdbool.h>
#include <stddef.h>

/* What t and R are (see above). */
enum cosched_energy_variant {
	COSCHED_ENERGY_PAPER,	/* t: the process's age, R: running */
	COSCHED_ENERGY_TICK,	/* t: the tick, R: coscheduled */
	COSCHED_ENERGY_VARIANTS,
};

struct cosched_energy_params {
	double alpha;		/* ECM charge, per message */
	double beta;		/* ECM discharge, KiB per second */
	double gamma;		/* EDM charge (falling), messages per s^2 */
	double epsilon;		/* EDM discharge (rising), per KiB-second */
	double max_priority;	/* cap on P (boost levels) */
	enum cosched_energy_variant variant;
};

/* One update's inputs. */
struct cosched_energy_sample {
	double f;		/* messages per second, >= 0 */
	double m;		/* mean message size in KiB, >= 0 */
	double t;		/* seconds, >= 0 (cosched_energy_t_r()) */
	double running;		/* R, >= 0 (cosched_energy_t_r()) */
	bool communicating;	/* in a communication call now */
};

/* What the caller knows of a process at an update, for t and R. */
struct cosched_energy_clock {
	double age;		/* seconds since it started executing */
	double dt;		/* seconds since the previous update */
	double node_running;	/* processes running on the node; < 0: unknown */
	double coscheduled;	/* coscheduled processes on the node */
};

/* The documented defaults (coschedd(8)), the paper variant among them. */
void cosched_energy_defaults(struct cosched_energy_params *params);

/*
 * Set s->t and s->running as params->variant says: paper, age and
 * node_running (coscheduled while node_running is unknown); tick, dt and
 * coscheduled.
 */
void cosched_energy_t_r(const struct cosched_energy_params *params,
			const struct cosched_energy_clock *clock,
			struct cosched_energy_sample *s);

/*
 * The variant named text ("paper" or "tick", exactly).  Returns 0, or -1
 * with "expected paper or tick" in err for the caller to prefix with the
 * setting's name.
 */
int cosched_energy_variant_parse(const char *text,
				 enum cosched_energy_variant *variant,
				 char *err, size_t err_len);

/* "paper", "tick", or "?" out of range. */
const char *cosched_energy_variant_name(enum cosched_energy_variant variant);

/*
 * One step of ECM or EDM from P_last.  Divisions by a zero m or f drop P
 * to the floor R (an infinitely fast discharge), never to NaN; NaN or
 * negative inputs are treated as 0.
 */
double cosched_ecm_step(const struct cosched_energy_params *params,
			double p_last, const struct cosched_energy_sample *s);
double cosched_edm_step(const struct cosched_energy_params *params,
			double p_last, const struct cosched_energy_sample *s);

/* The starting priority of a process: the floor R. */
double cosched_energy_initial(double running);

/* Boost level to apply: floor(P) while communicating, else 0. */
int cosched_energy_level(double p, bool communicating);

#endif /* COALLOC_COSCHED_ENERGY_H */
