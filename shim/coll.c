/*
 * coll.c - the collectives.  A process inside MPI_Allreduce, MPI_Barrier
 * or MPI_Bcast waits for messages as one in MPI_Recv does, so the shim
 * shows it the same way to the node agent (in_recv, in_comm, from anyone
 * with any tag) and makes it wait the same way:
 *   - busy waiting (COSCHED_WAIT_BUSY): MPI's own blocking collective,
 *     with the flags set around it;
 *   - SB and SY: the non-blocking collective (MPI-3) started, then polled
 *     with PMPI_Test under the wait policy (wait.c), as a receive is.
 * A non-blocking collective the program starts itself is remembered like
 * an MPI_Irecv, so that the wait completing it is a receiver's wait
 * (complete.c); its completion counts no message.  Every collective
 * counts in the page's collectives.
 *
 * One table: each row gives the blocking call, its non-blocking
 * counterpart, the parameters and the arguments.  The neighbourhood and
 * persistent collectives (MPI-4) are left to MPI.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "shim.h"

/* What a collective does in this process. */
enum coll_how {
	COLL_PLAIN,	/* the shim is off: MPI's call, nothing else */
	COLL_BUSY,	/* MPI's blocking call, flagged */
	COLL_POLL,	/* the non-blocking one, polled by the wait policy */
};

static enum coll_how coll_how(void)
{
	if (!shim.active)
		return COLL_PLAIN;
	shim_count(&shim.page->collectives, 1);
	return shim.cfg.wait == COSCHED_WAIT_BUSY ? COLL_BUSY : COLL_POLL;
}

struct poll_coll {
	struct shim_poll poll;	/* first: the callbacks get this address */
	MPI_Request req;
};

static int coll_test(struct shim_poll *poll, int *done)
{
	struct poll_coll *p = (struct poll_coll *)poll;

	return PMPI_Test(&p->req, done, MPI_STATUS_IGNORE);
}

static int coll_call(struct shim_poll *poll)
{
	struct poll_coll *p = (struct poll_coll *)poll;

	return PMPI_Wait(&p->req, MPI_STATUS_IGNORE);
}

/* The started collective's request, waited for under the policy. */
SHIM_ACTIVE_PATH
static int coll_wait(MPI_Request req)
{
	struct poll_coll p = { .poll = { coll_test, coll_call }, .req = req };

	return shim_wait(&p.poll, COSCHED_SHM_ANY, COSCHED_SHM_ANY);
}

SHIM_ACTIVE_PATH
static void coll_started(MPI_Request req, MPI_Comm comm)
{
	shim_count(&shim.page->collectives, 1);
	shim_reqs_track_collective(req, comm);
}

/* args with the request appended: the non-blocking call's arguments.
 * The caller's own request goes to MPI untouched: in a program of
 * another MPI (init.c) it is not the size of ours. */
#define WITH_REQ(...) (__VA_ARGS__, &req)
#define WITH_REQUEST(...) (__VA_ARGS__, request)

/*
 * MPI_NAME(PARAMS) and MPI_INAME(PARAMS, MPI_Request *request).  ARGS
 * names PARAMS in order; the communicator is `comm` in each.
 */
#define COLLECTIVE(NAME, INAME, PARAMS, ARGS)				\
int MPI_##NAME PARAMS							\
{									\
	MPI_Request req;						\
	uint64_t start;							\
	int rc;								\
									\
	switch (coll_how()) {						\
	case COLL_PLAIN:						\
		break;							\
	case COLL_BUSY:							\
		start = shim_wait_busy_enter();				\
		rc = PMPI_##NAME ARGS;					\
		shim_wait_busy_leave(start);				\
		return rc;						\
	case COLL_POLL:							\
		rc = PMPI_##INAME WITH_REQ ARGS;			\
		return rc == MPI_SUCCESS ? coll_wait(req) : rc;		\
	}								\
	return PMPI_##NAME ARGS;					\
}									\
									\
int MPI_##INAME(COLL_UNPAREN PARAMS, MPI_Request *request)		\
{									\
	int rc = PMPI_##INAME WITH_REQUEST ARGS;			\
									\
	if (rc == MPI_SUCCESS && shim.active)				\
		coll_started(*request, comm);				\
	return rc;							\
}

#define COLL_UNPAREN(...) __VA_ARGS__

COLLECTIVE(Barrier, Ibarrier, (MPI_Comm comm), (comm))

COLLECTIVE(Bcast, Ibcast,
	   (void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm),
	   (buf, count, type, root, comm))

COLLECTIVE(Reduce, Ireduce,
	   (const void *sbuf, void *rbuf, int count, MPI_Datatype type,
	    MPI_Op op, int root, MPI_Comm comm),
	   (sbuf, rbuf, count, type, op, root, comm))

COLLECTIVE(Allreduce, Iallreduce,
	   (const void *sbuf, void *rbuf, int count, MPI_Datatype type,
	    MPI_Op op, MPI_Comm comm),
	   (sbuf, rbuf, count, type, op, comm))

COLLECTIVE(Reduce_scatter, Ireduce_scatter,
	   (const void *sbuf, void *rbuf, const int rcounts[],
	    MPI_Datatype type, MPI_Op op, MPI_Comm comm),
	   (sbuf, rbuf, rcounts, type, op, comm))

COLLECTIVE(Reduce_scatter_block, Ireduce_scatter_block,
	   (const void *sbuf, void *rbuf, int rcount, MPI_Datatype type,
	    MPI_Op op, MPI_Comm comm),
	   (sbuf, rbuf, rcount, type, op, comm))

COLLECTIVE(Scan, Iscan,
	   (const void *sbuf, void *rbuf, int count, MPI_Datatype type,
	    MPI_Op op, MPI_Comm comm),
	   (sbuf, rbuf, count, type, op, comm))

COLLECTIVE(Exscan, Iexscan,
	   (const void *sbuf, void *rbuf, int count, MPI_Datatype type,
	    MPI_Op op, MPI_Comm comm),
	   (sbuf, rbuf, count, type, op, comm))

COLLECTIVE(Gather, Igather,
	   (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
	    int rcount, MPI_Datatype rtype, int root, MPI_Comm comm),
	   (sbuf, scount, stype, rbuf, rcount, rtype, root, comm))

COLLECTIVE(Gatherv, Igatherv,
	   (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
	    const int rcounts[], const int displs[], MPI_Datatype rtype,
	    int root, MPI_Comm comm),
	   (sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm))

COLLECTIVE(Scatter, Iscatter,
	   (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
	    int rcount, MPI_Datatype rtype, int root, MPI_Comm comm),
	   (sbuf, scount, stype, rbuf, rcount, rtype, root, comm))

COLLECTIVE(Scatterv, Iscatterv,
	   (const void *sbuf, const int scounts[], const int displs[],
	    MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
	    int root, MPI_Comm comm),
	   (sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm))

COLLECTIVE(Allgather, Iallgather,
	   (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
	    int rcount, MPI_Datatype rtype, MPI_Comm comm),
	   (sbuf, scount, stype, rbuf, rcount, rtype, comm))

COLLECTIVE(Allgatherv, Iallgatherv,
	   (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
	    const int rcounts[], const int displs[], MPI_Datatype rtype,
	    MPI_Comm comm),
	   (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm))

COLLECTIVE(Alltoall, Ialltoall,
	   (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
	    int rcount, MPI_Datatype rtype, MPI_Comm comm),
	   (sbuf, scount, stype, rbuf, rcount, rtype, comm))

COLLECTIVE(Alltoallv, Ialltoallv,
	   (const void *sbuf, const int scounts[], const int sdispls[],
	    MPI_Datatype stype, void *rbuf, const int rcounts[],
	    const int rdispls[], MPI_Datatype rtype, MPI_Comm comm),
	   (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm))

COLLECTIVE(Alltoallw, Ialltoallw,
	   (const void *sbuf, const int scounts[], const int sdispls[],
	    const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
	    const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm),
	   (sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes,
	    comm))
