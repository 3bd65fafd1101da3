/*
 * coalloc-status - what select/coalloc sees: sites, queues, the matrix.
 *
 * Reads StateSaveLocation/coalloc_status.json, which the plugin rewrites
 * within two seconds of every change (StateSaveLocation is asked of
 * slurmctld through Slurm's public API, or given with --file).
 *
 *   coalloc-status [--json | --prometheus] [--file PATH]
 *   coalloc-status --check [--conf COALLOC_CONF]
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE	/* asprintf */
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ctld_pairs.h"
#include "slurm_public.h"

#include "coalloc_status/status_json.h"
#include "json_text/json_text.h"
#include "check.h"
#include "prometheus.h"
#include "version/version.h"


struct options {
	bool json;
	bool prometheus;
	const char *file;
	bool check;
	const char *conf;
};

static void _usage(FILE *out)
{
	fprintf(out, "usage: coalloc-status [--json | --prometheus] [--file PATH]\n"
		"       coalloc-status --check [--conf COALLOC_CONF]\n"
		"  --json       print the status as JSON\n"
		"  --prometheus print it as metrics for node-exporter's textfile\n"
		"               collector\n"
		"  --file PATH  read this status file instead of slurmctld's\n"
		"               StateSaveLocation/" COALLOC_STATUS_FILE "\n"
		"  --check      check slurm.conf (SLURM_CONF or " "/etc/slurm/slurm.conf),\n"
		"               coalloc.conf and plugstack.conf as select/coalloc\n"
		"               would at slurmctld's start; exit 1 on errors\n"
		"  --conf PATH  the coalloc.conf to check (default: beside slurm.conf)\n"
		"  --version    the suite's version\n");
}

static int _parse_args(int argc, char **argv, struct options *opt)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "prometheus", no_argument, NULL, 'p' },
		{ "file", required_argument, NULL, 'f' },
		{ "check", no_argument, NULL, 'c' },
		{ "conf", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "jpf:hcC:", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			opt->json = true;
			break;
		case 'p':
			opt->prometheus = true;
			break;
		case 'f':
			opt->file = optarg;
			break;
		case 'c':
			opt->check = true;
			break;
		case 'C':
			opt->conf = optarg;
			break;
		case 'h':
			_usage(stdout);
			exit(0);
		default:
			_usage(stderr);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "coalloc-status: unexpected argument '%s'\n",
			argv[optind]);
		return -1;
	}
	if (opt->conf && !opt->check) {
		fprintf(stderr, "coalloc-status: --conf goes with --check\n");
		return -1;
	}
	if (opt->check && (opt->json || opt->prometheus || opt->file)) {
		fprintf(stderr, "coalloc-status: --check reads the configuration files, not a status\n");
		return -1;
	}
	if (opt->json && opt->prometheus) {
		fprintf(stderr, "coalloc-status: --json and --prometheus exclude each other\n");
		return -1;
	}
	return 0;
}

/*
 * What slurmctld says, asked through Slurm's public API from any host:
 * select/coalloc's status among the key-value pairs of
 * slurm_load_ctl_conf() (CoallocStatus: the select plugin's before 25.05,
 * node_features/coalloc's after, compat/ctld_pairs.h), else the path
 * of the status file in StateSaveLocation, which only its host reads.
 * The library is set up first (slurm_init: Slurm 24.11's RPCs need its
 * plugins, 22.05 has the call too) and torn down after.
 */
static const struct coalloc_list_api slurm_lists = {
	.iter_create = (void *(*)(void *)) slurm_list_iterator_create,
	.iter_next = (void *(*)(void *)) slurm_list_next,
	.iter_destroy = (void (*)(void *)) slurm_list_iterator_destroy,
};

static json_object *_from_slurmctld(char **path)
{
	slurm_conf_t *conf = NULL;
	json_object *root = NULL;
	const char *text;

	slurm_init(NULL);
	if (slurm_load_ctl_conf((time_t) 0, &conf) != SLURM_SUCCESS) {
		fprintf(stderr, "coalloc-status: cannot ask slurmctld: %s (use --file)\n",
			slurm_strerror(errno));
		goto out;
	}
	if (strcmp(conf->select_type, "select/coalloc"))
		fprintf(stderr, "coalloc-status: note: SelectType is %s, not select/coalloc\n",
			conf->select_type);
	if ((text = coalloc_ctld_value(&slurm_lists, conf, COALLOC_STATUS_KEY)))
		root = json_tokener_parse(text);
	/* the timers as of now, rather than as of the status's writing */
	if (root && (text = coalloc_ctld_value(&slurm_lists, conf,
					       COALLOC_TIMERS_KEY)))
		json_object_object_add(root, COALLOC_STATUS_TIMERS,
				       json_tokener_parse(text));
	if (!root && asprintf(path, "%s/%s", conf->state_save_location,
			      COALLOC_STATUS_FILE) < 0)
		*path = NULL;
	coalloc_free_ctl_conf(conf);
out:
	slurm_fini();
	return root;
}

static void _print_sites(json_object *root)
{
	json_object *sites = status_array(root, "sites"), *nodes = status_array(root, "nodes");

	printf("\n%-12s %-20s %6s %6s %6s  %s\n", "SITE", "NODES", "TOTAL",
	       "BUSY", "IDLE", "LOCAL QUEUE");
	for (size_t i = 0; sites && i < json_object_array_length(sites); i++) {
		json_object *s = json_object_array_get_idx(sites, i);
		int total = status_int(s, "total"), busy = status_site_busy(s, nodes);

		printf("%-12s %-20s %6d %6d %6d  %s\n", status_str(s, "name"),
		       status_str(s, "nodes"), total, busy, total - busy,
		       status_str(s, "local_partition"));
	}
}

static void _print_queues(json_object *root)
{
	json_object *queues = status_array(root, "queues");

	printf("\n%-12s %8s  %s\n", "QUEUE", "LENGTH", "STATE");
	for (size_t i = 0; queues && i < json_object_array_length(queues); i++) {
		json_object *q = json_object_array_get_idx(queues, i);

		printf("%-12s %8lld  %s\n", status_str(q, "name"),
		       (long long)status_int(q, "length"),
		       status_queue_enabled(q) ? "enabled" : "disabled");
	}
	printf("jobs in the queues: %lld pending, %lld running\n",
	       (long long)status_int(root, "pending"),
	       (long long)status_int(root, "running"));
}

/* A cell: the job id ("busy" when the ids are private), "+" for a
 * replica, "-" when free. */
static void _print_cell(json_object *cell)
{
	json_object *rep;
	char buf[32];
	int64_t job = status_int(cell, COALLOC_STATUS_JOB);
	bool replica = json_object_object_get_ex(cell, "replica", &rep) &&
		       json_object_get_boolean(rep);

	if (!status_busy(cell))
		snprintf(buf, sizeof(buf), "-");
	else if (job)
		snprintf(buf, sizeof(buf), "%lld%s", (long long)job,
			 replica ? "+" : "");
	else
		snprintf(buf, sizeof(buf), "busy%s", replica ? "+" : "");
	printf(" %-9s", buf);
}

/*
 * The matrix, a line per node and a column per row: gang rows (the
 * active one starred, row 0 the priority row with a PreemptPartition),
 * or local mode's slots, which all run.
 */
static void _print_matrix(json_object *root)
{
	json_object *nodes = status_array(root, "nodes"), *active_obj;
	int64_t rows = status_int(root, "rows"), first = status_int(root, "first_row");
	bool local = !strcmp(status_str(root, "matrix"), "local");
	int64_t active = json_object_object_get_ex(root, "active_row",
						   &active_obj) &&
			 active_obj ? json_object_get_int64(active_obj) : -1;

	if (rows < 1)
		rows = 1;
	printf("\nMATRIX %s, MPL %lld, %lld row%s", status_str(root, "matrix"),
	       (long long)status_int(root, "mpl"), (long long)rows,
	       rows == 1 ? "" : "s");
	if (first > 0)
		printf(" (row 0: preempting jobs)");
	if (local)
		printf(": every slot runs\n");
	else
		printf(", active row %lld (+: replica)\n", (long long)active);
	if (!nodes) {
		printf("(the nodes' rows: too many to send; on slurmctld's host, coalloc-status --file StateSaveLocation/" COALLOC_STATUS_FILE ")\n");
		return;
	}
	if (status_jobs_private(root))
		printf("(job ids hidden: PrivateData=jobs; with them, on slurmctld's host as SlurmUser or root: coalloc-status --file StateSaveLocation/" COALLOC_STATUS_FILE ")\n");
	printf("%-12s %-12s", "NODE", "SITE");
	for (int64_t r = 0; r < rows; r++) {
		char head[32];

		snprintf(head, sizeof(head), "%s %lld%s", local ? "SLOT" : "ROW",
			 (long long)r, r == active && !local ? "*" : "");
		printf(" %-9s", head);
	}
	printf("\n");
	for (size_t i = 0; nodes && i < json_object_array_length(nodes); i++) {
		json_object *n = json_object_array_get_idx(nodes, i);
		json_object *cells = status_array(n, "cells");

		printf("%-12s %-12s", status_str(n, "name"), status_str(n, "site"));
		for (int64_t r = 0; r < rows; r++) {
			json_object *c = cells && (size_t)r <
				json_object_array_length(cells) ?
				json_object_array_get_idx(cells, r) : NULL;

			if (c)
				_print_cell(c);
			else
				printf(" %-9s", r ? "-" : "?");
		}
		printf("\n");
	}
}

static void _print_text(json_object *root)
{
	long age = (long)(time(NULL) - status_int(root, "generated"));

	printf("Policy=%s AgingTime=%lld Matrix=%s MPL=%lld TimeSlice=%lld GlobalPartition=%s PreemptPartition=%s QueueOrder=%s\n",
	       status_str(root, "policy"), (long long)status_int(root, "aging_time"),
	       status_str(root, "matrix"), (long long)status_int(root, "mpl"),
	       (long long)status_int(root, "time_slice"),
	       status_str(root, "global_partition"),
	       status_str(root, "preempt_partition"),
	       status_str(root, "queue_order"));
	printf("config %s, status written %ld s ago by select/coalloc %s (Slurm %s)\n",
	       status_str(root, "config"), age < 0 ? 0 : age,
	       status_str(root, "suite_version"), status_str(root, "slurm_version"));
	_print_sites(root);
	_print_queues(root);
	_print_matrix(root);
}

int main(int argc, char **argv)
{
	struct options opt = { 0 };
	char *path = NULL;
	json_object *root = NULL;
	int rc = 1;

	if (coalloc_version_wanted(argc, argv))
		return coalloc_version_print("coalloc-status");

	if (_parse_args(argc, argv, &opt))
		return 2;
	if (opt.check)
		return status_check(NULL, opt.conf);
	if (opt.file)
		path = strdup(opt.file);
	else
		root = _from_slurmctld(&path);
	if (!root && !path)
		goto fail;
	if (!root)
		root = json_object_from_file(path);
	if (!root || !status_array(root, "sites")) {
		fprintf(stderr, "coalloc-status: %s: %s\n",
			path ? path : "slurmctld's " COALLOC_STATUS_KEY, root ?
			"not a select/coalloc status" :
			"cannot read it (is slurmctld running select/coalloc?)");
		goto fail;
	}
	if (opt.prometheus)
		status_print_prometheus(root);
	else if (opt.json)
		(void) json_text_print(stdout, root);
	else
		_print_text(root);
	rc = 0;
fail:
	json_object_put(root);
	free(path);
	return rc;
}
