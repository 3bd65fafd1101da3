/*
 * nodepick.c - node-exclusive node selection (see nodepick.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "nodepick/nodepick.h"

/* Counting state while nodes are added to a candidate allocation. */
struct tally {
	uint32_t nodes;
	uint64_t cpus;
};

static uint32_t _max_nodes(const struct nodepick_request *req)
{
	return req->max_nodes ? req->max_nodes : UINT32_MAX;
}

/* The count to aim for: the desired one within [min, max]. */
static uint32_t _target_nodes(const struct nodepick_request *req)
{
	uint32_t target = req->want_nodes > req->min_nodes ?
			  req->want_nodes : req->min_nodes;

	return target < _max_nodes(req) ? target : _max_nodes(req);
}

static bool _is_required(const struct nodepick_nodes *nodes, size_t i)
{
	return nodes->required && nodes->required[i];
}

static bool _satisfied(const struct nodepick_request *req,
		       const struct tally *t)
{
	return t->nodes >= req->min_nodes && t->cpus >= req->min_cpus &&
	       t->nodes > 0;
}

/* Enough to stop adding: the target count and the CPUs are reached. */
static bool _complete(const struct nodepick_request *req,
		      const struct tally *t)
{
	return _satisfied(req, t) && t->nodes >= _target_nodes(req);
}

static void _add(struct tally *t, const struct nodepick_nodes *nodes,
		 size_t i, bool *chosen)
{
	chosen[i] = true;
	t->nodes++;
	t->cpus += nodes->cpus[i];
}

static int _finish(const struct nodepick_request *req, const struct tally *t,
		   struct nodepick_result *result)
{
	if (!_satisfied(req, t) || t->nodes > _max_nodes(req))
		return -1;
	if (result) {
		result->nodes = t->nodes;
		result->cpus = t->cpus;
	}
	return 0;
}

static int _pick_scattered(const struct nodepick_request *req,
			   const struct nodepick_nodes *nodes, bool *chosen,
			   struct nodepick_result *result)
{
	struct tally t = { 0 };

	for (size_t i = 0; i < nodes->count; i++) {
		if (!_is_required(nodes, i))
			continue;
		if (!nodes->usable[i])
			return -1;
		_add(&t, nodes, i, chosen);
	}
	for (size_t i = 0; i < nodes->count; i++) {
		if (_complete(req, &t) || t.nodes >= _max_nodes(req))
			break;
		if (nodes->usable[i] && !chosen[i])
			_add(&t, nodes, i, chosen);
	}
	return _finish(req, &t, result);
}

/* Index range [first, last] of the required nodes; false when none. */
static bool _required_span(const struct nodepick_nodes *nodes, size_t *first,
			   size_t *last)
{
	bool any = false;

	for (size_t i = 0; i < nodes->count; i++) {
		if (!_is_required(nodes, i))
			continue;
		if (!any)
			*first = i;
		*last = i;
		any = true;
	}
	return any;
}

/* Grow a window from 'start' to the right; 0 when it meets the request. */
static int _try_window(const struct nodepick_request *req,
		       const struct nodepick_nodes *nodes, size_t start,
		       size_t must_reach, bool *chosen,
		       struct nodepick_result *result)
{
	struct tally t = { 0 };

	memset(chosen, 0, nodes->count * sizeof(*chosen));
	for (size_t i = start; i < nodes->count && nodes->usable[i]; i++) {
		if (t.nodes >= _max_nodes(req))
			break;
		_add(&t, nodes, i, chosen);
		if (i >= must_reach && _complete(req, &t))
			break;
	}
	if (t.nodes && start + t.nodes - 1 < must_reach)
		return -1;
	return _finish(req, &t, result);
}

static int _pick_contiguous(const struct nodepick_request *req,
			    const struct nodepick_nodes *nodes, bool *chosen,
			    struct nodepick_result *result)
{
	size_t first_req = 0, last_req = 0;
	bool has_req = _required_span(nodes, &first_req, &last_req);
	size_t last_start = has_req ? first_req : nodes->count - 1;

	for (size_t start = 0; start <= last_start && start < nodes->count;
	     start++) {
		if (!nodes->usable[start])
			continue;
		if (!_try_window(req, nodes, start, has_req ? last_req : 0,
				 chosen, result))
			return 0;
	}
	return -1;
}

int nodepick_exclusive(const struct nodepick_request *req,
		       const struct nodepick_nodes *nodes, bool *chosen,
		       struct nodepick_result *result)
{
	bool *work;
	int rc;

	if (!req || !nodes || !chosen || !nodes->count)
		return -1;
	if (req->max_nodes && req->min_nodes > req->max_nodes)
		return -1;
	/* Work on a scratch copy so 'chosen' is untouched on failure. */
	work = calloc(nodes->count, sizeof(*work));
	if (!work)
		return -1;
	if (req->contiguous)
		rc = _pick_contiguous(req, nodes, work, result);
	else
		rc = _pick_scattered(req, nodes, work, result);
	if (!rc)
		memcpy(chosen, work, nodes->count * sizeof(*chosen));
	free(work);
	return rc;
}
