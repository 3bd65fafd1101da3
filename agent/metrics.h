/*
 * metrics.h - the agent's status as metrics (metrics.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHED_AGENT_METRICS_H
#define COSCHED_AGENT_METRICS_H

#include <json-c/json.h>

/* Node-exporter textfile metrics of status.c's JSON (malloc'd; NULL:
 * out of memory). */
char *agent_status_metrics(json_object *status);

#endif
