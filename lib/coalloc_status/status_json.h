/*
 * status_json.h - select/coalloc's status JSON, both ends: the node
 * table and the public form the plugin writes (write.c), and what
 * coalloc-status reads (read.c).  Pure C with json-c, no Slurm headers.
 *
 * The plugin writes the full status to StateSaveLocation/coalloc_status.json
 * and hands Slurm's clients a public form of it (CoallocStatus in
 * 'scontrol show config'), which slurmctld serves to any user without
 * saying who asks.  So under PrivateData=jobs the public form carries no
 * job id: every "job" of the node table becomes "busy" (true or false),
 * and COALLOC_STATUS_PRIVATE_JOBS is true.  Past a size limit it leaves
 * the node table out (COALLOC_STATUS_NODES_OMITTED); the sites keep
 * their busy counts.
 *
 * Readers: missing keys read as "-" or 0, so an older plugin's status
 * still prints.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_STATUS_JSON_H
#define COALLOC_STATUS_JSON_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* the key of the public form among slurmctld's key pairs */
#define COALLOC_STATUS_KEY "CoallocStatus"
/* the plugin's timers as slurmctld has them now, among the same pairs;
 * the status carries them as of its writing, under this key */
#define COALLOC_TIMERS_KEY "CoallocTimers"
#define COALLOC_STATUS_TIMERS "timers"
/* the full status, in StateSaveLocation (coalloc-status --file) */
#define COALLOC_STATUS_FILE "coalloc_status.json"
#define COALLOC_STATUS_JOB "job"
#define COALLOC_STATUS_BUSY "busy"
#define COALLOC_STATUS_PRIVATE_JOBS "private_jobs"
#define COALLOC_STATUS_NODES_OMITTED "nodes_omitted"

/* Writing (the plugin). */

/* A matrix cell: {"job": ID (0: free), "replica": BOOL}. */
json_object *coalloc_status_cell(uint32_t job, bool replica);
/* A node: {"name", "site" (null: none), "job" (the holder, 0: none),
 * "cells" (taken over)}. */
json_object *coalloc_status_node(const char *name, const char *site,
				 uint32_t job, json_object *cells);
/*
 * The public form of the full status root (which it changes): without
 * job ids when private_jobs, without the node table when longer than
 * max bytes.  Compact JSON, malloc'd (NULL: out of memory).
 */
char *coalloc_status_public(json_object *root, bool private_jobs, size_t max);

/* Reading (coalloc-status). */

const char *status_str(json_object *o, const char *key);	/* "-": none */
int64_t status_int(json_object *o, const char *key);		/* 0: none */
json_object *status_array(json_object *o, const char *key);	/* or NULL */
/* Does a node or a cell hold a job: "busy", or (full form) "job" != 0. */
bool status_busy(json_object *node_or_cell);
/* Were the job ids left out (PrivateData=jobs)? */
bool status_jobs_private(json_object *root);
/* Busy nodes of a site: its count, or (older plugins) from the nodes. */
int status_site_busy(json_object *site, json_object *nodes);
bool status_queue_enabled(json_object *queue);

#endif
