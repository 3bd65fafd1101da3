/*
 * progress.h - a progress line for long runs (esp run, the benchmarks):
 * on a terminal one line rewritten in place at every update, otherwise
 * (a log, a pipe) a full line every PROGRESS_EVERY_S seconds, so that a
 * ten-minute run is neither silent nor a flood.  Quiet: nothing.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_PROGRESS_H
#define COALLOC_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

#define PROGRESS_EVERY_S 10.0

struct progress {
	FILE *out;
	bool tty;	/* rewrite one line in place */
	bool quiet;
	double next;	/* not a tty: when the next line is due */
	bool on_screen;	/* tty: a line waits for its end */
};

/* tty: whether out is a terminal (the caller asks isatty). */
void progress_init(struct progress *p, FILE *out, bool tty, bool quiet);

/* Whether an update now would show (so a caller can skip the work of
 * building the line until then). */
bool progress_due(const struct progress *p, double now);

/* Shows the line when due (now, seconds on any monotonic clock), or
 * whatever the time with force (the first and the last). */
__attribute__((format(printf, 4, 5)))
void progress_show(struct progress *p, double now, bool force,
		   const char *fmt, ...);

/* Ends a line left on a terminal, before other output or the exit. */
void progress_end(struct progress *p);

#endif
