/*
 * nodeinfo.c - the per-node select data slurmctld sends to sinfo and
 * 'scontrol show node': CPUs and memory allocated, the TRES string.
 *
 * The same plugin unpacks it inside the commands, so the wire layout is
 * ours to choose; it must only stay the same between the two ends.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "select_coalloc.h"
#include "src/common/assoc_mgr.h"
#include "src/common/node_conf.h"
#include "src/common/pack.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#define NODEINFO_MAGIC 0x0c0a

struct select_nodeinfo {
	uint16_t magic;
	uint16_t alloc_cpus;
	uint64_t alloc_memory;
	char *tres_alloc_fmt_str;
	double tres_alloc_weighted;
};

select_nodeinfo_t *coalloc_nodeinfo_alloc(void)
{
	select_nodeinfo_t *nodeinfo = xmalloc(sizeof(*nodeinfo));

	nodeinfo->magic = NODEINFO_MAGIC;
	return nodeinfo;
}

int coalloc_nodeinfo_free(select_nodeinfo_t *nodeinfo)
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

int coalloc_nodeinfo_pack(select_nodeinfo_t *nodeinfo, buf_t *buffer,
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

int coalloc_nodeinfo_unpack(select_nodeinfo_t **nodeinfo, buf_t *buffer,
			    uint16_t protocol_version)
{
	select_nodeinfo_t *info = coalloc_nodeinfo_alloc();
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
	coalloc_nodeinfo_free(info);
	*nodeinfo = NULL;
	return SLURM_ERROR;
}

static void _set_one(node_record_t *node_ptr, select_nodeinfo_t *info,
		     bool allocated)
{
	xfree(info->tres_alloc_fmt_str);
	info->alloc_cpus = 0;
	info->alloc_memory = 0;
	info->tres_alloc_weighted = 0.0;
	if (!allocated)
		return;
	info->alloc_cpus = coalloc_node_cpus(node_ptr->index);
	if (slurm_conf.select_type_param & CR_MEMORY)
		info->alloc_memory = node_ptr->config_ptr ?
			node_ptr->config_ptr->real_memory : node_ptr->real_memory;
	info->tres_alloc_fmt_str = assoc_mgr_make_tres_str_from_array(
		node_ptr->tres_cnt, TRES_STR_CONVERT_UNITS, false);
	if (node_ptr->config_ptr)
		info->tres_alloc_weighted = assoc_mgr_tres_weighted(
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
		select_nodeinfo_t *info = node_ptr->select_nodeinfo ?
			node_ptr->select_nodeinfo->data : NULL;

		if (!info || info->magic != NODEINFO_MAGIC)
			continue;
		_set_one(node_ptr, info, node_usage_holder(i) != 0);
	}
	node_usage_unlock();
	return SLURM_SUCCESS;
}

int coalloc_nodeinfo_get(select_nodeinfo_t *nodeinfo,
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
