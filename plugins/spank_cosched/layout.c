/*
 * layout.c - slurmstepd, in each task: the job's layout, which
 * select/coalloc puts in every job's environment when it places it
 * (SLURM_COALLOC_LAYOUT, SLURM_COALLOC_NCOMPONENTS, and per component
 * SLURM_COALLOC_SITE_<i> and SLURM_COALLOC_NODELIST_<i>; lib/coalloc_conf's
 * layout.h), so that nodes need no coalloc.conf.
 *
 * Nothing is computed here.  A job placed before the upgrade that added
 * them (still running, or requeued by an older slurmctld) has none: a
 * --coalloc job then gets a line in slurmd's log from its first task on
 * each node, and runs without them, never failed.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdint.h>

#include "coalloc_conf/layout.h"
#include "cosched.h"

int cosched_layout_check(spank_t sp)
{
	char value[16];
	uint32_t job = 0;
	int task = 1;

	if (spank_getenv(sp, COALLOC_ENV_NCOMPONENTS, value, sizeof(value)) ==
	    ESPANK_SUCCESS || !cosched_request()->sizes_set)
		return 0;
	if (spank_get_item(sp, S_TASK_ID, &task) != ESPANK_SUCCESS || task)
		return 0;	/* the first task of the node speaks */
	(void)spank_get_item(sp, S_JOB_ID, &job);
	slurm_info("cosched: job %u has no %s from slurmctld (placed by an older select/coalloc?): its tasks run without the SLURM_COALLOC_* layout",
		   job, COALLOC_ENV_NCOMPONENTS);
	return 0;
}
