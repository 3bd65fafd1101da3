/*
 * openmetrics.c - metrics in the OpenMetrics text format (see
 * openmetrics.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>

#include "openmetrics/openmetrics.h"

static const char *const type_names[] = {
	[OM_GAUGE] = "gauge", [OM_COUNTER] = "counter",
};

void om_family(FILE *out, const char *name, enum om_type type,
	       const char *help)
{
	fprintf(out, "# TYPE %s %s\n# HELP %s %s\n", name, type_names[type],
		name, help);
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

void om_sample(FILE *out, const char *name, const struct om_label *labels,
	       size_t nlabels, double value)
{
	size_t shown = 0;

	fputs(name, out);
	for (size_t i = 0; i < nlabels && i < OM_MAX_LABELS; i++) {
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

void om_single(FILE *out, const char *name, enum om_type type,
	       const char *help, const struct om_label *labels,
	       size_t nlabels, double value)
{
	om_family(out, name, type, help);
	om_sample(out, name, labels, nlabels, value);
}

void om_end(FILE *out)
{
	fputs("# EOF\n", out);
}
