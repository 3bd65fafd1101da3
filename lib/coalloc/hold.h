/*
 * hold.h - the jobs of the PreemptPartition that wait for their nodes,
 * and how long they may hold the other jobs back (select_coalloc(8),
 * PreemptHold in coalloc.conf(5)).
 *
 * A job of the PreemptPartition is to run at once: the ESP test's first
 * full-configuration job "must be run immediately upon submission before
 * any further jobs are launched" (Wong et al.).  Slurm still makes it
 * wait a pass or two when one of its nodes is COMPLETING (a job's
 * processes being killed, an epilog running), and the same pass starts
 * smaller jobs of other partitions on the other nodes, which it then
 * suspends.  So while a preempting job waits, the jobs of other
 * partitions on its nodes wait too, for at most PreemptHold seconds
 * after it was first seen: a preempting job that cannot start for long
 * (nodes down) never starves the cluster.
 *
 * This is the set of waiting preempting jobs, in order of first sight,
 * and the rule of when one stops holding.  The plugin feeds it job ids
 * and wall-clock seconds; whether a job still waits is Slurm's to say.
 * Pure C: unit-tested in test_hold.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_HOLD_H
#define COALLOC_HOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Waiting preempting jobs tracked at once; a further one replaces the
 * one seen first (the closest to its hold's end). */
#define COALLOC_HOLD_JOBS 64

struct coalloc_hold_job {
	uint32_t job;
	int64_t since;		/* wall-clock seconds: first seen waiting */
};

struct coalloc_hold {
	struct coalloc_hold_job jobs[COALLOC_HOLD_JOBS];
	size_t n;
};

/* Job was seen waiting at now: tracked from its first sight on (seeing
 * it again does not extend its hold). */
void coalloc_hold_note(struct coalloc_hold *h, uint32_t job, int64_t now);

/* Job no longer waits (it started, ended or was held): untracked. */
void coalloc_hold_forget(struct coalloc_hold *h, uint32_t job);

/* Whether the tracked job at index i has held the others for limit
 * seconds or more at now: its hold is over (limit 0: never holds). */
bool coalloc_hold_over(const struct coalloc_hold *h, size_t i, int64_t now,
		       unsigned limit);

#endif /* COALLOC_HOLD_H */
