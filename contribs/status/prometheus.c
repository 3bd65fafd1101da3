/*
 * prometheus.c - coalloc-status --prometheus: the status as metrics for
 * node-exporter's textfile collector (lib/promtext): queue lengths and
 * states, busy and idle nodes per site, matrix rows in use, when the
 * status was written, an info metric naming the versions and the policy,
 * and the plugin's timers (time in each step, slow calls).
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

static double _timer_number(json_object *timer, const char *key)
{
	json_object *v;

	return json_object_is_type(timer, json_type_object) &&
	       json_object_object_get_ex(timer, key, &v) ?
	       json_object_get_double(v) : 0;
}

/* The plugin's timers (timers.c): time in each step, and how many of its
 * calls took longer than a threshold, per step; counters since slurmctld
 * started.  A status from before they existed has none: no families. */
static void _timers(json_object *root)
{
	static const struct {
		const char *name, *help, *key;
	} per_step[] = {
		{ "coalloc_plugin_calls_total",
		  "Calls of a step of select/coalloc in slurmctld.", "calls" },
		{ "coalloc_plugin_seconds_total",
		  "Time in a step of select/coalloc in slurmctld (the lock steps: time holding slurmctld's job lock).",
		  "seconds" },
		{ "coalloc_plugin_cpu_seconds_total",
		  "CPU time of the thread in a step of select/coalloc (far below its seconds: the step waited for a CPU).",
		  "cpu_seconds" },
	};
	json_object *timers, *over;

	if (!json_object_object_get_ex(root, COALLOC_STATUS_TIMERS, &timers) ||
	    !json_object_is_type(timers, json_type_object))
		return;
	for (size_t m = 0; m < sizeof(per_step) / sizeof(per_step[0]); m++) {
		prom_family(stdout, per_step[m].name, PROM_COUNTER,
			    per_step[m].help);
		json_object_object_foreach(timers, step, timer) {
			struct prom_label l[] = { { "step", step } };

			prom_sample(stdout, per_step[m].name, l, 1,
				    _timer_number(timer, per_step[m].key));
		}
	}
	prom_family(stdout, "coalloc_plugin_slow_calls_total", PROM_COUNTER,
		    "Calls of a step longer than over_ms milliseconds.");
	json_object_object_foreach(timers, step, timer) {
		if (!json_object_is_type(timer, json_type_object) ||
		    !json_object_object_get_ex(timer, "over_ms", &over) ||
		    !json_object_is_type(over, json_type_object))
			continue;
		json_object_object_foreach(over, ms, count) {
			struct prom_label l[] = { { "step", step },
						  { "over_ms", ms } };

			prom_sample(stdout, "coalloc_plugin_slow_calls_total",
				    l, 2, json_object_get_double(count));
		}
	}
}

void status_print_prometheus(json_object *root)
{
	_info(root);
	_sites(root);
	_queues(root);
	_matrix(root);
	_timers(root);
}
