/*
 * openmetrics.h - metrics in the text format node-exporter's textfile
 * collector reads (coalloc-status --prometheus, coschedctl status
 * --prometheus).  Pure C.
 *
 * That collector parses Prometheus' exposition format, which OpenMetrics
 * extends; what is written here keeps to what both say: a family is announced
 * once (# TYPE, # HELP) under the very name its samples carry, so a
 * counter's family name ends in _total and an "info" is a gauge ending in
 * _info of value 1.  Each sample has up to OM_MAX_LABELS labels whose
 * values are escaped as the format wants (\\, \" and \n); om_end writes
 * OpenMetrics' closing "# EOF" (a comment to Prometheus' parser).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_OPENMETRICS_H
#define COALLOC_OPENMETRICS_H

#include <stdio.h>

#define OM_MAX_LABELS 4

enum om_type { OM_GAUGE, OM_COUNTER };

struct om_label {
	const char *name;	/* NULL ends the list early */
	const char *value;
};

/* # TYPE and # HELP lines of the family 'name'. */
void om_family(FILE *out, const char *name, enum om_type type,
	       const char *help);

/* One sample: name{labels} value. */
void om_sample(FILE *out, const char *name, const struct om_label *labels,
	       size_t nlabels, double value);

/* A family of one sample: om_family, then om_sample. */
void om_single(FILE *out, const char *name, enum om_type type,
	       const char *help, const struct om_label *labels,
	       size_t nlabels, double value);

/* The end of the exposition. */
void om_end(FILE *out);

#endif
