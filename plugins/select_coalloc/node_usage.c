/*
 * node_usage.c - which job holds each node.
 *
 * select/coalloc is node-exclusive: a node is held by at most one job,
 * running or suspended.  The table is rebuilt from slurmctld's job records
 * at start-up and reconfiguration, so it needs no state file of its own.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <pthread.h>

#include "select_coalloc.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"

static pthread_mutex_t usage_mutex = PTHREAD_MUTEX_INITIALIZER;
static uint32_t *holder;	/* job id per node index, 0 when free */
static int holder_count;

void node_usage_lock(void)
{
	slurm_mutex_lock(&usage_mutex);
}

void node_usage_unlock(void)
{
	slurm_mutex_unlock(&usage_mutex);
}


void node_usage_fini(void)
{
	node_usage_lock();
	xfree(holder);
	holder_count = 0;
	node_usage_unlock();
}

bool node_usage_ready(void)
{
	return holder != NULL;
}

uint32_t node_usage_holder(int node_inx)
{
	if (!holder || node_inx < 0 || node_inx >= holder_count)
		return 0;
	return holder[node_inx];
}

static bool _valid_nodes(job_record_t *job_ptr)
{
	if (!holder || !job_ptr->node_bitmap)
		return false;
	if (bit_size(job_ptr->node_bitmap) != holder_count) {
		error("%s: %pJ node bitmap has %"PRId64" bits, node table %d",
		      plugin_type, job_ptr, bit_size(job_ptr->node_bitmap),
		      holder_count);
		return false;
	}
	return true;
}

void node_usage_add_job(job_record_t *job_ptr)
{
	if (!_valid_nodes(job_ptr))
		return;
	for (int i = 0; i < holder_count; i++) {
		if (!bit_test(job_ptr->node_bitmap, i))
			continue;
		if (holder[i] && holder[i] != job_ptr->job_id)
			error("%s: node index %d given to %pJ is held by JobId=%u",
			      plugin_type, i, job_ptr, holder[i]);
		holder[i] = job_ptr->job_id;
	}
	log_flag(SELECT_TYPE, "%s: %pJ holds %d nodes", plugin_type, job_ptr,
		 bit_set_count(job_ptr->node_bitmap));
}

void node_usage_remove_node(job_record_t *job_ptr, int node_inx)
{
	if (holder && node_inx >= 0 && node_inx < holder_count &&
	    holder[node_inx] == job_ptr->job_id)
		holder[node_inx] = 0;
}

void node_usage_remove_job(job_record_t *job_ptr)
{
	/* Search the table, not the job's bitmap: a job that shrank or was
	 * requeued may no longer name every node it held. */
	for (int i = 0; holder && i < holder_count; i++)
		if (holder[i] == job_ptr->job_id)
			holder[i] = 0;
	log_flag(SELECT_TYPE, "%s: %pJ released its nodes", plugin_type,
		 job_ptr);
}

static int _add_if_active(void *x, void *arg)
{
	job_record_t *job_ptr = x;

	(void) arg;
	if (IS_JOB_RUNNING(job_ptr) || IS_JOB_SUSPENDED(job_ptr))
		node_usage_add_job(job_ptr);
	return 0;
}

int node_usage_reset(List jobs)
{
	node_usage_lock();
	xfree(holder);
	holder_count = node_record_count;
	holder = xcalloc(holder_count ? holder_count : 1, sizeof(*holder));
	if (jobs)
		list_for_each(jobs, _add_if_active, NULL);
	node_usage_unlock();
	return SLURM_SUCCESS;
}

uint32_t *node_usage_snapshot(void)
{
	uint32_t *copy = xcalloc(holder_count ? holder_count : 1,
				 sizeof(*copy));

	if (holder)
		memcpy(copy, holder, holder_count * sizeof(*copy));
	return copy;
}
