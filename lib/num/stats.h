/*
 * stats.h - the mean of repeated measurements and its 95 % confidence
 * interval (Student t), for the simulators' replications and the ESP
 * comparison's seeds.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef NUM_STATS_H
#define NUM_STATS_H

struct stat_ci {
	double mean;		/* NAN when no sample */
	double ci95;		/* half-width; NAN with fewer than 2 */
};

/* Mean and 95% Student-t half-width of n values (NANs skipped). */
struct stat_ci stat_ci(const double *x, unsigned n);

#endif /* NUM_STATS_H */
