/*
 * nodepick.h - node-exclusive node selection, free of Slurm headers.
 *
 * The select plugin translates Slurm's bitmaps into the flat arrays below
 * and back; everything that decides *which* nodes a job gets lives here so
 * it can be unit-tested and shared with the simulator.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_NODEPICK_H
#define COALLOC_NODEPICK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a job asks for, in node-exclusive terms. */
struct nodepick_request {
	uint32_t min_nodes;	/* at least this many nodes */
	uint32_t max_nodes;	/* at most this many (0: no limit) */
	uint32_t want_nodes;	/* desired count, min..max (0: min_nodes) */
	uint64_t min_cpus;	/* the chosen nodes' usable CPUs add up to this */
	bool contiguous;	/* nodes must be consecutive in index order */
};

/* The nodes, indexed as the caller's node table. */
struct nodepick_nodes {
	size_t count;
	const bool *usable;	/* may be given to the job now */
	const bool *required;	/* must be part of the allocation (or NULL) */
	const uint32_t *cpus;	/* CPUs the job may use on each node */
};

struct nodepick_result {
	uint32_t nodes;		/* how many nodes were chosen */
	uint64_t cpus;		/* their usable CPUs, summed */
};

/*
 * Choose nodes for an exclusive allocation: every required node, then the
 * lowest-indexed usable nodes until the request is met (the desired count
 * when there are enough nodes, otherwise at least the minimum).  With
 * 'contiguous' the allocation is the first window of consecutive usable
 * nodes that holds every required node and meets the request.
 *
 * chosen[count] is written (true for chosen nodes) only on success.
 * Returns 0 on success, -1 when the request cannot be met from these nodes.
 */
int nodepick_exclusive(const struct nodepick_request *req,
		       const struct nodepick_nodes *nodes, bool *chosen,
		       struct nodepick_result *result);

#endif /* COALLOC_NODEPICK_H */
