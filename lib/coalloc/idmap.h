/*
 * idmap.h - a map from 32-bit job ids to slot indices.
 *
 * Open addressing with linear probing and backward-shift deletion, so
 * lookups stay O(1) on average however many jobs come and go (no
 * tombstones pile up across a long-running slurmctld).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_IDMAP_H
#define COALLOC_IDMAP_H

#include <stddef.h>
#include <stdint.h>

struct coalloc_idmap {
	uint32_t *keys;
	int32_t *vals;		/* -1 marks an empty bucket */
	size_t mask;		/* bucket count - 1 (a power of two) */
	size_t count;
};

int coalloc_idmap_init(struct coalloc_idmap *map);
void coalloc_idmap_free(struct coalloc_idmap *map);

/* The value stored for id, or -1. */
int32_t coalloc_idmap_get(const struct coalloc_idmap *map, uint32_t id);

/* Insert or replace; val must be >= 0.  Returns 0 or -ENOMEM. */
int coalloc_idmap_put(struct coalloc_idmap *map, uint32_t id, int32_t val);

/* Remove id; returns 0, or -ENOENT when it was not there. */
int coalloc_idmap_del(struct coalloc_idmap *map, uint32_t id);

#endif /* COALLOC_IDMAP_H */
