/*
 * config.c - checks of slurm.conf settings select/coalloc depends on.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "select_coalloc.h"
#include "src/common/slurm_selecttype_info.h"

/*
 * SelectTypeParameters bits that only make sense for consumable-resource
 * plugins (select/cons_tres): select/coalloc hands out whole nodes, so
 * accepting them would silently ignore what the admin asked for.
 */
#define CONS_TRES_ONLY_PARAMS (CR_CPU | CR_SOCKET | CR_CORE | CR_BOARD | \
			       CR_OTHER_CONS_RES | CR_ONE_TASK_PER_CORE | \
			       CR_PACK_NODES | CR_OTHER_CONS_TRES |      \
			       CR_CORE_DEFAULT_DIST_BLOCK | CR_LLN)

int coalloc_check_slurm_conf(void)
{
	uint16_t bad = slurm_conf.select_type_param & CONS_TRES_ONLY_PARAMS;

	if (!bad)
		return SLURM_SUCCESS;
	/* select_type_param_string() returns one static buffer: call once. */
	error("%s: SelectTypeParameters=%s is not supported: it is for select/cons_tres; select/coalloc allocates whole nodes and accepts only CR_Memory (or no SelectTypeParameters)",
	      plugin_type, select_type_param_string(bad));
	return SLURM_ERROR;
}
