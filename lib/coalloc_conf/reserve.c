/*
 * reserve.c - which slurm.conf settings keep the queue partitions open
 * for the policy, and what to change when they do not (see reserve.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>

#include "coalloc_conf/reserve.h"

/* Slurm keeps job priorities in 32 bits; 0 means held. */
#define PRIO_MAX 0xfffffffeull

void coalloc_reserve_range(const struct coalloc_reserve_input *in,
			   uint64_t *lo, uint64_t *hi)
{
	/* A queue job's priority is at most its partition's term plus every
	 * other weight (a user's nice only lowers it); an other job's at
	 * least its partition's term (Slurm truncates the sum). */
	double top = in->queue_max + in->weight_other;
	double bottom = in->other_min;

	*lo = top >= PRIO_MAX ? PRIO_MAX + 1 : (uint64_t) top + 1;
	if (!in->nothers || bottom >= PRIO_MAX)
		*hi = PRIO_MAX;
	else
		*hi = bottom > 0 ? (uint64_t) bottom : 0;
}

static const char age_price[] =
	"backfill reserves nothing for jobs younger than that, in every partition (no start estimates, large jobs can starve behind small ones); bf_min_prio_reserve keeps reservations outside the queue partitions, see select_coalloc(8)";

/* The priority setup is sound; anything to say about the threshold? */
static enum coalloc_reserve_verdict
_check_threshold(const struct coalloc_reserve_input *in, uint64_t lo,
		 uint64_t hi, char *msg, size_t len)
{
	if (!in->prio_reserve) {
		snprintf(msg, len,
			 "add bf_min_prio_reserve=%llu to SchedulerParameters (any value from %llu to %llu): without it Slurm's scheduler stops at the first blocked job of a queue partition and the policy's order cannot act",
			 (unsigned long long) lo, (unsigned long long) lo,
			 (unsigned long long) hi);
		return COALLOC_RESERVE_BAD;
	}
	if (in->prio_reserve < lo) {
		snprintf(msg, len,
			 "SchedulerParameters bf_min_prio_reserve=%u is not above the jobs of queue partition %s (priority up to %llu): they would get reservations and stop their queue at a blocked job; use a value from %llu to %llu",
			 in->prio_reserve, in->queue_max_name,
			 (unsigned long long) lo - 1, (unsigned long long) lo,
			 (unsigned long long) hi);
		return COALLOC_RESERVE_BAD;
	}
	if (in->prio_reserve > hi) {
		snprintf(msg, len,
			 "SchedulerParameters bf_min_prio_reserve=%u is above the jobs of partition %s (priority from %llu): they would get no reservations; use a value from %llu to %llu",
			 in->prio_reserve, in->other_min_name,
			 (unsigned long long) hi, (unsigned long long) lo,
			 (unsigned long long) hi);
		return COALLOC_RESERVE_BAD;
	}
	return COALLOC_RESERVE_BY_PRIO;
}

/* Without bf_min_age_reserve: the priorities must separate the two. */
static enum coalloc_reserve_verdict
_check_priorities(const struct coalloc_reserve_input *in, char *msg,
		  size_t len)
{
	uint64_t lo, hi;

	if (!in->multifactor) {
		snprintf(msg, len,
			 "the queue partitions need PriorityType=priority/multifactor, PriorityJobFactor=0 on each of them and SchedulerParameters=bf_min_prio_reserve above their jobs' priority (or bf_min_age_reserve=2592000, which gives up every reservation of the cluster): without either, Slurm's scheduler stops at the first blocked job of a queue partition and the policy's order cannot act");
		return COALLOC_RESERVE_BAD;
	}
	coalloc_reserve_range(in, &lo, &hi);
	if (lo > hi) {
		snprintf(msg, len,
			 "the jobs of queue partition %s reach priority %llu (PriorityWeightPartition x its PriorityJobFactor, plus %.0f of the other weights), not below those of partition %s (from %llu): set PriorityJobFactor=0 on every queue partition and a PriorityWeightPartition that gives the others more than %.0f",
			 in->queue_max_name, (unsigned long long) lo - 1,
			 in->weight_other, in->other_min_name,
			 (unsigned long long) hi, in->weight_other + 1);
		return COALLOC_RESERVE_BAD;
	}
	return _check_threshold(in, lo, hi, msg, len);
}

enum coalloc_reserve_verdict
coalloc_reserve_check(const struct coalloc_reserve_input *in, char *msg,
		      size_t len)
{
	enum coalloc_reserve_verdict v;

	if (len)
		msg[0] = '\0';
	if (!in->nqueues)
		return COALLOC_RESERVE_UNNEEDED;
	if (in->age_reserve < COALLOC_RESERVE_MIN_AGE)
		return _check_priorities(in, msg, len);
	/* bf_min_age_reserve rules every young job, whatever else is set */
	v = _check_priorities(in, msg, len);
	if (v == COALLOC_RESERVE_BY_PRIO)
		snprintf(msg, len,
			 "SchedulerParameters bf_min_age_reserve=%u overrides bf_min_prio_reserve=%u: %s; drop it",
			 in->age_reserve, in->prio_reserve, age_price);
	else
		snprintf(msg, len, "SchedulerParameters bf_min_age_reserve=%u: %s",
			 in->age_reserve, age_price);
	return COALLOC_RESERVE_BY_AGE;
}
