/*
 * comm.c - the four communication patterns of the paper (section 3.2)
 * in point-to-point MPI, and a collective one (see comm.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "comm.h"

/* Tags keep the directions apart when both neighbours are one task. */
enum { TAG_LEFTWARD = 1, TAG_RIGHTWARD, TAG_ALL, TAG_UP, TAG_DOWN, TAG_PIPE };

int comm_init(struct comm *c, enum bench_pattern pattern, size_t msg)
{
	memset(c, 0, sizeof(*c));
	c->pattern = pattern;
	c->msg = msg;
	MPI_Comm_rank(MPI_COMM_WORLD, &c->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &c->ranks);
	c->send_buf = malloc(msg);
	c->recv_buf = malloc(msg);
	c->requests = calloc((size_t)c->ranks, sizeof(*c->requests));
	if (!c->send_buf || !c->recv_buf || !c->requests)
		goto fail;
	memset(c->send_buf, c->rank & 0xff, msg);
	memset(c->recv_buf, 0, msg);
	return 0;
fail:
	comm_fini(c);
	return -1;
}

void comm_fini(struct comm *c)
{
	free(c->send_buf);
	free(c->recv_buf);
	free(c->requests);
	c->send_buf = c->recv_buf = NULL;
	c->requests = NULL;
}

static void post_send(struct comm *c, int peer, int tag, MPI_Request *req)
{
	MPI_Isend(c->send_buf, (int)c->msg, MPI_BYTE, peer, tag,
		  MPI_COMM_WORLD, req);
}

static void send_to(struct comm *c, int peer, int tag)
{
	MPI_Send(c->send_buf, (int)c->msg, MPI_BYTE, peer, tag, MPI_COMM_WORLD);
}

static void recv_from(struct comm *c, int peer, int tag)
{
	MPI_Recv(c->recv_buf, (int)c->msg, MPI_BYTE, peer, tag,
		 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/*
 * Ring neighbours: both sends posted first (non-blocking), so no order of
 * arrival can deadlock; a message to the left is what the right
 * neighbour receives from its right.
 */
static void nearest_neighbour(struct comm *c)
{
	int left = (c->rank + c->ranks - 1) % c->ranks;
	int right = (c->rank + 1) % c->ranks;

	post_send(c, left, TAG_LEFTWARD, &c->requests[0]);
	post_send(c, right, TAG_RIGHTWARD, &c->requests[1]);
	recv_from(c, right, TAG_LEFTWARD);
	recv_from(c, left, TAG_RIGHTWARD);
	MPI_Wait(&c->requests[0], MPI_STATUS_IGNORE);
	MPI_Wait(&c->requests[1], MPI_STATUS_IGNORE);
}

/*
 * All to all: every send posted, then the receives in a staggered order
 * (rank-1, rank-2, ...) so tasks do not all wait on the same sender.
 */
static void all_to_all(struct comm *c)
{
	int k, n = c->ranks;

	for (k = 1; k < n; k++)
		post_send(c, (c->rank + k) % n, TAG_ALL, &c->requests[k - 1]);
	for (k = 1; k < n; k++)
		recv_from(c, (c->rank - k + n) % n, TAG_ALL);
	for (k = 1; k < n; k++)
		MPI_Wait(&c->requests[k - 1], MPI_STATUS_IGNORE);
}

/* Up the binary tree to rank 0 (a reduction), then down (a broadcast). */
static void tree(struct comm *c)
{
	int parent = bench_tree_parent(c->rank);
	int i, child;

	for (i = 0; i < 2; i++)
		if ((child = bench_tree_child(c->rank, i, c->ranks)) >= 0)
			recv_from(c, child, TAG_UP);
	if (parent >= 0) {
		send_to(c, parent, TAG_UP);
		recv_from(c, parent, TAG_DOWN);
	}
	for (i = 0; i < 2; i++)
		if ((child = bench_tree_child(c->rank, i, c->ranks)) >= 0)
			send_to(c, child, TAG_DOWN);
}

/* A pipeline: rank 0 starts, each stage waits for the one before it. */
static void linear(struct comm *c)
{
	if (c->rank > 0)
		recv_from(c, c->rank - 1, TAG_PIPE);
	if (c->rank + 1 < c->ranks)
		send_to(c, c->rank + 1, TAG_PIPE);
}

/* Every rank's message summed into every rank's: the collective most
 * production codes spend their communication in. */
static void allreduce(struct comm *c)
{
	MPI_Allreduce(c->send_buf, c->recv_buf, (int)(c->msg / sizeof(int)),
		      MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}

void comm_iteration(struct comm *c)
{
	if (c->ranks < 2)
		return;
	switch (c->pattern) {
	case BENCH_NN:
		nearest_neighbour(c);
		break;
	case BENCH_AA:
		all_to_all(c);
		break;
	case BENCH_TREE:
		tree(c);
		break;
	case BENCH_LINEAR:
		linear(c);
		break;
	case BENCH_ALLREDUCE:
		allreduce(c);
		break;
	case BENCH_PATTERN_COUNT:
		break;
	}
}
