/*
 * stats.c - mean and 95 % confidence interval (see stats.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>

#include "num/stats.h"

/* Student t quantiles t(0.975, df) for df = 1..30; 1.96 beyond. */
static const double t975[31] = {
	0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262,
	2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093,
	2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045,
	2.042,
};

struct stat_ci stat_ci(const double *x, unsigned n)
{
	struct stat_ci s = { NAN, NAN };
	double sum = 0, ss = 0;
	unsigned k = 0;

	for (unsigned i = 0; i < n; i++) {
		if (isnan(x[i]))
			continue;
		sum += x[i];
		k++;
	}
	if (!k)
		return s;
	s.mean = sum / k;
	if (k < 2)
		return s;
	for (unsigned i = 0; i < n; i++)
		if (!isnan(x[i]))
			ss += (x[i] - s.mean) * (x[i] - s.mean);
	s.ci95 = (k - 1 <= 30 ? t975[k - 1] : 1.96) * sqrt(ss / (k - 1) / k);
	return s;
}
