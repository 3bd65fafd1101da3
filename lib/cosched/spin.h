/*
 * spin.h - Spin Block (SB) and Spin Yield (SY), Zhang et al. sections 2.4.1-2:
 * how long a receiver spins and what it does afterwards.
 *
 * The spin time is "slightly higher than the expected end-to-end latency"
 * of a message in the absence of contention: factor x the measured
 * one-way latency, clamped to [min_ns, max_ns].
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_COSCHED_SPIN_H
#define COALLOC_COSCHED_SPIN_H

#include <stdint.h>

#include "cosched/mode.h"

#define COSCHED_SPIN_FACTOR_DEFAULT 1.5
#define COSCHED_SPIN_MIN_NS 1000ull		/* 1 us */
#define COSCHED_SPIN_MAX_NS 10000000ull		/* 10 ms */

enum cosched_wait_action {
	COSCHED_ACT_SPIN,	/* keep polling for the message */
	COSCHED_ACT_BLOCK,	/* give up the CPU until the message comes */
	COSCHED_ACT_YIELD,	/* yield: lower own priority, boost another */
};

/*
 * factor x latency_ns clamped to [min_ns, max_ns]; a zero latency (not
 * measured) or a non-finite/non-positive factor gives min_ns.
 */
uint64_t cosched_spin_time(uint64_t latency_ns, double factor,
			   uint64_t min_ns, uint64_t max_ns);

/*
 * What a receiver that has waited waited_ns does next: busy waiting spins
 * forever; SB and SY spin while waited_ns < spin_ns, then block or yield.
 */
enum cosched_wait_action cosched_spin_decide(enum cosched_wait wait,
					     uint64_t waited_ns,
					     uint64_t spin_ns);

#endif /* COALLOC_COSCHED_SPIN_H */
