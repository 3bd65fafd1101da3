/*
 * send.c - the sender's side: every point-to-point send is counted, and
 * one to a same-host rank deposits an arrival notice in its page.
 *
 * A notice must come after the message is in the receiver's queue, or an
 * SB receiver woken by it would find nothing and sleep again; and before a
 * blocking send returns, or a rendezvous send would wait for a receiver
 * that sleeps until its timeout.  So the blocking sends are the
 * non-blocking start, the notice, then the wait for completion - what
 * MPI allows a blocking send to be.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "shim.h"

typedef int (*shim_isend_fn)(const void *buf, int count, MPI_Datatype type,
			     int dest, int tag, MPI_Comm comm,
			     MPI_Request *req);

/* A send of count x type to dest in comm has been started. */
void shim_sent(int count, MPI_Datatype type, int dest, int tag,
	       MPI_Comm comm)
{
	MPI_Count size = 0;

	if (dest < 0)		/* MPI_PROC_NULL */
		return;
	if (PMPI_Type_size_x(type, &size) != MPI_SUCCESS || size < 0)
		size = 0;
	shim_count(&shim.page->msgs_sent, 1);
	shim_count(&shim.page->bytes_sent, (uint64_t)count * (uint64_t)size);
	shim_notify_arrival(shim_rank_to_world(shim_rank_map(comm), dest), tag);
}

SHIM_ACTIVE_PATH
static int send_started(shim_isend_fn start, const void *buf, int count,
			MPI_Datatype type, int dest, int tag, MPI_Comm comm,
			MPI_Request *req)
{
	int rc;

	shim_comm_enter();
	rc = start(buf, count, type, dest, tag, comm, req);
	if (rc == MPI_SUCCESS)
		shim_sent(count, type, dest, tag, comm);
	shim_comm_leave();
	return rc;
}

SHIM_ACTIVE_PATH
static int send_blocking(shim_isend_fn start, const void *buf, int count,
			 MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	MPI_Request req;
	int rc;

	shim_comm_enter();
	rc = start(buf, count, type, dest, tag, comm, &req);
	if (rc == MPI_SUCCESS) {
		shim_sent(count, type, dest, tag, comm);
		rc = PMPI_Wait(&req, MPI_STATUS_IGNORE);
	}
	shim_comm_leave();
	return rc;
}

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest,
	     int tag, MPI_Comm comm)
{
	if (!shim.active)
		return PMPI_Send(buf, count, type, dest, tag, comm);
	return send_blocking(PMPI_Isend, buf, count, type, dest, tag, comm);
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest,
	      int tag, MPI_Comm comm)
{
	if (!shim.active)
		return PMPI_Ssend(buf, count, type, dest, tag, comm);
	return send_blocking(PMPI_Issend, buf, count, type, dest, tag, comm);
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest,
	      int tag, MPI_Comm comm)
{
	if (!shim.active)
		return PMPI_Rsend(buf, count, type, dest, tag, comm);
	return send_blocking(PMPI_Irsend, buf, count, type, dest, tag, comm);
}

int MPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest,
	      int tag, MPI_Comm comm)
{
	if (!shim.active)
		return PMPI_Bsend(buf, count, type, dest, tag, comm);
	return send_blocking(PMPI_Ibsend, buf, count, type, dest, tag, comm);
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest,
	      int tag, MPI_Comm comm, MPI_Request *req)
{
	if (!shim.active)
		return PMPI_Isend(buf, count, type, dest, tag, comm, req);
	return send_started(PMPI_Isend, buf, count, type, dest, tag, comm,
			    req);
}

int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest,
	       int tag, MPI_Comm comm, MPI_Request *req)
{
	if (!shim.active)
		return PMPI_Issend(buf, count, type, dest, tag, comm, req);
	return send_started(PMPI_Issend, buf, count, type, dest, tag, comm,
			    req);
}

int MPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest,
	       int tag, MPI_Comm comm, MPI_Request *req)
{
	if (!shim.active)
		return PMPI_Irsend(buf, count, type, dest, tag, comm, req);
	return send_started(PMPI_Irsend, buf, count, type, dest, tag, comm,
			    req);
}

int MPI_Ibsend(const void *buf, int count, MPI_Datatype type, int dest,
	       int tag, MPI_Comm comm, MPI_Request *req)
{
	if (!shim.active)
		return PMPI_Ibsend(buf, count, type, dest, tag, comm, req);
	return send_started(PMPI_Ibsend, buf, count, type, dest, tag, comm,
			    req);
}
