/*
 * stepd.c - slurmstepd (remote context).
 *
 * Nothing is enforced on the nodes yet: this only reports, at debug level,
 * what request the step carries, so the node agent has its hook here
 * later.  With mode none, or no option at all, it does nothing.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdint.h>

#include "cosched.h"

int cosched_stepd_post_opt(spank_t sp)
{
	const struct cosched_request *req = cosched_request();
	char sizes[COSCHED_SIZES_TEXT_LEN] = "-";
	uint32_t job_id = 0, step_id = 0;

	if (!req->sizes_set &&
	    (!req->mode_set || req->mode == COSCHED_MODE_NONE))
		return 0;
	if (req->sizes_set)
		(void)cosched_format_sizes(&req->sizes, sizes, sizeof(sizes));
	/* Only for the message: a failure leaves the ids 0. */
	(void)spank_get_item(sp, S_JOB_ID, &job_id);
	(void)spank_get_item(sp, S_JOB_STEPID, &step_id);
	slurm_debug("cosched: job %u step %u: coalloc=%s cosched=%s (not enforced yet)",
		    (unsigned int)job_id, (unsigned int)step_id, sizes,
		    req->mode_set ? cosched_mode_name(req->mode) : "none");
	return 0;
}
