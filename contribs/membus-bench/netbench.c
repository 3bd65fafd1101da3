/*
 * netbench - the network microbenchmark of the MemBUS experiments: the
 * paper's myribench (section 3) on MPI, all-to-all traffic between the
 * job's ranks.
 *
 *   netbench [--bytes N] [--seconds T] [--report SECS] [--log FILE]
 *            [--label TEXT] [--compute US]
 *
 * Each iteration every rank sends N bytes to every other rank and
 * receives N from each (MPI_Alltoall), then spins --compute
 * microseconds.  Run with '--mca btl tcp,self' the traffic crosses TCP
 * sockets even between ranks of one node, where the node agent can
 * measure it.
 *
 * Runs until --seconds T (0: no limit) or until any rank gets SIGTERM,
 * SIGINT or SIGALRM.  Every iteration ends with an MPI_Allreduce(MAX)
 * of the ranks' stop flags, so all of them leave the loop after the
 * same iteration and none waits for a partner that has gone; a few
 * bytes against the N * (ranks - 1) of the exchange.  Rank 0 logs (one
 * write per line, appended):
 *
 *   netbench start ranks=R bytes=N
 *   netbench t=SECONDS iterations=I bytes=SENT        every --report s
 *   netbench done ranks=R bytes=N seconds=X iterations=I rate=ITER_PER_S
 *            net_bytes_per_s=BYTES_PER_S label=TEXT
 *
 * (the done line is one line), where SENT = I * N * (R - 1) is what
 * rank 0 has sent so far and net_bytes_per_s counts what it sent and
 * received, 2 * I * N * (R - 1) over the wall time.  Exit 0; 2 for bad
 * options (before MPI starts); 1 when the run cannot be set up.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "common.h"
#include "num/num.h"
#include "version/version.h"

#define PROG "netbench"

#define DEFAULT_BYTES (64ULL << 10)
#define MAX_BYTES (64ULL << 20)		/* an int count, with room */
#define MAX_COMPUTE_US 10e6

enum {
	OPT_BYTES = MB_OPT_OWN,
	OPT_COMPUTE,
};

struct netbench_opts {
	uint64_t bytes;		/* to each other rank, per iteration */
	double compute_us;	/* busy work after each exchange */
	struct mb_run_opts run;
};

/* One rank's side of the exchange. */
struct exchange {
	int rank;
	int ranks;
	char *send;		/* bytes * ranks */
	char *recv;		/* bytes * ranks */
	uint64_t iterations;
};

static const struct option long_options[] = {
	{ "bytes", required_argument, NULL, OPT_BYTES },
	{ "compute", required_argument, NULL, OPT_COMPUTE },
	MB_COMMON_LONG_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

static void usage(void)
{
	printf("usage: " PROG " [--bytes N] [--seconds T] [--report SECS]\n"
	       "                [--log FILE] [--label TEXT] [--compute US]\n"
	       "  --bytes N      bytes to every other rank per iteration,\n"
	       "                 1 to %llu (default %llu)\n"
	       "  --compute US   busy microseconds after each exchange,\n"
	       "                 0 to %.0f (default 0)\n"
	       "  --seconds T    stop after T seconds (default 0: when any rank\n"
	       "                 gets SIGTERM, SIGINT or SIGALRM)\n"
	       "  --report SECS  progress line every SECS seconds (default %g)\n"
	       "  --log FILE     rank 0 appends its lines to FILE (default stdout)\n"
	       "  --label TEXT   a word for the done line (default '%s')\n"
	       "  --help         this text\n"
	       "  --version      the suite's version\n",
	       MAX_BYTES, DEFAULT_BYTES, MAX_COMPUTE_US, MB_DEFAULT_REPORT,
	       MB_DEFAULT_LABEL);
}

static int apply_option(int c, const char *arg, void *opts)
{
	struct netbench_opts *o = opts;

	int common = mb_run_option(PROG, c, arg, &o->run);

	if (common)
		return common < 0 ? -1 : 0;
	switch (c) {
	case OPT_BYTES:
		if (num_parse_range(arg, 1, MAX_BYTES, &o->bytes))
			return mb_bad_option(PROG, "bytes", "'%s' is not a byte count from 1 to %llu",
					     arg, MAX_BYTES);
		return 0;
	case OPT_COMPUTE:
		if (num_parse_double(arg, &o->compute_us) || o->compute_us < 0 ||
		    o->compute_us > MAX_COMPUTE_US)
			return mb_bad_option(PROG, "compute", "'%s' is not a number of microseconds from 0 to %.0f",
					     arg, MAX_COMPUTE_US);
		return 0;
	}
	fprintf(stderr, PROG ": internal error: option %d\n", c);
	return -1;
}

/* 0: run; 1: --help given; -1: bad options (message printed). */
static int parse_args(int argc, char **argv, struct netbench_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->bytes = DEFAULT_BYTES;
	mb_run_opts_init(&o->run);
	return mb_parse_args(PROG, argc, argv, long_options, apply_option, o);
}

/* Busy work that stays on the CPU, as a compute phase does. */
static void spin_us(double us)
{
	double until;

	if (us <= 0)
		return;
	until = mb_now() + us / 1e6;
	while (mb_now() < until)
		;
}

static int exchange_init(struct exchange *x, uint64_t bytes)
{
	size_t total;

	memset(x, 0, sizeof(*x));
	MPI_Comm_rank(MPI_COMM_WORLD, &x->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &x->ranks);
	total = (size_t)bytes * (size_t)x->ranks;
	x->send = malloc(total);
	x->recv = malloc(total);
	if (!x->send || !x->recv)
		return -1;
	memset(x->send, x->rank & 0xff, total);
	return 0;
}

static void exchange_fini(struct exchange *x)
{
	free(x->send);
	free(x->recv);
	x->send = x->recv = NULL;
}

/* One iteration; true when every rank is to stop after it. */
static bool iterate(struct exchange *x, const struct netbench_opts *o,
		    double start)
{
	int local, any;

	MPI_Alltoall(x->send, (int)o->bytes, MPI_BYTE, x->recv, (int)o->bytes,
		     MPI_BYTE, MPI_COMM_WORLD);
	spin_us(o->compute_us);
	x->iterations++;
	local = mb_stop_requested() ||
		(o->run.seconds > 0 && mb_now() - start >= o->run.seconds);
	MPI_Allreduce(&local, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	return any != 0;
}

static uint64_t bytes_sent(const struct exchange *x, uint64_t bytes)
{
	return x->iterations * bytes * (uint64_t)(x->ranks - 1);
}

static void exchange_until_stopped(struct exchange *x,
				   const struct netbench_opts *o,
				   struct mb_log *log, double start)
{
	struct mb_ticker ticker;
	bool stop;

	mb_ticker_init(&ticker, start, o->run.report);
	do {
		double now;

		stop = iterate(x, o, start);
		now = mb_now();
		if (x->rank == 0 && !stop && mb_ticker_due(&ticker, now))
			mb_log_line(log, PROG " t=%.3f iterations=%llu bytes=%llu",
				    now - start,
				    (unsigned long long)x->iterations,
				    (unsigned long long)bytes_sent(x, o->bytes));
	} while (!stop);
}

/* Everything between MPI_Init and MPI_Finalize: 0, or 1 (set-up error). */
static int run(const struct netbench_opts *o)
{
	struct exchange x;
	struct mb_log log = { -1, false };
	int ok, all_ok;
	double start, secs;

	ok = exchange_init(&x, o->bytes) == 0;
	if (!ok)
		fprintf(stderr, PROG ": rank %d: cannot allocate 2 x %llu x %d bytes\n",
			x.rank, (unsigned long long)o->bytes, x.ranks);
	if (ok && x.rank == 0)
		ok = mb_log_open(PROG, o->run.log, &log) == 0;
	/* Every rank learns whether all are ready: none starts alone. */
	MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (!all_ok)
		goto fail;

	if (x.rank == 0)
		mb_log_line(&log, PROG " start ranks=%d bytes=%llu", x.ranks,
			    (unsigned long long)o->bytes);
	MPI_Barrier(MPI_COMM_WORLD);
	start = mb_now();
	exchange_until_stopped(&x, o, &log, start);
	secs = mb_now() - start;
	if (x.rank == 0)
		mb_log_line(&log, PROG " done ranks=%d bytes=%llu seconds=%.3f iterations=%llu rate=%.1f net_bytes_per_s=%.1f label=%s",
			    x.ranks, (unsigned long long)o->bytes, secs,
			    (unsigned long long)x.iterations,
			    secs > 0 ? x.iterations / secs : 0,
			    secs > 0 ? 2.0 * bytes_sent(&x, o->bytes) / secs : 0,
			    o->run.label);
	mb_log_close(&log);
	exchange_fini(&x);
	return 0;
fail:
	mb_log_close(&log);
	exchange_fini(&x);
	return 1;
}

int main(int argc, char **argv)
{
	struct netbench_opts opts;
	int rc;

	if (coalloc_version_wanted(argc, argv))
		return coalloc_version_print("netbench");

	switch (parse_args(argc, argv, &opts)) {
	case 1:
		usage();
		return 0;
	case -1:
		return MB_EXIT_USAGE;
	}
	MPI_Init(&argc, &argv);
	/* After MPI_Init, so that no handler it installs replaces ours. */
	if (mb_catch_stop_signals()) {
		perror(PROG ": sigaction");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	rc = run(&opts);
	if (rc)
		MPI_Abort(MPI_COMM_WORLD, rc);
	MPI_Finalize();
	return rc;
}
