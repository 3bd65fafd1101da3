/*
 * route.c - which queue a job joins (see route.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "coalloc/placement.h"
#include "coalloc/route.h"

/* The site a single-component ordered request names, or -1. */
static int _named_site(const struct coalloc_request *req)
{
	if (req->type != COALLOC_REQ_ORDERED || req->ncomp != 1 ||
	    req->want_site[0] == COALLOC_SITE_ANY)
		return -1;
	return req->want_site[0];
}

void coalloc_request_from_shape(const struct coalloc_shape *shape,
				uint32_t id, double submit_time,
				struct coalloc_request *req)
{
	*req = (struct coalloc_request) {
		.id = id, .type = shape->type, .ncomp = shape->ncomp,
		.total = shape->total, .submit_time = submit_time,
	};
	memcpy(req->size, shape->size, shape->ncomp * sizeof(shape->size[0]));
	memcpy(req->want_site, shape->site,
	       shape->ncomp * sizeof(shape->site[0]));
}

int coalloc_route(enum coalloc_policy policy,
		  const struct coalloc_request *req, int origin)
{
	int named = _named_site(req);
	/* flexible: it may span sites (policy.h's ncomp 0) */
	unsigned ncomp = req->type == COALLOC_REQ_FLEXIBLE ? 0 : req->ncomp;
	int queue;

	if (named >= 0 && origin >= 0 && named != origin)
		return COALLOC_ROUTE_WRONG_SITE;
	if (coalloc_policy_family(policy) == COALLOC_FAMILY_GS)
		return COALLOC_QUEUE_GLOBAL;
	if (named >= 0)
		origin = named;
	queue = coalloc_policy_queue_for(policy, ncomp, origin < 0 ? 0 :
						       (unsigned)origin);
	if (origin < 0 && queue != COALLOC_QUEUE_GLOBAL)
		return COALLOC_ROUTE_NO_LOCAL;
	return queue;
}
