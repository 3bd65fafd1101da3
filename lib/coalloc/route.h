/*
 * route.h - which queue a job joins: the one routing rule that the select
 * plugin and the simulator (lib/coalloc_sim) both apply to a request.
 *
 * Bucur and Epema (section 2.5, coalloc_policy_queue_for): GS puts every
 * job in the global queue, LS every job in the local queue of the site
 * it was submitted to (its origin), the other families single-component
 * jobs in their origin's local queue and multi-component ones in the
 * global queue.  This suite's request types add two rules:
 *
 *  - a flexible request (total processors over as few sites as hold
 *    them) may span sites: it routes as a multi-component job;
 *  - a single-component ordered request names its site: it is that
 *    site's local job, wherever it came from, unless it came through
 *    another site's local queue (it names the wrong site).
 *
 * A job without an origin (the plugin's GlobalPartition) that the policy
 * would put in a local queue has none to go to.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_ROUTE_H
#define COALLOC_ROUTE_H

#include "coalloc/engine.h"

/* coalloc_route()'s refusals (queue indices are >= COALLOC_QUEUE_GLOBAL) */
#define COALLOC_ROUTE_NO_LOCAL (-101)	/* single-site job, no origin */
#define COALLOC_ROUTE_WRONG_SITE (-102)	/* names another site than its
					 * origin */

/* No origin: the job came through the global queue's own partition. */
#define COALLOC_ORIGIN_NONE (-1)

/*
 * The engine request of a job whose --coalloc resolved to shape
 * (shape.h; a job without --coalloc is one unordered component of its
 * node count): type, components and sites, or the flexible total.  Its
 * queue is coalloc_route()'s to give.
 */
void coalloc_request_from_shape(const struct coalloc_shape *shape,
				uint32_t id, double submit_time,
				struct coalloc_request *req);

/*
 * The queue of req (its type, ncomp and want_site are read) submitted at
 * origin (a site index, or COALLOC_ORIGIN_NONE) under policy: a site
 * index, COALLOC_QUEUE_GLOBAL, or one of the refusals above.
 */
int coalloc_route(enum coalloc_policy policy,
		  const struct coalloc_request *req, int origin);

#endif /* COALLOC_ROUTE_H */
