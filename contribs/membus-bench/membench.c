/*
 * membench - the memory bus microbenchmark of the MemBUS paper
 * (section 3): a block of B 64-bit words walked over and over with
 * stride s in an unrolled loop.
 *
 *   membench [--variant min|max] [--words B] [--stride S]
 *            [--line-words L] [--seconds T] [--report SECS]
 *            [--log FILE] [--label TEXT]
 *
 * With s = 1 (membench-min) the first access to a cache line misses and
 * the other L - 1 hit; with s = L (membench-max, the default) every
 * access is to another line, so a block much larger than the last-level
 * cache streams whole lines from memory back to back and can saturate
 * the memory bus.  The default block, 8 Mi words (64 MiB), is larger
 * than the L3 of the machines we run on.
 *
 * Work is counted in accesses (words read) and in the bytes of the
 * cache lines touched (lines touched times L * 8); the line count is
 * exact: the walk goes in chunks aligned to both s and L, so that no
 * line is counted twice within a pass.  Per access, max moves L times
 * the bytes min does.
 *
 * Runs until --seconds T (0: no limit) or SIGTERM, SIGINT or SIGALRM,
 * and logs (one write per line, appended):
 *
 *   membench start pid=P variant=V words=B stride=S line_words=L
 *   membench t=SECONDS accesses=N bytes=BYTES       every --report s
 *   membench done variant=V words=B stride=S seconds=X accesses=N
 *            rate=ACCESSES_PER_S mem_bytes_per_s=BYTES_PER_S label=TEXT
 *
 * (the done line is one line).  Times are wall time since the start
 * line: a SIGSTOP/SIGCONT suspension counts, as the paper's throughput
 * over a fixed wall time wants.  Exit 0; 2 for bad options; 1 when the
 * block or the log cannot be had.
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
#include <unistd.h>

#include "common.h"
#include "num/num.h"
#include "version/version.h"

#define PROG "membench"

#define DEFAULT_WORDS (8ULL << 20)	/* 64 MiB */
#define MAX_WORDS (1ULL << 34)		/* 128 GiB */
#define DEFAULT_LINE_WORDS 8		/* 64-byte lines */
#define MAX_LINE_WORDS 512		/* a page: the block's alignment */
#define BLOCK_ALIGN 4096
/* Words per chunk between two looks at the clock and the stop flag:
 * 2 MiB, well under a millisecond even at stride L. */
#define CHUNK_WORDS (256ULL << 10)

enum {
	OPT_VARIANT = MB_OPT_OWN,
	OPT_WORDS,
	OPT_STRIDE,
	OPT_LINE_WORDS,
};

struct membench_opts {
	bool max;		/* --variant */
	uint64_t words;
	uint64_t stride;	/* 0: from the variant */
	uint64_t line_words;	/* 0: from the CPU */
	struct mb_run_opts run;
};

/* The walk: where it is and what it has done. */
struct walk {
	const uint64_t *block;
	uint64_t words;
	uint64_t stride;
	uint64_t line_words;
	uint64_t chunk;		/* a multiple of lcm(stride, line_words) */
	uint64_t pos;		/* start of the next chunk */
	uint64_t accesses;	/* cumulative */
	uint64_t lines;		/* cumulative, lines touched */
};

/* Where the sums go, so the compiler must do the loads. */
static volatile uint64_t sink;

static const struct option long_options[] = {
	{ "variant", required_argument, NULL, OPT_VARIANT },
	{ "words", required_argument, NULL, OPT_WORDS },
	{ "stride", required_argument, NULL, OPT_STRIDE },
	{ "line-words", required_argument, NULL, OPT_LINE_WORDS },
	MB_COMMON_LONG_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

static void usage(void)
{
	printf("usage: " PROG " [--variant min|max] [--words B] [--stride S]\n"
	       "                [--line-words L] [--seconds T] [--report SECS]\n"
	       "                [--log FILE] [--label TEXT]\n"
	       "  --variant V     min: stride 1; max: stride L (default max)\n"
	       "  --words B       block of B 64-bit words, 1 to %llu\n"
	       "                  (default %llu = 64 MiB, larger than an L3)\n"
	       "  --stride S      walk stride in words, 1 to B (overrides --variant)\n"
	       "  --line-words L  cache line in words, 1 to %d (default: the\n"
	       "                  CPU's L1 data line / 8, else %d)\n"
	       "  --seconds T     stop after T seconds (default 0: at SIGTERM,\n"
	       "                  SIGINT or SIGALRM)\n"
	       "  --report SECS   progress line every SECS seconds (default %g)\n"
	       "  --log FILE      append the lines to FILE (default stdout)\n"
	       "  --label TEXT    a word for the done line (default '%s')\n"
	       "  --help          this text\n"
	       "  --version       the suite's version\n",
	       MAX_WORDS, DEFAULT_WORDS, MAX_LINE_WORDS, DEFAULT_LINE_WORDS,
	       MB_DEFAULT_REPORT, MB_DEFAULT_LABEL);
}

static int parse_count(const char *opt, const char *arg, uint64_t max,
		       uint64_t *out)
{
	if (num_parse_range(arg, 1, max, out))
		return mb_bad_option(PROG, opt, "'%s' is not a whole number from 1 to %llu",
				     arg, (unsigned long long)max);
	return 0;
}

static int apply_option(int c, const char *arg, void *opts)
{
	struct membench_opts *o = opts;

	int common = mb_run_option(PROG, c, arg, &o->run);

	if (common)
		return common < 0 ? -1 : 0;
	switch (c) {
	case OPT_VARIANT:
		if (!strcmp(arg, "min") || !strcmp(arg, "max")) {
			o->max = !strcmp(arg, "max");
			return 0;
		}
		return mb_bad_option(PROG, "variant", "'%s' is neither min nor max", arg);
	case OPT_WORDS:
		return parse_count("words", arg, MAX_WORDS, &o->words);
	case OPT_STRIDE:
		return parse_count("stride", arg, MAX_WORDS, &o->stride);
	case OPT_LINE_WORDS:
		return parse_count("line-words", arg, MAX_LINE_WORDS,
				   &o->line_words);
	}
	fprintf(stderr, PROG ": internal error: option %d\n", c);
	return -1;
}

/* 0: run; 1: --help given; -1: bad options (message printed). */
static int parse_args(int argc, char **argv, struct membench_opts *o)
{
	int rc;

	memset(o, 0, sizeof(*o));
	o->max = true;
	o->words = DEFAULT_WORDS;
	mb_run_opts_init(&o->run);
	rc = mb_parse_args(PROG, argc, argv, long_options, apply_option, o);
	if (rc)
		return rc;
	if (o->stride > o->words)
		return mb_bad_option(PROG, "stride", "%llu is more than the %llu words of the block",
				     (unsigned long long)o->stride,
				     (unsigned long long)o->words);
	return 0;
}

static uint64_t cpu_line_words(void)
{
	long bytes = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);

	if (bytes < 8 || bytes / 8 > MAX_LINE_WORDS)
		return DEFAULT_LINE_WORDS;
	return (uint64_t)bytes / 8;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t r = a % b;

		a = b;
		b = r;
	}
	return a;
}

/*
 * Chunks start on multiples of the stride (so a pass's accesses are the
 * chunks' accesses) and of the line (so no line is split between two
 * chunks and counted twice).
 */
static uint64_t chunk_words(uint64_t stride, uint64_t line_words)
{
	uint64_t lcm = stride / gcd(stride, line_words) * line_words;

	return CHUNK_WORDS > lcm ? CHUNK_WORDS / lcm * lcm : lcm;
}

/* The block, every word written once so its pages exist before timing. */
static uint64_t *make_block(uint64_t words)
{
	void *p;
	uint64_t *w;
	uint64_t i;

	if (posix_memalign(&p, BLOCK_ALIGN, words * sizeof(uint64_t)))
		return NULL;
	w = p;
	for (i = 0; i < words; i++)
		w[i] = i;
	return w;
}

/* n accesses from p with stride s, eight to a round, four sums so the
 * adds do not serialise the loads. */
static uint64_t sum_strided(const uint64_t *p, uint64_t n, uint64_t s)
{
	uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;

	for (; n >= 8; n -= 8, p += 8 * s) {
		a0 += p[0];
		a1 += p[s];
		a2 += p[2 * s];
		a3 += p[3 * s];
		a0 += p[4 * s];
		a1 += p[5 * s];
		a2 += p[6 * s];
		a3 += p[7 * s];
	}
	for (; n; n--, p += s)
		a0 += *p;
	return a0 + a1 + a2 + a3;
}

/* One chunk of the walk; a pass ends where the block does. */
static void walk_chunk(struct walk *w)
{
	uint64_t lo = w->pos;
	uint64_t hi = w->words - lo > w->chunk ? lo + w->chunk : w->words;
	uint64_t n = (hi - lo + w->stride - 1) / w->stride;
	uint64_t last = lo + (n - 1) * w->stride;

	/* The block does not change, but the compiler must not know it. */
	__asm__ volatile("" : : "r"(w->block) : "memory");
	sink += sum_strided(w->block + lo, n, w->stride);
	w->accesses += n;
	/* A stride of a line or more puts every access on its own line; a
	 * shorter one touches every line from the first access's to the
	 * last's. */
	if (w->stride >= w->line_words)
		w->lines += n;
	else
		w->lines += last / w->line_words - lo / w->line_words + 1;
	w->pos = hi == w->words ? 0 : hi;
}

static uint64_t walk_bytes(const struct walk *w)
{
	return w->lines * w->line_words * sizeof(uint64_t);
}

static const char *variant_name(const struct membench_opts *o,
				const struct walk *w)
{
	if (!o->stride)
		return o->max ? "max" : "min";
	if (w->stride == w->line_words)
		return "max";
	return w->stride == 1 ? "min" : "custom";
}

static void walk_until_stopped(struct walk *w, const struct mb_run_opts *run,
			       struct mb_log *log, double start)
{
	struct mb_ticker ticker;
	double now;

	mb_ticker_init(&ticker, start, run->report);
	while (!mb_stop_requested()) {
		walk_chunk(w);
		now = mb_now();
		if (run->seconds > 0 && now - start >= run->seconds)
			break;
		if (mb_ticker_due(&ticker, now))
			mb_log_line(log, PROG " t=%.3f accesses=%llu bytes=%llu",
				    now - start,
				    (unsigned long long)w->accesses,
				    (unsigned long long)walk_bytes(w));
	}
}

static int run(const struct membench_opts *o)
{
	struct walk w = { 0 };
	struct mb_log log = { -1, false };
	uint64_t *block = NULL;
	const char *variant;
	double start, secs;
	int rc = 1;

	w.words = o->words;
	w.line_words = o->line_words ? o->line_words : cpu_line_words();
	w.stride = o->stride ? o->stride : o->max ? w.line_words : 1;
	w.chunk = chunk_words(w.stride, w.line_words);
	variant = variant_name(o, &w);

	if (mb_log_open(PROG, o->run.log, &log))
		goto out;
	block = make_block(w.words);
	if (!block) {
		fprintf(stderr, PROG ": cannot allocate %llu words\n",
			(unsigned long long)w.words);
		goto out;
	}
	w.block = block;

	start = mb_now();
	mb_log_line(&log, PROG " start pid=%ld variant=%s words=%llu stride=%llu line_words=%llu",
		    (long)getpid(), variant, (unsigned long long)w.words,
		    (unsigned long long)w.stride,
		    (unsigned long long)w.line_words);
	walk_until_stopped(&w, &o->run, &log, start);
	secs = mb_now() - start;
	mb_log_line(&log, PROG " done variant=%s words=%llu stride=%llu seconds=%.3f accesses=%llu rate=%.1f mem_bytes_per_s=%.1f label=%s",
		    variant, (unsigned long long)w.words,
		    (unsigned long long)w.stride, secs,
		    (unsigned long long)w.accesses,
		    secs > 0 ? w.accesses / secs : 0,
		    secs > 0 ? walk_bytes(&w) / secs : 0, o->run.label);
	rc = 0;
out:
	free(block);
	mb_log_close(&log);
	return rc;
}

int main(int argc, char **argv)
{
	struct membench_opts opts;

	if (coalloc_version_wanted(argc, argv))
		return coalloc_version_print("membench");

	switch (parse_args(argc, argv, &opts)) {
	case 1:
		usage();
		return 0;
	case -1:
		return MB_EXIT_USAGE;
	}
	/* Before the block is made: a stop while it is being touched still
	 * gets the done line. */
	if (mb_catch_stop_signals()) {
		perror(PROG ": sigaction");
		return 1;
	}
	return run(&opts);
}
