/*
 * test_stats.c - the mean and 95 % confidence interval of lib/num/stats.h,
 * on samples worked by hand.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>

#include "num/stats.h"
#include "tap.h"

int main(void)
{
	const double five[] = { 1, 2, 3, 4, 5 };
	const double gaps[] = { NAN, 1, NAN, 3 };
	const double one[] = { 0.8 };
	double many[40];
	struct stat_ci s;

	s = stat_ci(five, 5);
	is_double(s.mean, 3, 1e-12, "1..5: mean 3");
	/* sd sqrt(2.5), standard error sqrt(0.5), t(0.975, 4) = 2.776 */
	is_double(s.ci95, 2.776 * sqrt(0.5), 1e-12, "1..5: half-width 1.963");
	s = stat_ci(gaps, 4);
	is_double(s.mean, 2, 1e-12, "NANs skipped: mean of 1 and 3");
	is_double(s.ci95, 12.706 * 1, 1e-12, "  half-width t(1) * 1");
	s = stat_ci(one, 1);
	is_double(s.mean, 0.8, 1e-12, "one value: its mean");
	ok(isnan(s.ci95), "  no interval");
	s = stat_ci(one, 0);
	ok(isnan(s.mean) && isnan(s.ci95), "no value: NAN, NAN");
	for (int i = 0; i < 40; i++)
		many[i] = i % 2;
	s = stat_ci(many, 40);
	is_double(s.ci95, 1.96 * sqrt(40 * 0.25 / 39 / 40), 1e-12,
		  "40 values: the normal quantile 1.96");
	return done_testing();
}
