/*
 * init.c - start and end of the shim: MPI_Init creates and fills the
 * page, measures the latency and sets the spin time; MPI_Finalize (or
 * exit, for a program that never calls it) removes the page and the SB
 * wake socket.
 *
 * The ranks agree on running the collective steps (the duplication for
 * the measurement, or a barrier) from the environment alone, which is the
 * same for every task of a step; a rank whose page failed still takes
 * part, then passes everything through.  Both steps also make sure that
 * every page exists before any rank sends: a sender that finds no page
 * remembers that for good.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE	/* dladdr */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "cosched/spin.h"
#include "shim.h"

struct shim_state shim;
pthread_mutex_t shim_mutex = PTHREAD_MUTEX_INITIALIZER;

static void shim_teardown(void)
{
	shim_reqs_clear();
	shim_wake_fini();
	shim_peers_release();
	shim_ranks_fini();
	shim_page_destroy();
}

/* A program that exits without MPI_Finalize leaves no page behind. */
static void shim_at_exit(void)
{
	if (!shim.active)
		return;
	shim.active = false;
	shim_wake_unlink();
	shim_page_unlink();
}

static bool shim_setup(void)
{
	if (shim_page_create())
		return false;
	if (shim_peers_init() || shim_ranks_init()) {
		shim_warn("out of memory; coscheduling off");
		shim_peers_release();
		shim_page_destroy();
		return false;
	}
	shim_wake_init();
	return true;
}

static uint64_t shim_agree_latency(void)
{
	if (!shim.cfg.spin_fixed_ns)
		return shim_measure_latency();
	PMPI_Barrier(MPI_COMM_WORLD);
	return 0;
}

/*
 * Whether the program's MPI is another than the shim's: preloaded into an
 * MPICH program, the shim brings Open MPI's libmpi in beside MPICH's, and
 * the program's calls (and the shim's PMPI_ ones) reach MPICH's, while
 * MPI_COMM_WORLD in the shim is Open MPI's handle, which MPICH refuses
 * with a fatal error.  So the shim looks at where PMPI_Init comes from:
 * not the library that defines its MPI_COMM_WORLD, and it passes every
 * call through untouched.
 */
static bool foreign;
static char foreign_lib[256];
static pthread_once_t foreign_once = PTHREAD_ONCE_INIT;

static void foreign_check(void)
{
	Dl_info init = { 0 }, world = { 0 };

	if (!dladdr((void *)PMPI_Init, &init) ||
	    !dladdr((void *)MPI_COMM_WORLD, &world))
		return;
	foreign = init.dli_fbase != world.dli_fbase;
	snprintf(foreign_lib, sizeof(foreign_lib), "%s",
		 init.dli_fname ? init.dli_fname : "?");
}

bool shim_mpi_foreign(void)
{
	pthread_once(&foreign_once, foreign_check);
	return foreign;
}

static void shim_start(int thread_level)
{
	static bool exit_hook;
	uint64_t latency;
	bool ready;

	shim_config_load(&shim.cfg);
	if (!shim.cfg.enabled)
		return;
	if (shim_mpi_foreign()) {
		shim_warn("the program's MPI (%s) is not the one this shim serves (Open MPI's); coscheduling off, every call passes through",
			  foreign_lib);
		return;
	}
	if (PMPI_Comm_rank(MPI_COMM_WORLD, &shim.world_rank) != MPI_SUCCESS ||
	    PMPI_Comm_size(MPI_COMM_WORLD, &shim.world_size) != MPI_SUCCESS)
		return;
	shim.threaded = thread_level == MPI_THREAD_MULTIPLE;
	ready = shim_setup();
	latency = shim_agree_latency();
	if (!ready)
		return;
	shim.spin_ns = shim.cfg.spin_fixed_ns ? shim.cfg.spin_fixed_ns :
		cosched_spin_time(latency, shim.cfg.spin_factor,
				  COSCHED_SPIN_MIN_NS, COSCHED_SPIN_MAX_NS);
	shim_page_fill_spin(latency, shim.spin_ns);
	if (!exit_hook)
		exit_hook = atexit(shim_at_exit) == 0;
	shim.active = true;
}

int MPI_Init(int *argc, char ***argv)
{
	int rc = PMPI_Init(argc, argv);

	if (rc == MPI_SUCCESS)
		shim_start(MPI_THREAD_SINGLE);
	return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	int rc = PMPI_Init_thread(argc, argv, required, provided);

	if (rc == MPI_SUCCESS)
		shim_start(*provided);
	return rc;
}

int MPI_Finalize(void)
{
	if (shim.active) {
		shim.active = false;
		shim_teardown();
	}
	return PMPI_Finalize();
}
