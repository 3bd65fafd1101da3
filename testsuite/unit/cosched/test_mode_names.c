/*
 * test_mode_names.c - parsing of --cosched=MODE (lib/cosched/mode.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "num/errbuf.h"
#include "cosched/mode.h"

static char err[ERRBUF_LEN];

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
	char want[ERRBUF_LEN];

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

static void test_output_untouched(void)
{
	enum cosched_mode mode = COSCHED_MODE_PB;

	ok(cosched_parse_mode("bogus", &mode, err, sizeof(err)), "bogus fails");
	is_int(mode, COSCHED_MODE_PB, "mode untouched on failure");
}

int main(void)
{
	test_modes();
	test_mode_rejections();
	test_output_untouched();
	return done_testing();
}
