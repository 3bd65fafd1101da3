/*
 * latency.c - the one-way message latency the spin time is derived from:
 * "slightly higher than the expected end-to-end latency (in the absence
 * of any contention)", Zhang et al. section 2.4.1.
 *
 * Ranks pair as r and r^1 and time LATENCY_ROUNDS round trips of
 * LATENCY_BYTES on a private duplicate of MPI_COMM_WORLD, so nothing of
 * it can match a message of the program; the minimum round trip over two
 * is the latency, the least contended estimate.  The even rank measures
 * and tells its partner, so both publish the same value.  A last rank
 * without a partner has no latency (0).
 *
 * Every rank must call this: the duplication is collective.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "shim.h"

#define LATENCY_ROUNDS 20
#define LATENCY_BYTES 4096
#define LATENCY_TAG 1

/* Used once, in MPI_Init, before any other thread can call MPI. */
static char latency_buf[LATENCY_BYTES];

static int round_trip(MPI_Comm comm, int partner, bool first,
		      uint64_t *rtt_ns)
{
	uint64_t t0 = shim_now_ns();
	int rc;

	if (first) {
		rc = PMPI_Send(latency_buf, LATENCY_BYTES, MPI_BYTE, partner,
			       LATENCY_TAG, comm);
		if (rc == MPI_SUCCESS)
			rc = PMPI_Recv(latency_buf, LATENCY_BYTES, MPI_BYTE,
				       partner, LATENCY_TAG, comm,
				       MPI_STATUS_IGNORE);
	} else {
		rc = PMPI_Recv(latency_buf, LATENCY_BYTES, MPI_BYTE, partner,
			       LATENCY_TAG, comm, MPI_STATUS_IGNORE);
		if (rc == MPI_SUCCESS)
			rc = PMPI_Send(latency_buf, LATENCY_BYTES, MPI_BYTE,
				       partner, LATENCY_TAG, comm);
	}
	*rtt_ns = shim_now_ns() - t0;
	return rc;
}

static uint64_t ping_pong(MPI_Comm comm, int partner, bool first)
{
	uint64_t rtt, best = UINT64_MAX, latency = 0;
	int rc = MPI_SUCCESS;

	for (int i = 0; i < LATENCY_ROUNDS && rc == MPI_SUCCESS; i++) {
		rc = round_trip(comm, partner, first, &rtt);
		if (rtt < best)
			best = rtt;
	}
	if (rc != MPI_SUCCESS)
		return 0;
	if (first) {
		latency = best / 2;
		rc = PMPI_Send(&latency, 1, MPI_UINT64_T, partner,
			       LATENCY_TAG, comm);
	} else {
		rc = PMPI_Recv(&latency, 1, MPI_UINT64_T, partner,
			       LATENCY_TAG, comm, MPI_STATUS_IGNORE);
	}
	return rc == MPI_SUCCESS ? latency : 0;
}

uint64_t shim_measure_latency(void)
{
	int partner = shim.world_rank ^ 1;
	uint64_t latency = 0;
	MPI_Comm comm;

	if (PMPI_Comm_dup(MPI_COMM_WORLD, &comm) != MPI_SUCCESS)
		return 0;
	if (partner < shim.world_size)
		latency = ping_pong(comm, partner,
				    shim.world_rank < partner);
	PMPI_Comm_free(&comm);
	return latency;
}
