/*
 * write.c - select/coalloc's status JSON as the plugin writes it: the
 * node table's entries and the public form (see status_json.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "status_json.h"

json_object *coalloc_status_cell(uint32_t job, bool replica)
{
	json_object *c = json_object_new_object();

	json_object_object_add(c, COALLOC_STATUS_JOB, json_object_new_int64(job));
	json_object_object_add(c, "replica", json_object_new_boolean(replica));
	return c;
}

json_object *coalloc_status_node(const char *name, const char *site,
				 uint32_t job, json_object *cells)
{
	json_object *n = json_object_new_object();

	json_object_object_add(n, "name", json_object_new_string(name));
	json_object_object_add(n, "site", site && site[0] ?
			       json_object_new_string(site) : NULL);
	json_object_object_add(n, COALLOC_STATUS_JOB, json_object_new_int64(job));
	json_object_object_add(n, "cells", cells);
	return n;
}

/* A node's or a cell's job id becomes whether it has one. */
static void _job_to_busy(json_object *o)
{
	json_object *job;
	bool busy;

	if (!json_object_object_get_ex(o, COALLOC_STATUS_JOB, &job))
		return;
	busy = json_object_get_int64(job) != 0;
	json_object_object_del(o, COALLOC_STATUS_JOB);
	json_object_object_add(o, COALLOC_STATUS_BUSY, json_object_new_boolean(busy));
}

/* The node table without a job id: nodes and their cells say "busy". */
static void _hide_jobs(json_object *root)
{
	json_object *nodes = status_array(root, "nodes");

	for (size_t i = 0; nodes && i < json_object_array_length(nodes); i++) {
		json_object *n = json_object_array_get_idx(nodes, i);
		json_object *cells = status_array(n, "cells");

		_job_to_busy(n);
		for (size_t r = 0; cells && r < json_object_array_length(cells); r++)
			_job_to_busy(json_object_array_get_idx(cells, r));
	}
	json_object_object_add(root, COALLOC_STATUS_PRIVATE_JOBS,
			       json_object_new_boolean(true));
}

char *coalloc_status_public(json_object *root, bool private_jobs, size_t max)
{
	int flags = JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE;
	const char *text;

	if (private_jobs)
		_hide_jobs(root);
	text = json_object_to_json_string_ext(root, flags);
	if (text && strlen(text) > max) {
		json_object_object_del(root, "nodes");
		json_object_object_add(root, COALLOC_STATUS_NODES_OMITTED,
				       json_object_new_boolean(true));
		text = json_object_to_json_string_ext(root, flags);
	}
	return text ? strdup(text) : NULL;
}
