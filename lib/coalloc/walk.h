/*
 * walk.h - when select/coalloc walks slurmctld's job table again.
 *
 * The policy engine learns of new pending jobs, and of pending jobs that
 * left (Slurm 24.11 tells a select plugin nothing when one is cancelled),
 * by walking slurmctld's job table.  slurmctld keeps one change stamp for
 * the table, last_job_update, in whole seconds.  A walk is not needed
 * while the stamp and the job count are what the last walk saw and that
 * walk came in the same second as now (a later change in that second is
 * seen in the next one) or, within COALLOC_WALK_AT_LEAST_EVERY, after the
 * stamp's second.  The bound is not only a safety net: slurmctld stamps
 * some changes with a time taken at the start of a scheduling pass
 * (_schedule()'s "now", up to max_sched_time old; backfill's), so a
 * change can carry a stamp a walk has already seen.
 *
 * A plain rule, no Slurm headers (plugins/select_coalloc/queues.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_WALK_H
#define COALLOC_WALK_H

#include <stdbool.h>
#include <stdint.h>

#define COALLOC_WALK_AT_LEAST_EVERY 10	/* seconds */

/* What the last walk saw: the table's stamp and count, and the clock. */
struct coalloc_walk_seen {
	int64_t stamp;		/* 0: no walk yet */
	int64_t count;
	int64_t clock;
};

/* Whether a table with this stamp and count must be walked at now. */
bool coalloc_walk_due(const struct coalloc_walk_seen *seen, int64_t stamp,
		      int64_t count, int64_t now);

#endif
