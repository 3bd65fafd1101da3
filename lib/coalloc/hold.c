/*
 * hold.c - the waiting jobs of the PreemptPartition (hold.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "coalloc/hold.h"

static int _find(const struct coalloc_hold *h, uint32_t job)
{
	for (size_t i = 0; i < h->n; i++)
		if (h->jobs[i].job == job)
			return (int)i;
	return -1;
}

void coalloc_hold_forget(struct coalloc_hold *h, uint32_t job)
{
	int i = _find(h, job);

	if (i < 0)
		return;
	memmove(&h->jobs[i], &h->jobs[i + 1],
		(h->n - (size_t)i - 1) * sizeof(h->jobs[0]));
	h->n--;
}

void coalloc_hold_note(struct coalloc_hold *h, uint32_t job, int64_t now)
{
	if (_find(h, job) >= 0)
		return;
	if (h->n == COALLOC_HOLD_JOBS)	/* the first seen is first to end */
		coalloc_hold_forget(h, h->jobs[0].job);
	h->jobs[h->n].job = job;
	h->jobs[h->n].since = now;
	h->n++;
}

bool coalloc_hold_over(const struct coalloc_hold *h, size_t i, int64_t now,
		       unsigned limit)
{
	return i >= h->n || now - h->jobs[i].since >= (int64_t)limit;
}
