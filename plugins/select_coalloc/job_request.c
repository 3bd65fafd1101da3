/*
 * job_request.c - what a job asks for: its --coalloc components, or the
 * one component of an ordinary job.  A leaf, read by job_test.c (to
 * place the job) and queues.c (to queue it).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "select_coalloc.h"
#include "num/errbuf.h"

static int _by_size_desc(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *) x, b = *(const uint32_t *) y;

	return (a < b) - (a > b);
}

/*
 * The job's --coalloc components, recorded by the cosched SPANK plugin as
 * COALLOC_SIZES in the job's spank environment, largest first.  0: none,
 * 1: found, -1: present but unreadable (the job cannot be placed).
 */
int coalloc_job_sizes(job_record_t *job_ptr, struct coalloc_sizes *sizes)
{
	static const char key[] = COALLOC_ENV_SIZES "=";
	char err[ERRBUF_LEN];

	for (uint32_t i = 0; i < job_ptr->spank_job_env_size; i++) {
		const char *var = job_ptr->spank_job_env[i];

		if (!var || strncmp(var, key, sizeof(key) - 1))
			continue;
		if (!coalloc_parse_sizes(var + sizeof(key) - 1, sizes, err,
					 sizeof(err))) {
			qsort(sizes->nodes, sizes->count,
			      sizeof(sizes->nodes[0]), _by_size_desc);
			return 1;
		}
		error("%s: %pJ: %s", plugin_type, job_ptr, err);
		return -1;
	}
	return 0;
}

/* Nodes a job without --coalloc needs: -N, or its CPUs on the largest nodes. */
static uint32_t _single_size(job_record_t *job_ptr)
{
	job_details_t *d = job_ptr->details;
	uint32_t max_cpus = 1, need;

	for (int i = 0; i < node_record_count; i++)
		if (node_record_table_ptr[i] && coalloc_node_cpus(i) > max_cpus)
			max_cpus = coalloc_node_cpus(i);
	need = (d->min_cpus + max_cpus - 1) / max_cpus;
	return MAX(MAX(d->min_nodes, 1), need);
}

int coalloc_job_components(job_record_t *job_ptr,
			   struct coalloc_components *comps)
{
	struct coalloc_sizes sizes;
	int has = coalloc_job_sizes(job_ptr, &sizes);

	if (has < 0 || !job_ptr->details)
		return -1;
	if (!has) {
		comps->count = 1;
		comps->nodes[0] = _single_size(job_ptr);
		return 0;
	}
	comps->count = sizes.count;
	memcpy(comps->nodes, sizes.nodes, sizes.count * sizeof(sizes.nodes[0]));
	return 0;
}
