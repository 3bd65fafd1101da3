/*
 * entry_2505.c - what select/coalloc defines for Slurm 25.05 and later,
 * where only slurmctld loads a select plugin and the plugin's own data
 * types are gone: a node's allocation goes into the node record (25.x)
 * or node_select_stats_array (26.05), and 26.05 asks select plugins to
 * reduce a job's memory.  Compiles to nothing before 25.05
 * (entry_select_data.c has that side).  Part of the compatibility layer
 * (slurm_compat.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "select_coalloc.h"

#if !COALLOC_SLURM_SELECT_DATA

#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"

#if COALLOC_SLURM_SELECT_STATS
/*
 * slurmctld's table, weak: a data symbol is bound when the plugin is
 * mapped, lazy binding or not, and another release's slurmctld lacks it;
 * weak, the mapping succeeds and the constructor's release check names
 * both releases (27-slurm-mismatch).
 */
#pragma weak node_select_stats_array
#endif

void coalloc_node_alloc_store(node_record_t *node_ptr,
			      struct coalloc_node_alloc *a)
{
#if COALLOC_SLURM_SELECT_STATS
	node_select_stats_t *stats = (&node_select_stats_array &&
				      node_select_stats_array) ?
		node_select_stats_array[node_ptr->index] : NULL;

	if (!stats) {
		xfree(a->tres_fmt_str);
		return;
	}
	xfree(stats->alloc_tres_fmt_str);
	stats->alloc_cpus = a->cpus;
	stats->alloc_memory = a->memory;
	stats->alloc_tres_fmt_str = a->tres_fmt_str;
#else
	xfree(node_ptr->alloc_tres_fmt_str);
	node_ptr->alloc_cpus = a->cpus;
	node_ptr->alloc_memory = a->memory;
	node_ptr->alloc_tres_fmt_str = a->tres_fmt_str;
#endif
	a->tres_fmt_str = NULL;
}

#if COALLOC_SLURM_SELECT_STATS
/*
 * A job's memory given back (26.05's scontrol update of a running job's
 * memory, select/cons_tres's business): whole nodes change nothing.
 */
extern void select_p_job_mem_reduce(job_record_t *job_ptr)
{
	(void) job_ptr;
}
#endif

#endif /* !COALLOC_SLURM_SELECT_DATA */
