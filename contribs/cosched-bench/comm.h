/*
 * comm.h - the communication phase of a cosched-bench iteration, in
 * point-to-point MPI only (MPI_Send, MPI_Recv, MPI_Isend, MPI_Wait): an
 * interposing coscheduling shim sees point-to-point calls, not what a
 * collective does inside the library.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHED_BENCH_COMM_H
#define COSCHED_BENCH_COMM_H

#include <stddef.h>

#include <mpi.h>

#include "plan.h"

struct comm {
	enum bench_pattern pattern;
	int rank;
	int ranks;
	size_t msg;
	char *send_buf;
	char *recv_buf;
	MPI_Request *requests;	/* one per peer: the non-blocking sends */
};

/* Buffers for PATTERN on MPI_COMM_WORLD: 0, or -1 (out of memory). */
int comm_init(struct comm *c, enum bench_pattern pattern, size_t msg);

/* One iteration's messages.  A single task has none. */
void comm_iteration(struct comm *c);

void comm_fini(struct comm *c);

#endif /* COSCHED_BENCH_COMM_H */
