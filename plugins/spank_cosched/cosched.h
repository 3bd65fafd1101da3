/*
 * cosched.h - what the files of the cosched SPANK plugin share.
 *
 *   cosched.c   the symbols Slurm looks up; dispatches on the context
 *   args.c      plugstack.conf arguments (args.h, no Slurm header)
 *   options.c   --coalloc and --cosched: registration, validation
 *   submit.c    sbatch/salloc/srun: records the request with the job
 *   stepd.c     slurmstepd: nothing yet beyond reporting the request
 *   layout.c    slurmstepd tasks: SLURM_COALLOC_LAYOUT
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_SPANK_COSCHED_H
#define COALLOC_SPANK_COSCHED_H

#include <stdbool.h>

#include <slurm/spank.h>

#include "cosched_opts/cosched_opts.h"

/* The request the options of this command (or step) describe. */
struct cosched_request {
	bool sizes_set;			/* --coalloc was given */
	struct cosched_sizes sizes;
	bool mode_set;			/* --cosched was given */
	enum cosched_mode mode;
};

/* options.c: register --coalloc and --cosched (slurm_spank_init only). */
int cosched_options_register(spank_t sp);

/* options.c: what the options set so far (validated values only). */
const struct cosched_request *cosched_request(void);

/* options.c: forget the request (slurm_spank_exit). */
void cosched_request_reset(void);

/* submit.c: allocator and local contexts, store the request with the job. */
int cosched_submit_record(spank_t sp);

/* layout.c: remote context, each task: SLURM_COALLOC_LAYOUT. */
int cosched_layout_export(spank_t sp);

/* stepd.c: remote context, after the forwarded options were processed. */
int cosched_stepd_post_opt(spank_t sp);

#endif /* COALLOC_SPANK_COSCHED_H */
