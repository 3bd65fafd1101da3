/*
 * args.h - the arguments of the cosched plugin on its plugstack.conf line,
 * with their defaults in one place (cosched_args_defaults).
 *
 *   agent=PATH          node agent to start on demand (coschedd)
 *   shim=PATH           MPI shim preloaded into the tasks
 *   run_dir=DIR         agents' sockets, pid and state files
 *   default_mode=MODE   mode of jobs without --cosched (none)
 *   allowed_modes=LIST  modes users may ask for, comma-separated, or all
 *   default_pb=H        PB heuristic without --cosched-pb (D)
 *   tick_us=N           PB/DCS/energy tick without --cosched-tick (1000)
 *   min_tick_us=N, max_tick_us=N   limits of --cosched-tick (100, 100000)
 *   max_spin_us=N       limit of --cosched-spin (10000)
 *   boost=auto|cgroup|cgroup2|nice|rt   mechanism the agent uses (auto;
 *                       the names: lib/cosched_proto/boost_names.h)
 *   idle_exit=SECS      agent exits after SECS without jobs, 0 never (600)
 *   allow_user=NAME     besides root, who may register jobs, e.g. the
 *                       SlurmUser (none: root only)
 *   membus_quantum_ms=N   membus: length of a gang quantum (500)
 *   membus_window=N     membus: quanta bandwidth is averaged over (2)
 *   membus_mem=RATE     membus: the node's memory bandwidth, bytes/s
 *                       (0: the agent measures it)
 *   membus_net=RATE     membus: the node's network bandwidth, bytes/s
 *                       (0: the agent finds or probes it)
 *   membus_port_offset=N  membus: an agent's UDP port is its slurmd's
 *                       port + N (1000)
 *   gang_rows=yes|no    every task (batch scripts too) goes to the agent
 *                       to be frozen and thawed by gang rows, for
 *                       coalloc.conf's TimeSlice below a second (no)
 *   gang_port_offset=N  where the agent takes select/coalloc's gang
 *                       tables: slurmd's port + N, coalloc.conf's
 *                       GangPortOffset (1001)
 *   freeze=auto|cgroup|signal   how the agent stops membus and gang steps
 *                       (auto)
 *   munge_socket=PATH   munged's socket for the agents' messages
 *                       (none: munge's default)
 *   energy=paper|tick   what t and R of the ECM/EDM formulas are
 *                       (lib/cosched/energy.h) (paper)
 *
 * Free of Slurm headers so the parser is unit-tested on its own
 * (testsuite/unit/cosched_proto/test_args.c), and read by slurmctld's
 * select/coalloc too, to check GangPortOffset against gang_port_offset.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHED_PROTO_ARGS_H
#define COSCHED_PROTO_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cosched/pb.h"
#include "cosched/mode.h"
#include "cosched/energy.h"

#define COSCHED_ARG_PATH_LEN 1024
#define COSCHED_ARG_NAME_LEN 64

/* Room for any message cosched_args_parse() writes (it lists the keys). */
#define COSCHED_ARGS_ERR_LEN 512

struct cosched_args {
	int given;		/* how many arguments were accepted */
	char agent[COSCHED_ARG_PATH_LEN];
	char shim[COSCHED_ARG_PATH_LEN];
	char run_dir[COSCHED_ARG_PATH_LEN];
	enum cosched_mode default_mode;
	uint32_t allowed_modes;	/* bit (1u << mode) per allowed mode */
	struct cosched_pb_rule default_pb;
	uint32_t tick_us;
	uint32_t min_tick_us;
	uint32_t max_tick_us;
	uint32_t max_spin_us;
	char boost[COSCHED_ARG_NAME_LEN];
	uint32_t idle_exit;
	char allow_user[COSCHED_ARG_NAME_LEN];
	uint32_t membus_quantum_ms;
	uint32_t membus_window;
	double membus_mem;	/* bytes per second, 0: measured */
	double membus_net;	/* bytes per second, 0: found or probed */
	uint32_t membus_port_offset;
	bool gang_rows;
	uint32_t gang_port_offset;
	char freeze[COSCHED_ARG_NAME_LEN];
	char munge_socket[COSCHED_ARG_PATH_LEN];	/* "": munge's default */
	enum cosched_energy_variant energy;
};

/* The defaults (the build's install paths, see module.mk). */
void cosched_args_defaults(struct cosched_args *args);

/*
 * Parse the arguments over the defaults, strictly: a word that is not
 * KEY=VALUE, an unknown KEY, a KEY given twice or a bad VALUE is an
 * error whose message
 * (written to err, at most COSCHED_ARGS_ERR_LEN bytes needed) names the
 * argument.  A default_mode outside allowed_modes is an error too.
 * Returns 0 or -1; args is only written on success.
 */
int cosched_args_parse(int argc, char *const argv[], struct cosched_args *args,
		       char *err, size_t err_len);

/* Whether users may ask for mode. */
bool cosched_args_allows(const struct cosched_args *args,
			 enum cosched_mode mode);

#endif /* COSCHED_PROTO_ARGS_H */
