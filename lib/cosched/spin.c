/*
 * spin.c - the spin time of Spin Block and Spin Yield, and what a waiting
 * receiver does next (see spin.h and Zhang et al., sections 2.4.1-2).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>

#include "cosched/spin.h"

/*
 * The product is formed in double and compared there, before converting:
 * a huge latency times the factor may not fit a uint64_t, and converting
 * such a double is undefined.  When the bounds cross (min_ns > max_ns)
 * min_ns wins, as it does for an unmeasured latency: spinning too long
 * costs CPU, spinning too short costs a block or yield per message.
 */
uint64_t cosched_spin_time(uint64_t latency_ns, double factor,
			   uint64_t min_ns, uint64_t max_ns)
{
	double spin;

	if (!latency_ns || !isfinite(factor) || !(factor > 0))
		return min_ns;
	spin = factor * (double)latency_ns;
	if (spin >= (double)max_ns)
		return max_ns > min_ns ? max_ns : min_ns;
	if (spin <= (double)min_ns)
		return min_ns;
	return (uint64_t)spin;
}

/* An unknown wait kind behaves as busy waiting: it changes nothing. */
enum cosched_wait_action cosched_spin_decide(enum cosched_wait wait,
					     uint64_t waited_ns,
					     uint64_t spin_ns)
{
	if (waited_ns < spin_ns)
		return COSCHED_ACT_SPIN;
	switch (wait) {
	case COSCHED_WAIT_SB:
		return COSCHED_ACT_BLOCK;
	case COSCHED_WAIT_SY:
		return COSCHED_ACT_YIELD;
	case COSCHED_WAIT_BUSY:
	default:
		return COSCHED_ACT_SPIN;
	}
}
