/*
 * slurm_compat.h - the one place where select/coalloc meets the
 * differences between the Slurm releases it builds against (22.05 and
 * 24.11; see doc/porting.md).  The topic files include select_coalloc.h,
 * which includes this, and use only the neutral names defined here: the
 * 24.11 spelling where 24.11 renamed something (list_t, list_itr_t), a
 * coalloc_ name where the two differ in more than a name.  Hostlists are
 * 'struct hostlist *' in both (22.05's hostlist_t is that pointer, 24.11's
 * the struct).
 *
 * The select_p_* symbols whose body or presence differs between the
 * releases are defined in slurm_compat.c, each calling a topic file.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SELECT_COALLOC_SLURM_COMPAT_H
#define SELECT_COALLOC_SLURM_COMPAT_H

#include <stdlib.h>	/* getenv */

#include "config.h"

#include "slurm/slurm_version.h"	/* SLURM_VERSION_NUMBER, no types */

/*
 * The plugin interfaces in src/interfaces/ (Slurm 23.02 and later): the
 * switch between the 22.05 and 24.11 APIs below.  Releases between the
 * two were never built here (doc/porting.md).
 */
#define COALLOC_SLURM_INTERFACES \
	(SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 2, 0))
/*
 * Before 25.05 every command and daemon loads the select plugin, which
 * owns per-node and per-job data it packs itself (select_nodeinfo_t,
 * select_jobinfo_t) and whose state slurmctld saves; from 25.05 only
 * slurmctld loads it, those types are gone and so are the calls.
 */
#define COALLOC_SLURM_SELECT_DATA \
	(SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(25, 5, 0))
/* 26.05 keeps the allocation select writes in node_select_stats_array. */
#define COALLOC_SLURM_SELECT_STATS \
	(SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0))
/* 26.05 runs threads through a pool; slurm_thread_create takes a name. */
#define COALLOC_SLURM_THREADPOOL \
	(SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0))
/* Who saves the plugin's state: slurmctld (select_p_state_save) before
 * 25.05, the plugin itself after (state.c, entry_2505.c). */
#define COALLOC_PLUGIN_SAVES_STATE (!COALLOC_SLURM_SELECT_DATA)
/* 25.11 addresses suspend messages by step id (with the job's SLUID). */
#define COALLOC_SLURM_STEP_ID_MSGS \
	(SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(25, 11, 0))

#include "src/common/slurm_xlator.h"	/* must come before Slurm headers */
#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/log.h"
#if COALLOC_SLURM_INTERFACES
#include "src/interfaces/preempt.h"
#include "src/interfaces/select.h"
#else
#include "src/common/select.h"
#include "src/common/slurm_selecttype_info.h"
#include "src/slurmctld/preempt.h"
#endif
#include "src/slurmctld/slurmctld.h"
#if COALLOC_SLURM_THREADPOOL
#include "src/common/threadpool.h"
#endif

#if !COALLOC_SLURM_INTERFACES
/* 22.05 has only the pointer typedefs List and ListIterator. */
typedef struct xlist list_t;
typedef struct listIterator list_itr_t;
/* 22.05 has the struct only. */
typedef struct job_details job_details_t;
#endif

/* A SelectTypeParameters bit: CR_name macros until 24.11, the SELECT_name
 * enum from 25.11 (commit a74989ff05). */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(25, 11, 0)
#define COALLOC_PARAM(name) SELECT_##name
#else
#define COALLOC_PARAM(name) CR_##name
#endif

/* SelectTypeParameters of layered select plugins (removed by 24.11). */
#ifdef CR_OTHER_CONS_TRES
#define COALLOC_CR_LAYERED (CR_OTHER_CONS_RES | CR_OTHER_CONS_TRES)
#else
#define COALLOC_CR_LAYERED 0
#endif

/*
 * The pending reason a select plugin sets with its own text in
 * state_desc.  22.05's select_nodes() keeps WAIT_BLOCK_D_ACTION and its
 * text; 24.11 has no such reason and replaces any reason a failed
 * job_test leaves by WAIT_RESOURCES, dropping the text (doc/porting.md).
 */
#if COALLOC_SLURM_INTERFACES
#define COALLOC_WAIT_SELECT WAIT_RESOURCES
#else
#define COALLOC_WAIT_SELECT WAIT_BLOCK_D_ACTION
#endif

/*
 * Whether this slurmctld was started by a reconfigure: 24.11 reconfigures
 * by exec'ing slurmctld again (SLURMCTLD_RECONF=1 in its environment);
 * 22.05 reconfigures in place and calls select_p_node_init() again.
 */
#if COALLOC_SLURM_INTERFACES
#define coalloc_reconfigure_exec() (getenv("SLURMCTLD_RECONF") != NULL)
#else
#define coalloc_reconfigure_exec() false
#endif

/*
 * slurmctld's job_suspend() as uid 0 with no reply: 24.11 passes the
 * request message (NULL: none) where 22.05 passed a connection (-1).
 * Macros, so that the callers' #pragma weak applies to the symbol.
 */
#if COALLOC_SLURM_INTERFACES
#define coalloc_job_suspend(sus_ptr) \
	job_suspend(NULL, (sus_ptr), 0, false, NO_VAL16)
#else
#define coalloc_job_suspend(sus_ptr) \
	job_suspend((sus_ptr), 0, -1, false, NO_VAL16)
#endif

/*
 * select_p_job_test()'s arguments after preemptee_job_list, none of which
 * whole nodes need: 22.05's cores to exclude; 24.11's resources to exclude
 * and a backfill hint (earliest start, latest end) we may ignore.
 */
#if COALLOC_SLURM_INTERFACES
#define COALLOC_JOB_TEST_UNUSED_ARGS \
	resv_exc_t *resv_exc_ptr __attribute__((unused)), \
	will_run_data_t *will_run_ptr __attribute__((unused))
#else
#define COALLOC_JOB_TEST_UNUSED_ARGS \
	bitstr_t *exc_core_bitmap __attribute__((unused))
#endif

/*
 * The job a suspend_msg_t or suspend_int_msg_t is about: its id before
 * 25.11, its step id (job id, SLUID, no step) from 25.11 on.
 */
#if COALLOC_SLURM_STEP_ID_MSGS
#define coalloc_suspend_msg_target(msg, job_ptr) \
	((msg)->step_id = STEP_ID_FROM_JOB_RECORD(job_ptr))
#else
#define coalloc_suspend_msg_target(msg, job_ptr) \
	((msg)->job_id = (job_ptr)->job_id)
#endif

/* A joinable thread of ours, named where the release names threads. */
#if COALLOC_SLURM_THREADPOOL
/* threadpool_create itself, not slurm_thread_create: that macro names the
 * function by its text, which for a worker's is "(w->main)" in the logs. */
#define coalloc_thread_create(name, id, func, arg)			\
	do {								\
		int thread_err = threadpool_create((func), (name), (arg),	\
						   false, (name), (id),	\
						   __func__);		\
		if (thread_err)						\
			fatal("%s: threadpool_create() failed: %s",	\
			      __func__, slurm_strerror(thread_err));	\
	} while (false)
#else
#define coalloc_thread_create(name, id, func, arg) \
	slurm_thread_create((id), (func), (arg))
#endif

/* REQUEST_SUSPEND_INT carries the job's core spec in 22.05, not in 24.11. */
static inline void coalloc_suspend_int_core_spec(suspend_int_msg_t *msg,
						 uint16_t core_spec)
{
#if COALLOC_SLURM_INTERFACES
	(void) msg;
	(void) core_spec;
#else
	msg->job_core_spec = core_spec;
#endif
}

/*
 * What a node has allocated, as sinfo shows it (nodeinfo.c works it out).
 * coalloc_node_alloc_store() keeps it where the release looks: the
 * plugin's own select_nodeinfo_t before 25.05 (entry_select_data.c), the
 * node record's alloc fields in 25.x and node_select_stats_array in 26.05
 * (entry_2505.c).  It takes tres_fmt_str (xmalloc'ed, or NULL).
 */
struct coalloc_node_alloc {
	uint16_t cpus;
	uint64_t memory;
	char *tres_fmt_str;
	double tres_weighted;	/* before 25.05 only */
};
void coalloc_node_alloc_store(node_record_t *node_ptr,
			      struct coalloc_node_alloc *alloc);

#endif /* SELECT_COALLOC_SLURM_COMPAT_H */
