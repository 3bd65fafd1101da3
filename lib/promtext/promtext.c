/*
 * promtext.c - metrics in Prometheus' text format (see promtext.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>

#include "promtext/promtext.h"

static const char *const type_names[] = {
	[PROM_GAUGE] = "gauge", [PROM_COUNTER] = "counter",
};

void prom_family(FILE *out, const char *name, enum prom_type type,
	       const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name,
		type_names[type]);
}

/* A label value: the text itself, but \, " and newlines escaped. */
static void _escaped(FILE *out, const char *value)
{
	for (const char *c = value ? value : ""; *c; c++) {
		if (*c == '\\' || *c == '"')
			fprintf(out, "\\%c", *c);
		else if (*c == '\n')
			fputs("\\n", out);
		else
			fputc(*c, out);
	}
}

void prom_sample(FILE *out, const char *name, const struct prom_label *labels,
	       size_t nlabels, double value)
{
	size_t shown = 0;

	fputs(name, out);
	for (size_t i = 0; i < nlabels && i < PROM_MAX_LABELS; i++) {
		if (!labels[i].name)
			break;
		fprintf(out, "%s%s=\"", shown++ ? "," : "{", labels[i].name);
		_escaped(out, labels[i].value);
		fputc('"', out);
	}
	if (shown)
		fputc('}', out);
	if (isnan(value))
		fputs(" NaN\n", out);
	else if (value == floor(value) && fabs(value) < 1e15)
		fprintf(out, " %.0f\n", value);
	else
		fprintf(out, " %.17g\n", value);
}

void prom_single(FILE *out, const char *name, enum prom_type type,
	       const char *help, const struct prom_label *labels,
	       size_t nlabels, double value)
{
	prom_family(out, name, type, help);
	prom_sample(out, name, labels, nlabels, value);
}
