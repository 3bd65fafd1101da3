/*
 * status_json.h - reading select/coalloc's status file
 * (StateSaveLocation/coalloc_status.json): missing keys read as "-" or 0,
 * so an older plugin's file still prints.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_STATUS_JSON_H
#define COALLOC_STATUS_JSON_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>

const char *status_str(json_object *o, const char *key);	/* "-": none */
int64_t status_int(json_object *o, const char *key);		/* 0: none */
json_object *status_array(json_object *o, const char *key);	/* or NULL */
/* Busy nodes of a site: its count, or (older plugins) from the nodes. */
int status_site_busy(json_object *site, json_object *nodes);
bool status_queue_enabled(json_object *queue);

#endif
