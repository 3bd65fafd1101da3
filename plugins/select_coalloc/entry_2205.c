/*
 * entry_2205.c - the select_p_* symbols only Slurm 22.05 looks up (its
 * node_select_syms[] lists them; the loader fails on a missing one).
 * Compiles to nothing for later releases.  Part of the compatibility
 * layer (slurm_compat.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <signal.h>

#include "select_coalloc.h"

#if !COALLOC_SLURM_INTERFACES

/*
 * Called for pending jobs too: a SIGKILL there is scancel.  (Later
 * releases do not call it; queues.c withdraws cancelled jobs at its next
 * sync, or when the engine grants them.)
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
 * (Later releases ask the plugin nothing for a reservation.) */
extern bitstr_t *select_p_resv_test(resv_desc_msg_t *resv_desc_ptr,
				    uint32_t node_cnt, bitstr_t *avail_bitmap,
				    bitstr_t **core_bitmap)
{
	(void) resv_desc_ptr;
	(void) core_bitmap;
	return bit_pick_cnt(avail_bitmap, node_cnt);
}

#endif /* !COALLOC_SLURM_INTERFACES */
