/*
 * freeze_util.c - the small helpers the freezing mechanisms share
 * (freeze_internal.h): clocks and process sets; a leaf, so that no
 * mechanism calls back into freeze.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "freeze_internal.h"

void frz_sleep_ns(long ns)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = ns };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int64_t frz_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

bool frz_set_has(const struct id_set *s, const struct proc_id *id)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->ids[i].pid == id->pid &&
		    s->ids[i].start_ticks == id->start_ticks)
			return true;
	return false;
}

int frz_set_add(struct id_set *s, const struct proc_id *id)
{
	if (s->n == s->cap) {
		size_t more = s->cap ? 2 * s->cap : 16;
		void *grown = realloc(s->ids, more * sizeof(*s->ids));

		if (!grown)
			return -1;
		s->ids = grown;
		s->cap = more;
	}
	s->ids[s->n++] = *id;
	return 0;
}
