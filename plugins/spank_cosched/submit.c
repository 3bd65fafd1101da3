/*
 * submit.c - sbatch, salloc (allocator context) and srun (local context):
 * record the validated request with the job.
 *
 * spank_job_control_setenv() adds NAME=VALUE to the job's spank_job_env,
 * which travels with the job description: slurmctld keeps it as
 * job_ptr->spank_job_env (entries unprefixed, "COALLOC_SIZES=4,4"), the
 * prolog/epilog see it as SPANK_COALLOC_SIZES, and sbatch/salloc also
 * export it as SLURM_SPANK_COALLOC_SIZES into the job's environment.
 * Canonical values are stored ("4,4", "pb-sb") so readers parse them with
 * the same library without surprises; nothing is stored for an option
 * that was not given, so a job without them looks exactly as before.
 *
 * Checks that need every option are made here, once Slurm has processed
 * them all (#SBATCH lines and the command line, in any order): a failure
 * makes the command exit before it contacts slurmctld.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>

#include "cosched.h"
#include "coalloc/shape.h"
#include "coalloc/sizes.h"
#include "num/errbuf.h"
#include "cosched/mode.h"

static int _setenv(spank_t sp, const char *name, const char *value)
{
	spank_err_t e = spank_job_control_setenv(sp, name, value, 1);

	if (e != ESPANK_SUCCESS) {
		/* Fail the submission: a job queued without its request
		 * would be placed as an ordinary job, silently. */
		slurm_error("cosched: cannot record %s=%s with the job: %s",
			    name, value, spank_strerror(e));
		return -1;
	}
	slurm_debug("cosched: recorded %s=%s with the job", name, value);
	return 0;
}

static int _setenv_u32(spank_t sp, const char *name, uint32_t value)
{
	char text[16];

	snprintf(text, sizeof(text), "%u", (unsigned int)value);
	return _setenv(sp, name, text);
}

static int _record_sizes(spank_t sp, const struct coalloc_sizes *sizes)
{
	char text[COALLOC_SIZES_TEXT_LEN];

	if (coalloc_format_sizes(sizes, text, sizeof(text))) {
		slurm_error("cosched: internal error: cannot format --coalloc");
		return -1;
	}
	return _setenv(sp, COALLOC_ENV_SIZES, text);
}

static int _record_bw(spank_t sp, const struct cosched_bw *bw)
{
	char text[COSCHED_BW_TEXT_LEN];

	if (cosched_format_bw(bw, text, sizeof(text))) {
		slurm_error("cosched: internal error: cannot format --cosched-bw");
		return -1;
	}
	return _setenv(sp, COSCHED_ENV_BW, text);
}

/*
 * The mode the job or step will run in: --cosched, else (srun in an
 * existing job) the mode recorded with the job, as slurmstepd resolves
 * it, else default_mode.  sbatch and salloc create a job of their own, so
 * for them a recorded mode in the environment belongs to another job.
 */
static enum cosched_mode _effective_mode(const struct cosched_request *req)
{
	/* srun inside a job: the job's recorded mode, as slurmstepd reads it */
	const char *recorded = spank_context() == S_CTX_LOCAL ?
			       getenv("SLURM_SPANK_" COSCHED_ENV_MODE) : NULL;

	return cosched_mode_resolve(req->mode_set, req->mode, recorded,
				    cosched_config()->default_mode);
}

/* The settings that only mean something in one mode. */
static int _check_mode_settings(const struct cosched_request *req)
{
	enum cosched_mode mode = _effective_mode(req);

	if (req->bw_set && !cosched_mode_by_quanta(mode)) {
		slurm_error("cosched: --cosched-bw only applies to --cosched=membus (this job's mode is %s)",
			    cosched_mode_name(mode));
		return -1;
	}
	return 0;
}

/*
 * A --coalloc request against the sites slurmctld reports: refused here,
 * with the reason, rather than as "Requested node configuration is not
 * available" by slurmctld.  A flexible request's total is the job's -N,
 * which a SPANK plugin cannot read: slurmctld checks that one.
 */
static int _check_on_sites(const struct coalloc_sizes *sizes)
{
	struct coalloc_site_list sites;
	struct coalloc_shape shape;
	char err[ERRBUF_LEN];

	if (sizes->type == COALLOC_REQ_FLEXIBLE ||
	    cosched_controller_sites(&sites))
		return 0;
	if (!coalloc_shape_resolve(sizes, &sites, 0, &shape, err, sizeof(err)))
		return 0;
	slurm_error("cosched: %s", err);
	return -1;
}

int cosched_submit_record(spank_t sp)
{
	const struct cosched_request *req = cosched_request();
	int rc = -1;

	if (_check_mode_settings(req))
		goto fail;
	if (req->sizes_set && _check_on_sites(&req->sizes))
		goto fail;
	if (req->sizes_set && _record_sizes(sp, &req->sizes))
		goto fail;
	if (req->mode_set &&
	    _setenv(sp, COSCHED_ENV_MODE, cosched_mode_name(req->mode)))
		goto fail;
	if (req->pb_set && _setenv(sp, COSCHED_ENV_PB, cosched_pb_name(&req->pb)))
		goto fail;
	if (req->spin_us && _setenv_u32(sp, COSCHED_ENV_SPIN, req->spin_us))
		goto fail;
	if (req->tick_us && _setenv_u32(sp, COSCHED_ENV_TICK, req->tick_us))
		goto fail;
	if (req->bw_set && _record_bw(sp, &req->bw))
		goto fail;
	rc = 0;
fail:
	return rc;
}
