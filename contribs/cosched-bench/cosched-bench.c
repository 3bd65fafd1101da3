/*
 * cosched-bench - the MPI job of the dynamic coscheduling benchmark.
 *
 *   cosched-bench [--type J1..J6] [--pattern nn|aa|tree|linear|allreduce]
 *                 [--skew PERCENT] [--msg BYTES]
 *                 [--seconds T | --iterations N] [--latency-us L]
 *                 [--seed S] [--json]
 *
 * Every task iterates computation, I/O and communication (paper section
 * 3.2, Figure 2a).  The communication of an iteration is sized as its
 * message count times the modelled one-way latency L; computation and
 * I/O follow from the job type's percentages (Table 2); T seconds give
 * T / (comp + io + comm) iterations.  With --skew s each iteration's
 * computation and I/O are multiplied by 1 + unif(-s/2, s/2), per task.
 *
 * The real messages of a machine seldom take exactly L (shared memory:
 * a few microseconds; the embedded cluster's TCP on loopback: 30-60), so
 * a dedicated run takes less or more than T by up to the communication
 * share: slowdowns are taken against a dedicated run, not against T.
 *
 * Rank 0 prints one line (per-task means of the phases, the wall time of
 * the slowest task, and when the loop started and ended on the realtime
 * clock, so that a driver can put jobs sharing nodes on one time line)
 * or, with --json, one JSON object.  Exit 0; 2 for bad options (before
 * MPI is started); 1 when the run cannot be set up.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include <mpi.h>

#include "comm.h"
#include "plan.h"
#include "version/version.h"
#include "work.h"

/* Per-task totals of one run, seconds. */
enum { T_COMP, T_IO, T_COMM, T_CPU, T_COUNT };

struct result {
	double sum[T_COUNT];	/* over tasks */
	double wall;		/* slowest task */
	double start_epoch;	/* rank 0's loop start, CLOCK_REALTIME */
	double rate;		/* spin loops per microsecond, common */
	bool io_schedstat;	/* rank 0 could tell run-queue waits from I/O */
	uint64_t io_blocks;	/* rank 0's */
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * One spin rate for every task, so all do the same work per iteration:
 * the median of the tasks' own calibrations (a task calibrated on a busy
 * core does not set everyone's pace).  A collective, but before the
 * measured part.
 */
static int common_spin_rate(int ranks, double *rate)
{
	double mine = work_calibrate_spin();
	double *all = malloc(sizeof(*all) * (size_t)ranks);

	if (!all)
		return -1;
	MPI_Allgather(&mine, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, MPI_COMM_WORLD);
	qsort(all, (size_t)ranks, sizeof(*all), cmp_double);
	*rate = ranks % 2 ? all[ranks / 2]
			  : (all[ranks / 2 - 1] + all[ranks / 2]) / 2;
	free(all);
	return *rate > 0 ? 0 : -1;
}

/* The measured loop of one task: its phase times into t[], its wall time. */
static double run_iterations(const struct bench_opts *opts,
			     const struct bench_plan *plan, struct comm *c,
			     struct work_io *io, double rate, double t[T_COUNT])
{
	struct bench_rng rng;
	double start, cpu0, now, mark;
	uint64_t i;

	bench_rng_seed(&rng, opts->seed, c->rank);
	memset(t, 0, sizeof(double) * T_COUNT);
	cpu0 = work_clock(CLOCK_PROCESS_CPUTIME_ID);
	start = mark = work_clock(CLOCK_MONOTONIC);
	for (i = 0; i < plan->iterations; i++) {
		double comp_us = plan->comp_us * bench_skew_factor(&rng, opts->skew_pct);
		double io_us = plan->io_us * bench_skew_factor(&rng, opts->skew_pct);

		work_spin(work_loops(comp_us, rate));
		now = work_clock(CLOCK_MONOTONIC);
		t[T_COMP] += now - mark;
		mark = now;

		work_io(io, io_us);
		now = work_clock(CLOCK_MONOTONIC);
		t[T_IO] += now - mark;
		mark = now;

		comm_iteration(c);
		now = work_clock(CLOCK_MONOTONIC);
		t[T_COMM] += now - mark;
		mark = now;
	}
	t[T_CPU] = work_clock(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
	return mark - start;
}

static void print_line(const struct bench_opts *opts,
		       const struct bench_plan *plan, int ranks,
		       const struct result *r)
{
	printf(BENCH_PROG " type=%s pattern=%s ranks=%d iterations=%llu"
	       " wall_s=%.6f comp_s=%.6f io_s=%.6f comm_s=%.6f cpu_s=%.6f"
	       " target_s=%.6f skew=%g msg=%zu latency_us=%g seed=%llu"
	       " start_epoch=%.6f end_epoch=%.6f\n",
	       opts->type->name, bench_pattern_name(opts->pattern), ranks,
	       (unsigned long long)plan->iterations, r->wall,
	       r->sum[T_COMP] / ranks, r->sum[T_IO] / ranks,
	       r->sum[T_COMM] / ranks, r->sum[T_CPU] / ranks,
	       plan->iterations * (plan->comp_us + plan->io_us + plan->comm_us) / 1e6,
	       opts->skew_pct, opts->msg, opts->latency_us,
	       (unsigned long long)opts->seed, r->start_epoch,
	       r->start_epoch + r->wall);
}

static void print_json(const struct bench_opts *opts,
		       const struct bench_plan *plan, int ranks,
		       const struct result *r)
{
	printf("{\"program\":\"" BENCH_PROG "\",\"type\":\"%s\",\"pattern\":\"%s\","
	       "\"ranks\":%d,\"iterations\":%llu,"
	       "\"wall_s\":%.6f,\"comp_s\":%.6f,\"io_s\":%.6f,\"comm_s\":%.6f,"
	       "\"cpu_s\":%.6f,\"target_s\":%.6f,"
	       "\"comp_us\":%.3f,\"io_us\":%.3f,\"comm_ideal_us\":%.3f,"
	       "\"messages\":%d,\"skew\":%g,\"msg\":%zu,\"latency_us\":%g,"
	       "\"seed\":%llu,\"loops_per_us\":%.3f,\"io_schedstat\":%s,"
	       "\"io_blocks\":%llu,\"start_epoch\":%.6f,\"end_epoch\":%.6f}\n",
	       opts->type->name, bench_pattern_name(opts->pattern), ranks,
	       (unsigned long long)plan->iterations, r->wall,
	       r->sum[T_COMP] / ranks, r->sum[T_IO] / ranks,
	       r->sum[T_COMM] / ranks, r->sum[T_CPU] / ranks,
	       plan->iterations * (plan->comp_us + plan->io_us + plan->comm_us) / 1e6,
	       plan->comp_us, plan->io_us, plan->comm_us, plan->messages,
	       opts->skew_pct, opts->msg, opts->latency_us,
	       (unsigned long long)opts->seed, r->rate, r->io_schedstat ? "true" : "false",
	       (unsigned long long)r->io_blocks, r->start_epoch,
	       r->start_epoch + r->wall);
}

/* Everything between MPI_Init and MPI_Finalize: 0, or 1 (a set-up error). */
static int run(const struct bench_opts *opts)
{
	struct comm c = { 0 };
	struct work_io io;
	struct bench_plan plan;
	struct result r = { 0 };
	char err[BENCH_ERR_LEN];
	double t[T_COUNT], wall;
	int ranks, rank;

	MPI_Comm_size(MPI_COMM_WORLD, &ranks);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (bench_make_plan(opts, ranks, &plan, err, sizeof(err))) {
		fprintf(stderr, BENCH_PROG ": %s\n", err);
		return 1;
	}
	/* Short sleeps are the point: no 50 us default timer slack. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	if (common_spin_rate(ranks, &r.rate) ||
	    comm_init(&c, opts->pattern, opts->msg)) {
		fprintf(stderr, BENCH_PROG ": rank %d: cannot set up (out of memory?)\n", rank);
		return 1;
	}
	work_io_init(&io);

	MPI_Barrier(MPI_COMM_WORLD);
	r.start_epoch = work_clock(CLOCK_REALTIME);
	wall = run_iterations(opts, &plan, &c, &io, r.rate, t);

	MPI_Reduce(t, r.sum, T_COUNT, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	MPI_Reduce(&wall, &r.wall, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
	r.io_schedstat = io.schedstat_fd >= 0;
	r.io_blocks = io.blocks;
	if (rank == 0) {
		if (opts->json)
			print_json(opts, &plan, ranks, &r);
		else
			print_line(opts, &plan, ranks, &r);
		fflush(stdout);
	}
	work_io_fini(&io);
	comm_fini(&c);
	return 0;
}

int main(int argc, char **argv)
{
	struct bench_opts opts;
	char err[BENCH_ERR_LEN];
	int rc;

	if (coalloc_version_wanted(argc, argv))
		return coalloc_version_print("cosched-bench");

	switch (bench_parse_args(argc, argv, &opts, err, sizeof(err))) {
	case BENCH_PARSE_HELP:
		fputs(bench_usage(), stdout);
		return 0;
	case BENCH_PARSE_ERROR:
		fprintf(stderr, BENCH_PROG ": %s (see --help)\n", err);
		return BENCH_EXIT_USAGE;
	case BENCH_PARSE_OK:
		break;
	}
	MPI_Init(&argc, &argv);
	rc = run(&opts);
	if (rc)
		MPI_Abort(MPI_COMM_WORLD, rc);
	MPI_Finalize();
	return rc;
}
