/*
 * placement.c - Worst Fit over distinct sites, largest component first.
 *
 * Greedy largest-to-emptiest is also exact for this problem: if any
 * assignment of the components to distinct sites fits, pairing the k-th
 * largest component with the k-th emptiest site fits too, so "does not fit
 * by WF" really means "does not fit".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "coalloc/limits.h"
#include "coalloc/placement.h"

bool coalloc_worst_fit(const uint32_t *idle, unsigned nsites,
		       const uint32_t *sizes, unsigned ncomp, int only_site,
		       uint16_t *sites)
{
	bool used[COALLOC_MAX_SITES] = { false };

	if (ncomp == 0 || ncomp > nsites || nsites > COALLOC_MAX_SITES)
		return false;
	if (only_site >= 0) {
		if (ncomp != 1 || (unsigned)only_site >= nsites ||
		    idle[only_site] < sizes[0])
			return false;
		sites[0] = (uint16_t)only_site;
		return true;
	}
	for (unsigned c = 0; c < ncomp; c++) {
		int best = -1;

		for (unsigned s = 0; s < nsites; s++) {
			if (used[s])
				continue;
			if (best < 0 || idle[s] > idle[best])
				best = (int)s;
		}
		/* the emptiest unused site is the only candidate worth trying */
		if (idle[best] < sizes[c])
			return false;
		used[best] = true;
		sites[c] = (uint16_t)best;
	}
	return true;
}
