/*
 * search.c - bisection for the boundary of a monotone test.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "search.h"

uint32_t num_least_true(uint32_t lo, uint32_t hi, num_test_fn test,
			void *arg)
{
	uint32_t found;

	if (lo > hi)
		return lo;
	if (test(lo, arg))
		return lo;
	if (!test(hi, arg))
		return hi + 1;
	found = hi;		/* invariant: test(lo) false, test(found) true */
	while (found - lo > 1) {
		uint32_t mid = lo + (found - lo) / 2;

		if (test(mid, arg))
			found = mid;
		else
			lo = mid;
	}
	return found;
}
