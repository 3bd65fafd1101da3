/*
 * requests.c - the receive requests started by MPI_Irecv and not yet
 * completed, so that a wait or test that completes one can count the
 * message (received, and consumed when it came from this host) and knows
 * to wait for it under the wait policy.  Requests of sends, collectives
 * and persistent operations are not here, and count nothing.
 *
 * An open-addressing hash set keyed by the request handle, with linear
 * probing and backward-shift deletion (no tombstones), grown at half
 * load.  When it cannot grow, a request is just not tracked.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdlib.h>

#include "shim.h"

_Static_assert(sizeof(MPI_Request) <= sizeof(uintptr_t),
	       "a request handle fits a key");

#define REQS_MIN_BITS 6

struct req_slot {
	uintptr_t key;		/* 0: empty */
	struct shim_recv_req req;
};

static struct req_slot *slots;
static unsigned bits;
static size_t used;

static uintptr_t req_key(MPI_Request req)
{
	return (uintptr_t)req;
}

static size_t slot_of(uintptr_t key)
{
	/* handles are aligned pointers: mix the bits before taking the top */
	return (size_t)(((uint64_t)key * 0x9e3779b97f4a7c15ull) >>
			(64 - bits));
}

static size_t mask(void)
{
	return ((size_t)1 << bits) - 1;
}

static void insert_slot(uintptr_t key, const struct shim_recv_req *req)
{
	size_t i = slot_of(key);

	while (slots[i].key)
		i = (i + 1) & mask();
	slots[i].key = key;
	slots[i].req = *req;
	used++;
}

static int grow(void)
{
	struct req_slot *old = slots;
	size_t old_n = old ? (size_t)1 << bits : 0;
	unsigned new_bits = old ? bits + 1 : REQS_MIN_BITS;
	struct req_slot *fresh = calloc((size_t)1 << new_bits, sizeof(*fresh));

	if (!fresh)
		return -1;
	slots = fresh;
	bits = new_bits;
	used = 0;
	for (size_t i = 0; i < old_n; i++)
		if (old[i].key)
			insert_slot(old[i].key, &old[i].req);
	free(old);
	return 0;
}

/* Index of a key's slot, or -1. */
static long find(uintptr_t key)
{
	size_t i;

	if (!slots)
		return -1;
	for (i = slot_of(key); slots[i].key; i = (i + 1) & mask())
		if (slots[i].key == key)
			return (long)i;
	return -1;
}

/* Close the gap at i by moving back the entries that probed past it. */
static void remove_slot(size_t hole)
{
	size_t i = hole;

	for (;;) {
		size_t home;

		i = (i + 1) & mask();
		if (!slots[i].key)
			break;
		home = slot_of(slots[i].key);
		/* movable unless its home lies cyclically in (hole, i] */
		if (((i - home) & mask()) >= ((i - hole) & mask())) {
			slots[hole] = slots[i];
			hole = i;
		}
	}
	slots[hole].key = 0;
	used--;
}

static void track(MPI_Request req, struct shim_rank_map *map,
		  struct shim_recv_req entry)
{
	if (req == MPI_REQUEST_NULL)
		return;
	shim_lock();
	if ((!slots || 2 * (used + 1) > ((size_t)1 << bits)) && grow()) {
		shim_unlock();
		return;
	}
	entry.map = shim_rank_map_hold(map);
	insert_slot(req_key(req), &entry);
	shim_unlock();
}

void shim_reqs_track(MPI_Request req, MPI_Comm comm, int source, int tag)
{
	struct shim_rank_map *map = shim_rank_map(comm);

	track(req, map, (struct shim_recv_req) {
		.src = shim_wait_src(map, source), .tag = shim_wait_tag(tag),
	});
}

/* A collective waits for anything from anyone, and its completion is no
 * message of the program's (its status says nothing). */
void shim_reqs_track_collective(MPI_Request req, MPI_Comm comm)
{
	track(req, shim_rank_map(comm), (struct shim_recv_req) {
		.src = COSCHED_SHM_ANY, .tag = COSCHED_SHM_ANY,
		.collective = true,
	});
}

bool shim_reqs_peek(MPI_Request req, struct shim_recv_req *out)
{
	long i;

	if (req == MPI_REQUEST_NULL)
		return false;
	shim_lock();
	i = find(req_key(req));
	if (i >= 0 && out)
		*out = slots[i].req;
	shim_unlock();
	return i >= 0;
}

bool shim_reqs_take(MPI_Request req, struct shim_recv_req *out)
{
	long i;

	if (req == MPI_REQUEST_NULL)
		return false;
	shim_lock();
	i = find(req_key(req));
	if (i >= 0) {
		*out = slots[i].req;
		remove_slot((size_t)i);
	}
	shim_unlock();
	return i >= 0;
}

void shim_reqs_clear(void)
{
	size_t n = slots ? (size_t)1 << bits : 0;

	for (size_t i = 0; i < n; i++)
		if (slots[i].key)
			shim_rank_map_drop(slots[i].req.map);
	free(slots);
	slots = NULL;
	bits = 0;
	used = 0;
}
