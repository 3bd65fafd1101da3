/*
 * job_request.c - what a job asks for: its --coalloc request (unordered,
 * ordered or flexible) resolved on the sites, or the one component of an
 * ordinary job.  A leaf, read by job_test.c (to place the job) and
 * queues.c (to queue it).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "select_coalloc.h"
#include "num/errbuf.h"

/*
 * The job's --coalloc text, recorded by the cosched SPANK plugin as
 * COALLOC_SIZES in the job's spank environment, or NULL.
 */
static const char *_request_text(job_record_t *job_ptr)
{
	static const char key[] = COALLOC_ENV_SIZES "=";

	for (uint32_t i = 0; i < job_ptr->spank_job_env_size; i++) {
		const char *var = job_ptr->spank_job_env[i];

		if (var && !strncmp(var, key, sizeof(key) - 1))
			return var + sizeof(key) - 1;
	}
	return NULL;
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

int coalloc_job_shape(job_record_t *job_ptr, struct coalloc_shape *shape,
		      char *err, size_t err_len)
{
	struct coalloc_site_list sites;
	struct coalloc_sizes sizes;
	const char *text;

	if (!job_ptr->details)
		return errbuf_fail(err, err_len, "no job details");
	text = _request_text(job_ptr);
	if (!text) {
		memset(shape, 0, sizeof(*shape));
		shape->type = COALLOC_REQ_UNORDERED;
		shape->ncomp = 1;
		shape->size[0] = _single_size(job_ptr);
		shape->site[0] = COALLOC_SITE_ANY;
		return 0;
	}
	if (coalloc_parse_sizes(text, &sizes, err, err_len))
		return -1;
	coalloc_sites_list(&sites);
	/* a flexible job's total is its node count: -N, or its CPUs' (the
	 * CPU count scans the node table: only a flexible job needs it) */
	if (coalloc_shape_resolve(&sizes, &sites,
				  sizes.type == COALLOC_REQ_FLEXIBLE ?
				  _single_size(job_ptr) : 0, shape,
				  err, err_len))
		return -1;
	return 1;
}
