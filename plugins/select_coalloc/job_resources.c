/*
 * job_resources.c - the job_resources_t slurmctld needs for a job that owns
 * whole nodes: every CPU and core of each node, memory when CR_Memory is on.
 * Steps, accounting and 'scontrol show job' all read this structure.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "select_coalloc.h"
#include "src/common/job_resources.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"

uint32_t coalloc_node_cpus(int node_inx)
{
	node_record_t *node_ptr = node_record_table_ptr[node_inx];

	return node_ptr->config_ptr ? node_ptr->config_ptr->cpus :
				      node_ptr->cpus;
}

/* Memory for one node of the job, or 0 when memory is not tracked. */
static uint64_t _node_memory(job_record_t *job_ptr, int node_inx)
{
	uint64_t req = job_ptr->details->pn_min_memory;
	node_record_t *node_ptr = node_record_table_ptr[node_inx];

	if (!(slurm_conf.select_type_param & COALLOC_PARAM(MEMORY)))
		return 0;
	if (req & MEM_PER_CPU)
		return (req & ~MEM_PER_CPU) * coalloc_node_cpus(node_inx);
	if (req)
		return req;
	return node_ptr->config_ptr ? node_ptr->config_ptr->real_memory :
				      node_ptr->real_memory;
}

static job_resources_t *_alloc_resources(job_record_t *job_ptr,
					 bitstr_t *nodes, uint32_t nhosts)
{
	job_resources_t *res = create_job_resources();

	res->nhosts = nhosts;
	res->node_bitmap = bit_copy(nodes);
	res->nodes = bitmap2node_name(nodes);
	res->cr_type = slurm_conf.select_type_param;
	res->threads_per_core = job_ptr->details->mc_ptr ?
		job_ptr->details->mc_ptr->threads_per_core : NO_VAL16;
	res->cpus = xcalloc(nhosts, sizeof(*res->cpus));
	res->cpus_used = xcalloc(nhosts, sizeof(*res->cpus_used));
	res->memory_allocated = xcalloc(nhosts, sizeof(*res->memory_allocated));
	res->memory_used = xcalloc(nhosts, sizeof(*res->memory_used));
	return res;
}

void coalloc_build_job_resources(job_record_t *job_ptr, bitstr_t *nodes)
{
	uint32_t nhosts = bit_set_count(nodes), total_cpus = 0, j = 0;
	job_resources_t *res;

	if (job_ptr->job_resrcs)	/* left over from a requeued run */
		free_job_resources(&job_ptr->job_resrcs);
	res = _alloc_resources(job_ptr, nodes, nhosts);
	job_ptr->job_resrcs = res;
	if (build_job_resources(res) != SLURM_SUCCESS)
		error("%s: %pJ: build_job_resources failed", plugin_type,
		      job_ptr);

	for (int i = 0; i < node_record_count && j < nhosts; i++) {
		if (!bit_test(nodes, i))
			continue;
		res->cpus[j] = coalloc_node_cpus(i);
		res->memory_allocated[j] = _node_memory(job_ptr, i);
		total_cpus += res->cpus[j];
		/* whole node: every core of it belongs to the job */
		if (set_job_resources_node(res, j) != SLURM_SUCCESS)
			error("%s: %pJ: set_job_resources_node(%u) failed",
			      plugin_type, job_ptr, j);
		j++;
	}
	res->ncpus = total_cpus;
	job_ptr->total_cpus = total_cpus;
	if (build_job_resources_cpu_array(res) < 0)
		error("%s: %pJ: cpu array not built", plugin_type, job_ptr);
}
