/*
 * test_plan.c - cosched-bench without MPI: option parsing and its
 * errors, the job types of Table 2, message counts per pattern, the
 * iteration sizing, the tree neighbours, the skew draws, and the spin
 * and I/O work units.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "plan.h"
#include "tap.h"
#include "work.h"

#define MAX_ARGS 16

/* Parse a NULL-terminated argument list (argv[0] added). */
static enum bench_parse_result parse(struct bench_opts *o, char *err,
				     const char *first, ...)
{
	char *argv[MAX_ARGS + 2] = { (char *)"cosched-bench" };
	int argc = 1;
	va_list ap;
	const char *a;

	va_start(ap, first);
	for (a = first; a && argc <= MAX_ARGS; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	err[0] = '\0';
	return bench_parse_args(argc, argv, o, err, BENCH_ERR_LEN);
}

static void test_defaults(void)
{
	struct bench_opts o;
	char err[BENCH_ERR_LEN];

	is_int(parse(&o, err, NULL), BENCH_PARSE_OK, "no options parse");
	is_str(o.type->name, "J5", "default type J5");
	is_int(o.pattern, BENCH_NN, "default pattern nn");
	is_double(o.skew_pct, 0, 0, "default skew 0");
	is_int(o.msg, 4096, "default message 4096 bytes");
	is_double(o.seconds, 10, 0, "default 10 s");
	is_int(o.iterations, 0, "iterations from the seconds by default");
	is_double(o.latency_us, 50, 0, "default latency 50 us");
	ok(!o.json, "key=value line by default");
}

static void test_options(void)
{
	struct bench_opts o;
	char err[BENCH_ERR_LEN];

	is_int(parse(&o, err, "--type", "j2", "--pattern", "TREE", "--skew",
		     "20", "--msg", "1024", "--iterations", "7",
		     "--latency-us", "12.5", "--seed", "99", "--json", NULL),
	       BENCH_PARSE_OK, "every option parses");
	is_str(o.type->name, "J2", "  --type j2 is J2");
	is_int(o.pattern, BENCH_TREE, "  --pattern TREE");
	is_double(o.skew_pct, 20, 0, "  --skew 20");
	is_int(o.msg, 1024, "  --msg 1024");
	is_int(o.iterations, 7, "  --iterations 7");
	is_double(o.latency_us, 12.5, 0, "  --latency-us 12.5");
	is_int(o.seed, 99, "  --seed 99");
	ok(o.json, "  --json");
	is_int(parse(&o, err, "--seconds=2.5", NULL), BENCH_PARSE_OK, "--seconds=2.5");
	is_double(o.seconds, 2.5, 0, "  2.5 s");
	is_int(parse(&o, err, "--help", NULL), BENCH_PARSE_HELP, "--help");
	is_int(parse(&o, err, "-h", NULL), BENCH_PARSE_HELP, "-h");
	ok(strstr(bench_usage(), "--latency-us") != NULL, "usage names the options");
}

/* One bad command line: an error whose message contains WANT. */
#define BAD(want, ...)                                                     \
	do {                                                               \
		is_int(parse(&o, err, __VA_ARGS__, NULL), BENCH_PARSE_ERROR, \
		       "refused: %s", want);                               \
		if (!ok(strstr(err, want) != NULL, "  message names it"))  \
			diag("  message: %s", err);                        \
	} while (0)

static void test_errors(void)
{
	struct bench_opts o;
	char err[BENCH_ERR_LEN];

	BAD("unknown job type 'J7'", "--type", "J7");
	BAD("unknown pattern 'ring'", "--pattern", "ring");
	BAD("--skew: '-5'", "--skew", "-5");
	BAD("--skew: '200'", "--skew", "200");
	BAD("--skew: '20%'", "--skew", "20%");
	BAD("--msg: '0'", "--msg", "0");
	BAD("--msg: '4k'", "--msg", "4k");
	BAD("--seconds: '0'", "--seconds", "0");
	BAD("--seconds: 'nan'", "--seconds", "nan");
	BAD("--iterations: '-1'", "--iterations", "-1");
	BAD("--latency-us: ' 5'", "--latency-us", " 5");
	BAD("--seed: 'x'", "--seed", "x");
	BAD("exclude each other", "--seconds", "1", "--iterations", "5");
	BAD("unknown option '--bogus'", "--bogus");
	BAD("unknown option '-x'", "-x");
	BAD("'--type' needs a value", "--type");
	BAD("unexpected argument 'extra'", "extra");
}

static void test_types_and_patterns(void)
{
	const char *names[] = { "J1", "J2", "J3", "J4", "J5", "J6" };
	const struct bench_job_type *j4 = bench_job_type("J4");
	enum bench_pattern p;
	int i, sums = 0;

	for (i = 0; i < 6; i++) {
		const struct bench_job_type *t = bench_job_type(names[i]);

		sums += t && t->comp_pct + t->io_pct + t->comm_pct == 100;
	}
	is_int(sums, 6, "J1-J6 exist and each sums to 100%%");
	ok(j4 && j4->comp_pct == 90 && j4->io_pct == 5 && j4->comm_pct == 5,
	   "J4 is 90/5/5 (CPU intensive)");
	ok(!bench_job_type("J0") && !bench_job_type("J"), "no J0");
	ok(!bench_parse_pattern("linear", &p) && p == BENCH_LINEAR, "pattern linear");
	is_str(bench_pattern_name(BENCH_AA), "aa", "name of aa");
	ok(bench_pattern_name(BENCH_PATTERN_COUNT) == NULL, "no name past the last");

	is_int(bench_messages(BENCH_NN, 2), 2, "nn: 2 messages");
	is_int(bench_messages(BENCH_NN, 32), 2, "nn on 32: still 2");
	is_int(bench_messages(BENCH_AA, 4), 3, "aa on 4: 3");
	is_int(bench_messages(BENCH_AA, 1), 1, "aa on 1: sized as on 2");
	is_int(bench_messages(BENCH_TREE, 2), 2, "tree on 2: one level up, one down");
	is_int(bench_messages(BENCH_TREE, 3), 2, "tree on 3: one level");
	is_int(bench_messages(BENCH_TREE, 4), 4, "tree on 4: two levels");
	is_int(bench_messages(BENCH_TREE, 32), 10, "tree on 32: five levels");
	is_int(bench_messages(BENCH_LINEAR, 8), 1, "linear: one message per stage");
	ok(!bench_parse_pattern("allreduce", &p) && p == BENCH_ALLREDUCE, "pattern allreduce");
	is_int(bench_messages(BENCH_ALLREDUCE, 2), 1, "allreduce on 2: one exchange");
	is_int(bench_messages(BENCH_ALLREDUCE, 5), 3, "allreduce on 5: ceil(log2 5) rounds");
	is_int(bench_messages(BENCH_ALLREDUCE, 8), 3, "allreduce on 8: three rounds");
}

static void test_plan_sizes(void)
{
	struct bench_opts o;
	struct bench_plan plan;
	char err[BENCH_ERR_LEN];

	parse(&o, err, "--type", "J5", "--seconds", "10", NULL);
	is_int(bench_make_plan(&o, 2, &plan, err, sizeof(err)), 0, "J5 nn plan");
	is_double(plan.comm_us, 100, 1e-9, "  comm 2 x 50 us");
	is_double(plan.comp_us, 100.0 * 35 / 60, 1e-9, "  comp 35/60 of it");
	is_double(plan.io_us, 100.0 * 5 / 60, 1e-9, "  io 5/60 of it");
	is_int(plan.iterations, 60000, "  10 s / 166.7 us = 60000 iterations");

	parse(&o, err, "--type", "J4", "--pattern", "aa", "--latency-us",
	      "10", "--iterations", "3", NULL);
	bench_make_plan(&o, 5, &plan, err, sizeof(err));
	is_double(plan.comm_us, 40, 1e-9, "J4 aa on 5: comm 4 x 10 us");
	is_double(plan.comp_us, 720, 1e-9, "  comp 90/5 of it");
	is_int(plan.iterations, 3, "  --iterations kept");

	parse(&o, err, "--seconds", "0.000001", NULL);
	bench_make_plan(&o, 2, &plan, err, sizeof(err));
	is_int(plan.iterations, 1, "at least one iteration");
	is_int(bench_make_plan(&o, 0, &plan, err, sizeof(err)), -1, "no plan for 0 ranks");
}

static void test_tree(void)
{
	int r, parents_ok = 1, seen[7] = { 0 }, covered = 1;

	is_int(bench_tree_parent(0), -1, "rank 0 is the root");
	is_int(bench_tree_child(0, 0, 4), 1, "children of 0: 1");
	is_int(bench_tree_child(0, 1, 4), 2, "  and 2");
	is_int(bench_tree_child(1, 0, 4), 3, "child of 1 on 4: 3");
	is_int(bench_tree_child(1, 1, 4), -1, "  and no second");
	for (r = 1; r < 7; r++) {
		int p = bench_tree_parent(r);

		parents_ok &= bench_tree_child(p, 0, 7) == r ||
			      bench_tree_child(p, 1, 7) == r;
		seen[r]++;
	}
	for (r = 1; r < 7; r++)
		covered &= seen[r] == 1;
	ok(parents_ok && covered, "on 7 every rank is a child of its parent, once");
}

static void test_skew(void)
{
	struct bench_rng a, b, c;
	double lo = 2, hi = 0, sum = 0, f;
	int i, same = 1, differ = 0, n = 20000;

	bench_rng_seed(&a, 7, 0);
	bench_rng_seed(&b, 7, 0);
	bench_rng_seed(&c, 7, 1);
	for (i = 0; i < n; i++) {
		f = bench_skew_factor(&a, 20);
		same &= f == bench_skew_factor(&b, 20);
		differ += f != bench_skew_factor(&c, 20);
		lo = f < lo ? f : lo;
		hi = f > hi ? f : hi;
		sum += f;
	}
	ok(same, "a seed and rank repeat their draws");
	ok(differ > n - 10, "another rank draws differently");
	ok(lo >= 0.9 && hi < 1.1, "skew 20%%: factors in [0.9, 1.1) (%.4f..%.4f)", lo, hi);
	ok(lo < 0.901 && hi > 1.099, "  and they reach both ends");
	is_double(sum / n, 1.0, 0.003, "  mean 1");
	is_double(bench_skew_factor(&a, 0), 1.0, 0, "skew 0: factor 1");
	f = 1;
	for (i = 0; i < 1000; i++) {
		double g = bench_skew_factor(&a, 199);

		f = g < f ? g : f;
	}
	ok(f > 0, "skew 199%%: factors stay positive");
}

static void test_work(void)
{
	struct work_io io;
	double rate, t0, t, cpu;

	rate = work_calibrate_spin();
	ok(rate > 0, "spin calibrates (%.1f loops/us)", rate);
	is_int(work_loops(10, 2.5), 25, "10 us at 2.5 loops/us: 25 loops");
	is_int(work_loops(-1, 2.5), 0, "no loops for no time");
	t0 = work_clock(CLOCK_THREAD_CPUTIME_ID);
	work_spin(work_loops(20000, rate));
	cpu = work_clock(CLOCK_THREAD_CPUTIME_ID) - t0;
	/* lenient: valgrind and a loaded machine change the speed */
	ok(cpu > 0.002, "20 ms of spin uses CPU (%.4f s)", cpu);

	work_io_init(&io);
	ok(io.schedstat_fd >= 0, "this thread's schedstat is readable");
	ok(work_run_delay_ns(io.schedstat_fd) >= 0, "  and gives a run delay");
	is_int(work_run_delay_ns(-1), -1, "no run delay without schedstat");
	t0 = work_clock(CLOCK_MONOTONIC);
	work_io(&io, 2000);
	t = work_clock(CLOCK_MONOTONIC) - t0;
	ok(t >= 0.002, "2 ms of I/O sleeps at least 2 ms (%.6f s)", t);
	is_int(io.blocks, 1, "  in one sleep");
	/* what a sleep serves is at least its request, but for the
	 * granularity of the run-delay clock */
	ok(io.owed_us <= 20, "  and pays the debt (%.1f us left)", io.owed_us);
	io.owed_us = -500;
	t0 = work_clock(CLOCK_MONOTONIC);
	work_io(&io, 100);
	ok(work_clock(CLOCK_MONOTONIC) - t0 < 0.0001 + 0.05 &&
	   io.blocks == 1 && io.owed_us == -400,
	   "I/O paid ahead is not slept again (%.1f us ahead)", -io.owed_us);
	work_io_fini(&io);
	is_int(io.schedstat_fd, -1, "fini closes schedstat");

	/* without schedstat a sleep serves its wall time */
	io.owed_us = 0;
	io.blocks = 0;
	work_io(&io, 300);
	ok(io.blocks == 1 && io.owed_us <= 0, "without schedstat: served by the wall time (%.1f)", io.owed_us);
}

int main(void)
{
	test_defaults();
	test_options();
	test_errors();
	test_types_and_patterns();
	test_plan_sizes();
	test_tree();
	test_skew();
	test_work();
	return done_testing();
}
