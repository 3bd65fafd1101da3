/*
 * prometheus.h - coalloc-status --prometheus (prometheus.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_STATUS_PROMETHEUS_H
#define COALLOC_STATUS_PROMETHEUS_H

#include <json-c/json.h>

/* The status file as node-exporter textfile metrics, on stdout. */
void status_print_prometheus(json_object *root);

#endif
