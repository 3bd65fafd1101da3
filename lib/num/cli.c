/*
 * cli.c - the command line of the suite's programs (cli.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stdlib.h>

#include "num/cli.h"

int cli_fail(const char *prog, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

int cli_parse(const struct cli_spec *spec, int argc, char **argv, void *ctx)
{
	int opt;

	while ((opt = getopt_long(argc, argv, "", spec->options, NULL)) != -1) {
		if (opt == spec->help_opt) {
			spec->usage(stdout);
			exit(0);
		}
		if (opt == '?') {
			spec->usage(stderr);
			return -1;
		}
		if (spec->handle(opt, optarg, ctx))
			return -1;
	}
	if (optind < argc)
		return cli_fail(spec->prog, "unexpected argument '%s'",
				argv[optind]);
	return 0;
}
