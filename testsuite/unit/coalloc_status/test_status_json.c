/*
 * test_status_json.c - select/coalloc's status JSON (lib/coalloc_status):
 * the public form (CoallocStatus) keeps the job ids without PrivateData,
 * and under PrivateData=jobs carries none, anywhere, while the readers
 * still count busy nodes and rows; past the size limit the node table
 * goes, ids or not.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "coalloc_status/status_json.h"
#include "tap.h"

#define JOB_A 987654u	/* ids no count or time of the status contains */
#define JOB_B 987655u
#define BIG (64 * 1024)

/* Two rows on three nodes of site1: n1 holds A (row 0) and a replica of
 * B (row 1), n2 holds B (row 1), n3 is free. */
static json_object *_status(void)
{
	json_object *root = json_object_new_object();
	json_object *sites = json_object_new_array();
	json_object *site = json_object_new_object();
	json_object *queue = json_object_new_object();
	json_object *queues = json_object_new_array();
	json_object *nodes = json_object_new_array();
	json_object *cells[3];
	uint32_t row0[3] = { JOB_A, 0, 0 }, row1[3] = { JOB_B, JOB_B, 0 };
	uint32_t holder[3] = { JOB_A, JOB_B, 0 };
	const char *names[3] = { "n1", "n2", "n3" };

	json_object_object_add(root, "version", json_object_new_int(1));
	json_object_object_add(root, "generated", json_object_new_int64(1700000000));
	json_object_object_add(site, "name", json_object_new_string("site1"));
	json_object_object_add(site, "nodes", json_object_new_string("n[1-3]"));
	json_object_object_add(site, "total", json_object_new_int(3));
	json_object_array_add(sites, site);
	json_object_object_add(root, "sites", sites);
	json_object_object_add(queue, "name", json_object_new_string("site1"));
	json_object_object_add(queue, "length", json_object_new_int64(4));
	json_object_object_add(queue, "enabled", json_object_new_boolean(true));
	json_object_array_add(queues, queue);
	json_object_object_add(root, "queues", queues);
	json_object_object_add(root, "pending", json_object_new_int64(4));
	json_object_object_add(root, "running", json_object_new_int64(2));
	for (int i = 0; i < 3; i++) {
		cells[i] = json_object_new_array();
		json_object_array_add(cells[i], coalloc_status_cell(row0[i], false));
		json_object_array_add(cells[i], coalloc_status_cell(row1[i], i == 0));
		json_object_array_add(nodes, coalloc_status_node(
			names[i], "site1", holder[i], cells[i]));
	}
	json_object_object_add(root, "nodes", nodes);
	json_object_object_add(root, "rows", json_object_new_int(2));
	return root;
}

static json_object *_cell(json_object *root, int node, int row)
{
	json_object *n = json_object_array_get_idx(status_array(root, "nodes"), node);

	return json_object_array_get_idx(status_array(n, "cells"), row);
}

static void test_public(void)
{
	json_object *root = _status();
	char *text = coalloc_status_public(root, false, BIG);
	json_object *back = json_tokener_parse(text);

	ok(text && strstr(text, "\"job\":987654") && strstr(text, "\"job\":987655"),
	   "without PrivateData the public form keeps the job ids");
	ok(!status_jobs_private(back), "... and does not say they are private");
	ok(status_busy(_cell(back, 0, 0)) && !status_busy(_cell(back, 2, 1)),
	   "... a cell with a job reads busy, a free one not");
	is_int(status_site_busy(json_object_array_get_idx(status_array(back, "sites"), 0),
				status_array(back, "nodes")), 2,
	       "... busy nodes of the site counted from the node table");
	json_object_put(back);
	json_object_put(root);
	free(text);
}

static void test_private(void)
{
	json_object *root = _status();
	char *text = coalloc_status_public(root, true, BIG);
	json_object *back = json_tokener_parse(text);
	json_object *n1 = json_object_array_get_idx(status_array(back, "nodes"), 0);
	json_object *rep;

	ok(text && !strstr(text, "98765"), "PrivateData=jobs: no job id anywhere in the public form");
	ok(text && !strstr(text, "\"job\""), "... and no \"job\" key left");
	ok(status_jobs_private(back), "... it says the ids are private");
	ok(status_busy(n1) && !status_busy(json_object_array_get_idx(
		status_array(back, "nodes"), 2)), "... n1 reads busy, n3 free");
	ok(status_busy(_cell(back, 0, 0)) && status_busy(_cell(back, 1, 1)) &&
	   !status_busy(_cell(back, 1, 0)) && !status_busy(_cell(back, 2, 1)),
	   "... each row's cells read busy or free as before");
	ok(json_object_object_get_ex(_cell(back, 0, 1), "replica", &rep) &&
	   json_object_get_boolean(rep), "... n1's replica of B is still a replica");
	is_int(status_site_busy(json_object_array_get_idx(status_array(back, "sites"), 0),
				status_array(back, "nodes")), 2,
	       "... the site's busy count from the nodes stays 2");
	is_int((int)status_int(back, "pending"), 4, "... the queue counts stay");
	json_object_put(back);
	json_object_put(root);
	free(text);
}

static void test_too_large(void)
{
	json_object *root = _status();
	char *text = coalloc_status_public(root, true, 100);
	json_object *back = json_tokener_parse(text);
	json_object *omitted;

	ok(back && !status_array(back, "nodes") &&
	   json_object_object_get_ex(back, COALLOC_STATUS_NODES_OMITTED, &omitted) &&
	   json_object_get_boolean(omitted), "past the limit the node table is left out");
	ok(text && !strstr(text, "98765") && status_jobs_private(back),
	   "... private still, with no job id");
	json_object_put(back);
	json_object_put(root);
	free(text);
}

int main(void)
{
	test_public();
	test_private();
	test_too_large();
	return done_testing();
}
