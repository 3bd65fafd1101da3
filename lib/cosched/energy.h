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
 * started), m: its mean message size (KiB), R: the number of running
 * processes on the node, t: the time over which the rate acts.  The
 * slides define t as "time elapsed since the execution started"; applied
 * at every tick with P_last the previous tick's value that would make the
 * charge grow with the square of the job's age, so we read the formulas
 * as rates and t as the time since the previous update (the tick).
 * P never exceeds max_priority.  The priority is applied only while the
 * process communicates ("the priority is left as is while it computes"),
 * as boost level cosched_energy_level(); see coschedd(8).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_COSCHED_ENERGY_H
#define COALLOC_COSCHED_ENERGY_H

#include <stdbool.h>

struct cosched_energy_params {
	double alpha;		/* ECM charge, per message */
	double beta;		/* ECM discharge, KiB per second */
	double gamma;		/* EDM charge (falling), messages per s^2 */
	double epsilon;		/* EDM discharge (rising), per KiB-second */
	double max_priority;	/* cap on P (boost levels) */
};

/* One update's inputs. */
struct cosched_energy_sample {
	double f;		/* messages per second, >= 0 */
	double m;		/* mean message size in KiB, >= 0 */
	double t;		/* seconds since the previous update, >= 0 */
	double running;		/* R: running processes on the node, >= 0 */
	bool communicating;	/* in a communication call now */
};

/* The documented defaults (coschedd(8)). */
void cosched_energy_defaults(struct cosched_energy_params *params);

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
