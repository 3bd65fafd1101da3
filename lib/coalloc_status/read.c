/*
 * read.c - reading select/coalloc's status (the JSON the plugin writes,
 * full or public, see status_json.h), shared by coalloc-status's outputs.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "status_json.h"

const char *status_str(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return "-";
	return json_object_get_string(v);
}

int64_t status_int(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_int64(v) : 0;
}

json_object *status_array(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_array))
		return NULL;
	return v;
}

bool status_busy(json_object *o)
{
	json_object *busy;

	if (json_object_object_get_ex(o, COALLOC_STATUS_BUSY, &busy))
		return json_object_get_boolean(busy);
	return status_int(o, COALLOC_STATUS_JOB) != 0;
}

bool status_jobs_private(json_object *root)
{
	json_object *v;

	return json_object_object_get_ex(root, COALLOC_STATUS_PRIVATE_JOBS, &v) &&
	       json_object_get_boolean(v);
}

/* Does any job hold the node, in any row? */
static bool _node_busy(json_object *n)
{
	json_object *cells = status_array(n, "cells");

	if (status_busy(n))
		return true;
	for (size_t r = 0; cells && r < json_object_array_length(cells); r++)
		if (status_busy(json_object_array_get_idx(cells, r)))
			return true;
	return false;
}

/* Busy nodes of a site, from the per-node table. */
static int _busy_on(json_object *nodes, const char *site)
{
	int busy = 0;

	for (size_t i = 0; nodes && i < json_object_array_length(nodes); i++) {
		json_object *n = json_object_array_get_idx(nodes, i);

		if (!strcmp(status_str(n, "site"), site) && _node_busy(n))
			busy++;
	}
	return busy;
}

bool status_queue_enabled(json_object *queue)
{
	json_object *en;

	return json_object_object_get_ex(queue, "enabled", &en) &&
	       json_object_get_boolean(en);
}

int status_site_busy(json_object *site, json_object *nodes)
{
	json_object *busy;

	if (json_object_object_get_ex(site, "busy", &busy))
		return json_object_get_int(busy);
	return _busy_on(nodes, status_str(site, "name"));	/* older plugins */
}
