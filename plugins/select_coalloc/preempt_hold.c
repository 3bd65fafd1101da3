/*
 * preempt_hold.c - while a job of the PreemptPartition waits for its
 * nodes, the jobs of other partitions wait for them too, for at most
 * PreemptHold seconds after it was first seen (lib/coalloc/hold.h says
 * why: Slurm keeps it waiting while one of its nodes is COMPLETING, and
 * would start smaller jobs on the others in the same pass).
 *
 * job_test.c notes each waiting preempting job it is asked about (at
 * submit, TEST_ONLY, too) and asks before every RUN_NOW of another job;
 * select_p_job_begin forgets a job that starts.  All under node_usage's
 * lock and slurmctld's job write lock (find_job_record).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <time.h>

#include "coalloc/hold.h"
#include "select_coalloc.h"
#include "src/common/bitstring.h"
#include "src/common/list.h"

/* slurmctld's: weak, as in timeslice.c (slurmd and the commands load the
 * plugin too, and call none of this) */
#pragma weak find_job_record

static struct coalloc_hold waiting;

void preempt_hold_note(job_record_t *job_ptr)
{
	if (IS_JOB_PENDING(job_ptr) && coalloc_preempt_hold())
		coalloc_hold_note(&waiting, job_ptr->job_id, time(NULL));
}

void preempt_hold_forget(job_record_t *job_ptr)
{
	coalloc_hold_forget(&waiting, job_ptr->job_id);
}

/* It waits for nodes, not for a time, a dependency or a release. */
static bool _waits_for_nodes(const job_record_t *p, time_t now)
{
	return p && IS_JOB_PENDING(p) && p->priority && p->details &&
	       p->details->begin_time <= now &&
	       !(p->details->depend_list && list_count(p->details->depend_list)) &&
	       p->part_ptr && coalloc_is_preempt_partition(p->part_ptr->name);
}

/* The nodes it waits for: those it asked for by name, else its
 * partition's. */
static bool _wants_any(const job_record_t *p, bitstr_t *bitmap)
{
	bitstr_t *want = p->details->req_node_bitmap ?
			 p->details->req_node_bitmap : p->part_ptr->node_bitmap;

	return want && bit_overlap_any(want, bitmap);
}

bool preempt_hold_blocks(job_record_t *job_ptr, bitstr_t *bitmap)
{
	unsigned limit;
	time_t now;
	size_t i = 0;

	if (!waiting.n)		/* every RUN_NOW asks: no lock when none waits */
		return false;
	limit = coalloc_preempt_hold();
	now = time(NULL);
	while (i < waiting.n) {
		uint32_t id = waiting.jobs[i].job;
		job_record_t *p = find_job_record(id);

		if (!_waits_for_nodes(p, now)) {
			coalloc_hold_forget(&waiting, id);
			continue;
		}
		if (coalloc_hold_over(&waiting, i, now, limit)) {
			info("%s: %pJ of the PreemptPartition still waits %u s after it was first seen (PreemptHold): other jobs start on its nodes again",
			     plugin_type, p, limit);
			coalloc_hold_forget(&waiting, id);
			continue;
		}
		if (_wants_any(p, bitmap)) {
			log_flag(SELECT_TYPE, "%s: %pJ waits: %pJ of the PreemptPartition waits for its nodes (PreemptHold=%u)",
				 plugin_type, job_ptr, p, limit);
			return true;
		}
		i++;
	}
	return false;
}
