/*
 * select_coalloc.c - entry file of the select/coalloc plugin: the symbols
 * Slurm loads from a select plugin in every release it builds for (22.05,
 * 24.11, 25.11, 26.05), each a thin call into a topic file.  The
 * compatibility layer holds the rest: entry_select_data.c (before 25.05:
 * the plugin's node and job data, state, steps), entry_2205.c (22.05's
 * extra symbols), entry_2505.c (25.05 on), slurm_compat.[ch] (the names
 * and calls that differ, the release check).  The topic files
 * (select_coalloc.h lists each one's calls):
 *   slurm_conf_check.c  the slurm.conf settings the plugin depends on
 *   sites.c             coalloc.conf and the node -> site map
 *   job_test.c          select_p_job_test's three modes
 *   preempt_hold.c      others wait while a preempting job waits
 *   release_order.c     running jobs by end time, for start estimates
 *   queues.c            the queue-priority policy engine and its reasons
 *   job_env.c           the layout in the job's environment
 *   node_usage.c        the matrix of jobs x nodes
 *   timeslice.c         the thread that suspends and resumes rows
 *   gang_tables.c       the rows sent to the node agents
 *   state.c             the plugin's state across restarts
 *   status.c            the status for coalloc-status(1)
 *   timers.c            the plugin's share of a cycle (DebugFlags)
 *   job_resources.c     the job_resources_t Slurm expects
 *   nodeinfo.c          per-node data shown by sinfo
 *
 * Nodes are allocated whole; the matrix (node_usage.c) decides how many
 * jobs share a node and which of them run (timeslice.c).
 *
 * Before 25.05 Slurm's commands (sinfo, squeue, scontrol, ...) load every
 * select plugin in PluginDir and call init(): only inside slurmctld does
 * init() check the configuration or set anything up.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdlib.h>

#include "select_coalloc.h"
#include "coalloc_conf/layout_tag.h"
#include "src/common/node_conf.h"
#include "src/common/run_in_daemon.h"
#include "src/common/xstring.h"
#include "version/version.h"

const char plugin_name[] = "Co-allocation node selection (select/coalloc)";
const char plugin_type[] = "select/coalloc";
const uint32_t plugin_id = SELECT_COALLOC_PLUGIN_ID;
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

/* True when slurmctld runs with us as its SelectType. */
bool coalloc_we_select(void)
{
	return running_in_slurmctld() &&
	       !xstrcmp(slurm_conf.select_type, plugin_type);
}

/* The queues changed: the status, and the state where we save it. */
static void _queues_changed(void)
{
	coalloc_status_changed();
	coalloc_state_changed();
}

/* The matrix changed: the node agents' gang tables, and the state. */
static void _matrix_changed(void)
{
	coalloc_gang_tables_kick();
	coalloc_state_changed();
}

extern int init(void)
{
	if (!coalloc_we_select())
		return SLURM_SUCCESS;
	if (coalloc_check_slurm_conf() != SLURM_SUCCESS)
		return SLURM_ERROR;
	/* Who hears of changes, before any thread runs: callbacks, so that
	 * the status and the gang tables read the queues and the matrix
	 * without those calling back into them. */
	coalloc_queues_notify(_queues_changed, coalloc_status_reasons_due);
	node_usage_on_change(_matrix_changed);
	coalloc_status_start();
	coalloc_timeslice_start();
	coalloc_gang_tables_start();
	info("%s: loaded (plugin_id %u, whole-node allocation), " COALLOC_SUITE " %s built for Slurm %s",
	     plugin_type, plugin_id, coalloc_version(), SLURM_VERSION_STRING);
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	coalloc_gang_tables_stop();
	coalloc_timeslice_stop();
	coalloc_status_stop();
	coalloc_queues_fini();
	coalloc_sites_fini();
	node_usage_fini();
	return SLURM_SUCCESS;
}

/* The matrix first: the policy engine counts running jobs in its rows. */
static int _rebuild(list_t *jobs)
{
	if (node_usage_reset(jobs) != SLURM_SUCCESS ||
	    coalloc_queues_reset(jobs) != SLURM_SUCCESS)
		return SLURM_ERROR;
	coalloc_timeslice_kick();
	return SLURM_SUCCESS;
}

/*
 * Called by slurmctld at start-up and again on every reconfiguration, once
 * the node and partition tables are built: (re)load coalloc.conf here.
 * From 25.05 on the plugin reads its own saved state back here, where
 * 24.11 called select_p_state_restore() right after this (read_config.c).
 */
extern int select_p_node_init(void)
{
	static bool started;
	bool first = !started;
	int rc;

	coalloc_sites_load(first);	/* fatal only at start-up */
	started = true;
	rc = _rebuild(NULL);
	if (first && COALLOC_PLUGIN_SAVES_STATE && coalloc_we_select())
		coalloc_state_restore(slurm_conf.state_save_location);
	return rc;
}

extern int select_p_job_test(job_record_t *job_ptr, bitstr_t *bitmap,
			     uint32_t min_nodes, uint32_t max_nodes,
			     uint32_t req_nodes, uint16_t mode,
			     list_t *preemptee_candidates,
			     list_t **preemptee_job_list,
			     COALLOC_JOB_TEST_UNUSED_ARGS)
{
	return coalloc_job_test(job_ptr, bitmap, min_nodes, max_nodes,
				req_nodes, mode, preemptee_candidates,
				preemptee_job_list);
}

/*
 * 'scontrol show job' shows the layout as SystemComment=coalloc:... (the
 * field Slurm keeps for its own notes; the job's processes get it as
 * SLURM_COALLOC_LAYOUT and per component, job_env.c).  The same word goes
 * into the AdminComment, the one of the two that slurmdbd receives, so
 * that sacct keeps it (layout_tag.h).
 */
static void _record_layout(job_record_t *job_ptr)
{
	char *layout = coalloc_job_layout(job_ptr);
	char *admin;

	if (!layout)
		return;
	xfree(job_ptr->system_comment);
	job_ptr->system_comment = xstrdup_printf(COALLOC_LAYOUT_TAG "%s",
						 layout);
	admin = coalloc_comment_with_layout(job_ptr->admin_comment, layout);
	if (admin) {
		xfree(job_ptr->admin_comment);
		job_ptr->admin_comment = xstrdup(admin);
		free(admin);
	}
	log_flag(SELECT_TYPE, "%s: %pJ layout %s", plugin_type, job_ptr,
		 layout);
	xfree(layout);
}

/*
 * The job takes its row; if that row does not run now (or a preempting
 * job changes which row does) the time-slicing thread suspends what must
 * not run, at once.
 */
extern int select_p_job_begin(job_record_t *job_ptr)
{
	int engine_row;
	bool shared;

	node_usage_lock();
	preempt_hold_forget(job_ptr);
	node_usage_add_job(job_ptr);
	engine_row = node_usage_engine_row(job_ptr->job_id);
	shared = node_usage_rows() > 1;
	node_usage_unlock();
	coalloc_queues_begin(job_ptr, engine_row);
	_record_layout(job_ptr);
	coalloc_job_env(job_ptr);
	if (shared)
		coalloc_timeslice_kick();
	return SLURM_SUCCESS;
}

extern int select_p_job_ready(job_record_t *job_ptr)
{
	node_record_t *node_ptr;

	if (!IS_JOB_RUNNING(job_ptr) && !IS_JOB_SUSPENDED(job_ptr))
		return 0;
	if (!job_ptr->node_bitmap)
		return READY_NODE_STATE;
	for (int i = 0; (node_ptr = next_node(&i)); i++) {
		if (!bit_test(job_ptr->node_bitmap, i))
			continue;
		if (IS_NODE_POWERED_DOWN(node_ptr) ||
		    IS_NODE_POWERING_UP(node_ptr))
			return 0;
	}
	return READY_NODE_STATE;
}

extern int select_p_job_expand(job_record_t *from_job_ptr,
			       job_record_t *to_job_ptr)
{
	error("%s: merging %pJ into %pJ: job expansion is not supported",
	      plugin_type, from_job_ptr, to_job_ptr);
	return ESLURM_NOT_SUPPORTED;
}

extern int select_p_job_resized(job_record_t *job_ptr, node_record_t *node_ptr)
{
	node_usage_lock();
	node_usage_remove_node(job_ptr, node_ptr->index);
	node_usage_unlock();
	return SLURM_SUCCESS;
}

/* Its cells free: replicas and the rows it blocked may run now. */
extern int select_p_job_fini(job_record_t *job_ptr)
{
	bool shared;

	node_usage_lock();
	node_usage_remove_job(job_ptr);
	shared = node_usage_rows() > 1;
	node_usage_unlock();
	coalloc_queues_fini_job(job_ptr);	/* a departure for the policy */
	if (shared)
		coalloc_timeslice_kick();
	return SLURM_SUCCESS;
}

/*
 * A suspended job keeps its cells: no other job is placed on them.  Our
 * own suspensions come from timeslice.c; those of an admin (indf_susp)
 * are left alone until the admin resumes the job.
 */
extern int select_p_job_suspend(job_record_t *job_ptr, bool indf_susp)
{
	log_flag(SELECT_TYPE, "%s: %pJ suspended%s", plugin_type, job_ptr,
		 indf_susp ? " by request" : "");
	return SLURM_SUCCESS;
}

extern int select_p_job_resume(job_record_t *job_ptr, bool indf_susp)
{
	log_flag(SELECT_TYPE, "%s: %pJ resumed%s", plugin_type, job_ptr,
		 indf_susp ? " by request" : "");
	return SLURM_SUCCESS;
}

extern int select_p_select_nodeinfo_set_all(void)
{
	return coalloc_nodeinfo_set_all();
}

extern int select_p_select_nodeinfo_set(job_record_t *job_ptr)
{
	(void) job_ptr;	/* set_all derives everything from node usage */
	return SLURM_SUCCESS;
}

/* Nodes may have been added or removed: rebuild from the job records. */
extern int select_p_reconfigure(void)
{
	node_usage_lock();
	coalloc_timers_report(true);
	node_usage_unlock();
	if (coalloc_check_slurm_conf() != SLURM_SUCCESS)
		error("%s: keeping the running configuration", plugin_type);
	return _rebuild(job_list);
}
