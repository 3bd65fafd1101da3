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
#include <string.h>

#include "coalloc/limits.h"
#include "coalloc/placement.h"

/* The unused site with the most idle processors (ties: lowest index). */
static int _emptiest_unused(const uint32_t *idle, unsigned nsites,
			    const bool *used)
{
	int best = -1;

	for (unsigned s = 0; s < nsites; s++)
		if (!used[s] && (best < 0 || idle[s] > idle[best]))
			best = (int)s;
	return best;
}

/*
 * The components that name no site (named NULL: all of them), largest
 * first, each on the emptiest site not used yet.
 */
static bool _worst_fit_free(const uint32_t *idle, unsigned nsites,
			    bool *used, const uint32_t *sizes,
			    const int16_t *named, unsigned ncomp,
			    uint16_t *sites)
{
	for (unsigned c = 0; c < ncomp; c++) {
		int best;

		if (named && named[c] != COALLOC_SITE_ANY)
			continue;
		best = _emptiest_unused(idle, nsites, used);
		/* the emptiest unused site is the only candidate worth trying */
		if (best < 0 || idle[best] < sizes[c])
			return false;
		used[best] = true;
		sites[c] = (uint16_t)best;
	}
	return true;
}

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
	return _worst_fit_free(idle, nsites, used, sizes, NULL, ncomp, sites);
}

void coalloc_sort_largest_first(uint32_t *size, int16_t *site, unsigned n)
{
	for (unsigned i = 1; i < n; i++) {
		uint32_t sz = size[i];
		int16_t st = site ? site[i] : COALLOC_SITE_ANY;
		unsigned k = i;

		for (; k > 0 && size[k - 1] < sz; k--) {
			size[k] = size[k - 1];
			if (site)
				site[k] = site[k - 1];
		}
		size[k] = sz;
		if (site)
			site[k] = st;
	}
}

/*
 * Named components on their sites, then the free ones largest first on
 * the emptiest unused sites: the greedy argument above holds for the
 * free components over the sites left.
 */
static bool _ordered_fit(const uint32_t *idle, unsigned nsites,
			 const struct coalloc_shape *shape,
			 struct coalloc_fit *fit)
{
	bool used[COALLOC_MAX_SITES] = { false };

	for (unsigned c = 0; c < shape->ncomp; c++) {
		int s = shape->site[c];

		if (s == COALLOC_SITE_ANY)
			continue;
		if (s < 0 || (unsigned)s >= nsites || used[s] ||
		    idle[s] < shape->size[c])
			return false;
		used[s] = true;
		fit->site[c] = (uint16_t)s;
	}
	return _worst_fit_free(idle, nsites, used, shape->size, shape->site,
			       shape->ncomp, fit->site);
}

/*
 * Taking the emptiest sites whole is what makes the count minimal: no
 * k sites hold more idle processors than the k emptiest.
 */
static bool _flexible_fit(const uint32_t *idle, unsigned nsites,
			  uint32_t total, struct coalloc_fit *fit)
{
	bool used[COALLOC_MAX_SITES] = { false };
	uint32_t left = total;

	fit->ncomp = 0;
	while (left) {
		int best = _emptiest_unused(idle, nsites, used);

		if (best < 0 || !idle[best])
			return false;
		used[best] = true;
		fit->site[fit->ncomp] = (uint16_t)best;
		fit->size[fit->ncomp++] = idle[best] < left ? idle[best] : left;
		left -= fit->size[fit->ncomp - 1];
	}
	return true;
}

bool coalloc_shape_fit(const uint32_t *idle, unsigned nsites,
		       const struct coalloc_shape *shape, int only_site,
		       struct coalloc_fit *fit)
{
	if (!shape || nsites > COALLOC_MAX_SITES)
		return false;
	if (shape->type == COALLOC_REQ_FLEXIBLE)
		return shape->total && _flexible_fit(idle, nsites, shape->total,
						     fit);
	if (shape->ncomp == 0 || shape->ncomp > nsites)
		return false;
	fit->ncomp = shape->ncomp;
	memcpy(fit->size, shape->size, shape->ncomp * sizeof(fit->size[0]));
	if (shape->type == COALLOC_REQ_ORDERED) {
		if (only_site >= 0 && shape->site[0] != COALLOC_SITE_ANY &&
		    shape->site[0] != only_site)
			return false;
		if (only_site < 0 || shape->ncomp != 1)
			return _ordered_fit(idle, nsites, shape, fit);
	}
	return coalloc_worst_fit(idle, nsites, shape->size, shape->ncomp,
				 only_site, fit->site);
}
