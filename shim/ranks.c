/*
 * ranks.c - ranks of any communicator as ranks of MPI_COMM_WORLD, which
 * name the pages.
 *
 * The table of a communicator is built on its first use and cached on it
 * as an MPI attribute, so MPI frees it with the communicator; for an
 * inter-communicator it covers the remote group (the one send and receive
 * ranks refer to).  Communicators with the group of MPI_COMM_WORLD, the
 * usual duplicates, share a static identity map.  A receive request still
 * pending when its communicator is freed holds its own reference.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdlib.h>

#include "shim.h"

struct shim_rank_map {
	_Atomic int refs;
	bool identity;		/* world itself or the same group */
	int size;
	int world[];		/* rank i -> world rank, -1: not in world */
};

static struct shim_rank_map world_identity = { .identity = true };
static MPI_Group world_group = MPI_GROUP_NULL;
static int map_keyval = MPI_KEYVAL_INVALID;

/*
 * The last communicator looked up, when one thread calls MPI: an
 * attribute lookup costs about as much as the rest of the shim's work on
 * a message.  Forgotten when the communicator is freed (map_delete), so a
 * new one at the same handle cannot inherit the map.
 */
static MPI_Comm last_comm = MPI_COMM_NULL;
static struct shim_rank_map *last_map;

struct shim_rank_map *shim_rank_map_hold(struct shim_rank_map *map)
{
	if (map && !map->identity)
		atomic_fetch_add(&map->refs, 1);
	return map;
}

void shim_rank_map_drop(struct shim_rank_map *map)
{
	if (map && !map->identity && atomic_fetch_sub(&map->refs, 1) == 1)
		free(map);
}

static int map_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
	(void)keyval;
	(void)extra;
	if (comm == last_comm)
		last_comm = MPI_COMM_NULL;
	shim_rank_map_drop(value);
	return MPI_SUCCESS;
}

int shim_ranks_init(void)
{
	if (PMPI_Comm_group(MPI_COMM_WORLD, &world_group) != MPI_SUCCESS)
		return -1;
	if (PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, map_delete,
				    &map_keyval, NULL) != MPI_SUCCESS) {
		PMPI_Group_free(&world_group);
		return -1;
	}
	return 0;
}

void shim_ranks_fini(void)
{
	last_comm = MPI_COMM_NULL;
	if (map_keyval != MPI_KEYVAL_INVALID)
		PMPI_Comm_free_keyval(&map_keyval);
	if (world_group != MPI_GROUP_NULL)
		PMPI_Group_free(&world_group);
}

static struct shim_rank_map *map_from_group(MPI_Group group)
{
	struct shim_rank_map *map = NULL;
	int *ranks = NULL;
	int n, same;

	if (PMPI_Group_compare(group, world_group, &same) != MPI_SUCCESS)
		return NULL;
	if (same == MPI_IDENT)
		return &world_identity;
	if (PMPI_Group_size(group, &n) != MPI_SUCCESS)
		return NULL;
	map = malloc(sizeof(*map) + (size_t)n * sizeof(int));
	ranks = malloc((size_t)n * sizeof(int) + 1);
	if (!map || !ranks)
		goto fail;
	for (int i = 0; i < n; i++)
		ranks[i] = i;
	if (PMPI_Group_translate_ranks(group, n, ranks, world_group,
				       map->world) != MPI_SUCCESS)
		goto fail;
	for (int i = 0; i < n; i++)
		if (map->world[i] == MPI_UNDEFINED)
			map->world[i] = -1;
	atomic_init(&map->refs, 1);
	map->identity = false;
	map->size = n;
	free(ranks);
	return map;
fail:
	free(ranks);
	free(map);
	return NULL;
}

static struct shim_rank_map *map_build(MPI_Comm comm)
{
	struct shim_rank_map *map;
	MPI_Group group;
	int inter = 0;

	if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS)
		return NULL;
	if ((inter ? PMPI_Comm_remote_group(comm, &group) :
		     PMPI_Comm_group(comm, &group)) != MPI_SUCCESS)
		return NULL;
	map = map_from_group(group);
	PMPI_Group_free(&group);
	return map;
}

static struct shim_rank_map *map_cached(MPI_Comm comm)
{
	void *value = NULL;
	int found = 0;

	if (PMPI_Comm_get_attr(comm, map_keyval, &value, &found) !=
	    MPI_SUCCESS || !found)
		return NULL;
	return value;
}

SHIM_FIRST_USE
static struct shim_rank_map *map_attach(MPI_Comm comm)
{
	struct shim_rank_map *map;

	shim_lock();	/* two threads must not both cache one */
	map = map_cached(comm);
	if (!map) {
		map = map_build(comm);
		if (map && PMPI_Comm_set_attr(comm, map_keyval, map) !=
			   MPI_SUCCESS) {
			shim_rank_map_drop(map);
			map = NULL;
		}
	}
	shim_unlock();
	return map;
}

/* A communicator other than the last one: its attribute, or a new map. */
SHIM_ACTIVE_PATH
static struct shim_rank_map *map_lookup(MPI_Comm comm)
{
	struct shim_rank_map *map;

	if (comm == MPI_COMM_NULL)
		return NULL;
	map = map_cached(comm);
	if (!map)
		map = map_attach(comm);
	if (map && !shim.threaded) {
		last_comm = comm;
		last_map = map;
	}
	return map;
}

/*
 * The map of a communicator, valid while it lives; NULL when it cannot be
 * had (then its messages are not matched to pages: counted as from or to
 * another host).
 */
struct shim_rank_map *shim_rank_map(MPI_Comm comm)
{
	if (comm == MPI_COMM_WORLD)
		return &world_identity;
	if (comm == last_comm && !shim.threaded)
		return last_map;
	return map_lookup(comm);
}

int shim_rank_to_world(const struct shim_rank_map *map, int rank)
{
	if (!map || rank < 0)
		return -1;
	if (map->identity)
		return rank < shim.world_size ? rank : -1;
	return rank < map->size ? map->world[rank] : -1;
}

/*
 * What a receive waits for, as the shared page says it: the world rank of
 * the source (or any) and the tag (or any).  Here, beside the rank maps,
 * so that the request table and the wait loop both use them without
 * calling each other.
 */
int shim_wait_src(const struct shim_rank_map *map, int source)
{
	int world = -1;

	if (source != MPI_ANY_SOURCE)
		world = shim_rank_to_world(map, source);
	return world < 0 ? COSCHED_SHM_ANY : world;
}

int shim_wait_tag(int tag)
{
	return tag == MPI_ANY_TAG || tag < 0 ? COSCHED_SHM_ANY : tag;
}
