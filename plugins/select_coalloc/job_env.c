/*
 * job_env.c - the job's layout in its environment.
 *
 * slurmctld adds the job's supplemental environment (details->env_sup)
 * to the batch script's and to what salloc and srun get with the
 * allocation, so every task of the job sees it (doc/porting.md).  At job
 * begin, before those messages are built, the SLURM_COALLOC_* variables
 * of lib/coalloc_conf's coalloc_layout_env() replace any a previous run
 * of the job (a requeue) left: nodes need no coalloc.conf to know which
 * site each component of the job is on.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "coalloc_conf/layout.h"
#include "select_coalloc.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

/* Drop every SLURM_COALLOC_ entry (a previous run's components). */
static void _drop_ours(job_details_t *details)
{
	uint16_t kept = 0;

	for (uint16_t i = 0; i < details->env_cnt; i++) {
		if (details->env_sup[i] &&
		    !strncmp(details->env_sup[i], COALLOC_ENV_PREFIX,
			     strlen(COALLOC_ENV_PREFIX)))
			xfree(details->env_sup[i]);
		else
			details->env_sup[kept++] = details->env_sup[i];
	}
	details->env_cnt = kept;
}

static void _append(const char *name, const char *value, void *arg)
{
	job_details_t *details = arg;

	if (details->env_cnt == UINT16_MAX)
		return;
	xrecalloc(details->env_sup, details->env_cnt + 1,
		  sizeof(*details->env_sup));
	details->env_sup[details->env_cnt++] = xstrdup_printf("%s=%s", name,
							      value);
}

void coalloc_job_env(job_record_t *job_ptr)
{
	job_details_t *details = job_ptr->details;

	if (!details)
		return;
	_drop_ours(details);
	if (coalloc_job_layout_env(job_ptr, _append, details) < 0)
		error("%s: %pJ: its layout is too long for the environment: no SLURM_COALLOC_* variables",
		      plugin_type, job_ptr);
}
