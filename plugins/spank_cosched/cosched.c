/*
 * cosched.c - entry file of the cosched SPANK plugin: the symbols Slurm
 * looks up, each dispatching on the SPANK context to a topic file.
 *
 * Loaded through plugstack.conf ("required /path/to/cosched.so"), it adds
 * --coalloc=SIZES, --cosched=MODE and the --cosched-* settings (-pb,
 * -spin, -tick, -bw) to sbatch, salloc and srun, rejects
 * bad values where the user submits, and records good ones with the job
 * for the select plugin (slurmctld) and the node side; see cosched(8).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "cosched_proto/args.h"
#include "cosched.h"
#include "version/version.h"

SPANK_PLUGIN(cosched, 1);

/* The contexts in which the user's options exist. */
static bool _has_options(spank_context_t ctx)
{
	return ctx == S_CTX_ALLOCATOR || ctx == S_CTX_LOCAL ||
	       ctx == S_CTX_REMOTE;
}

/*
 * Every context parses the arguments, so a bad plugstack.conf line is
 * reported by the first command run, and by slurmd, not just on some path.
 * Options are registered with spank_option_register() because sbatch and
 * salloc ignore a static spank_options table; slurmstepd needs them
 * registered too, to receive the forwarded values.
 */
int slurm_spank_init(spank_t sp, int ac, char **av)
{
	char err[COSCHED_ARGS_ERR_LEN];
	spank_context_t ctx = spank_context();
	int rc = -1;

	if (cosched_config_load(ac, av, err, sizeof(err))) {
		slurm_error("cosched: %s", err);
		goto fail;
	}
	if (_has_options(ctx) && cosched_options_register(sp))
		goto fail;
	/* once per slurmd, never on a user's terminal */
	if (ctx == S_CTX_SLURMD)
		slurm_info("cosched: " COALLOC_SUITE " %s built for Slurm %u.%02u.%u",
			   coalloc_version(),
			   SLURM_VERSION_MAJOR(SLURM_VERSION_NUMBER),
			   SLURM_VERSION_MINOR(SLURM_VERSION_NUMBER),
			   SLURM_VERSION_MICRO(SLURM_VERSION_NUMBER));
	rc = 0;
fail:
	return rc;
}

int slurm_spank_init_post_opt(spank_t sp, int ac, char **av)
{
	(void)ac;
	(void)av;
	switch (spank_context()) {
	case S_CTX_ALLOCATOR:
	case S_CTX_LOCAL:
		return cosched_submit_record(sp);
	case S_CTX_REMOTE:
		return cosched_stepd_post_opt(sp);
	default:
		return 0;
	}
}

/* In each task, just before exec: the job's layout over the sites. */
int slurm_spank_task_init(spank_t sp, int ac, char **av)
{
	(void)ac;
	(void)av;
	if (spank_context() != S_CTX_REMOTE)
		return 0;
	if (cosched_layout_check(sp))
		return -1;
	return cosched_stepd_task_init(sp);
}

/* In slurmstepd (root) after each task started: the node agent. */
int slurm_spank_task_post_fork(spank_t sp, int ac, char **av)
{
	(void)ac;
	(void)av;
	if (spank_context() != S_CTX_REMOTE)
		return 0;
	return cosched_stepd_task_post_fork(sp);
}

int slurm_spank_exit(spank_t sp, int ac, char **av)
{
	(void)ac;
	(void)av;
	if (spank_context() == S_CTX_REMOTE)
		(void)cosched_stepd_exit(sp);
	cosched_request_reset();
	return 0;
}
