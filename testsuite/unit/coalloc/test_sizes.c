/*
 * test_sizes.c - parsing of --coalloc=SIZES (lib/coalloc/sizes.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "num/errbuf.h"
#include "coalloc/sizes.h"

static char err[ERRBUF_LEN];

/* Parse text; on success return its canonical form, else "ERR". */
static const char *canon(const char *text)
{
	static char buf[COALLOC_SIZES_TEXT_LEN];
	struct coalloc_sizes sizes;

	err[0] = '\0';
	if (coalloc_parse_sizes(text, &sizes, err, sizeof(err)))
		return "ERR";
	if (coalloc_format_sizes(&sizes, buf, sizeof(buf)))
		return "FORMAT-ERR";
	return buf;
}

/* A list of n copies of "1" ("1,1,...,1"). */
static const char *ones(unsigned int n)
{
	static char buf[4 * COALLOC_MAX_COMPONENTS + 16];
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < n; i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used,
					 "%s1", i ? "," : "");
	return buf;
}

/* The parse of text fails, with exactly want / a message naming part. */
#define rejects_with(text, want) tap_refused(canon(text), err, (text), (want))
#define rejects_naming(text, part) \
	tap_refused_naming(canon(text), err, (text), (part))

static void test_valid_sizes(void)
{
	struct coalloc_sizes sizes;

	is_str(canon("4"), "4", "one component");
	is_str(canon("4,4"), "4,4", "two components");
	is_str(canon("1,16,3"), "1,16,3", "order is kept");
	is_str(canon("08,0010"), "8,10", "leading zeros are dropped");
	is_str(canon("1000000"), "1000000", "largest component size");
	is_str(canon(ones(COALLOC_MAX_COMPONENTS)),
	       ones(COALLOC_MAX_COMPONENTS), "32 components, one per site");

	ok(!coalloc_parse_sizes("2,3,5", &sizes, err, sizeof(err)),
	   "2,3,5 parses");
	is_int(sizes.count, 3, "three components");
	is_int(sizes.nodes[0], 2, "first size");
	is_int(sizes.nodes[2], 5, "last size");
	is_int(coalloc_sizes_total(&sizes), 10, "total nodes");
	ok(!coalloc_parse_sizes("7", NULL, NULL, 0),
	   "output and message buffer are optional");
}

static void test_size_rejections(void)
{
	rejects_with("4,x",
		     "--coalloc: bad component size 'x' (token 2 of \"4,x\"): not a positive decimal integer");
	rejects_with("0,4",
		     "--coalloc: bad component size '0' (token 1 of \"0,4\"): sizes must be at least 1");
	rejects_with("4,4,",
		     "--coalloc: empty component size (token 3 of \"4,4,\"): stray comma");
	rejects_with(",4",
		     "--coalloc: empty component size (token 1 of \",4\"): stray comma");
	rejects_with("",
		     "--coalloc: no component sizes given (expected e.g. --coalloc=4,4, --coalloc=16@siteA,8 or --coalloc=flex)");
	rejects_naming(NULL, "no component sizes given");
	rejects_naming(",", "empty component size (token 1 of \",\")");
	rejects_naming("4,,4", "empty component size (token 2 of \"4,,4\")");
	rejects_naming("4,-2", "'-2' (token 2 of");
	rejects_naming("+4", "'+4' (token 1 of");
	rejects_naming("4, 4", "' 4' (token 2 of");
	rejects_naming("4 ", "'4 ' (token 1 of");
	rejects_naming("4.5", "'4.5' (token 1 of");
	rejects_naming("0x10", "'0x10' (token 1 of");
	rejects_naming("4;4", "'4;4' (token 1 of");
	rejects_naming("00", "'00' (token 1 of \"00\"): sizes must be at least 1");
	rejects_naming("1000001",
		       "'1000001' (token 1 of \"1000001\"): larger than the maximum of 1000000 nodes");
	rejects_naming("4,99999999999999999999999",
		       "'99999999999999999999999' (token 2 of");
	rejects_naming("4,99999999999999999999999", "larger than the maximum");
	rejects_naming("4,4294967297", "'4294967297' (token 2 of");
	rejects_naming("99999999999999x", "not a positive decimal integer");
}

static void test_too_many(void)
{
	char list[4 * COALLOC_MAX_COMPONENTS + 16], want[64];

	snprintf(list, sizeof(list), "%s,7", ones(COALLOC_MAX_COMPONENTS));
	snprintf(want, sizeof(want), "too many components: '7' is token %d of",
		 COALLOC_MAX_COMPONENTS + 1);
	rejects_naming(list, want);
	rejects_naming(list, "at most 32 are allowed");
	ok(strstr(err, "...\"") != NULL, "a long list is abridged");
	ok(strlen(err) < sizeof(err) - 1, "the message is not truncated");
}

static void test_long_token(void)
{
	char token[200];

	memset(token, 'y', sizeof(token) - 1);
	token[sizeof(token) - 1] = '\0';
	rejects_naming(token, "'yyyyyyyyyyyyyyyyyyyyy...' (token 1 of");
	ok(strlen(err) < sizeof(err) - 1, "the message is not truncated");
}

static void test_outputs_untouched(void)
{
	struct coalloc_sizes sizes = { .count = 1, .nodes = { 42 } };
	char small[16];

	ok(coalloc_parse_sizes("4,x", &sizes, err, sizeof(err)), "4,x fails");
	is_int(sizes.count, 1, "sizes untouched on failure");
	is_int(sizes.nodes[0], 42, "sizes untouched on failure (value)");

	strcpy(err, "keep");
	ok(!coalloc_parse_sizes("4", &sizes, err, sizeof(err)), "4 parses");
	is_str(err, "keep", "message buffer untouched on success");

	ok(coalloc_parse_sizes("4,x", &sizes, small, sizeof(small)),
	   "fails with a small buffer");
	is_int(strlen(small), sizeof(small) - 1, "small buffer: cut, terminated");
	ok(coalloc_parse_sizes("4,x", &sizes, NULL, 0), "fails without buffer");
}

static void test_format(void)
{
	struct coalloc_sizes sizes = { .count = 2, .nodes = { 12, 3 } };
	struct coalloc_sizes bad = { .count = 0 };
	char buf[8];

	ok(!coalloc_format_sizes(&sizes, buf, sizeof(buf)), "format 12,3");
	is_str(buf, "12,3", "formatted text");
	ok(coalloc_format_sizes(&sizes, buf, 4), "buffer too small fails");
	is_str(buf, "", "buffer left empty");
	ok(coalloc_format_sizes(&bad, buf, sizeof(buf)), "no components fails");
	bad = (struct coalloc_sizes){ .count = 1, .nodes = { 0 } };
	ok(coalloc_format_sizes(&bad, buf, sizeof(buf)), "size 0 fails");
	bad.count = COALLOC_MAX_COMPONENTS + 1;
	ok(coalloc_format_sizes(&bad, buf, sizeof(buf)), "too many fails");
	is_int(coalloc_sizes_total(&bad), 0, "total of an invalid list is 0");
	ok(coalloc_format_sizes(NULL, buf, sizeof(buf)), "NULL fails");
}

/* Ordered and flexible requests (the paper's request types). */
static void test_request_types(void)
{
	struct coalloc_sizes sizes;
	char buf[COALLOC_SIZES_TEXT_LEN];
	char name[COALLOC_SITE_NAME_MAX + 2];
	char text[COALLOC_SITE_NAME_MAX + 16];

	is_str(canon("16@siteA,8@siteB"), "16@siteA,8@siteB", "ordered");
	is_str(canon("16@siteA,8"), "16@siteA,8",
	       "a component may name a site while another stays free");
	is_str(canon("016@a.b-c_d"), "16@a.b-c_d", "site names take . - _");
	is_str(canon("flex"), "flex", "flexible");
	ok(!coalloc_parse_sizes("4@x,2", &sizes, err, sizeof(err)) &&
	   sizes.type == COALLOC_REQ_ORDERED && sizes.count == 2 &&
	   !strcmp(sizes.site[0], "x") && !sizes.site[1][0],
	   "ordered: type, sites in the user's order, '' for a free one");
	ok(!coalloc_parse_sizes("4,2", &sizes, err, sizeof(err)) &&
	   sizes.type == COALLOC_REQ_UNORDERED, "no site: unordered");
	ok(!coalloc_parse_sizes("flex", &sizes, err, sizeof(err)) &&
	   sizes.type == COALLOC_REQ_FLEXIBLE && sizes.count == 0 &&
	   coalloc_sizes_total(&sizes) == 0,
	   "flex: no components, total from the job's -N");
	is_str(coalloc_request_type_name(COALLOC_REQ_FLEXIBLE), "flexible",
	       "type names");

	rejects_with("8@a,4@a",
		     "--coalloc: site 'a' is named by components 1 and 2: a job has at most one component per site");
	rejects_naming("8@", "empty");
	rejects_naming("8@si te", "only letters");
	rejects_naming("@a", "has no size before '@'");
	rejects_naming("flex,4", "not a positive decimal");
	rejects_naming("FLEX", "not a positive decimal");
	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';		/* one character too long */
	snprintf(text, sizeof(text), "4@%s", name);
	rejects_naming(text, "too long");
	name[COALLOC_SITE_NAME_MAX] = '\0';	/* the longest allowed */
	snprintf(text, sizeof(text), "4@%s", name);
	is_str(canon(text), text, "a site name of the maximal length");

	/* the canonical text of the largest request fits its buffer */
	memset(&sizes, 0, sizeof(sizes));
	sizes.type = COALLOC_REQ_ORDERED;
	sizes.count = COALLOC_MAX_COMPONENTS;
	for (unsigned k = 0; k < sizes.count; k++) {
		sizes.nodes[k] = COALLOC_MAX_COMPONENT_NODES;
		memset(sizes.site[k], 'a', COALLOC_SITE_NAME_MAX);
		sizes.site[k][COALLOC_SITE_NAME_MAX - 1] =
			"0123456789abcdefghijklmnopqrstuv"[k];
	}
	ok(!coalloc_format_sizes(&sizes, buf, sizeof(buf)),
	   "the longest ordered request fits COALLOC_SIZES_TEXT_LEN");
}

int main(void)
{
	test_valid_sizes();
	test_request_types();
	test_size_rejections();
	test_too_many();
	test_long_token();
	test_outputs_untouched();
	test_format();
	return done_testing();
}
