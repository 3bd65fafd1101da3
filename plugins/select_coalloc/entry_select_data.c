/*
 * entry_select_data.c - the select_p_* symbols of Slurm releases before
 * 25.05 (22.05, 24.11), when every command and daemon loaded the select
 * plugin: the per-node and per-job data it packs for them, its state
 * saved with slurmctld's, the step hooks, get_info_from_plugin.  From
 * 25.05 on the types are gone and this file compiles to nothing
 * (entry_2505.c has that side).  Part of the compatibility layer
 * (slurm_compat.h); each symbol a thin call into a topic file.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "select_coalloc.h"

#if COALLOC_SLURM_SELECT_DATA

#include "src/common/node_conf.h"
#include "src/common/pack.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

/* ------------------------------------------------------------ node data */

#define NODEINFO_MAGIC 0x0c0a

/* The same plugin unpacks it inside the commands, so the wire layout is
 * ours to choose; it must only stay the same between the two ends. */
struct select_nodeinfo {
	uint16_t magic;
	uint16_t alloc_cpus;
	uint64_t alloc_memory;
	char *tres_alloc_fmt_str;
	double tres_alloc_weighted;
};

extern select_nodeinfo_t *select_p_select_nodeinfo_alloc(void)
{
	select_nodeinfo_t *nodeinfo = xmalloc(sizeof(*nodeinfo));

	nodeinfo->magic = NODEINFO_MAGIC;
	return nodeinfo;
}

extern int select_p_select_nodeinfo_free(select_nodeinfo_t *nodeinfo)
{
	if (!nodeinfo)
		return SLURM_SUCCESS;
	if (nodeinfo->magic != NODEINFO_MAGIC) {
		error("%s: %s: bad nodeinfo magic", plugin_type, __func__);
		return EINVAL;
	}
	nodeinfo->magic = 0;
	xfree(nodeinfo->tres_alloc_fmt_str);
	xfree(nodeinfo);
	return SLURM_SUCCESS;
}

extern int select_p_select_nodeinfo_pack(select_nodeinfo_t *nodeinfo,
					 buf_t *buffer,
					 uint16_t protocol_version)
{
	select_nodeinfo_t empty = { .magic = NODEINFO_MAGIC };

	if (!nodeinfo)	/* a node slurmctld has not set up yet */
		nodeinfo = &empty;
	if (protocol_version < SLURM_MIN_PROTOCOL_VERSION)
		return SLURM_ERROR;
	pack16(nodeinfo->alloc_cpus, buffer);
	pack64(nodeinfo->alloc_memory, buffer);
	packstr(nodeinfo->tres_alloc_fmt_str, buffer);
	packdouble(nodeinfo->tres_alloc_weighted, buffer);
	return SLURM_SUCCESS;
}

extern int select_p_select_nodeinfo_unpack(select_nodeinfo_t **nodeinfo,
					   buf_t *buffer,
					   uint16_t protocol_version)
{
	select_nodeinfo_t *info = select_p_select_nodeinfo_alloc();
	uint32_t len;

	*nodeinfo = info;
	if (protocol_version < SLURM_MIN_PROTOCOL_VERSION)
		goto unpack_error;
	safe_unpack16(&info->alloc_cpus, buffer);
	safe_unpack64(&info->alloc_memory, buffer);
	safe_unpackstr_xmalloc(&info->tres_alloc_fmt_str, &len, buffer);
	safe_unpackdouble(&info->tres_alloc_weighted, buffer);
	return SLURM_SUCCESS;

unpack_error:
	error("%s: %s: malformed node data", plugin_type, __func__);
	select_p_select_nodeinfo_free(info);
	*nodeinfo = NULL;
	return SLURM_ERROR;
}

void coalloc_node_alloc_store(node_record_t *node_ptr,
			      struct coalloc_node_alloc *a)
{
	select_nodeinfo_t *info = node_ptr->select_nodeinfo ?
		node_ptr->select_nodeinfo->data : NULL;

	if (!info || info->magic != NODEINFO_MAGIC) {
		xfree(a->tres_fmt_str);
		return;
	}
	xfree(info->tres_alloc_fmt_str);
	info->alloc_cpus = a->cpus;
	info->alloc_memory = a->memory;
	info->tres_alloc_fmt_str = a->tres_fmt_str;
	info->tres_alloc_weighted = a->tres_weighted;
	a->tres_fmt_str = NULL;
}

extern int select_p_select_nodeinfo_get(select_nodeinfo_t *nodeinfo,
					enum select_nodedata_type dinfo,
					enum node_states state, void *data)
{
	if (!nodeinfo || nodeinfo->magic != NODEINFO_MAGIC) {
		error("%s: %s: missing or bad nodeinfo", plugin_type, __func__);
		return SLURM_ERROR;
	}
	switch (dinfo) {
	case SELECT_NODEDATA_SUBCNT:
		*(uint16_t *) data = state == NODE_STATE_ALLOCATED ?
				     nodeinfo->alloc_cpus : 0;
		return SLURM_SUCCESS;
	case SELECT_NODEDATA_PTR:
		*(select_nodeinfo_t **) data = nodeinfo;
		return SLURM_SUCCESS;
	case SELECT_NODEDATA_MEM_ALLOC:
		*(uint64_t *) data = nodeinfo->alloc_memory;
		return SLURM_SUCCESS;
	case SELECT_NODEDATA_TRES_ALLOC_FMT_STR:
		*(char **) data = xstrdup(nodeinfo->tres_alloc_fmt_str);
		return SLURM_SUCCESS;
	case SELECT_NODEDATA_TRES_ALLOC_WEIGHTED:
		*(double *) data = nodeinfo->tres_alloc_weighted;
		return SLURM_SUCCESS;
	default:
		error("%s: %s: unsupported request %d", plugin_type, __func__,
		      dinfo);
		return SLURM_ERROR;
	}
}

/* ------------------------------------------------------------ job data */

/* No per-job select data (yet): Slurm accepts NULL jobinfo throughout. */
extern select_jobinfo_t *select_p_select_jobinfo_alloc(void)
{
	return NULL;
}

extern int select_p_select_jobinfo_free(select_jobinfo_t *jobinfo)
{
	(void) jobinfo;
	return SLURM_SUCCESS;
}

extern int select_p_select_jobinfo_set(select_jobinfo_t *jobinfo,
				       enum select_jobdata_type data_type,
				       void *data)
{
	(void) jobinfo;
	(void) data_type;
	(void) data;
	return SLURM_SUCCESS;
}

extern int select_p_select_jobinfo_get(select_jobinfo_t *jobinfo,
				       enum select_jobdata_type data_type,
				       void *data)
{
	(void) jobinfo;
	(void) data_type;
	(void) data;
	return SLURM_ERROR;
}

extern select_jobinfo_t *select_p_select_jobinfo_copy(select_jobinfo_t *jobinfo)
{
	(void) jobinfo;
	return NULL;
}

extern int select_p_select_jobinfo_pack(select_jobinfo_t *jobinfo,
					buf_t *buffer,
					uint16_t protocol_version)
{
	(void) jobinfo;
	(void) buffer;
	(void) protocol_version;
	return SLURM_SUCCESS;
}

extern int select_p_select_jobinfo_unpack(select_jobinfo_t **jobinfo,
					  buf_t *buffer,
					  uint16_t protocol_version)
{
	(void) buffer;
	(void) protocol_version;
	*jobinfo = NULL;
	return SLURM_SUCCESS;
}

/* ------------------------------------------------------------ state */

/*
 * Jobs' rows, the active row and disabled queues: saved with slurmctld's
 * own state, read back once at start-up (a reconfiguration keeps what is
 * in memory), applied when the jobs are put back in the matrix (see
 * select_p_job_init()).
 */
extern int select_p_state_save(char *dir_name)
{
	if (!coalloc_we_select())
		return SLURM_SUCCESS;
	return coalloc_state_save(dir_name);
}

extern int select_p_state_restore(char *dir_name)
{
	static bool restored;

	if (restored || !coalloc_we_select())
		return SLURM_SUCCESS;
	restored = true;
	return coalloc_state_restore(dir_name);
}

/*
 * Not the place to put the jobs back: slurmctld calls this before it
 * builds the jobs' node bitmaps (at start-up load_all_job_state() leaves
 * them unset, and _sync_jobs_to_conf() builds them after this call; on a
 * reconfiguration they still index the old node table).  The rows stay
 * saved (select_p_node_init's rebuild kept them) until
 * select_p_reconfigure(), which slurmctld calls at the end of the same
 * read_slurm_conf(), under the same locks, with every bitmap built.
 */
extern int select_p_job_init(list_t *job_list_arg)
{
	(void) job_list_arg;
	return SLURM_SUCCESS;
}

/* ------------------------------------------------------------ steps */

/* NULL: slurmctld's step manager picks a step's nodes within the job. */
extern bitstr_t *select_p_step_pick_nodes(job_record_t *job_ptr,
					  select_jobinfo_t *jobinfo,
					  uint32_t node_count,
					  bitstr_t **avail_nodes)
{
	(void) job_ptr;
	(void) jobinfo;
	(void) node_count;
	(void) avail_nodes;
	return NULL;
}

extern int select_p_step_start(step_record_t *step_ptr)
{
	(void) step_ptr;
	return SLURM_SUCCESS;
}

extern int select_p_step_finish(step_record_t *step_ptr, bool killing_step)
{
	(void) step_ptr;
	(void) killing_step;
	return SLURM_SUCCESS;
}

/* ------------------------------------------------------------ info */

/*
 * SELECT_CONFIG_INFO: the status for coalloc-status on any host
 * (status.c).  SELECT_SINGLE_JOB_TEST (22.05 only): otherwise slurmctld
 * offers the nodes one NodeName line at a time and takes the first set
 * that fits, while Worst Fit across sites must see every free node at
 * once; 24.11 offers the node sets growing and takes the first set
 * job_test accepts (doc/porting.md).
 */
extern int select_p_get_info_from_plugin(enum select_plugindata_info dinfo,
					 job_record_t *job_ptr, void *data)
{
	(void) job_ptr;
	switch (dinfo) {
	case SELECT_CR_PLUGIN:	/* not a consumable-resource plugin */
		*(uint32_t *) data = 0;
		return SLURM_SUCCESS;
#if !COALLOC_SLURM_INTERFACES
	case SELECT_SINGLE_JOB_TEST:
		*(uint32_t *) data = 1;
		return SLURM_SUCCESS;
#endif
	case SELECT_CONFIG_INFO:
		*(list_t **) data = list_create(destroy_config_key_pair);
		coalloc_ctld_key_pairs(*(list_t **) data);
		return SLURM_SUCCESS;
	default:
		return SLURM_SUCCESS;
	}
}

#endif /* COALLOC_SLURM_SELECT_DATA */
