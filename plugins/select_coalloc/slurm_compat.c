/*
 * slurm_compat.c - what select/coalloc must define differently for each
 * Slurm release it builds against (see slurm_compat.h, doc/porting.md):
 *
 *  - the check that the running Slurm is the one we were built for, run
 *    as soon as the plugin is mapped, so that a build for the other
 *    release fails with a message naming both (Slurm's own check only
 *    names the plugin's version);
 *  - the select_p_* symbols whose body differs (get_info_from_plugin)
 *    or that only 22.05 looks up (job_signal,
 *    jobinfo_sprint, jobinfo_xstrdup, update_node_config, resv_test):
 *    Slurm's loader fails on a missing symbol, so each release gets
 *    exactly the set its node_select_syms[] lists.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <signal.h>

#include "select_coalloc.h"

/*
 * The release series of each libslurm API number (SLURM_API_CURRENT, the
 * soname libslurm.so.N).  Only for the message: the check itself compares
 * numbers.  38 and 42 are read from the configured 22.05.8 and 24.11.5
 * trees; the others from the libslurmN package names of those releases.
 */
static const struct {
	long api;
	const char *series;
} slurm_series[] = {
	{ 38, "22.05" }, { 39, "23.02" }, { 40, "23.11" },
	{ 41, "24.05" }, { 42, "24.11" }, { 43, "25.05" },
};

static const char *_series_of(long api)
{
	for (size_t i = 0; i < ARRAY_SIZE(slurm_series); i++)
		if (slurm_series[i].api == api)
			return slurm_series[i].series;
	return "another release";
}

/*
 * Uses only what every Slurm release exports with the same signature
 * (slurm_api_version(), error()): in a mismatched process nothing else
 * of ours may run.
 */
int coalloc_slurm_version_check(void)
{
	long running = SLURM_VERSION_MAJOR(slurm_api_version());

	if (running == SLURM_API_CURRENT)
		return 0;
	error("%s: built for Slurm %s (libslurm API %d), but this process runs Slurm %s (libslurm API %ld): rebuild select/coalloc with make SLURM=%s and install that build",
	      plugin_type, SLURM_VERSION_STRING, SLURM_API_CURRENT,
	      _series_of(running), running, _series_of(running));
	return -1;
}

/*
 * At dlopen(), before Slurm compares plugin_version with its own and
 * refuses us (it then calls nothing else here).  The plugin is linked
 * with lazy binding (module.mk) so that a build for another release gets
 * this far: with -z now its first symbol the other release lacks would
 * fail dlopen() with only that symbol's name.
 */
__attribute__((constructor)) static void _check_slurm_version(void)
{
	(void) coalloc_slurm_version_check();
}

#if COALLOC_SLURM_INTERFACES

/*
 * 24.11 has no SELECT_SINGLE_JOB_TEST: slurmctld offers the node sets
 * (one per NodeName line and weight) growing, and takes the first set
 * job_test accepts (doc/porting.md).
 */
extern int select_p_get_info_from_plugin(enum select_plugindata_info dinfo,
					 job_record_t *job_ptr, void *data)
{
	(void) job_ptr;
	if (dinfo == SELECT_CR_PLUGIN)	/* not a consumable-resource plugin */
		*(uint32_t *) data = 0;
	else if (dinfo == SELECT_CONFIG_INFO)	/* coalloc-status anywhere */
		coalloc_status_key_pairs(data);
	return SLURM_SUCCESS;
}

#else /* Slurm 22.05 */

extern int select_p_get_info_from_plugin(enum select_plugindata_info dinfo,
					 job_record_t *job_ptr, void *data)
{
	(void) job_ptr;
	switch (dinfo) {
	case SELECT_CR_PLUGIN:	/* not a consumable-resource plugin */
		*(uint32_t *) data = 0;
		return SLURM_SUCCESS;
	case SELECT_SINGLE_JOB_TEST:
		/*
		 * Otherwise slurmctld offers the nodes one NodeName line at a
		 * time and takes the first set that fits, while Worst Fit
		 * across sites must see every free node at once.
		 */
		*(uint32_t *) data = 1;
		return SLURM_SUCCESS;
	case SELECT_CONFIG_INFO:	/* coalloc-status anywhere */
		coalloc_status_key_pairs(data);
		return SLURM_SUCCESS;
	default:
		return SLURM_SUCCESS;
	}
}

/*
 * Called for pending jobs too: a SIGKILL there is scancel.  (24.11 does
 * not call it; queues.c withdraws cancelled jobs at its next sync, or
 * when the engine grants them.)
 */
extern int select_p_job_signal(job_record_t *job_ptr, int signal)
{
	if (IS_JOB_PENDING(job_ptr) && signal == SIGKILL)
		coalloc_queues_withdraw(job_ptr);
	return SLURM_SUCCESS;
}

extern char *select_p_select_jobinfo_sprint(select_jobinfo_t *jobinfo,
					    char *buf, size_t size, int mode)
{
	(void) jobinfo;
	(void) mode;
	if (!buf || !size)
		return NULL;
	buf[0] = '\0';
	return buf;
}

extern char *select_p_select_jobinfo_xstrdup(select_jobinfo_t *jobinfo,
					     int mode)
{
	(void) jobinfo;
	(void) mode;
	return NULL;
}

extern int select_p_update_node_config(int index)
{
	(void) index;
	return SLURM_SUCCESS;
}

/* A reservation of whole nodes: any node_cnt of the available ones.
 * (24.11 asks the plugin nothing for a reservation.) */
extern bitstr_t *select_p_resv_test(resv_desc_msg_t *resv_desc_ptr,
				    uint32_t node_cnt, bitstr_t *avail_bitmap,
				    bitstr_t **core_bitmap)
{
	(void) resv_desc_ptr;
	(void) core_bitmap;
	return bit_pick_cnt(avail_bitmap, node_cnt);
}

#endif /* COALLOC_SLURM_INTERFACES */
