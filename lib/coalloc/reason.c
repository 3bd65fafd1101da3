/*
 * reason.c - why a job waits, in words: the engine gives the numbers
 * (struct coalloc_reason), the caller the name of the job's queue.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>

#include "coalloc/engine.h"

static const char *const why_strings[COALLOC_WHY_COUNT] = {
	[COALLOC_WHY_ELIGIBLE] = "eligible",
	[COALLOC_WHY_RUNNING] = "running",
	[COALLOC_WHY_UNKNOWN_JOB] = "unknown job",
	[COALLOC_WHY_NOT_HEAD] = "not at head of queue",
	[COALLOC_WHY_QUEUE_DISABLED] = "queue disabled",
	[COALLOC_WHY_NO_ROOM] = "no room",
	[COALLOC_WHY_HELD_GLOBAL_NONEMPTY] = "held: global queue non-empty",
	[COALLOC_WHY_HELD_NO_LOCAL_EMPTY] = "held: no local queue empty",
	[COALLOC_WHY_HELD_GLOBAL_LONGER] = "held: global queue longest",
	[COALLOC_WHY_HELD_GLOBAL_SHORTER] = "held: global queue not longest",
	[COALLOC_WHY_AGING_DRAIN] = "draining for a starving job",
	[COALLOC_WHY_NO_ROW] = "no room in any row",
};

const char *coalloc_why_str(enum coalloc_why why)
{
	if ((unsigned)why >= COALLOC_WHY_COUNT)
		return "?";
	return why_strings[why];
}

static void _queue_label(const struct coalloc_reason *r,
			 const char *site_name, char *buf, size_t len)
{
	if (r->queue == COALLOC_QUEUE_GLOBAL)
		snprintf(buf, len, "global queue");
	else if (site_name && site_name[0])
		snprintf(buf, len, "local queue of %s", site_name);
	else
		snprintf(buf, len, "local queue %d", r->queue);
}

void coalloc_reason_format(const struct coalloc_reason *r,
			   const char *site_name, char *buf, size_t len)
{
	const char *policy = coalloc_policy_name(r->policy);
	/* under fcfs only a head can lack room; otherwise any job */
	const char *where = coalloc_order_head_blocks(r->order) ? "head of" : "in";
	char ql[160];

	_queue_label(r, site_name, ql, sizeof(ql));
	if (!r->known) {
		snprintf(buf, len, "%s", coalloc_why_str(r->why));
		return;
	}
	switch (r->why) {
	case COALLOC_WHY_NOT_HEAD:
		snprintf(buf, len, "not at head of %s (%zu waiting)", ql,
			 r->queue_len);
		break;
	case COALLOC_WHY_QUEUE_DISABLED:
		if (coalloc_order_head_blocks(r->order))
			snprintf(buf, len, "%s disabled: its head did not fit; "
				 "enabled again at the next departure", ql);
		else
			snprintf(buf, len, "%s disabled: none of its jobs fit "
				 "(QueueOrder=%s); enabled again at the next "
				 "departure or submission", ql,
				 coalloc_order_name(r->order));
		break;
	case COALLOC_WHY_NO_ROOM:
		if (!r->ncomp)	/* flexible: its split is made at start */
			snprintf(buf, len, "%s %s; flexible, %u in all, "
				 "does not fit now", where, ql, r->largest);
		else
			snprintf(buf, len, "%s %s; %u component(s), "
				 "largest %u, do not fit now", where, ql,
				 r->ncomp, r->largest);
		break;
	case COALLOC_WHY_HELD_GLOBAL_NONEMPTY:
		snprintf(buf, len, "%s held by %s: global queue has %zu job(s)",
			 ql, policy, r->global_len);
		break;
	case COALLOC_WHY_HELD_NO_LOCAL_EMPTY:
		snprintf(buf, len, "global queue held by %s: no local queue "
			 "is empty", policy);
		break;
	case COALLOC_WHY_HELD_GLOBAL_LONGER:
		snprintf(buf, len, "%s held by LQ: global queue (%zu) is "
			 "longer than every local queue", ql, r->global_len);
		break;
	case COALLOC_WHY_HELD_GLOBAL_SHORTER:
		snprintf(buf, len, "global queue held by LQ: %zu job(s), not "
			 "longer than every local queue", r->global_len);
		break;
	case COALLOC_WHY_AGING_DRAIN:
		snprintf(buf, len, "held: draining for a job that has "
			 "waited AgingTime");
		break;
	default:
		snprintf(buf, len, "%s", coalloc_why_str(r->why));
		break;
	}
}
