/*
 * test_cli.c - numeric options as table rows (cli_number): each field
 * type stored where its row says, limits open and closed, the flag of a
 * given option, the refusal's message, and an option no row has.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "num/cli.h"
#include "tap.h"

struct inner {
	double slice;
};

struct opts {
	unsigned procs;
	uint64_t seed;
	size_t jobs;
	struct inner in;
	double warmup;
	bool slice_set;
};

enum { O_PROCS = 1, O_SEED, O_JOBS, O_SLICE, O_WARMUP, O_OTHER };

static const struct cli_number rows[] = {
	CLI_NUMBER(struct opts, O_PROCS, "procs", procs, 1, 64, 0, "1 to 64"),
	CLI_NUMBER(struct opts, O_SEED, "seed", seed, 0, INFINITY, 0, "an integer"),
	CLI_NUMBER(struct opts, O_JOBS, "jobs", jobs, 10, 1000, 0, "10 to 1000"),
	CLI_NUMBER_FLAG(struct opts, O_SLICE, "slice", in.slice, 0, 1e9,
			CLI_OPEN_LO, "seconds > 0", slice_set),
	CLI_NUMBER(struct opts, O_WARMUP, "warmup", warmup, 0, 0.9, CLI_OPEN_HI,
		   "a fraction in [0, 0.9)"),
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))

static char msg[256];

/* cli_number with stderr caught in msg. */
static int _set(struct opts *o, int opt, const char *arg)
{
	FILE *f = tmpfile();
	int saved = dup(2), rc;
	size_t n;

	fflush(stderr);
	dup2(fileno(f), 2);
	rc = cli_number("prog", rows, NROWS, opt, arg, o);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	n = fread(msg, 1, sizeof(msg) - 1, f);
	msg[n] = '\0';
	fclose(f);
	return rc;
}

int main(void)
{
	struct opts o = { 0 };

	ok(CLI_TYPE_OF(struct opts, procs) == CLI_UINT &&
	   CLI_TYPE_OF(struct opts, in.slice) == CLI_DOUBLE,
	   "the field's type is the compiler's");
	is_int(_set(&o, O_PROCS, "64"), 0, "the highest value");
	is_int(o.procs, 64, "... stored in its unsigned field");
	is_int(_set(&o, O_PROCS, "65"), -1, "one above: refused");
	is_str(msg, "prog: --procs '65': expected 1 to 64\n", "... saying what is expected");
	is_int(o.procs, 64, "... and the field is left as it was");
	is_int(_set(&o, O_PROCS, "-1"), -1, "a sign: refused");
	is_int(_set(&o, O_SEED, "18446744073709551615"), 0, "a 64-bit seed");
	ok(o.seed == UINT64_MAX, "... stored whole");
	is_int(_set(&o, O_JOBS, "1000"), 0, "a size_t field");
	is_int((int)o.jobs, 1000, "... stored");
	is_int(_set(&o, O_SLICE, "0"), -1, "an open lower limit refuses itself");
	ok(!o.slice_set, "... and no flag is set");
	is_int(_set(&o, O_SLICE, "0.5"), 0, "above it: taken");
	ok(o.in.slice == 0.5 && o.slice_set, "... into a nested field, its flag set");
	is_int(_set(&o, O_WARMUP, "0.9"), -1, "an open upper limit refuses itself");
	is_int(_set(&o, O_WARMUP, "0"), 0, "a closed lower one takes itself");
	is_int(_set(&o, O_WARMUP, "1e-400x"), -1, "not a number: refused");
	is_int(_set(&o, O_OTHER, "1"), 1, "an option no row has: 1, nothing said");
	is_str(msg, "", "... silently");
	return done_testing();
}
