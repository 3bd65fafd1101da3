/*
 * reserve.h - the slurm.conf settings that let the queue policies order
 * their partitions' jobs while every other partition keeps Slurm's
 * backfill reservations (pure C, no Slurm headers).
 *
 * Slurm's schedulers treat a pending job whose priority is below
 * SchedulerParameters=bf_min_prio_reserve as "start now or not at all":
 * it gets no reservation and a refusal does not close its partition for
 * the rest of the pass.  With priority/multifactor and the queue
 * partitions at PriorityJobFactor=0, every queue job's priority is below
 * that threshold and every other job's above it: the policy orders the
 * first, backfill plans the second.  The older bf_min_age_reserve turns
 * reservations off for every job of the cluster; it is still accepted.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_RESERVE_H
#define COALLOC_RESERVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* bf_min_age_reserve at or above this (seconds) acts for every job
 * younger than a day: the old way of keeping partitions open. */
#define COALLOC_RESERVE_MIN_AGE 86400u

/* What the plugin reads off slurm.conf; partition terms are
 * PriorityWeightPartition x the partition's factor, normalized or raw
 * as multifactor computes them. */
struct coalloc_reserve_input {
	bool multifactor;	/* PriorityType=priority/multifactor */
	uint32_t age_reserve;	/* bf_min_age_reserve, 0: not set */
	uint32_t prio_reserve;	/* bf_min_prio_reserve, 0: not set */
	double weight_other;	/* every weight but the partition's */
	size_t nqueues;		/* queue partitions found in slurm.conf */
	double queue_max;	/* largest partition term of a queue */
	const char *queue_max_name;
	size_t nothers;		/* other partitions */
	double other_min;	/* smallest partition term of the others */
	const char *other_min_name;
};

enum coalloc_reserve_verdict {
	COALLOC_RESERVE_UNNEEDED,	/* no queue partition */
	COALLOC_RESERVE_BY_PRIO,	/* bf_min_prio_reserve separates them */
	COALLOC_RESERVE_BY_AGE,		/* bf_min_age_reserve: no reservations */
	COALLOC_RESERVE_BAD,		/* queues stop at a blocked job */
};

/* The priority range [lo, hi] bf_min_prio_reserve must fall in: above
 * every queue job, at or below every other job; lo > hi when none. */
void coalloc_reserve_range(const struct coalloc_reserve_input *in,
			   uint64_t *lo, uint64_t *hi);

/*
 * The verdict, and in 'msg' what to change (BAD), a note on the price
 * (BY_AGE) or a warning (BY_PRIO with bf_min_age_reserve also set);
 * empty when there is nothing to say.
 */
enum coalloc_reserve_verdict
coalloc_reserve_check(const struct coalloc_reserve_input *in, char *msg,
		      size_t len);

#endif
