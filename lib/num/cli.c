/*
 * cli.c - the command line of the suite's programs (cli.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>

#include "num/cli.h"
#include "num/num.h"

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
	int opt, rc;

	while ((opt = getopt_long(argc, argv, "", spec->options, NULL)) != -1) {
		if (opt == spec->help_opt) {
			spec->usage(stdout);
			exit(0);
		}
		if (opt == '?') {
			spec->usage(stderr);
			return -1;
		}
		rc = cli_number(spec->prog, spec->numbers, spec->nnumbers, opt,
				optarg, spec->options_of ?
				spec->options_of(ctx) : ctx);
		if (rc < 0 || (rc > 0 && spec->handle(opt, optarg, ctx)))
			return -1;
	}
	if (optind < argc)
		return cli_fail(spec->prog, "unexpected argument '%s'",
				argv[optind]);
	return 0;
}

static bool _within(const struct cli_number *row, double v)
{
	if (v < row->lo || v > row->hi)
		return false;
	if ((row->open & CLI_OPEN_LO) && v == row->lo)
		return false;
	return !((row->open & CLI_OPEN_HI) && v == row->hi);
}

/* The largest value a field of the row's type holds. */
static uint64_t _type_max(enum cli_number_type type)
{
	switch (type) {
	case CLI_UINT:
		return UINT_MAX;
	case CLI_ULONG:
		return ULONG_MAX;
	default:
		return ULLONG_MAX;
	}
}

static int _store(const struct cli_number *row, const char *arg, char *base)
{
	uint64_t u;
	double d;

	if (row->type == CLI_DOUBLE) {
		if (num_parse_double(arg, &d) || !_within(row, d))
			return -1;
		*(double *)(base + row->at) = d;
		return 0;
	}
	if (num_parse_range(arg, 0, _type_max(row->type), &u) ||
	    !_within(row, (double)u))
		return -1;
	if (row->type == CLI_UINT)
		*(unsigned int *)(base + row->at) = (unsigned int)u;
	else if (row->type == CLI_ULONG)
		*(unsigned long *)(base + row->at) = (unsigned long)u;
	else
		*(unsigned long long *)(base + row->at) = u;
	return 0;
}

int cli_number(const char *prog, const struct cli_number *table, size_t n,
	       int opt, const char *arg, void *opts)
{
	for (size_t i = 0; i < n; i++) {
		const struct cli_number *row = &table[i];

		if (row->opt != opt)
			continue;
		if (!arg || _store(row, arg, opts))
			return cli_fail(prog, "--%s '%s': expected %s",
					row->name, arg ? arg : "", row->expect);
		if (row->has_flag)
			*(bool *)((char *)opts + row->flag_at) = true;
		return 0;
	}
	return 1;
}
