/*
 * test_cosched_args.c - the plugstack.conf arguments of the cosched
 * SPANK plugin: strict, every rejection names the argument.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "args.h"
#include "cosched_opts/cosched_opts.h"
#include "tap.h"

static char err[COSCHED_ERR_LEN];

static int parse1(const char *arg)
{
	char *argv[] = { (char *)arg, NULL };

	err[0] = '\0';
	return cosched_args_parse(1, argv, NULL, err, sizeof(err));
}

static void rejects_with(const char *arg, const char *want)
{
	is_int(parse1(arg), -1, "'%s' is rejected", arg);
	is_str(err, want, "message for '%s'", arg);
}

int main(void)
{
	struct cosched_args args = { .given = 7 };
	char *argv[] = { "foo=1", NULL };
	char long_arg[100];

	is_int(cosched_args_parse(0, NULL, &args, err, sizeof(err)), 0,
	       "no arguments");
	is_int(args.given, 0, "none counted");

	rejects_with("foo=bar",
		     "plugstack.conf: unknown argument 'foo=bar'; cosched takes no arguments yet");
	rejects_with("default_mode=sb",
		     "plugstack.conf: unknown argument 'default_mode=sb'; cosched takes no arguments yet");
	rejects_with("verbose",
		     "plugstack.conf: bad argument 'verbose': expected KEY=VALUE; cosched takes no arguments yet");
	rejects_with("=x",
		     "plugstack.conf: bad argument '=x': expected KEY=VALUE; cosched takes no arguments yet");
	rejects_with("",
		     "plugstack.conf: bad argument '': expected KEY=VALUE; cosched takes no arguments yet");

	memset(long_arg, 'k', sizeof(long_arg) - 1);
	long_arg[sizeof(long_arg) - 1] = '\0';
	is_int(parse1(long_arg), -1, "a long argument is rejected");
	ok(strstr(err, "kkk...'") != NULL, "and quoted abridged");

	args.given = 7;
	is_int(cosched_args_parse(1, argv, &args, err, sizeof(err)), -1,
	       "a bad argument fails the parse");
	is_int(args.given, 7, "args untouched on failure");
	is_int(cosched_args_parse(-1, NULL, &args, NULL, 0), -1,
	       "a negative count fails");
	is_int(cosched_args_parse(1, NULL, &args, NULL, 0), -1,
	       "a missing vector fails");
	return done_testing();
}
