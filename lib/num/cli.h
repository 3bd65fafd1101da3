/*
 * cli.h - the command line of the suite's programs (coalloc-sim,
 * esp-sim, ...): one getopt_long loop with --help and the errors every
 * program reports alike, and the "PROG: message" line.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_NUM_CLI_H
#define COALLOC_NUM_CLI_H

#include <getopt.h>
#include <stdio.h>

/* "PROG: MESSAGE\n" on stderr; returns -1. */
int cli_fail(const char *prog, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

struct cli_spec {
	const char *prog;
	const struct option *options;	/* long options only */
	int help_opt;			/* the value of --help */
	void (*usage)(FILE *fp);
	/* One option (arg NULL without one); 0, or -1 after cli_fail. */
	int (*handle)(int opt, const char *arg, void *ctx);
};

/*
 * Every option of argv through spec->handle.  --help prints the usage
 * on stdout and exits 0; an unknown option (getopt names it) prints the
 * usage on stderr, and an argument that is no option is refused: both
 * return -1, as a handler's error does.
 */
int cli_parse(const struct cli_spec *spec, int argc, char **argv, void *ctx);

#endif /* COALLOC_NUM_CLI_H */
