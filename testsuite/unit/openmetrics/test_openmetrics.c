/*
 * test_openmetrics.c - the OpenMetrics writer (lib/openmetrics): family
 * lines, samples with and without labels, escaped label values, whole
 * and fractional values, the end.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "openmetrics/openmetrics.h"
#include "tap.h"

static char *buf;
static size_t len;

static FILE *_open(void)
{
	return tap_memstream(&buf, &len);
}

int main(void)
{
	struct om_label two[] = { { "site", "site1" }, { "state", "busy" } };
	struct om_label hostile[] = { { "queue", "a\"b\\c\nd" } };
	struct om_label info[] = { { "version", "0.9.0" }, { NULL, "x" } };
	FILE *f;

	plan(7);
	f = _open();
	om_family(f, "coalloc_site_nodes", OM_GAUGE, "Nodes of a site.");
	fclose(f);
	is_str(buf, "# TYPE coalloc_site_nodes gauge\n# HELP coalloc_site_nodes Nodes of a site.\n",
	       "a family: TYPE and HELP");

	f = _open();
	om_sample(f, "coalloc_site_nodes", two, 2, 3);
	om_sample(f, "coalloc_rows", NULL, 0, 2);
	fclose(f);
	is_str(buf, "coalloc_site_nodes{site=\"site1\",state=\"busy\"} 3\ncoalloc_rows 2\n",
	       "samples with labels and without");

	f = _open();
	om_family(f, "coschedd_boosts_total", OM_COUNTER, "Boosts.");
	om_sample(f, "coalloc_info", info, 2, 1);
	fclose(f);
	is_str(buf, "# TYPE coschedd_boosts_total counter\n# HELP coschedd_boosts_total Boosts.\ncoalloc_info{version=\"0.9.0\"} 1\n",
	       "a counter family; a NULL name ends the labels");

	f = _open();
	om_sample(f, "q", hostile, 1, 1);
	fclose(f);
	is_str(buf, "q{queue=\"a\\\"b\\\\c\\nd\"} 1\n",
	       "quotes, backslashes and newlines in a value are escaped");

	f = _open();
	om_sample(f, "x", NULL, 0, 0.25);
	om_sample(f, "y", NULL, 0, NAN);
	om_sample(f, "z", NULL, 0, -1);
	fclose(f);
	is_str(buf, "x 0.25\ny NaN\nz -1\n", "fractions, NaN and negatives");

	f = _open();
	om_single(f, "coalloc_rows", OM_GAUGE, "Rows.", NULL, 0, 2);
	fclose(f);
	is_str(buf, "# TYPE coalloc_rows gauge\n# HELP coalloc_rows Rows.\ncoalloc_rows 2\n",
	       "a family of one sample");

	f = _open();
	om_end(f);
	fclose(f);
	is_str(buf, "# EOF\n", "the end");
	free(buf);
	return done_testing();
}
