/*
 * prometheus.c - coalloc-status --prometheus: the status as metrics for
 * node-exporter's textfile collector (lib/promtext): queue lengths and
 * states, busy and idle nodes per site, matrix rows in use, when the
 * status was written, and an info metric naming the versions and the policy.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "coalloc_status/status_json.h"
#include "promtext/promtext.h"
#include "prometheus.h"

static void _info(json_object *root)
{
	struct prom_label l[] = {
		{ "version", status_str(root, "suite_version") },
		{ "slurm_version", status_str(root, "slurm_version") },
		{ "policy", status_str(root, "policy") },
		{ "matrix", status_str(root, "matrix") },
	};

	prom_single(stdout, "coalloc_info", PROM_GAUGE,
		  "select/coalloc's versions and policy (always 1).", l, 4, 1);
	/* a time, not an age: an age this command computes looks fresh
	 * in a file the textfile collector keeps after its writer died */
	prom_single(stdout, "coalloc_status_updated_timestamp_seconds",
		    PROM_GAUGE,
		    "When select/coalloc last wrote its status (Unix time).",
		    NULL, 0, (double)status_int(root, "generated"));
}

static void _sites(json_object *root)
{
	json_object *sites = status_array(root, "sites");
	json_object *nodes = status_array(root, "nodes");

	prom_family(stdout, "coalloc_site_nodes", PROM_GAUGE,
		  "Nodes of a site, busy (a job in any row) or idle.");
	for (size_t i = 0; sites && i < json_object_array_length(sites); i++) {
		json_object *s = json_object_array_get_idx(sites, i);
		const char *name = status_str(s, "name");
		int busy = status_site_busy(s, nodes);
		struct prom_label l[] = { { "site", name }, { "state", "busy" } };

		prom_sample(stdout, "coalloc_site_nodes", l, 2, busy);
		l[1].value = "idle";
		prom_sample(stdout, "coalloc_site_nodes", l, 2,
			  (double)status_int(s, "total") - busy);
	}
}

static double _queue_length(json_object *q)
{
	return (double)status_int(q, "length");
}

static double _queue_enabled(json_object *q)
{
	return status_queue_enabled(q);
}

static void _queues(json_object *root)
{
	static const struct {
		const char *name, *help;
		double (*value)(json_object *queue);
	} per_queue[] = {
		{ "coalloc_queue_length", "Jobs waiting in a select/coalloc queue.",
		  _queue_length },
		{ "coalloc_queue_enabled",
		  "Whether a queue may start jobs (1) or is disabled (0).",
		  _queue_enabled },
	};
	json_object *queues = status_array(root, "queues");
	size_t n = queues ? json_object_array_length(queues) : 0;
	struct prom_label state[] = { { "state", "pending" } };

	for (size_t m = 0; m < sizeof(per_queue) / sizeof(per_queue[0]); m++) {
		prom_family(stdout, per_queue[m].name, PROM_GAUGE, per_queue[m].help);
		for (size_t i = 0; i < n; i++) {
			json_object *q = json_object_array_get_idx(queues, i);
			struct prom_label l[] = { { "queue", status_str(q, "name") } };

			prom_sample(stdout, per_queue[m].name, l, 1,
				  per_queue[m].value(q));
		}
	}
	prom_family(stdout, "coalloc_queue_jobs", PROM_GAUGE,
		  "Jobs of the queue partitions, pending or running.");
	prom_sample(stdout, "coalloc_queue_jobs", state, 1,
		  (double)status_int(root, "pending"));
	state[0].value = "running";
	prom_sample(stdout, "coalloc_queue_jobs", state, 1,
		  (double)status_int(root, "running"));
}

/* Rows from `from` on holding a job on some node (cells with a job). */
static int _rows_in_use(json_object *root, int64_t from, int64_t rows)
{
	json_object *nodes = status_array(root, "nodes");
	int used = 0;

	for (int64_t r = from; r < rows; r++) {
		bool any = false;

		for (size_t i = 0; !any && nodes &&
		     i < json_object_array_length(nodes); i++) {
			json_object *cells = status_array(
				json_object_array_get_idx(nodes, i), "cells");

			any = cells && (size_t)r < json_object_array_length(cells) &&
			      status_busy(json_object_array_get_idx(cells, r));
		}
		used += any;
	}
	return used;
}

/* The running row, where slurmctld rotates the rows: a row that never
 * changes there while two gang rows hold jobs is stuck
 * (contribs/monitoring's CoallocRowsStuck).  Elsewhere it is left out:
 * the agents switch a TimeSliceMs gang, and one row never changes. */
static void _active_row(json_object *root)
{
	json_object *rotates = NULL, *active = NULL;

	if (!json_object_object_get_ex(root, "ctld_rotates", &rotates) ||
	    !json_object_get_boolean(rotates) ||
	    !json_object_object_get_ex(root, "active_row", &active) || !active)
		return;
	prom_single(stdout, "coalloc_matrix_active_row", PROM_GAUGE,
		    "The matrix row that runs now, where slurmctld rotates the rows.",
		    NULL, 0, (double)json_object_get_int64(active));
}

static void _matrix(json_object *root)
{
	int64_t rows = status_int(root, "rows");
	int64_t first = status_int(root, "first_row");

	if (rows < 1)
		rows = 1;
	if (first < 0 || first >= rows)
		first = 0;
	prom_single(stdout, "coalloc_matrix_rows", PROM_GAUGE,
		  "Rows (or local slots) of the matrix.", NULL, 0, (double)rows);
	prom_single(stdout, "coalloc_matrix_first_row", PROM_GAUGE,
		  "The first gang row: 1 behind the priority row of PreemptPartition, else 0.",
		  NULL, 0, (double)first);
	_active_row(root);
	if (!status_array(root, "nodes"))
		return;	/* a large cluster's status sent without its nodes */
	prom_single(stdout, "coalloc_matrix_rows_in_use", PROM_GAUGE,
		  "Rows of the matrix holding a job on some node.", NULL, 0,
		  _rows_in_use(root, 0, rows));
	prom_single(stdout, "coalloc_matrix_gang_rows_in_use", PROM_GAUGE,
		  "Gang rows (the priority row left out) holding a job on some node.",
		  NULL, 0, _rows_in_use(root, first, rows));
}

void status_print_prometheus(json_object *root)
{
	_info(root);
	_sites(root);
	_queues(root);
	_matrix(root);
}
