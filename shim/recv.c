/*
 * recv.c - the receive calls: blocking ones become a start plus a wait
 * under the wait policy (wait.c); MPI_Irecv is remembered so that the
 * wait or test completing it counts the message (complete.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "shim.h"

struct poll_recv {
	struct shim_poll poll;	/* first: the callbacks get this address */
	void *buf;
	int count;
	MPI_Datatype type;
	int source;
	int tag;
	MPI_Comm comm;
	MPI_Status *status;
	MPI_Request req;
};

static int recv_test(struct shim_poll *poll, int *done)
{
	struct poll_recv *r = (struct poll_recv *)poll;

	return PMPI_Test(&r->req, done, r->status);
}

static int recv_call(struct shim_poll *poll)
{
	struct poll_recv *r = (struct poll_recv *)poll;

	return PMPI_Recv(r->buf, r->count, r->type, r->source, r->tag, r->comm,
			 r->status);
}

SHIM_ACTIVE_PATH
static int recv_active(void *buf, int count, MPI_Datatype type, int source,
		       int tag, MPI_Comm comm, MPI_Status *status)
{
	MPI_Status own;
	struct shim_rank_map *map = shim_rank_map(comm);
	struct poll_recv r = {
		.poll = { recv_test, recv_call },
		.buf = buf, .count = count, .type = type, .source = source,
		.tag = tag, .comm = comm,
		.status = status == MPI_STATUS_IGNORE ? &own : status,
	};
	int rc;

	if (shim.cfg.wait != COSCHED_WAIT_BUSY) {
		rc = PMPI_Irecv(buf, count, type, source, tag, comm, &r.req);
		if (rc != MPI_SUCCESS)
			return rc;
	}
	rc = shim_wait(&r.poll, shim_wait_src(map, source), shim_wait_tag(tag));
	if (rc == MPI_SUCCESS)
		shim_account_recv(r.status, map);
	return rc;
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag,
	     MPI_Comm comm, MPI_Status *status)
{
	if (!shim.active || source == MPI_PROC_NULL)
		return PMPI_Recv(buf, count, type, source, tag, comm, status);
	return recv_active(buf, count, type, source, tag, comm, status);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag,
	      MPI_Comm comm, MPI_Request *req)
{
	int rc = PMPI_Irecv(buf, count, type, source, tag, comm, req);

	if (rc == MPI_SUCCESS && shim.active && source != MPI_PROC_NULL)
		shim_reqs_track(*req, comm, source, tag);
	return rc;
}

struct poll_probe {
	struct shim_poll poll;
	int source;
	int tag;
	MPI_Comm comm;
	MPI_Status *status;
};

static int probe_test(struct shim_poll *poll, int *done)
{
	struct poll_probe *p = (struct poll_probe *)poll;

	return PMPI_Iprobe(p->source, p->tag, p->comm, done, p->status);
}

static int probe_call(struct shim_poll *poll)
{
	struct poll_probe *p = (struct poll_probe *)poll;

	return PMPI_Probe(p->source, p->tag, p->comm, p->status);
}

/* A wait like a receive's, but the message stays queued: nothing counted. */
SHIM_ACTIVE_PATH
static int probe_active(int source, int tag, MPI_Comm comm,
			MPI_Status *status)
{
	struct poll_probe p = {
		.poll = { probe_test, probe_call },
		.source = source, .tag = tag, .comm = comm, .status = status,
	};

	return shim_wait(&p.poll, shim_wait_src(shim_rank_map(comm), source),
			 shim_wait_tag(tag));
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
	if (!shim.active || source == MPI_PROC_NULL)
		return PMPI_Probe(source, tag, comm, status);
	return probe_active(source, tag, comm, status);
}

struct poll_pair {
	struct shim_poll poll;
	MPI_Request reqs[2];	/* receive first */
	MPI_Status st[2];
};

static int pair_test(struct shim_poll *poll, int *done)
{
	struct poll_pair *p = (struct poll_pair *)poll;

	return PMPI_Testall(2, p->reqs, done, p->st);
}

static int pair_call(struct shim_poll *poll)
{
	struct poll_pair *p = (struct poll_pair *)poll;

	return PMPI_Waitall(2, p->reqs, p->st);
}

SHIM_ACTIVE_PATH
static int sendrecv_active(const void *sendbuf, int sendcount,
			   MPI_Datatype sendtype, int dest, int sendtag,
			   void *recvbuf, int recvcount, MPI_Datatype recvtype,
			   int source, int recvtag, MPI_Comm comm,
			   MPI_Status *status)
{
	struct poll_pair p = { .poll = { pair_test, pair_call } };
	struct shim_rank_map *map = shim_rank_map(comm);
	int rc;

	rc = PMPI_Irecv(recvbuf, recvcount, recvtype, source, recvtag, comm,
			&p.reqs[0]);
	if (rc != MPI_SUCCESS)
		return rc;
	rc = PMPI_Isend(sendbuf, sendcount, sendtype, dest, sendtag, comm,
			&p.reqs[1]);
	if (rc != MPI_SUCCESS) {
		PMPI_Cancel(&p.reqs[0]);
		PMPI_Request_free(&p.reqs[0]);
		return rc;
	}
	shim_sent(sendcount, sendtype, dest, sendtag, comm);
	rc = shim_wait(&p.poll, shim_wait_src(map, source),
		       shim_wait_tag(recvtag));
	if (rc == MPI_SUCCESS) {
		shim_account_recv(&p.st[0], map);
		if (status != MPI_STATUS_IGNORE)
			*status = p.st[0];
	}
	return rc;
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 int dest, int sendtag, void *recvbuf, int recvcount,
		 MPI_Datatype recvtype, int source, int recvtag,
		 MPI_Comm comm, MPI_Status *status)
{
	if (!shim.active)
		return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest,
				     sendtag, recvbuf, recvcount, recvtype,
				     source, recvtag, comm, status);
	return sendrecv_active(sendbuf, sendcount, sendtype, dest, sendtag,
			       recvbuf, recvcount, recvtype, source, recvtag,
			       comm, status);
}

/*
 * No buffer of our own to receive into: MPI's call as is, counted after
 * it (the notice comes late, but comes: the counts stay balanced).
 */
SHIM_ACTIVE_PATH
static int sendrecv_replace_active(void *buf, int count, MPI_Datatype type,
				   int dest, int sendtag, int source,
				   int recvtag, MPI_Comm comm,
				   MPI_Status *status)
{
	MPI_Status own;
	MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
	int rc;

	shim_comm_enter();
	rc = PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source,
				   recvtag, comm, st);
	if (rc == MPI_SUCCESS) {
		shim_sent(count, type, dest, sendtag, comm);
		shim_account_recv(st, shim_rank_map(comm));
	}
	shim_comm_leave();
	return rc;
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest,
			 int sendtag, int source, int recvtag, MPI_Comm comm,
			 MPI_Status *status)
{
	if (!shim.active)
		return PMPI_Sendrecv_replace(buf, count, type, dest, sendtag,
					     source, recvtag, comm, status);
	return sendrecv_replace_active(buf, count, type, dest, sendtag,
				       source, recvtag, comm, status);
}
