/*
 * search.h - the least argument at which a monotone test turns true.
 *
 * select/coalloc's start estimate asks "after how many of the running
 * jobs (earliest end first) have ended does this job fit?".  Freeing more
 * nodes never makes a job stop fitting, so the answer is a boundary, and
 * bisection finds it with about log2(n) node picks instead of up to n.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef NUM_SEARCH_H
#define NUM_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

/* true when the test holds at k; must be monotone: false...false true... */
typedef bool (*num_test_fn)(uint32_t k, void *arg);

/*
 * The least k in [lo, hi] with test(k) true, or hi + 1 when none is (hi
 * is tested first, so a test that holds nowhere costs one call).  At most
 * 2 + ceil(log2(hi - lo + 1)) calls; every k tested lies in [lo, hi].
 * lo > hi returns lo without a call.
 */
uint32_t num_least_true(uint32_t lo, uint32_t hi, num_test_fn test,
			void *arg);

#endif /* NUM_SEARCH_H */
