/*
 * test_spin.c - the spin time of SB and SY and what a waiting receiver
 * does next.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>

#include "cosched/spin.h"
#include "tap.h"

#define MIN COSCHED_SPIN_MIN_NS
#define MAX COSCHED_SPIN_MAX_NS
#define FACTOR COSCHED_SPIN_FACTOR_DEFAULT

static void test_spin_time(void)
{
	is_int(cosched_spin_time(10000, FACTOR, MIN, MAX), 15000,
	       "1.5 x 10 us is 15 us");
	is_int(cosched_spin_time(10000, 2.0, MIN, MAX), 20000, "factor 2");
	is_int(cosched_spin_time(0, FACTOR, MIN, MAX), MIN,
	       "unmeasured latency gives min");
	is_int(cosched_spin_time(10000, 0, MIN, MAX), MIN, "factor 0: min");
	is_int(cosched_spin_time(10000, -1, MIN, MAX), MIN,
	       "negative factor: min");
	is_int(cosched_spin_time(10000, NAN, MIN, MAX), MIN, "NaN factor: min");
	is_int(cosched_spin_time(10000, INFINITY, MIN, MAX), MIN,
	       "infinite factor: min");
	is_int(cosched_spin_time(100, FACTOR, MIN, MAX), MIN,
	       "150 ns is raised to 1 us");
	is_int(cosched_spin_time(MAX, FACTOR, MIN, MAX), MAX,
	       "15 ms is cut to 10 ms");
	is_int(cosched_spin_time(UINT64_MAX, 4.0, MIN, MAX), MAX,
	       "a product beyond uint64_t is cut to max");
	is_int(cosched_spin_time(1000000000000ull, 1.0, MIN, UINT64_MAX),
	       1000000000000ull, "a large product within max is kept");
	is_int(cosched_spin_time(1000, 1.0, 5000, 2000), 5000,
	       "crossed bounds: min wins");
	is_int(cosched_spin_time(10000, 1.0, 10000, 10000), 10000,
	       "min = max");
}

static void test_decide(void)
{
	is_int(cosched_spin_decide(COSCHED_WAIT_BUSY, 0, 100),
	       COSCHED_ACT_SPIN, "busy spins");
	is_int(cosched_spin_decide(COSCHED_WAIT_BUSY, 1000000, 100),
	       COSCHED_ACT_SPIN, "busy spins past the spin time");
	is_int(cosched_spin_decide(COSCHED_WAIT_SB, 99, 100),
	       COSCHED_ACT_SPIN, "SB spins within the spin time");
	is_int(cosched_spin_decide(COSCHED_WAIT_SB, 100, 100),
	       COSCHED_ACT_BLOCK, "SB blocks at the spin time");
	is_int(cosched_spin_decide(COSCHED_WAIT_SB, 5000, 100),
	       COSCHED_ACT_BLOCK, "SB blocks past it");
	is_int(cosched_spin_decide(COSCHED_WAIT_SY, 99, 100),
	       COSCHED_ACT_SPIN, "SY spins within the spin time");
	is_int(cosched_spin_decide(COSCHED_WAIT_SY, 100, 100),
	       COSCHED_ACT_YIELD, "SY yields at the spin time");
	is_int(cosched_spin_decide(COSCHED_WAIT_SY, 5000, 100),
	       COSCHED_ACT_YIELD, "SY yields past it");
	is_int(cosched_spin_decide(COSCHED_WAIT_SB, 0, 0),
	       COSCHED_ACT_BLOCK, "SB with no spin time blocks at once");
	is_int(cosched_spin_decide((enum cosched_wait)7, 5000, 100),
	       COSCHED_ACT_SPIN, "an unknown wait kind spins");
}

int main(void)
{
	test_spin_time();
	test_decide();
	return done_testing();
}
