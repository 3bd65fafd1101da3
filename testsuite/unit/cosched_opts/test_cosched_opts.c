/*
 * test_cosched_opts.c - parsing of --coalloc=SIZES and --cosched=MODE.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cosched_opts/cosched_opts.h"
#include "tap.h"

static char err[COSCHED_ERR_LEN];

/* Parse text; on success return its canonical form, else "ERR". */
static const char *canon(const char *text)
{
	static char buf[COSCHED_SIZES_TEXT_LEN];
	struct cosched_sizes sizes;

	err[0] = '\0';
	if (cosched_parse_sizes(text, &sizes, err, sizeof(err)))
		return "ERR";
	if (cosched_format_sizes(&sizes, buf, sizeof(buf)))
		return "FORMAT-ERR";
	return buf;
}

/* A list of n copies of "1" ("1,1,...,1"). */
static const char *ones(unsigned int n)
{
	static char buf[4 * COSCHED_MAX_COMPONENTS + 16];
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < n; i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used,
					 "%s1", i ? "," : "");
	return buf;
}

/* The parse of text fails, and the message is exactly want. */
static void rejects_with(const char *text, const char *want)
{
	is_str(canon(text), "ERR", "'%s' is rejected", text);
	is_str(err, want, "message for '%s'", text);
}

/* The parse of text fails, and the message contains part. */
static void rejects_naming(const char *text, const char *part)
{
	is_str(canon(text), "ERR", "'%s' is rejected", text);
	if (!ok(strstr(err, part) != NULL, "message for '%s' names %s",
		text, part))
		diag("  message: %s", err);
}

static void test_valid_sizes(void)
{
	struct cosched_sizes sizes;

	is_str(canon("4"), "4", "one component");
	is_str(canon("4,4"), "4,4", "two components");
	is_str(canon("1,16,3"), "1,16,3", "order is kept");
	is_str(canon("08,0010"), "8,10", "leading zeros are dropped");
	is_str(canon("1000000"), "1000000", "largest component size");
	is_str(canon(ones(COSCHED_MAX_COMPONENTS)),
	       ones(COSCHED_MAX_COMPONENTS), "32 components, one per site");

	ok(!cosched_parse_sizes("2,3,5", &sizes, err, sizeof(err)),
	   "2,3,5 parses");
	is_int(sizes.count, 3, "three components");
	is_int(sizes.nodes[0], 2, "first size");
	is_int(sizes.nodes[2], 5, "last size");
	is_int(cosched_sizes_total(&sizes), 10, "total nodes");
	ok(!cosched_parse_sizes("7", NULL, NULL, 0),
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
		     "--coalloc: no component sizes given (expected e.g. --coalloc=4,4)");
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
	char list[4 * COSCHED_MAX_COMPONENTS + 16], want[64];

	snprintf(list, sizeof(list), "%s,7", ones(COSCHED_MAX_COMPONENTS));
	snprintf(want, sizeof(want), "too many components: '7' is token %d of",
		 COSCHED_MAX_COMPONENTS + 1);
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
	struct cosched_sizes sizes = { .count = 1, .nodes = { 42 } };
	enum cosched_mode mode = COSCHED_MODE_PB;
	char small[16];

	ok(cosched_parse_sizes("4,x", &sizes, err, sizeof(err)), "4,x fails");
	is_int(sizes.count, 1, "sizes untouched on failure");
	is_int(sizes.nodes[0], 42, "sizes untouched on failure (value)");
	ok(cosched_parse_mode("bogus", &mode, err, sizeof(err)), "bogus fails");
	is_int(mode, COSCHED_MODE_PB, "mode untouched on failure");

	strcpy(err, "keep");
	ok(!cosched_parse_sizes("4", &sizes, err, sizeof(err)), "4 parses");
	is_str(err, "keep", "message buffer untouched on success");

	ok(cosched_parse_sizes("4,x", &sizes, small, sizeof(small)),
	   "fails with a small buffer");
	is_int(strlen(small), sizeof(small) - 1, "small buffer: cut, terminated");
	ok(cosched_parse_sizes("4,x", &sizes, NULL, 0), "fails without buffer");
}

static void test_format(void)
{
	struct cosched_sizes sizes = { .count = 2, .nodes = { 12, 3 } };
	struct cosched_sizes bad = { .count = 0 };
	char buf[8];

	ok(!cosched_format_sizes(&sizes, buf, sizeof(buf)), "format 12,3");
	is_str(buf, "12,3", "formatted text");
	ok(cosched_format_sizes(&sizes, buf, 4), "buffer too small fails");
	is_str(buf, "", "buffer left empty");
	ok(cosched_format_sizes(&bad, buf, sizeof(buf)), "no components fails");
	bad = (struct cosched_sizes){ .count = 1, .nodes = { 0 } };
	ok(cosched_format_sizes(&bad, buf, sizeof(buf)), "size 0 fails");
	bad.count = COSCHED_MAX_COMPONENTS + 1;
	ok(cosched_format_sizes(&bad, buf, sizeof(buf)), "too many fails");
	is_int(cosched_sizes_total(&bad), 0, "total of an invalid list is 0");
	ok(cosched_format_sizes(NULL, buf, sizeof(buf)), "NULL fails");
}

static void test_modes(void)
{
	static const char *const names[COSCHED_MODE_COUNT] = {
		"none", "sb", "sy", "dcs", "pb", "pb-sb", "pb-sy", "dcs-sb",
		"dcs-sy", "ecm", "edm", "membus",
	};
	char list[256] = "";
	enum cosched_mode mode;

	for (int m = 0; m < COSCHED_MODE_COUNT; m++) {
		char upper[16];

		is_str(cosched_mode_name((enum cosched_mode)m), names[m],
		       "mode %d is named %s", m, names[m]);
		mode = COSCHED_MODE_COUNT;
		ok(!cosched_parse_mode(names[m], &mode, err, sizeof(err)),
		   "%s parses", names[m]);
		is_int(mode, m, "%s is mode %d", names[m], m);

		for (size_t i = 0; i <= strlen(names[m]); i++)
			upper[i] = (char)toupper((unsigned char)names[m][i]);
		mode = COSCHED_MODE_COUNT;
		ok(!cosched_parse_mode(upper, &mode, err, sizeof(err)) &&
		   mode == (enum cosched_mode)m, "%s parses as %s", upper,
		   names[m]);

		strcat(list, m ? ", " : "");
		strcat(list, names[m]);
	}
	is_str(cosched_mode_names(), list, "the list of names matches");
	ok(cosched_mode_name(COSCHED_MODE_COUNT) == NULL, "COUNT has no name");
	ok(cosched_mode_name((enum cosched_mode)-1) == NULL, "-1 has no name");
}

static void test_mode_rejections(void)
{
	enum cosched_mode mode;
	char want[COSCHED_ERR_LEN];

	snprintf(want, sizeof(want),
		 "--cosched: unknown mode 'gang' (expected one of: %s)",
		 cosched_mode_names());
	ok(cosched_parse_mode("gang", &mode, err, sizeof(err)), "gang fails");
	is_str(err, want, "message for gang");

	snprintf(want, sizeof(want),
		 "--cosched: no mode given (expected one of: %s)",
		 cosched_mode_names());
	ok(cosched_parse_mode("", &mode, err, sizeof(err)), "empty fails");
	is_str(err, want, "message for empty");
	ok(cosched_parse_mode(NULL, &mode, err, sizeof(err)), "NULL fails");
	is_str(err, want, "message for NULL");

	static const char *const bad[] = {
		"pb_sb", "pb-", "sb ", " sb", "pbsb", "dcs-pb", "sb,sy", "0",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char quoted[32];

		snprintf(quoted, sizeof(quoted), "'%s'", bad[i]);
		ok(cosched_parse_mode(bad[i], &mode, err, sizeof(err)),
		   "'%s' fails", bad[i]);
		ok(strstr(err, quoted) != NULL, "message names '%s'", bad[i]);
	}
}

int main(void)
{
	test_valid_sizes();
	test_size_rejections();
	test_too_many();
	test_long_token();
	test_outputs_untouched();
	test_format();
	test_modes();
	test_mode_rejections();
	return done_testing();
}
