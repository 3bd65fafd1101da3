/*
 * shim_env.h - the environment the MPI shim (libcosched_mpi.so) reads in
 * each task: cosched.so's slurmstepd side sets it from the step's mode
 * (plugins/spank_cosched/stepd.c), agent-overhead sets it for its own
 * runs, and shim/config.c reads it.  The page directory's name is
 * pages.h's COSCHED_PAGE_DIR_ENV, the mode's mode.h's COSCHED_ENV_MODE.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHED_SHIM_ENV_H
#define COSCHED_SHIM_ENV_H

/* How a waiting process waits: cosched_wait_name() (busy, sb, sy). */
#define COSCHED_ENV_WAIT "COSCHED_WAIT"
/* A fixed spin time in ns, instead of the measured latency times
 * the factor (spin.h). */
#define COSCHED_ENV_SPIN_NS "COSCHED_SPIN_NS"
#define COSCHED_ENV_SPIN_FACTOR "COSCHED_SPIN_FACTOR"
/* "0" turns the shim off; "1" or unset publishes the page. */
#define COSCHED_ENV_SHM "COSCHED_SHM"

#endif /* COSCHED_SHIM_ENV_H */
