/*
 * ping.c - the MPI program test_shim.sh runs under libcosched_mpi.so.
 *
 * Ranks pair as r and r^1 and exchange -n messages of -c doubles each
 * way, the odd rank sleeping -d microseconds before every reply (so that
 * the even one waits past its spin time).  -m picks the calls: recv
 * (MPI_Send/MPI_Recv), irecv (MPI_Irecv with MPI_Waitall or MPI_Wait) or
 * sendrecv (MPI_Sendrecv both ways at once).  -C exchanges on a
 * communicator split off MPI_COMM_WORLD with the ranks in reverse order
 * (the shim must translate them to name pages).  -F exits without
 * MPI_Finalize.  -m coll runs -n rounds of collectives instead, every
 * rank at once, the odd ranks -d microseconds late into each round's
 * MPI_Allreduce (so that the even ones wait past their spin time), each
 * result checked:
 *   coll rank=R rounds=N calls=C errors=E
 * (C: the collective calls made, the final barrier not included).
 *
 * After a barrier (so every arrival notice is in), each rank prints its
 * own page as the node agent would read it, opened read-only from the
 * step's page directory (COSCHED_PAGE_DIR):
 *   page rank=R key=value ...     or     nopage rank=R
 * and the even rank of a pair the round trips: rtt rank=R min_ns= avg_ns=
 * and, with -c 2 or more in recv mode, the one-way delay of the replies
 * (from the replier's MPI_Send to the return of MPI_Recv, the stamp in
 * the last double; both ranks on one host read the same clock):
 *   oneway rank=R n= median_ns= p10_ns= p90_ns= max_ns=
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "cosched/shm.h"
#include "page_print.h"

#define PING_TAG 7

struct opts {
	int rounds;
	int count;
	useconds_t delay_us;
	const char *mode;
	int finalize;
	int reversed;
	MPI_Comm comm;
	uint64_t *oneway;	/* per round, the replies' delays */
	int n_oneway;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int parse(int argc, char **argv, struct opts *o)
{
	int c;

	*o = (struct opts){ .rounds = 10, .count = 1, .mode = "recv",
			    .finalize = 1 };
	while ((c = getopt(argc, argv, "n:c:d:m:FC")) != -1) {
		switch (c) {
		case 'n': o->rounds = atoi(optarg); break;
		case 'c': o->count = atoi(optarg); break;
		case 'd': o->delay_us = (useconds_t)atoi(optarg); break;
		case 'm': o->mode = optarg; break;
		case 'F': o->finalize = 0; break;
		case 'C': o->reversed = 1; break;
		default: return -1;
		}
	}
	if (o->count < 1 || o->rounds < 0 ||
	    (strcmp(o->mode, "recv") && strcmp(o->mode, "irecv") &&
	     strcmp(o->mode, "sendrecv") && strcmp(o->mode, "coll")))
		return -1;
	return 0;
}

/* The replier stamps its reply in the last double (-c 2 or more). */
static void stamp(const struct opts *o, double *out)
{
	if (o->count >= 2)
		out[o->count - 1] = (double)now_ns();
}

static void took(struct opts *o, const double *in)
{
	if (o->count >= 2 && o->oneway && in[o->count - 1] > 0)
		o->oneway[o->n_oneway++] =
			now_ns() - (uint64_t)in[o->count - 1];
}

/* One exchange; the even rank (first) sends first. */
static void exchange(struct opts *o, int peer, int first, double *out,
		     double *in)
{
	MPI_Request req[2];

	if (!strcmp(o->mode, "sendrecv")) {
		if (!first && o->delay_us)
			usleep(o->delay_us);
		MPI_Sendrecv(out, o->count, MPI_DOUBLE, peer, PING_TAG, in,
			     o->count, MPI_DOUBLE, peer, PING_TAG,
			     o->comm, MPI_STATUS_IGNORE);
	} else if (!strcmp(o->mode, "irecv") && first) {
		MPI_Irecv(in, o->count, MPI_DOUBLE, peer, PING_TAG,
			  o->comm, &req[0]);
		MPI_Isend(out, o->count, MPI_DOUBLE, peer, PING_TAG,
			  o->comm, &req[1]);
		MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
	} else if (!strcmp(o->mode, "irecv")) {
		MPI_Irecv(in, o->count, MPI_DOUBLE, peer, PING_TAG,
			  o->comm, &req[0]);
		MPI_Wait(&req[0], MPI_STATUS_IGNORE);
		usleep(o->delay_us);
		MPI_Send(out, o->count, MPI_DOUBLE, peer, PING_TAG,
			 o->comm);
	} else if (first) {
		MPI_Send(out, o->count, MPI_DOUBLE, peer, PING_TAG,
			 o->comm);
		MPI_Recv(in, o->count, MPI_DOUBLE, peer, PING_TAG,
			 o->comm, MPI_STATUS_IGNORE);
		took(o, in);
	} else {
		MPI_Recv(in, o->count, MPI_DOUBLE, MPI_ANY_SOURCE,
			 MPI_ANY_TAG, o->comm, MPI_STATUS_IGNORE);
		if (o->delay_us)
			usleep(o->delay_us);
		stamp(o, out);
		MPI_Send(out, o->count, MPI_DOUBLE, peer, PING_TAG,
			 o->comm);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void print_oneway(struct opts *o, int world_rank)
{
	uint64_t *d = o->oneway;
	int n = o->n_oneway;

	if (n < 1)
		return;
	qsort(d, (size_t)n, sizeof(*d), cmp_u64);
	printf("oneway rank=%d n=%d median_ns=%llu p10_ns=%llu p90_ns=%llu "
	       "max_ns=%llu\n", world_rank, n,
	       (unsigned long long)d[n / 2], (unsigned long long)d[n / 10],
	       (unsigned long long)d[n * 9 / 10],
	       (unsigned long long)d[n - 1]);
}

static void ping(struct opts *o, int world_rank)
{
	int rank, size, peer, first;
	double *out = calloc((size_t)o->count, sizeof(double));
	double *in = calloc((size_t)o->count, sizeof(double));
	uint64_t best = UINT64_MAX, total = 0;

	MPI_Comm_rank(o->comm, &rank);
	MPI_Comm_size(o->comm, &size);
	peer = rank ^ 1;
	first = rank < peer;
	o->oneway = calloc((size_t)o->rounds + 1, sizeof(*o->oneway));
	if (!out || !in || peer >= size)
		goto out;
	for (int i = 0; i < o->rounds; i++) {
		uint64_t t0 = now_ns(), rtt;

		out[0] = i;
		exchange(o, peer, first, out, in);
		rtt = now_ns() - t0;
		total += rtt;
		if (rtt < best)
			best = rtt;
	}
	if (first && o->rounds)
		printf("rtt rank=%d n=%d min_ns=%llu avg_ns=%llu\n", world_rank,
		       o->rounds, (unsigned long long)best,
		       (unsigned long long)(total / (uint64_t)o->rounds));
	if (first)
		print_oneway(o, world_rank);
out:
	free(o->oneway);
	free(out);
	free(in);
}

/* One round of collectives on o->comm: the errors found. */
static int coll_round(const struct opts *o, int i, int rank, int size,
		      int *calls)
{
	int n = size * (size + 1) / 2, errors = 0;
	int one = rank + 1, sum = 0, got = -1, all[64], part[64];
	MPI_Request req;

	if (size > 64)
		return 1;
	if (rank & 1)
		usleep(o->delay_us);
	MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, o->comm);
	errors += sum != n;
	got = rank == i % size ? i : -1;
	MPI_Bcast(&got, 1, MPI_INT, i % size, o->comm);
	errors += got != i;
	MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_MAX, o->comm, &req);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	errors += sum != size;
	MPI_Allgather(&one, 1, MPI_INT, all, 1, MPI_INT, o->comm);
	for (int r = 0; r < size; r++)
		errors += all[r] != r + 1;
	for (int r = 0; r < size; r++)
		part[r] = rank * size + r;
	MPI_Alltoall(part, 1, MPI_INT, all, 1, MPI_INT, o->comm);
	for (int r = 0; r < size; r++)
		errors += all[r] != r * size + rank;
	MPI_Scan(&one, &sum, 1, MPI_INT, MPI_SUM, o->comm);
	errors += sum != (rank + 1) * (rank + 2) / 2;
	sum = -1;
	MPI_Reduce(&one, &sum, 1, MPI_INT, MPI_SUM, 0, o->comm);
	errors += rank == 0 && sum != n;
	MPI_Ibarrier(o->comm, &req);
	MPI_Waitall(1, &req, MPI_STATUSES_IGNORE);
	*calls += 8;
	return errors;
}

static void coll(const struct opts *o, int world_rank)
{
	int rank, size, calls = 0, errors = 0;

	MPI_Comm_rank(o->comm, &rank);
	MPI_Comm_size(o->comm, &size);
	for (int i = 0; i < o->rounds; i++)
		errors += coll_round(o, i, rank, size, &calls);
	printf("coll rank=%d rounds=%d calls=%d errors=%d\n", world_rank,
	       o->rounds, calls, errors);
}

int main(int argc, char **argv)
{
	struct opts o;
	int rank, size;

	if (parse(argc, argv, &o)) {
		fprintf(stderr, "usage: ping [-n rounds] [-c doubles] "
			"[-d delay_us] [-m recv|irecv|sendrecv|coll] [-F]\n");
		return 2;
	}
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	o.comm = MPI_COMM_WORLD;
	if (o.reversed)
		MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &o.comm);
	if (!strcmp(o.mode, "coll"))
		coll(&o, rank);
	else
		ping(&o, rank);
	if (o.reversed)
		MPI_Comm_free(&o.comm);
	MPI_Barrier(MPI_COMM_WORLD);
	print_page(rank);
	if (!o.finalize)
		exit(0);
	MPI_Finalize();
	return 0;
}
