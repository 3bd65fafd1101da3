/*
 * idmap.c - job id to slot index map (see idmap.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "coalloc/idmap.h"

#define IDMAP_MIN_BUCKETS 64

static inline size_t idmap_hash(uint32_t id)
{
	/* Slurm ids are sequential; a multiplicative hash spreads them */
	return (size_t)((id * 0x9e3779b1U) ^ (id >> 16));
}

static int idmap_alloc(struct coalloc_idmap *map, size_t buckets)
{
	map->keys = calloc(buckets, sizeof(*map->keys));
	map->vals = malloc(buckets * sizeof(*map->vals));
	if (!map->keys || !map->vals) {
		free(map->keys);
		free(map->vals);
		map->keys = NULL;
		map->vals = NULL;
		return -ENOMEM;
	}
	memset(map->vals, 0xff, buckets * sizeof(*map->vals));
	map->mask = buckets - 1;
	map->count = 0;
	return 0;
}

int coalloc_idmap_init(struct coalloc_idmap *map)
{
	return idmap_alloc(map, IDMAP_MIN_BUCKETS);
}

void coalloc_idmap_free(struct coalloc_idmap *map)
{
	free(map->keys);
	free(map->vals);
	map->keys = NULL;
	map->vals = NULL;
	map->mask = 0;
	map->count = 0;
}

static size_t idmap_find(const struct coalloc_idmap *map, uint32_t id)
{
	size_t i = idmap_hash(id) & map->mask;

	while (map->vals[i] >= 0 && map->keys[i] != id)
		i = (i + 1) & map->mask;
	return i;
}

int32_t coalloc_idmap_get(const struct coalloc_idmap *map, uint32_t id)
{
	return map->vals[idmap_find(map, id)];
}

static int idmap_grow(struct coalloc_idmap *map)
{
	struct coalloc_idmap old = *map;
	int rc = idmap_alloc(map, (old.mask + 1) * 2);

	if (rc) {
		*map = old;
		return rc;
	}
	for (size_t i = 0; i <= old.mask; i++) {
		if (old.vals[i] < 0)
			continue;
		size_t j = idmap_find(map, old.keys[i]);

		map->keys[j] = old.keys[i];
		map->vals[j] = old.vals[i];
		map->count++;
	}
	coalloc_idmap_free(&old);
	return 0;
}

int coalloc_idmap_put(struct coalloc_idmap *map, uint32_t id, int32_t val)
{
	size_t i;

	/* keep the load factor at or below one half */
	if ((map->count + 1) * 2 > map->mask + 1) {
		int rc = idmap_grow(map);

		if (rc)
			return rc;
	}
	i = idmap_find(map, id);
	if (map->vals[i] < 0)
		map->count++;
	map->keys[i] = id;
	map->vals[i] = val;
	return 0;
}

int coalloc_idmap_del(struct coalloc_idmap *map, uint32_t id)
{
	size_t i = idmap_find(map, id), j;

	if (map->vals[i] < 0)
		return -ENOENT;
	map->vals[i] = -1;
	map->count--;
	/* shift later members of the probe run back so lookups never stop early */
	j = i;
	for (;;) {
		j = (j + 1) & map->mask;
		if (map->vals[j] < 0)
			break;
		size_t home = idmap_hash(map->keys[j]) & map->mask;

		/* move j into the hole at i unless its home lies in (i, j] */
		if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
			continue;
		map->keys[i] = map->keys[j];
		map->vals[i] = map->vals[j];
		map->vals[j] = -1;
		i = j;
	}
	return 0;
}
