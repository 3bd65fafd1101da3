/*
 * common.h - what membench and netbench share: the options that say how
 * long to run and where to log (--seconds, --report, --log, --label),
 * the stop signals, the clock, the report schedule and the log itself.
 *
 * Both programs measure throughput the way the MemBUS paper does
 * (section 6): they run until told to stop and log a cumulative count
 * at fixed intervals, so that a driver can end every job of a workload
 * at the same wall time (SIGALRM, or SIGTERM from Slurm) and read the
 * attained rates from the logs.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef MEMBUS_BENCH_COMMON_H
#define MEMBUS_BENCH_COMMON_H

#include <stdbool.h>
#include <stdint.h>

#define MB_EXIT_USAGE 2		/* a bad option or argument */
#define MB_MAX_SECONDS (366.0 * 24 * 3600)
#define MB_MAX_REPORT 3600.0
#define MB_DEFAULT_REPORT 0.5
#define MB_LABEL_MAX 128
#define MB_DEFAULT_LABEL "-"

/* getopt_long values of the shared options; a program's own start at
 * MB_OPT_OWN. */
enum {
	MB_OPT_SECONDS = 256,
	MB_OPT_REPORT,
	MB_OPT_LOG,
	MB_OPT_LABEL,
	MB_OPT_HELP,
	MB_OPT_OWN,
};

/* The struct option entries of the shared options, for a program's table. */
#define MB_COMMON_LONG_OPTIONS                                           \
	{ "seconds", required_argument, NULL, MB_OPT_SECONDS },          \
	{ "report", required_argument, NULL, MB_OPT_REPORT },            \
	{ "log", required_argument, NULL, MB_OPT_LOG },                  \
	{ "label", required_argument, NULL, MB_OPT_LABEL },              \
	{ "help", no_argument, NULL, MB_OPT_HELP }

struct mb_run_opts {
	double seconds;		/* 0: until a stop signal */
	double report;		/* seconds between progress lines */
	const char *log;	/* NULL: standard output */
	const char *label;	/* copied into the done line */
};

void mb_run_opts_init(struct mb_run_opts *o);

/*
 * Apply a shared option: 1 when c is one (and was valid), 0 when c is
 * not a shared option, -1 after printing why arg is bad.
 */
int mb_run_option(const char *prog, int c, const char *arg,
		  struct mb_run_opts *o);

/* "PROG: --OPT: MESSAGE (see --help)" on stderr; returns -1. */
int mb_bad_option(const char *prog, const char *opt, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The getopt_long loop both programs share: apply(c, optarg, opts) for
 * every option, refusing unknown ones and stray arguments with a message.
 * Returns 0 to run, 1 for --help, -1 on a bad option (message printed).
 */
struct option;
int mb_parse_args(const char *prog, int argc, char **argv,
		  const struct option *longopts,
		  int (*apply)(int c, const char *arg, void *opts), void *opts);

/* The monotonic clock in seconds: wall time, stopped time included. */
double mb_now(void);

/* SIGTERM, SIGINT and SIGALRM set the stop flag: 0, or -1 (errno). */
int mb_catch_stop_signals(void);
bool mb_stop_requested(void);

/* Progress lines every period seconds after start. */
struct mb_ticker {
	double start;
	double period;
	double next;
};

void mb_ticker_init(struct mb_ticker *t, double start, double period);

/*
 * Whether a progress line is due at now.  After a long gap (the process
 * was stopped) one line is due, not one per missed period.
 */
bool mb_ticker_due(struct mb_ticker *t, double now);

/* Where lines go: a file opened for appending, or standard output. */
struct mb_log {
	int fd;
	bool owned;
};

/* Open path for appending (NULL: stdout): 0, or -1 after a message. */
int mb_log_open(const char *prog, const char *path, struct mb_log *log);
void mb_log_close(struct mb_log *log);

/* One line, written with one write(2) so that processes appending to
 * the same log never interleave within a line. */
void mb_log_line(struct mb_log *log, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* MEMBUS_BENCH_COMMON_H */
