/*
 * nodeinfo.c - what sinfo and 'scontrol show node' say a node has
 * allocated (CPUs, memory, the TRES string), worked out from the matrix
 * when slurmctld calls select_p_select_nodeinfo_set_all().  Where the
 * values are kept differs by release: coalloc_node_alloc_store() in the
 * compatibility layer (slurm_compat.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "select_coalloc.h"
#include "src/common/assoc_mgr.h"
#include "src/common/node_conf.h"

static void _fill(node_record_t *node_ptr, struct coalloc_node_alloc *a)
{
	a->cpus = coalloc_node_cpus(node_ptr->index);
	if (slurm_conf.select_type_param & COALLOC_PARAM(MEMORY))
		a->memory = node_ptr->config_ptr ?
			node_ptr->config_ptr->real_memory : node_ptr->real_memory;
	a->tres_fmt_str = assoc_mgr_make_tres_str_from_array(
		node_ptr->tres_cnt, TRES_STR_CONVERT_UNITS, false);
	if (node_ptr->config_ptr)
		a->tres_weighted = assoc_mgr_tres_weighted(
			node_ptr->tres_cnt, node_ptr->config_ptr->tres_weights,
			slurm_conf.priority_flags, false);
}

int coalloc_nodeinfo_set_all(void)
{
	static time_t last_set_all;
	node_record_t *node_ptr;

	/* Nothing changed since the last call: say so, as sinfo expects. */
	if (last_set_all && last_node_update < last_set_all)
		return SLURM_NO_CHANGE_IN_DATA;
	last_set_all = last_node_update;

	node_usage_lock();
	for (int i = 0; (node_ptr = next_node(&i)); i++) {
		struct coalloc_node_alloc a = { 0 };

		if (node_usage_holder(i) != 0)
			_fill(node_ptr, &a);
		coalloc_node_alloc_store(node_ptr, &a);
	}
	node_usage_unlock();
	return SLURM_SUCCESS;
}
