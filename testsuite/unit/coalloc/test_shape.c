/*
 * test_shape.c - the request types on sites: placement of ordered and
 * flexible requests (placement.c), their check against a cluster's sites
 * with its messages (shape.c), and the CoallocSites key pair.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "coalloc/shape.h"
#include "num/errbuf.h"
#include "tap.h"

static char err[ERRBUF_LEN];

/* Sites a=16, b=8, c=8, d=4. */
static const struct coalloc_site_list four = {
	.count = 4, .name = { "a", "b", "c", "d" }, .nodes = { 16, 8, 8, 4 },
};

/* "size@site,..." of a fit, for comparisons. */
static const char *fit_text(const struct coalloc_fit *fit)
{
	static char buf[256];
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned k = 0; k < fit->ncomp; k++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used,
					 "%s%u@%u", k ? "," : "",
					 (unsigned)fit->size[k],
					 (unsigned)fit->site[k]);
	return buf;
}

/* Parse, resolve on 'four' and place on idle; the fit's text or ERR. */
static const char *place(const char *text, uint32_t flex_total,
			 const uint32_t *idle)
{
	struct coalloc_sizes sizes;
	struct coalloc_shape shape;
	static struct coalloc_fit fit;

	err[0] = '\0';
	if (coalloc_parse_sizes(text, &sizes, err, sizeof(err)) ||
	    coalloc_shape_resolve(&sizes, &four, flex_total, &shape, err,
				  sizeof(err)))
		return "ERR";
	if (!coalloc_shape_fit(idle, four.count, &shape, -1, &fit))
		return "NO FIT";
	return fit_text(&fit);
}

static void test_ordered(void)
{
	const uint32_t empty[4] = { 16, 8, 8, 4 };
	const uint32_t busy_a[4] = { 2, 8, 8, 4 };

	is_str(place("4@d,8@a", 0, empty), "8@0,4@3",
	       "named components go to their sites, largest first");
	is_str(place("4@d,8", 0, empty), "8@0,4@3",
	       "a free component takes the emptiest site not named");
	is_str(place("8@c,8", 0, empty), "8@2,8@0",
	       "the free component skips the named site");
	is_str(place("8@a,4", 0, busy_a), "NO FIT",
	       "a named site without room: no fit, though others are free");
	is_str(place("8,4", 0, busy_a), "8@1,4@2",
	       "the same sizes unordered go elsewhere");
	is_str(place("2@a,8,8,4", 0, busy_a), "8@1,8@2,4@3,2@0",
	       "every site used, the named one with its component");
}

static void test_flexible(void)
{
	const uint32_t empty[4] = { 16, 8, 8, 4 };
	const uint32_t busy[4] = { 3, 8, 6, 4 };

	is_str(place("flex", 12, empty), "12@0", "fits one site: one component");
	is_str(place("flex", 16, empty), "16@0", "exactly one whole site");
	is_str(place("flex", 20, empty), "16@0,4@1",
	       "the emptiest site whole, the rest on the next");
	is_str(place("flex", 36, empty), "16@0,8@1,8@2,4@3", "every node");
	is_str(place("flex", 15, busy), "8@1,6@2,1@3",
	       "as few sites as the idle nodes allow, emptiest first");
	is_str(place("flex", 22, busy), "NO FIT", "more than all idle nodes");
}

static void test_refusals(void)
{
	const uint32_t empty[4] = { 16, 8, 8, 4 };

	tap_refused(place("8@e", 0, empty), err, "8@e",
		    "--coalloc: component 1 names site 'e', which this cluster does not have (its sites: a (16), b (8), c (8), d (4))");
	tap_refused(place("2,8@d", 0, empty), err, "8@d",
		    "--coalloc: component 2 asks for 8 nodes of site 'd', which has 4");
	tap_refused_naming(place("1,1,1,1,1", 0, empty), err, "1,1,1,1,1",
			   "5 components, but the cluster has 4 site(s)");
	tap_refused_naming(place("9,9", 0, empty), err, "9,9",
			   "do not fit on distinct sites even with every node free");
	tap_refused_naming(place("16,9@b", 0, empty), err, "16,9@b",
			   "asks for 9 nodes of site 'b', which has 8");
	tap_refused_naming(place("16,8@a", 0, empty), err, "16,8@a",
			   "do not fit on distinct sites");
	tap_refused(place("flex", 37, empty), err, "flex (37)",
		    "--coalloc=flex: the job asks for 37 nodes, the sites have 36 together");
	tap_refused(place("flex", 0, empty), err, "flex (0)",
		    "--coalloc=flex: the job asks for no nodes");
}

static void test_only_site(void)
{
	const uint32_t idle[4] = { 16, 8, 8, 4 };
	struct coalloc_shape shape = {
		.type = COALLOC_REQ_ORDERED, .ncomp = 1, .size = { 4 },
		.site = { 1 },
	};
	struct coalloc_fit fit;

	ok(coalloc_shape_fit(idle, 4, &shape, 1, &fit) && fit.site[0] == 1,
	   "a local queue's job naming its own site fits there");
	ok(!coalloc_shape_fit(idle, 4, &shape, 2, &fit),
	   "naming another site than its local queue's: never fits");
}

static void test_site_list(void)
{
	struct coalloc_site_list got;
	char buf[64];

	ok(!coalloc_site_list_format(&four, buf, sizeof(buf)), "format");
	is_str(buf, "a=16,b=8,c=8,d=4", "the key pair's text");
	ok(!coalloc_site_list_parse(buf, &got) && got.count == 4 &&
	   !strcmp(got.name[3], "d") && got.nodes[0] == 16,
	   "parsed back");
	ok(coalloc_site_list_format(&four, buf, 8), "too small a buffer fails");
	ok(coalloc_site_list_parse("", &got), "empty refused");
	ok(coalloc_site_list_parse("a=1,", &got), "trailing comma refused");
	ok(coalloc_site_list_parse("a=0", &got), "zero nodes refused");
	ok(coalloc_site_list_parse("a=-1", &got), "a sign refused");
	ok(coalloc_site_list_parse("a=99999999999", &got), "overflow refused");
	ok(coalloc_site_list_parse("a b=1", &got), "bad name refused");
	ok(coalloc_site_list_parse("a", &got), "no '=' refused");
}

int main(void)
{
	test_ordered();
	test_flexible();
	test_refusals();
	test_only_site();
	test_site_list();
	return done_testing();
}
