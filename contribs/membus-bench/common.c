/*
 * common.c - options, stop signals, clock, report schedule and log
 * shared by membench and netbench.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "num/num.h"

/* Longest line a program logs; its lines are far shorter. */
#define MB_LINE_MAX 512

static volatile sig_atomic_t stop_flag;

void mb_run_opts_init(struct mb_run_opts *o)
{
	o->seconds = 0;
	o->report = MB_DEFAULT_REPORT;
	o->log = NULL;
	o->label = MB_DEFAULT_LABEL;
}

int mb_bad_option(const char *prog, const char *opt, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: --%s: ", prog, opt);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (see --help)\n", stderr);
	return -1;
}

static void mb_getopt_error(const char *prog, int c, char **argv)
{
	const char *word = optind > 0 ? argv[optind - 1] : "?";

	if (c == ':')
		fprintf(stderr, "%s: option '%s' needs a value (see --help)\n",
			prog, word);
	else
		fprintf(stderr, "%s: unknown option '%s' (see --help)\n",
			prog, word);
}

int mb_parse_args(const char *prog, int argc, char **argv,
		  const struct option *longopts,
		  int (*apply)(int c, const char *arg, void *opts), void *opts)
{
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		if (c == 'h' || c == MB_OPT_HELP)
			return 1;
		if (c == '?' || c == ':') {
			mb_getopt_error(prog, c, argv);
			return -1;
		}
		if (apply(c, optarg, opts))
			return -1;
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s' (see --help)\n",
			prog, argv[optind]);
		return -1;
	}
	return 0;
}

/*
 * The label ends the done line and is read back as one word: printable,
 * no blank, bounded.
 */
static bool label_is_word(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > MB_LABEL_MAX)
		return false;
	for (; *s; s++)
		if (!isgraph((unsigned char)*s))
			return false;
	return true;
}

static int parse_seconds(const char *prog, const char *opt, const char *arg,
			 double min, bool min_allowed, double max, double *out)
{
	double v;

	if (num_parse_double(arg, &v) || v < min || (v == min && !min_allowed) ||
	    v > max)
		return mb_bad_option(prog, opt, "'%s' is not a number of seconds %s %g and up to %.0f",
				     arg, min_allowed ? "from" : "above", min, max);
	*out = v;
	return 0;
}

int mb_run_option(const char *prog, int c, const char *arg,
		  struct mb_run_opts *o)
{
	switch (c) {
	case MB_OPT_SECONDS:
		return parse_seconds(prog, "seconds", arg, 0, true,
				     MB_MAX_SECONDS, &o->seconds) ? -1 : 1;
	case MB_OPT_REPORT:
		return parse_seconds(prog, "report", arg, 0, false,
				     MB_MAX_REPORT, &o->report) ? -1 : 1;
	case MB_OPT_LOG:
		if (!*arg)
			return mb_bad_option(prog, "log", "empty file name");
		o->log = arg;
		return 1;
	case MB_OPT_LABEL:
		if (!label_is_word(arg))
			return mb_bad_option(prog, "label", "'%s' is not 1 to %d printable characters without blanks",
					     arg, MB_LABEL_MAX);
		o->label = arg;
		return 1;
	}
	return 0;
}

double mb_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void on_stop_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

int mb_catch_stop_signals(void)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGALRM };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	/* Restart: MPI's progress loop must not see EINTR from our signals. */
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], &sa, NULL))
			return -1;
	return 0;
}

bool mb_stop_requested(void)
{
	return stop_flag != 0;
}

void mb_ticker_init(struct mb_ticker *t, double start, double period)
{
	t->start = start;
	t->period = period;
	t->next = start + period;
}

bool mb_ticker_due(struct mb_ticker *t, double now)
{
	if (now < t->next)
		return false;
	/* Stay on the grid of start + k * period, skipping missed lines. */
	while (t->next <= now)
		t->next += t->period;
	return true;
}

int mb_log_open(const char *prog, const char *path, struct mb_log *log)
{
	if (!path) {
		log->fd = STDOUT_FILENO;
		log->owned = false;
		return 0;
	}
	log->fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (log->fd < 0) {
		fprintf(stderr, "%s: --log: cannot open '%s': %s\n", prog, path,
			strerror(errno));
		return -1;
	}
	log->owned = true;
	return 0;
}

void mb_log_close(struct mb_log *log)
{
	if (log->owned && log->fd >= 0)
		close(log->fd);
	log->fd = -1;
	log->owned = false;
}

void mb_log_line(struct mb_log *log, const char *fmt, ...)
{
	char buf[MB_LINE_MAX];
	va_list ap;
	size_t len, off = 0;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	len = (size_t)n < sizeof(buf) - 1 ? (size_t)n : sizeof(buf) - 2;
	buf[len++] = '\n';
	while (off < len) {
		ssize_t w = write(log->fd, buf + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;	/* a full disk must not stop the measurement */
		off += (size_t)w;
	}
}
