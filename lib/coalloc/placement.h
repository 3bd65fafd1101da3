/*
 * placement.h - Worst Fit placement of unordered co-allocation requests
 * (Bucur and Epema, section 2.4).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_PLACEMENT_H
#define COALLOC_PLACEMENT_H

#include <stdbool.h>
#include <stdint.h>

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

#endif /* COALLOC_PLACEMENT_H */
