/*
 * plan.c - options, job types, patterns and iteration sizing of
 * cosched-bench (see plan.h).  No MPI here.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "num/num.h"
#include "plan.h"
#include "num/errbuf.h"
#include "num/splitmix.h"

#define MAX_SECONDS 1e6
#define MAX_LATENCY_US 1e6
#define MAX_ITERATIONS 1000000000000ULL

/* Table 2 of the paper: computation, I/O and communication percentages. */
static const struct bench_job_type job_types[] = {
	{ "J1", 35, 15, 50 },
	{ "J2", 35, 50, 15 },
	{ "J3", 35, 35, 30 },
	{ "J4", 90, 5, 5 },
	{ "J5", 35, 5, 60 },
	{ "J6", 65, 5, 30 },
};

static const char *const pattern_names[BENCH_PATTERN_COUNT] = {
	[BENCH_NN] = "nn",
	[BENCH_AA] = "aa",
	[BENCH_TREE] = "tree",
	[BENCH_LINEAR] = "linear",
	[BENCH_ALLREDUCE] = "allreduce",
};

static const char usage_text[] =
	"usage: " BENCH_PROG " [--type J1..J6]\n"
	"         [--pattern nn|aa|tree|linear|allreduce]\n"
	"         [--skew PERCENT] [--msg BYTES] [--seconds T | --iterations N]\n"
	"         [--latency-us L] [--seed S] [--json]\n"
	"\n"
	"Iterations of computation (a calibrated CPU spin), I/O (a sleep) and\n"
	"point-to-point messages, sized from the job type's percentages\n"
	"(paper Table 2) and the modelled message latency L.  Run under\n"
	"mpirun or srun --mpi=pmix; rank 0 prints one line (or JSON).\n"
	"\n"
	"  --type J1..J6       job type (default J5: 35% comp, 5% I/O, 60% comm)\n"
	"  --pattern P         nn, aa, tree, linear or allreduce (an\n"
	"                      MPI_Allreduce of the message; default nn)\n"
	"  --skew PERCENT      comp and I/O of each iteration times\n"
	"                      1 + unif(-s/2, s/2), s = PERCENT/100 (default 0)\n"
	"  --msg BYTES         message size (default 4096)\n"
	"  --seconds T         dedicated run time target (default 10)\n"
	"  --iterations N      a fixed iteration count instead\n"
	"  --latency-us L      modelled one-way latency of a message (default 50)\n"
	"  --seed S            seed of the skew draws (default 1)\n"
	"  --json              one JSON object instead of the key=value line\n"
	"  --version           the suite's version\n";

const char *bench_usage(void)
{
	return usage_text;
}

const struct bench_job_type *bench_job_type(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(job_types) / sizeof(job_types[0]); i++)
		if (!strcasecmp(name, job_types[i].name))
			return &job_types[i];
	return NULL;
}

int bench_parse_pattern(const char *name, enum bench_pattern *pattern)
{
	int p;

	for (p = 0; p < BENCH_PATTERN_COUNT; p++) {
		if (!strcasecmp(name, pattern_names[p])) {
			*pattern = (enum bench_pattern)p;
			return 0;
		}
	}
	return -1;
}

const char *bench_pattern_name(enum bench_pattern pattern)
{
	if ((int)pattern < 0 || pattern >= BENCH_PATTERN_COUNT)
		return NULL;
	return pattern_names[pattern];
}

/* The whole string a finite decimal number: 0, or -1. */
enum {
	OPT_TYPE = 256, OPT_PATTERN, OPT_SKEW, OPT_MSG, OPT_SECONDS,
	OPT_ITERATIONS, OPT_LATENCY, OPT_SEED, OPT_JSON, OPT_HELP,
};

static const struct option long_options[] = {
	{ "type", required_argument, NULL, OPT_TYPE },
	{ "pattern", required_argument, NULL, OPT_PATTERN },
	{ "skew", required_argument, NULL, OPT_SKEW },
	{ "msg", required_argument, NULL, OPT_MSG },
	{ "seconds", required_argument, NULL, OPT_SECONDS },
	{ "iterations", required_argument, NULL, OPT_ITERATIONS },
	{ "latency-us", required_argument, NULL, OPT_LATENCY },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

static void set_defaults(struct bench_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->type = bench_job_type("J5");
	o->pattern = BENCH_NN;
	o->msg = BENCH_DEFAULT_MSG;
	o->seconds = BENCH_DEFAULT_SECONDS;
	o->latency_us = BENCH_DEFAULT_LATENCY_US;
	o->seed = BENCH_DEFAULT_SEED;
}

/* A positive number up to max, for --seconds and --latency-us. */
static int parse_positive(const char *opt, const char *arg, double max,
			  double *out, char *err, size_t len)
{
	double v;

	if (num_parse_double(arg, &v) || v <= 0 || v > max) {
		errbuf_set(err, len, "--%s: '%s' is not a number above 0 and up to %g",
			opt, arg, max);
		return -1;
	}
	*out = v;
	return 0;
}

/* One option and its argument into opts: 0, or -1 with err. */
static int apply_option(int c, const char *arg, struct bench_opts *o,
			bool *have_seconds, char *err, size_t len)
{
	uint64_t u;

	switch (c) {
	case OPT_TYPE:
		o->type = bench_job_type(arg);
		if (!o->type) {
			errbuf_set(err, len, "--type: unknown job type '%s' (expected J1 to J6)", arg);
			return -1;
		}
		return 0;
	case OPT_PATTERN:
		if (bench_parse_pattern(arg, &o->pattern)) {
			errbuf_set(err, len, "--pattern: unknown pattern '%s' (expected nn, aa, tree, linear or allreduce)", arg);
			return -1;
		}
		return 0;
	case OPT_SKEW:
		if (num_parse_double(arg, &o->skew_pct) || o->skew_pct < 0 ||
		    o->skew_pct > BENCH_MAX_SKEW) {
			errbuf_set(err, len, "--skew: '%s' is not a percentage from 0 to %g",
				arg, BENCH_MAX_SKEW);
			return -1;
		}
		return 0;
	case OPT_MSG:
		if (num_parse_u64(arg, &u) || u < 1 || u > BENCH_MAX_MSG) {
			errbuf_set(err, len, "--msg: '%s' is not a byte count from 1 to %u",
				arg, BENCH_MAX_MSG);
			return -1;
		}
		o->msg = (size_t)u;
		return 0;
	case OPT_SECONDS:
		*have_seconds = true;
		return parse_positive("seconds", arg, MAX_SECONDS, &o->seconds,
				      err, len);
	case OPT_ITERATIONS:
		if (num_parse_u64(arg, &o->iterations) || o->iterations < 1 ||
		    o->iterations > MAX_ITERATIONS) {
			errbuf_set(err, len, "--iterations: '%s' is not a whole number from 1 to %llu",
				arg, MAX_ITERATIONS);
			return -1;
		}
		return 0;
	case OPT_LATENCY:
		return parse_positive("latency-us", arg, MAX_LATENCY_US,
				      &o->latency_us, err, len);
	case OPT_SEED:
		if (num_parse_u64(arg, &o->seed)) {
			errbuf_set(err, len, "--seed: '%s' is not a whole number", arg);
			return -1;
		}
		return 0;
	case OPT_JSON:
		o->json = true;
		return 0;
	}
	errbuf_set(err, len, "internal error: option %d", c);
	return -1;
}

/* getopt's '?' and ':' as a message naming the option. */
static void option_error(int c, char **argv, char *err, size_t len)
{
	const char *word = optind > 0 ? argv[optind - 1] : "?";

	if (c == ':')
		errbuf_set(err, len, "option '%s' needs a value", word);
	else if (optopt && optopt < 256)
		errbuf_set(err, len, "unknown option '-%c'", optopt);
	else
		errbuf_set(err, len, "unknown option '%s'", word);
}

enum bench_parse_result bench_parse_args(int argc, char **argv,
					 struct bench_opts *opts,
					 char *err, size_t err_len)
{
	bool have_seconds = false;
	int c;

	set_defaults(opts);
	optind = 0;	/* glibc: a full reset, so the tests can parse again */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
		if (c == 'h' || c == OPT_HELP)
			return BENCH_PARSE_HELP;
		if (c == '?' || c == ':') {
			option_error(c, argv, err, err_len);
			return BENCH_PARSE_ERROR;
		}
		if (apply_option(c, optarg, opts, &have_seconds, err, err_len))
			return BENCH_PARSE_ERROR;
	}
	if (optind < argc) {
		errbuf_set(err, err_len, "unexpected argument '%s'", argv[optind]);
		return BENCH_PARSE_ERROR;
	}
	if (have_seconds && opts->iterations) {
		errbuf_set(err, err_len, "--seconds and --iterations exclude each other");
		return BENCH_PARSE_ERROR;
	}
	return BENCH_PARSE_OK;
}

/* floor(log2(n)) for n >= 1: the height of a binary heap of n nodes. */
static int floor_log2(int n)
{
	int h = 0;

	while (n > 1) {
		n >>= 1;
		h++;
	}
	return h;
}

int bench_messages(enum bench_pattern pattern, int ranks)
{
	if (ranks < 2)
		ranks = 2;
	switch (pattern) {
	case BENCH_NN:
		return 2;
	case BENCH_AA:
		return ranks - 1;
	case BENCH_TREE:
		return 2 * floor_log2(ranks);
	case BENCH_LINEAR:
		return 1;
	case BENCH_ALLREDUCE:	/* recursive doubling: ceil(log2) rounds */
		return floor_log2(ranks - 1) + 1;
	case BENCH_PATTERN_COUNT:
		break;
	}
	return -1;
}

int bench_make_plan(const struct bench_opts *opts, int ranks,
		    struct bench_plan *plan, char *err, size_t err_len)
{
	const struct bench_job_type *t = opts->type;
	double per_iteration_us;

	if (ranks < 1 || !t || t->comm_pct <= 0) {
		errbuf_set(err, err_len, "no plan for %d ranks", ranks);
		return -1;
	}
	plan->messages = bench_messages(opts->pattern, ranks);
	if (plan->messages < 1) {
		errbuf_set(err, err_len, "no messages for pattern %d", (int)opts->pattern);
		return -1;
	}
	plan->comm_us = plan->messages * opts->latency_us;
	plan->comp_us = plan->comm_us * t->comp_pct / t->comm_pct;
	plan->io_us = plan->comm_us * t->io_pct / t->comm_pct;
	per_iteration_us = plan->comp_us + plan->io_us + plan->comm_us;
	if (opts->iterations) {
		plan->iterations = opts->iterations;
	} else {
		double n = round(opts->seconds * 1e6 / per_iteration_us);

		plan->iterations = n < 1 ? 1 : (uint64_t)n;
	}
	return 0;
}

int bench_tree_parent(int rank)
{
	return rank > 0 ? (rank - 1) / 2 : -1;
}

int bench_tree_child(int rank, int which, int ranks)
{
	long child = 2L * rank + 1 + (which ? 1 : 0);

	return rank >= 0 && child < ranks ? (int)child : -1;
}

void bench_rng_seed(struct bench_rng *rng, uint64_t seed, int rank)
{
	uint64_t s = seed ^ (0xd1b54a32d192ed03ULL * ((uint64_t)rank + 1));

	rng->state = splitmix64(&s);
}

double bench_rng_unit(struct bench_rng *rng)
{
	return (splitmix64(&rng->state) >> 11) * 0x1.0p-53;
}

double bench_skew_factor(struct bench_rng *rng, double skew_pct)
{
	double s = skew_pct / 100.0;

	if (s <= 0)
		return 1.0;
	return 1.0 + s * (bench_rng_unit(rng) - 0.5);
}
