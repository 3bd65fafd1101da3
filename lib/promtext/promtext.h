/*
 * promtext.h - metrics in Prometheus' text exposition format, version
 * 0.0.4: what node-exporter's textfile collector reads and promtool
 * checks (coalloc-status --prometheus, coschedctl status --prometheus).
 * One format, followed whole: a family is announced once (# HELP, then
 * # TYPE) under the very name its samples carry, so a counter's family
 * name ends in _total and an "info" is a gauge ending in _info of value
 * 1; no OpenMetrics "# EOF" or "# UNIT".  Each sample has up to
 * PROM_MAX_LABELS labels whose values are escaped as the format wants
 * (\\, \" and \n).  Pure C.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_PROMTEXT_H
#define COALLOC_PROMTEXT_H

#include <stdio.h>

#define PROM_MAX_LABELS 4

enum prom_type { PROM_GAUGE, PROM_COUNTER };

struct prom_label {
	const char *name;	/* NULL ends the list early */
	const char *value;
};

/* # HELP and # TYPE lines of the family 'name'. */
void prom_family(FILE *out, const char *name, enum prom_type type,
	       const char *help);

/* One sample: name{labels} value. */
void prom_sample(FILE *out, const char *name, const struct prom_label *labels,
	       size_t nlabels, double value);

/* A family of one sample: prom_family, then prom_sample. */
void prom_single(FILE *out, const char *name, enum prom_type type,
	       const char *help, const struct prom_label *labels,
	       size_t nlabels, double value);

#endif
