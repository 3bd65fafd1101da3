/*
 * complete.c - the calls that complete requests.  A wait that includes a
 * receive started by MPI_Irecv is a receiver's wait (wait.c); every
 * completion of such a receive, by a wait, a test or MPI_Request_free,
 * takes it out of the table (requests.c) and counts the message.
 *
 * MPI sets completed requests to MPI_REQUEST_NULL, so the handles are
 * saved before the call; statuses the caller ignores are still needed for
 * the counts, so the shim passes its own.  Small batches use the stack.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "shim.h"

#define BATCH_SMALL 16

struct batch {
	int count;
	MPI_Request *saved;	/* the handles before the call */
	MPI_Status *st;		/* the statuses passed to MPI */
	int receives;		/* tracked receives among them */
	struct shim_recv_req one; /* the receive, when it is the only one */
	MPI_Request saved_small[BATCH_SMALL];
	MPI_Status st_small[BATCH_SMALL];
};

/* n_st: count for an array of statuses, 1 for Waitany's single one. */
static int batch_open(struct batch *b, int count, const MPI_Request *reqs,
		      MPI_Status *user_st, int n_st)
{
	b->count = count;
	b->receives = 0;
	b->saved = count <= BATCH_SMALL ? b->saved_small :
					  malloc((size_t)count * sizeof(*reqs));
	b->st = user_st;
	if (user_st == MPI_STATUSES_IGNORE || user_st == MPI_STATUS_IGNORE)
		b->st = n_st <= BATCH_SMALL ? b->st_small :
			malloc((size_t)n_st * sizeof(MPI_Status));
	if (!b->saved || !b->st)
		goto fail;
	if (count > 0)
		memcpy(b->saved, reqs, (size_t)count * sizeof(*reqs));
	return 0;
fail:
	if (b->saved != b->saved_small)
		free(b->saved);
	if (b->st != user_st && b->st != b->st_small)
		free(b->st);
	return -1;
}

static void batch_close(struct batch *b, MPI_Status *user_st)
{
	if (b->saved != b->saved_small)
		free(b->saved);
	if (b->st != user_st && b->st != b->st_small)
		free(b->st);
}

/* Before a wait: is it a receiver's, and for what. */
static void batch_find_receives(struct batch *b)
{
	struct shim_recv_req req;

	for (int i = 0; i < b->count; i++)
		if (shim_reqs_peek(b->saved[i], &req) && b->receives++ == 0)
			b->one = req;
}

static int batch_src(const struct batch *b)
{
	return b->receives == 1 ? b->one.src : COSCHED_SHM_ANY;
}

static int batch_tag(const struct batch *b)
{
	return b->receives == 1 ? b->one.tag : COSCHED_SHM_ANY;
}

/*
 * Request i of the batch was among those completed, with status st; err
 * is the call's return code.  Under MPI_ERR_IN_STATUS each status says
 * whether its request completed; under another error only a request set
 * to MPI_REQUEST_NULL is known to be gone.
 */
static void batch_completed(struct batch *b, int i, const MPI_Status *st,
			    int err, const MPI_Request *reqs)
{
	if (i < 0 || i >= b->count)	/* MPI_UNDEFINED, or unset on error */
		return;
	if (err == MPI_SUCCESS) {
		shim_recv_completed(b->saved[i], st);
	} else if (err == MPI_ERR_IN_STATUS) {
		if (st->MPI_ERROR != MPI_ERR_PENDING)
			shim_recv_completed(b->saved[i],
					    st->MPI_ERROR == MPI_SUCCESS ?
					    st : NULL);
	} else if (reqs[i] == MPI_REQUEST_NULL) {
		shim_recv_completed(b->saved[i], NULL);
	}
}

static void batch_all_completed(struct batch *b, int err,
				const MPI_Request *reqs)
{
	for (int i = 0; i < b->count; i++)
		batch_completed(b, i, &b->st[i], err, reqs);
}

/* Waitsome/Testsome: statuses follow the order of indices. */
static void batch_some_completed(struct batch *b, int outcount,
				 const int *indices, int err,
				 const MPI_Request *reqs)
{
	if (outcount < 0 || outcount > b->count)	/* MPI_UNDEFINED */
		return;
	for (int k = 0; k < outcount; k++)
		batch_completed(b, indices[k], &b->st[k], err, reqs);
}

/* ---------------------------------------------------------------- wait */

struct poll_one {
	struct shim_poll poll;
	MPI_Request *req;
	MPI_Status *st;
};

static int one_test(struct shim_poll *poll, int *done)
{
	struct poll_one *p = (struct poll_one *)poll;

	return PMPI_Test(p->req, done, p->st);
}

static int one_call(struct shim_poll *poll)
{
	struct poll_one *p = (struct poll_one *)poll;

	return PMPI_Wait(p->req, p->st);
}

SHIM_ACTIVE_PATH
static int wait_active(MPI_Request *req, MPI_Status *status)
{
	struct shim_recv_req tracked;
	MPI_Status own;
	struct poll_one p = {
		.poll = { one_test, one_call },
		.req = req,
		.st = status == MPI_STATUS_IGNORE ? &own : status,
	};
	MPI_Request saved = *req;
	int rc;

	if (!shim_reqs_peek(saved, &tracked)) {
		shim_comm_enter();
		rc = PMPI_Wait(req, status);
		shim_comm_leave();
		return rc;
	}
	rc = shim_wait(&p.poll, tracked.src, tracked.tag);
	shim_recv_completed(saved, rc == MPI_SUCCESS ? p.st : NULL);
	return rc;
}

int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
	if (!shim.active)
		return PMPI_Wait(req, status);
	return wait_active(req, status);
}

struct poll_many {
	struct shim_poll poll;
	int count;
	MPI_Request *reqs;
	MPI_Status *st;
	int *index;		/* Waitany */
	int *outcount;		/* Waitsome */
	int *indices;
};

/*
 * A wait on a batch: a receiver's wait when it includes a tracked
 * receive, else MPI's own wait (poll->call) with only in_comm set.
 */
static int batch_wait(struct batch *b, struct poll_many *p)
{
	int rc;

	p->st = b->st;
	batch_find_receives(b);
	if (b->receives)
		return shim_wait(&p->poll, batch_src(b), batch_tag(b));
	shim_comm_enter();
	rc = p->poll.call(&p->poll);
	shim_comm_leave();
	return rc;
}

static int all_test(struct shim_poll *poll, int *done)
{
	struct poll_many *p = (struct poll_many *)poll;

	return PMPI_Testall(p->count, p->reqs, done, p->st);
}

static int all_call(struct shim_poll *poll)
{
	struct poll_many *p = (struct poll_many *)poll;

	return PMPI_Waitall(p->count, p->reqs, p->st);
}

SHIM_ACTIVE_PATH
static int waitall_active(int count, MPI_Request reqs[], MPI_Status *statuses)
{
	struct batch b;
	struct poll_many p = {
		.poll = { all_test, all_call }, .count = count, .reqs = reqs,
	};
	int rc;

	if (batch_open(&b, count, reqs, statuses, count))
		return PMPI_Waitall(count, reqs, statuses);
	rc = batch_wait(&b, &p);
	if (b.receives)
		batch_all_completed(&b, rc, reqs);
	batch_close(&b, statuses);
	return rc;
}

int MPI_Waitall(int count, MPI_Request reqs[], MPI_Status *statuses)
{
	if (!shim.active)
		return PMPI_Waitall(count, reqs, statuses);
	return waitall_active(count, reqs, statuses);
}

static int any_test(struct shim_poll *poll, int *done)
{
	struct poll_many *p = (struct poll_many *)poll;

	return PMPI_Testany(p->count, p->reqs, p->index, done, p->st);
}

static int any_call(struct shim_poll *poll)
{
	struct poll_many *p = (struct poll_many *)poll;

	return PMPI_Waitany(p->count, p->reqs, p->index, p->st);
}

SHIM_ACTIVE_PATH
static int waitany_active(int count, MPI_Request reqs[], int *index,
			  MPI_Status *status)
{
	struct batch b;
	struct poll_many p = {
		.poll = { any_test, any_call }, .count = count, .reqs = reqs,
		.index = index,
	};
	int rc;

	if (batch_open(&b, count, reqs, status, 1))
		return PMPI_Waitany(count, reqs, index, status);
	rc = batch_wait(&b, &p);
	if (b.receives)
		batch_completed(&b, *index, b.st, rc, reqs);
	batch_close(&b, status);
	return rc;
}

int MPI_Waitany(int count, MPI_Request reqs[], int *index,
		MPI_Status *status)
{
	if (!shim.active)
		return PMPI_Waitany(count, reqs, index, status);
	return waitany_active(count, reqs, index, status);
}

static int some_test(struct shim_poll *poll, int *done)
{
	struct poll_many *p = (struct poll_many *)poll;
	int rc = PMPI_Testsome(p->count, p->reqs, p->outcount, p->indices,
			       p->st);

	*done = *p->outcount != 0;
	return rc;
}

static int some_call(struct shim_poll *poll)
{
	struct poll_many *p = (struct poll_many *)poll;

	return PMPI_Waitsome(p->count, p->reqs, p->outcount, p->indices,
			     p->st);
}

SHIM_ACTIVE_PATH
static int waitsome_active(int incount, MPI_Request reqs[], int *outcount,
			   int indices[], MPI_Status statuses[])
{
	struct batch b;
	struct poll_many p = {
		.poll = { some_test, some_call }, .count = incount,
		.reqs = reqs, .outcount = outcount, .indices = indices,
	};
	int rc;

	if (batch_open(&b, incount, reqs, statuses, incount))
		return PMPI_Waitsome(incount, reqs, outcount, indices,
				     statuses);
	rc = batch_wait(&b, &p);
	if (b.receives)
		batch_some_completed(&b, *outcount, indices, rc, reqs);
	batch_close(&b, statuses);
	return rc;
}

int MPI_Waitsome(int incount, MPI_Request reqs[], int *outcount,
		 int indices[], MPI_Status statuses[])
{
	if (!shim.active)
		return PMPI_Waitsome(incount, reqs, outcount, indices,
				     statuses);
	return waitsome_active(incount, reqs, outcount, indices, statuses);
}

/* ---------------------------------------------------------------- test */

SHIM_ACTIVE_PATH
static int test_active(MPI_Request *req, int *flag, MPI_Status *status)
{
	MPI_Status own;
	MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
	MPI_Request saved = *req;
	int rc = PMPI_Test(req, flag, st);

	if (rc == MPI_SUCCESS && *flag)
		shim_recv_completed(saved, st);
	else if (rc != MPI_SUCCESS && *req == MPI_REQUEST_NULL)
		shim_recv_completed(saved, NULL);
	return rc;
}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
	if (!shim.active || *req == MPI_REQUEST_NULL)
		return PMPI_Test(req, flag, status);
	return test_active(req, flag, status);
}

SHIM_ACTIVE_PATH
static int testall_active(int count, MPI_Request reqs[], int *flag,
			  MPI_Status statuses[])
{
	struct batch b;
	int rc;

	if (batch_open(&b, count, reqs, statuses, count))
		return PMPI_Testall(count, reqs, flag, statuses);
	rc = PMPI_Testall(count, reqs, flag, b.st);
	if (rc != MPI_SUCCESS || *flag)
		batch_all_completed(&b, rc, reqs);
	batch_close(&b, statuses);
	return rc;
}

int MPI_Testall(int count, MPI_Request reqs[], int *flag,
		MPI_Status statuses[])
{
	if (!shim.active)
		return PMPI_Testall(count, reqs, flag, statuses);
	return testall_active(count, reqs, flag, statuses);
}

SHIM_ACTIVE_PATH
static int testany_active(int count, MPI_Request reqs[], int *index,
			  int *flag, MPI_Status *status)
{
	struct batch b;
	int rc;

	if (batch_open(&b, count, reqs, status, 1))
		return PMPI_Testany(count, reqs, index, flag, status);
	rc = PMPI_Testany(count, reqs, index, flag, b.st);
	if (rc != MPI_SUCCESS || *flag)
		batch_completed(&b, *index, b.st, rc, reqs);
	batch_close(&b, status);
	return rc;
}

int MPI_Testany(int count, MPI_Request reqs[], int *index, int *flag,
		MPI_Status *status)
{
	if (!shim.active)
		return PMPI_Testany(count, reqs, index, flag, status);
	return testany_active(count, reqs, index, flag, status);
}

SHIM_ACTIVE_PATH
static int testsome_active(int incount, MPI_Request reqs[], int *outcount,
			   int indices[], MPI_Status statuses[])
{
	struct batch b;
	int rc;

	if (batch_open(&b, incount, reqs, statuses, incount))
		return PMPI_Testsome(incount, reqs, outcount, indices,
				     statuses);
	rc = PMPI_Testsome(incount, reqs, outcount, indices, b.st);
	batch_some_completed(&b, *outcount, indices, rc, reqs);
	batch_close(&b, statuses);
	return rc;
}

int MPI_Testsome(int incount, MPI_Request reqs[], int *outcount,
		 int indices[], MPI_Status statuses[])
{
	if (!shim.active)
		return PMPI_Testsome(incount, reqs, outcount, indices,
				     statuses);
	return testsome_active(incount, reqs, outcount, indices, statuses);
}

/* The receive may still complete, unseen: it can no longer be counted. */
int MPI_Request_free(MPI_Request *req)
{
	MPI_Request saved;
	int rc;

	if (!shim.active)
		return PMPI_Request_free(req);
	saved = *req;
	rc = PMPI_Request_free(req);
	if (rc == MPI_SUCCESS)
		shim_recv_completed(saved, NULL);
	return rc;
}
