/*
 * progress.c - a progress line for long runs (see progress.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>

#include "progress/progress.h"

void progress_init(struct progress *p, FILE *out, bool tty, bool quiet)
{
	*p = (struct progress) { .out = out, .tty = tty, .quiet = quiet };
}

bool progress_due(const struct progress *p, double now)
{
	return !p->quiet && (p->tty || now >= p->next);
}

void progress_show(struct progress *p, double now, bool force,
		   const char *fmt, ...)
{
	va_list ap;

	if (p->quiet || (!force && !progress_due(p, now)))
		return;
	/* erase what is left of a longer line before */
	if (p->tty)
		fputs("\r", p->out);
	va_start(ap, fmt);
	vfprintf(p->out, fmt, ap);
	va_end(ap);
	fputs(p->tty ? "\033[K" : "\n", p->out);
	fflush(p->out);
	p->on_screen = p->tty;
	p->next = now + PROGRESS_EVERY_S;
}

void progress_end(struct progress *p)
{
	if (!p->on_screen)
		return;
	fputs("\n", p->out);
	fflush(p->out);
	p->on_screen = false;
}
