/*
 * plan.h - what one cosched-bench run does, decided without MPI: the
 * options, the job types of the paper (Table 2: J1-J6, percentages of
 * computation, I/O and communication), the communication patterns, the
 * per-iteration times and the iteration count, and the skew draws.
 *
 * Kept apart from the MPI program so the unit tests can check the
 * arithmetic and the option errors quickly (and under valgrind).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHED_BENCH_PLAN_H
#define COSCHED_BENCH_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BENCH_PROG "cosched-bench"
#define BENCH_EXIT_USAGE 2
#define BENCH_ERR_LEN 256

#define BENCH_DEFAULT_MSG 4096
#define BENCH_DEFAULT_SECONDS 10.0
#define BENCH_DEFAULT_LATENCY_US 50.0
#define BENCH_DEFAULT_SEED 1
#define BENCH_MAX_MSG (64u << 20)	/* 64 MiB: one send and one receive buffer */
#define BENCH_MAX_SKEW 199.0		/* below 200 %: a factor stays positive */

struct bench_job_type {
	const char *name;	/* "J1" .. "J6" */
	int comp_pct;
	int io_pct;
	int comm_pct;
};

enum bench_pattern {
	BENCH_NN,	/* i exchanges with i-1 and i+1 (ring) */
	BENCH_AA,	/* i sends to and receives from every other */
	BENCH_TREE,	/* up a binary tree to rank 0, then down again */
	BENCH_LINEAR,	/* i waits for i-1, then sends to i+1 */
	BENCH_ALLREDUCE,	/* MPI_Allreduce of the message (a collective) */
	BENCH_PATTERN_COUNT
};

struct bench_opts {
	const struct bench_job_type *type;
	enum bench_pattern pattern;
	double skew_pct;	/* s of the paper, in percent */
	size_t msg;		/* bytes per message */
	double seconds;		/* dedicated-time target (iterations == 0) */
	uint64_t iterations;	/* --iterations, 0 when sized from seconds */
	double latency_us;	/* modelled one-way latency of a message */
	uint64_t seed;
	bool json;
};

/* What a run does per iteration (the ideal, balanced case) and how often. */
struct bench_plan {
	int messages;		/* message latencies per iteration, see below */
	double comm_us;		/* messages x latency */
	double comp_us;		/* from comm_us and the type's percentages */
	double io_us;
	uint64_t iterations;
};

enum bench_parse_result { BENCH_PARSE_OK, BENCH_PARSE_HELP, BENCH_PARSE_ERROR };

/* The job type named NAME ("J5" or "j5"), NULL when there is none. */
const struct bench_job_type *bench_job_type(const char *name);

/* Pattern names: "nn", "aa", "tree", "linear". */
int bench_parse_pattern(const char *name, enum bench_pattern *pattern);
const char *bench_pattern_name(enum bench_pattern pattern);

/*
 * Parse the command line (getopt_long, so optind is reset first).  On an
 * error, a one-line message in err and BENCH_PARSE_ERROR; --help gives
 * BENCH_PARSE_HELP and prints nothing (the caller prints bench_usage()).
 */
enum bench_parse_result bench_parse_args(int argc, char **argv,
					 struct bench_opts *opts,
					 char *err, size_t err_len);

/* The usage text, for --help and after errors. */
const char *bench_usage(void);

/*
 * Message latencies one task waits through per iteration when everything
 * is balanced: nn 2 (one message from each neighbour), aa ranks-1 (one
 * from every other task), tree 2 x floor(log2 ranks) (a level up, then a
 * level down), linear 1 (a pipeline stage waits for one message per
 * iteration once the pipeline is full).  A single task has no partner:
 * its iteration is sized as for two tasks and it does not communicate.
 */
int bench_messages(enum bench_pattern pattern, int ranks);

/*
 * Per-iteration times and the iteration count for RANKS tasks: the
 * communication time is messages x latency, computation and I/O follow
 * from the job type's percentages, and --seconds T gives
 * T / (comp + io + comm) iterations (at least 1).  0, or -1 with err.
 */
int bench_make_plan(const struct bench_opts *opts, int ranks,
		    struct bench_plan *plan, char *err, size_t err_len);

/* Neighbours in the binary tree rooted at rank 0 (-1: none). */
int bench_tree_parent(int rank);
int bench_tree_child(int rank, int which, int ranks);	/* which: 0 or 1 */

/*
 * The skew draws of one task: a splitmix64 stream seeded from the seed and
 * the rank, so runs repeat and tasks differ.  bench_skew_factor() is
 * 1 + unif(-s/2, s/2) with s = skew_pct / 100.
 */
struct bench_rng {
	uint64_t state;
};

void bench_rng_seed(struct bench_rng *rng, uint64_t seed, int rank);
double bench_rng_unit(struct bench_rng *rng);	/* in [0, 1) */
double bench_skew_factor(struct bench_rng *rng, double skew_pct);

#endif /* COSCHED_BENCH_PLAN_H */
