/*
 * config.c - checks of slurm.conf settings select/coalloc depends on.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "select_coalloc.h"
#include "src/common/xstring.h"

/*
 * SelectTypeParameters bits that only make sense for consumable-resource
 * plugins (select/cons_tres): select/coalloc hands out whole nodes, so
 * accepting them would silently ignore what the admin asked for.
 */
#define CONS_TRES_ONLY_PARAMS (CR_CPU | CR_SOCKET | CR_CORE | CR_BOARD | \
			       COALLOC_CR_LAYERED | CR_ONE_TASK_PER_CORE | \
			       CR_PACK_NODES | CR_CORE_DEFAULT_DIST_BLOCK | \
			       CR_LLN)

int coalloc_check_slurm_conf(void)
{
	uint16_t bad = slurm_conf.select_type_param & CONS_TRES_ONLY_PARAMS;

	/* Slurm's own gang scheduler would suspend and resume our jobs on its
	 * own schedule; Matrix=gang in coalloc.conf is ours. */
	if (slurm_conf.preempt_mode & PREEMPT_MODE_GANG) {
		error("%s: PreemptMode=GANG (Slurm's built-in gang scheduling) must be off with select/coalloc: use Matrix=gang in coalloc.conf for gang rows",
		      plugin_type);
		return SLURM_ERROR;
	}
	if (!bad)
		return SLURM_SUCCESS;
	/* select_type_param_string() returns one static buffer: call once. */
	error("%s: SelectTypeParameters=%s is not supported: it is for select/cons_tres; select/coalloc allocates whole nodes and accepts only CR_Memory (or no SelectTypeParameters)",
	      plugin_type, select_type_param_string(bad));
	return SLURM_ERROR;
}

/*
 * Slurm's main scheduler stops at the first job of a partition that
 * cannot start and takes that partition's nodes away from every later
 * job.  Queue partitions span all sites, so that would let one blocked
 * queue stop all the others, whatever the policy says; bf_min_age_reserve
 * turns this off for jobs younger than its value.
 */
void coalloc_check_sched_params(void)
{
	const char *p = xstrcasestr(slurm_conf.sched_params,
				    "bf_min_age_reserve=");

	if (p && atoi(p + strlen("bf_min_age_reserve=")) >= 86400)
		return;
	error("%s: SchedulerParameters should contain bf_min_age_reserve=2592000 (or at least 86400): without it Slurm's scheduler stops at the first job of a queue partition that cannot start, and the policy's queue order does not apply",
	      plugin_type);
}
