/*
 * test_promtext.c - the Prometheus text writer (lib/promtext): family
 * lines, samples with and without labels, escaped label values, whole
 * and fractional values, the end.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "promtext/promtext.h"
#include "tap.h"

static char *buf;
static size_t len;

static FILE *_open(void)
{
	return tap_memstream(&buf, &len);
}

int main(void)
{
	struct prom_label two[] = { { "site", "site1" }, { "state", "busy" } };
	struct prom_label hostile[] = { { "queue", "a\"b\\c\nd" } };
	struct prom_label info[] = { { "version", "0.9.0" }, { NULL, "x" } };
	FILE *f;

	plan(6);
	f = _open();
	prom_family(f, "coalloc_site_nodes", PROM_GAUGE, "Nodes of a site.");
	fclose(f);
	is_str(buf, "# HELP coalloc_site_nodes Nodes of a site.\n# TYPE coalloc_site_nodes gauge\n",
	       "a family: HELP, then TYPE");

	f = _open();
	prom_sample(f, "coalloc_site_nodes", two, 2, 3);
	prom_sample(f, "coalloc_rows", NULL, 0, 2);
	fclose(f);
	is_str(buf, "coalloc_site_nodes{site=\"site1\",state=\"busy\"} 3\ncoalloc_rows 2\n",
	       "samples with labels and without");

	f = _open();
	prom_family(f, "coschedd_boosts_total", PROM_COUNTER, "Boosts.");
	prom_sample(f, "coalloc_info", info, 2, 1);
	fclose(f);
	is_str(buf, "# HELP coschedd_boosts_total Boosts.\n# TYPE coschedd_boosts_total counter\ncoalloc_info{version=\"0.9.0\"} 1\n",
	       "a counter family; a NULL name ends the labels");

	f = _open();
	prom_sample(f, "q", hostile, 1, 1);
	fclose(f);
	is_str(buf, "q{queue=\"a\\\"b\\\\c\\nd\"} 1\n",
	       "quotes, backslashes and newlines in a value are escaped");

	f = _open();
	prom_sample(f, "x", NULL, 0, 0.25);
	prom_sample(f, "y", NULL, 0, NAN);
	prom_sample(f, "z", NULL, 0, -1);
	fclose(f);
	is_str(buf, "x 0.25\ny NaN\nz -1\n", "fractions, NaN and negatives");

	f = _open();
	prom_single(f, "coalloc_rows", PROM_GAUGE, "Rows.", NULL, 0, 2);
	fclose(f);
	is_str(buf, "# HELP coalloc_rows Rows.\n# TYPE coalloc_rows gauge\ncoalloc_rows 2\n",
	       "a family of one sample");

	free(buf);
	return done_testing();
}
