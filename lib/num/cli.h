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
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* "PROG: MESSAGE\n" on stderr; returns -1. */
int cli_fail(const char *prog, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

struct cli_number;

struct cli_spec {
	const char *prog;
	const struct option *options;	/* long options only */
	int help_opt;			/* the value of --help */
	void (*usage)(FILE *fp);
	/* The numeric options (below), stored in the options that
	 * options_of(ctx) returns (NULL: ctx is the options). */
	const struct cli_number *numbers;
	size_t nnumbers;
	void *(*options_of)(void *ctx);
	/* Any other option (arg NULL without one); 0, or -1 after cli_fail. */
	int (*handle)(int opt, const char *arg, void *ctx);
};

/*
 * Every option of argv: a numeric one by its row of spec->numbers, any
 * other through spec->handle.  --help prints the usage on stdout and
 * exits 0; an unknown option (getopt names it) prints the usage on
 * stderr, and an argument that is no option is refused: both return -1,
 * as a refused value or a handler's error does.
 */
int cli_parse(const struct cli_spec *spec, int argc, char **argv, void *ctx);

/*
 * A numeric option as a row of a program's table: parsed strictly
 * (num.h), held to its limits and stored in the program's options at its
 * offset, with the field's type found by the compiler (CLI_NUMBER).  A
 * refusal reads "PROG: --NAME 'ARG': expected EXPECT".
 */
enum cli_number_type { CLI_UINT, CLI_ULONG, CLI_ULLONG, CLI_DOUBLE };

#define CLI_OPEN_LO 1u		/* lo itself is refused ("> 0") */
#define CLI_OPEN_HI 2u		/* hi itself is refused ("< 0.9") */

struct cli_number {
	int opt;			/* its getopt value */
	const char *name;		/* without "--" */
	enum cli_number_type type;
	size_t at;			/* offsetof() in the options */
	double lo, hi;			/* inclusive unless open */
	unsigned open;			/* CLI_OPEN_* */
	const char *expect;		/* "1 to 1000", "seconds > 0" */
	bool has_flag;			/* a bool to set when given ... */
	size_t flag_at;			/* ... at this offset */
};

#define CLI_TYPE_OF(type, field) _Generic(((type *)0)->field,		\
	unsigned int: CLI_UINT, unsigned long: CLI_ULONG,		\
	unsigned long long: CLI_ULLONG, double: CLI_DOUBLE)
/* A row: options type, getopt value, name, field, limits, open, text. */
#define CLI_NUMBER(type, opt, name, field, lo, hi, open, expect)	\
	{ (opt), (name), CLI_TYPE_OF(type, field), offsetof(type, field), \
	  (lo), (hi), (open), (expect), false, 0 }
/* The same, and the bool flag (a field of type) set when it is given. */
#define CLI_NUMBER_FLAG(type, opt, name, field, lo, hi, open, expect, flag) \
	{ (opt), (name), CLI_TYPE_OF(type, field), offsetof(type, field), \
	  (lo), (hi), (open), (expect), true, offsetof(type, flag) }

/*
 * opt's row of table[0..n) applied to arg, into opts: 0, -1 after
 * cli_fail(prog, ...), or 1 when no row is opt's.
 */
int cli_number(const char *prog, const struct cli_number *table, size_t n,
	       int opt, const char *arg, void *opts);

#endif /* COALLOC_NUM_CLI_H */
