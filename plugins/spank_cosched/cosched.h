/*
 * cosched.h - what the files of the cosched SPANK plugin share.
 *
 *   cosched.c   the symbols Slurm looks up; dispatches on the context
 *   options.c   the plugstack.conf arguments; --coalloc, --cosched,
 *               --cosched-*: registration, validation
 *   submit.c    sbatch/salloc/srun: records the request with the job
 *   stepd.c     slurmstepd: the node agent and the MPI shim for the step
 *   preload.c   slurmstepd tasks: the shim in LD_PRELOAD (preload_value.h)
 *   peers.c     slurmstepd: a membus step's nodes and their agents' ports
 *   layout.c    slurmstepd tasks: a layout missing from the job's env
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_SPANK_COSCHED_H
#define COALLOC_SPANK_COSCHED_H

#include <stdbool.h>

#include <slurm/spank.h>

#include "cosched_proto/args.h"
#include "cosched/pb.h"
#include "cosched/bw.h"
#include "coalloc/sizes.h"
#include "cosched/mode.h"

/* The request the options of this command (or step) describe. */
struct cosched_request {
	bool sizes_set;			/* --coalloc was given */
	struct coalloc_sizes sizes;
	bool mode_set;			/* --cosched was given */
	enum cosched_mode mode;
	bool pb_set;			/* --cosched-pb was given */
	struct cosched_pb_rule pb;
	uint32_t spin_us;		/* --cosched-spin, 0: measured */
	uint32_t tick_us;		/* --cosched-tick, 0: default */
	bool bw_set;			/* --cosched-bw was given */
	struct cosched_bw bw;
};

/* Names of the further settings recorded with the job (see submit.c). */
#define COSCHED_ENV_PB "COSCHED_PB"
#define COSCHED_ENV_SPIN "COSCHED_SPIN_US"
#define COSCHED_ENV_TICK "COSCHED_TICK_US"
#define COSCHED_ENV_BW "COSCHED_BW"	/* "mem=600000000,net=40000000" */

/* options.c: parse the plugstack.conf arguments (slurm_spank_init). */
int cosched_config_load(int ac, char **av, char *err, size_t err_len);

/* options.c: the plugstack.conf arguments of this process. */
const struct cosched_args *cosched_config(void);

/* options.c: register the options (slurm_spank_init only). */
int cosched_options_register(spank_t sp);

/* options.c: what the options set so far (validated values only). */
const struct cosched_request *cosched_request(void);

/* options.c: forget the request (slurm_spank_exit). */
void cosched_request_reset(void);

/* submit.c: allocator and local contexts, store the request with the job. */
int cosched_submit_record(spank_t sp);

/* sites.c: the sites slurmctld reports (CoallocSites); 0 or -1. */
struct coalloc_site_list;
int cosched_controller_sites(struct coalloc_site_list *sites);

/* layout.c: remote context, each task: says when slurmctld gave a
 * --coalloc job no SLURM_COALLOC_* layout (never fails the task). */
int cosched_layout_check(spank_t sp);

/* stepd.c: remote context, after the forwarded options were processed. */
int cosched_stepd_post_opt(spank_t sp);

/* stepd.c: in each task before exec: the shim and its settings. */
int cosched_stepd_task_init(spank_t sp);

/*
 * preload.c: in each task, the shim in front of the user's LD_PRELOAD
 * (any length); logged for job when it cannot be.  Returns 0 or -1.
 */
int cosched_preload_shim(spank_t sp, const char *shim, uint32_t job);
/* Whether the shim can serve the task's program (an MPICH one it cannot:
 * cosched_mpi(7)); logs why not. */
bool cosched_shim_serves_task(spank_t sp, uint32_t job);

/* stepd.c: in slurmstepd after each task's fork: register it. */
int cosched_stepd_task_post_fork(spank_t sp);

/* stepd.c: slurmstepd's end of the step: deregister. */
int cosched_stepd_exit(spank_t sp);

/*
 * peers.c: the membus join request of step job.step for this node, self
 * (see lib/cosched_proto/proto.h), from the step's node list and slurmctld's node
 * records.  Returns 0, or -1 with why in err.
 */
int cosched_peers_request(spank_t sp, uint32_t job, uint32_t step,
			  const char *self, char *request, size_t len,
			  char *err, size_t err_len);

/* peers.c: this node's part of "gang self=PEER from=ADDR,...": where its
 * agent takes select/coalloc's gang tables (the one rule of
 * cosched_agent_peer), and slurmctld's addresses, the only ones it takes
 * them from.  0, or -1 with why in err. */
struct cosched_gang_req;
int cosched_gang_join(const char *self, struct cosched_gang_req *g,
		      char *err, size_t err_len);

#endif /* COALLOC_SPANK_COSCHED_H */
