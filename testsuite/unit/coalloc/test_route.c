/*
 * test_route.c - which queue a job joins (lib/coalloc/route.c): the
 * paper's rule per policy family, the rules of the ordered and flexible
 * requests, the refusals; and the simulator and the select plugin route
 * the same jobs the same way: each simulated job, written as the user's
 * --coalloc text, goes the plugin's path (parse, resolve on the sites,
 * the request of its shape, route) and lands in the queue the simulator
 * gave it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coalloc/route.h"
#include "coalloc/shape.h"
#include "coalloc_sim/simulate.h"
#include "coalloc_sim/workload.h"
#include "tap.h"

#define G COALLOC_QUEUE_GLOBAL
#define NONE COALLOC_ORIGIN_NONE
#define NO_LOCAL COALLOC_ROUTE_NO_LOCAL
#define WRONG COALLOC_ROUTE_WRONG_SITE

struct rule {
	const char *what;
	enum coalloc_policy policy;
	enum coalloc_request_type type;
	unsigned ncomp;
	int named;		/* ordered, single component: its site */
	int origin;
	int want;
};

static const struct rule rules[] = {
	{ "GS: a local job goes global", COALLOC_POLICY_GS, COALLOC_REQ_UNORDERED, 1, -1, 2, G },
	{ "GS: a job without origin too", COALLOC_POLICY_GS, COALLOC_REQ_UNORDERED, 1, -1, NONE, G },
	{ "LS: a multi-component job stays local", COALLOC_POLICY_LS_RO, COALLOC_REQ_UNORDERED, 3, -1, 2, 2 },
	{ "LS: a flexible job stays local", COALLOC_POLICY_LS_OR, COALLOC_REQ_FLEXIBLE, 0, -1, 1, 1 },
	{ "LS: no origin, no queue", COALLOC_POLICY_LS_DO, COALLOC_REQ_UNORDERED, 2, -1, NONE, NO_LOCAL },
	{ "GP: single component local", COALLOC_POLICY_GP, COALLOC_REQ_UNORDERED, 1, -1, 3, 3 },
	{ "GP: multi-component global", COALLOC_POLICY_GP, COALLOC_REQ_UNORDERED, 2, -1, 3, G },
	{ "EQ: flexible routes as multi-component", COALLOC_POLICY_EQ_GF, COALLOC_REQ_FLEXIBLE, 0, -1, 0, G },
	{ "LP: single component without origin: no queue", COALLOC_POLICY_LP_LF, COALLOC_REQ_UNORDERED, 1, -1, NONE, NO_LOCAL },
	{ "LQ: multi-component without origin: global", COALLOC_POLICY_LQ, COALLOC_REQ_UNORDERED, 2, -1, NONE, G },
	{ "a named single component: its site's job", COALLOC_POLICY_LP_GF, COALLOC_REQ_ORDERED, 1, 2, NONE, 2 },
	{ "... through its own site's queue", COALLOC_POLICY_EQ_LF, COALLOC_REQ_ORDERED, 1, 2, 2, 2 },
	{ "... through another site's: the wrong site", COALLOC_POLICY_EQ_LF, COALLOC_REQ_ORDERED, 1, 2, 1, WRONG },
	{ "... under GS too", COALLOC_POLICY_GS, COALLOC_REQ_ORDERED, 1, 2, 1, WRONG },
	{ "... and under GS from no origin: global", COALLOC_POLICY_GS, COALLOC_REQ_ORDERED, 1, 2, NONE, G },
	{ "an ordered multi-component job: global", COALLOC_POLICY_GP, COALLOC_REQ_ORDERED, 2, -1, 1, G },
};

static void test_rules(void)
{
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		const struct rule *r = &rules[i];
		struct coalloc_request req = {
			.type = r->type, .ncomp = r->ncomp, .total = 4,
		};

		for (unsigned k = 0; k < r->ncomp; k++) {
			req.size[k] = 2;
			req.want_site[k] = COALLOC_SITE_ANY;
		}
		if (r->named >= 0)
			req.want_site[0] = (int16_t)r->named;
		is_int(coalloc_route(r->policy, &req, r->origin), r->want,
		       "%s (%s)", r->what, coalloc_policy_name(r->policy));
	}
}

/* A simulated job as the user's --coalloc text; *flex_total its -N. */
static void _as_text(const struct sim_job *sj, char *buf, size_t len,
		     uint32_t *flex_total)
{
	struct coalloc_sizes sizes = { .type = sj->type };

	*flex_total = 0;
	if (sj->type == COALLOC_REQ_FLEXIBLE) {
		for (unsigned k = 0; k < sj->ncomp; k++)
			*flex_total += sj->size[k];
	} else {
		sizes.count = sj->ncomp;
		for (unsigned k = 0; k < sj->ncomp; k++) {
			sizes.nodes[k] = sj->size[k];
			if (sj->type == COALLOC_REQ_ORDERED)
				snprintf(sizes.site[k], sizeof(sizes.site[k]),
					 "s%d", sj->want_site[k]);
		}
	}
	if (coalloc_format_sizes(&sizes, buf, len))
		buf[0] = '\0';
}

/* The plugin's path: text, sizes, shape on the sites, request, route. */
static int _plugin_queue(const struct sim_job *sj,
			 const struct coalloc_site_list *sites,
			 enum coalloc_policy policy, int *queue)
{
	char text[COALLOC_SIZES_TEXT_LEN], err[256];
	struct coalloc_sizes sizes;
	struct coalloc_shape shape;
	struct coalloc_request req;
	uint32_t flex_total;

	_as_text(sj, text, sizeof(text), &flex_total);
	if (coalloc_parse_sizes(text, &sizes, err, sizeof(err)) ||
	    coalloc_shape_resolve(&sizes, sites, flex_total, &shape, err,
				  sizeof(err))) {
		diag("job '%s' refused: %s", text, err);
		return -1;
	}
	coalloc_request_from_shape(&shape, 1, sj->arrival, &req);
	*queue = coalloc_route(policy, &req, (int)sj->origin);
	return 0;
}

static void test_same_as_simulator(void)
{
	struct workload_params wp;
	struct coalloc_site_list sites = { 0 };
	struct sim_job *jobs = NULL;
	size_t checked = 0, differ = 0, refused = 0, kinds[3] = { 0 };

	workload_defaults(&wp);
	wp.njobs = 3000;
	wp.request_mix[MIX_ORDERED] = wp.request_mix[MIX_UNORDERED] =
		wp.request_mix[MIX_FLEXIBLE] = 1.0 / 3;
	if (workload_generate(&wp, 7, &jobs) ||
	    workload_apply_mix(&wp, 7, jobs, wp.njobs)) {
		ok(0, "the simulator's workload");
		return;
	}
	sites.count = wp.nsites;
	for (unsigned i = 0; i < wp.nsites; i++) {
		snprintf(sites.name[i], sizeof(sites.name[i]), "s%u", i);
		sites.nodes[i] = wp.site_procs[i];
	}
	for (int p = 0; p < COALLOC_POLICY_COUNT; p++) {
		for (size_t i = 0; i < wp.njobs; i++) {
			struct coalloc_request sim;
			int plugin;

			sim_job_request(&jobs[i], (uint32_t)i + 1, p, &sim);
			if (_plugin_queue(&jobs[i], &sites, p, &plugin)) {
				refused++;
				continue;
			}
			checked++;
			kinds[jobs[i].type]++;
			if (plugin != sim.queue && differ++ < 5)
				diag("%s, job %zu: the plugin routes it to %d, the simulator to %d",
				     coalloc_policy_name(p), i, plugin, sim.queue);
		}
	}
	ok(kinds[COALLOC_REQ_UNORDERED] && kinds[COALLOC_REQ_ORDERED] &&
	   kinds[COALLOC_REQ_FLEXIBLE],
	   "every request type among the jobs (%zu unordered, %zu ordered, %zu flexible)",
	   kinds[COALLOC_REQ_UNORDERED], kinds[COALLOC_REQ_ORDERED],
	   kinds[COALLOC_REQ_FLEXIBLE]);
	is_int(refused, 0, "the plugin's path takes every simulated job");
	is_int(differ, 0, "the plugin and the simulator route all %zu (job, policy) pairs alike",
	       checked);
	free(jobs);
}

int main(void)
{
	test_rules();
	test_same_as_simulator();
	return done_testing();
}
