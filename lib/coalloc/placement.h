/*
 * placement.h - Worst Fit placement of co-allocation requests (Bucur and
 * Epema, section 2.4): unordered ones, ordered ones whose components name
 * their sites, and flexible ones split over as few sites as they need.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_PLACEMENT_H
#define COALLOC_PLACEMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "coalloc/limits.h"
#include "coalloc/sizes.h"

/*
 * Place the components of a request, given in decreasing order of size,
 * each on a distinct site: every component goes to the unused site with the
 * most idle processors (ties to the lowest site index).  only_site >= 0
 * restricts a single-component request to that site (a local job).
 *
 * Returns true and fills sites[0..ncomp) when every component fits at
 * once; false (sites undefined) otherwise.  idle is not modified.
 */
bool coalloc_worst_fit(const uint32_t *idle, unsigned nsites,
		       const uint32_t *sizes, unsigned ncomp, int only_site,
		       uint16_t *sites);

/* A component of an ordered request that names no site. */
#define COALLOC_SITE_ANY (-1)

/* A request with its sites resolved to indices (shape.c makes one). */
struct coalloc_shape {
	enum coalloc_request_type type;
	unsigned ncomp;				/* 0 when flexible */
	uint32_t size[COALLOC_MAX_SITES];	/* decreasing */
	int16_t site[COALLOC_MAX_SITES];	/* ordered: site or SITE_ANY */
	uint32_t total;				/* flexible: nodes in all */
};

/* Where a request goes: component k, size[k] processors, on site[k]. */
struct coalloc_fit {
	unsigned ncomp;
	uint32_t size[COALLOC_MAX_SITES];	/* decreasing */
	uint16_t site[COALLOC_MAX_SITES];	/* distinct */
};

/*
 * Sort component sizes largest first, carrying each one's site along
 * (site may be NULL): requests keep their named sites through the sort.
 */
void coalloc_sort_largest_first(uint32_t *size, int16_t *site, unsigned n);

/*
 * Place a request on the idle processors of nsites sites:
 *   unordered  coalloc_worst_fit();
 *   ordered    each named component on its site, then the others by
 *              Worst Fit over the sites not named;
 *   flexible   the sites in decreasing order of idle processors, each
 *              taken whole until the total is reached (the last one
 *              partly): the fewest sites that hold it, the emptiest ones.
 * only_site >= 0 keeps a single-component request on that site.  Returns
 * true and fills fit when it fits now; false (fit undefined) otherwise.
 */
bool coalloc_shape_fit(const uint32_t *idle, unsigned nsites,
		       const struct coalloc_shape *shape, int only_site,
		       struct coalloc_fit *fit);

#endif /* COALLOC_PLACEMENT_H */
