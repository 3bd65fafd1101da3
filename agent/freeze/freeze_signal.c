/*
 * freeze_signal.c - freezing a step with SIGSTOP and SIGCONT, where no
 * freezer cgroup can be had (freeze.c says how its processes are found
 * and held).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/magic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include <libcgroup.h>

#include "host/cgroup.h"
#include "freeze.h"
#include "freeze_internal.h"
#include "num/errbuf.h"

/* ------------------------------------------------------------ signals */

/* Whether id is stopped, or gone (nothing left to stop). */
static bool _stopped_or_gone(const struct proc_id *id)
{
	struct proc_brief b;

	if (proc_brief(id->pid, &b) || b.start_ticks != id->start_ticks ||
	    b.state == 'Z' || b.state == 'X' || b.state == 'x')
		return true;
	return b.state == 'T' || b.state == 't';
}

/* Wait until every process of s is stopped.  0, or FREEZE_SLOW. */
static int _wait_stopped(const struct id_set *s)
{
	int64_t deadline = frz_now_ns() + FREEZE_WAIT_NS;
	size_t i = 0;

	for (;;) {
		while (i < s->n && _stopped_or_gone(&s->ids[i]))
			i++;
		if (i == s->n)
			return 0;
		if (frz_now_ns() > deadline)
			return FREEZE_SLOW;
		frz_sleep_ns(POLL_NS);
	}
}

/*
 * What a freeze stops: the live trees under the members and under what
 * the group holds (a process stays the step's once it was stopped with
 * it, even reparented, as it would stay in the step's cgroup).
 */
static int _signal_targets(const struct freeze_group *g,
			   struct proc_id **ids, size_t *n)
{
	size_t nroots = g->nmembers + g->held.n;
	struct proc_id *roots = malloc((nroots ? nroots : 1) * sizeof(*roots));
	int rc;

	if (!roots)
		return -1;
	for (size_t i = 0; i < g->nmembers; i++)
		roots[i] = g->members[i].id;
	if (g->held.n)
		memcpy(roots + g->nmembers, g->held.ids,
		       g->held.n * sizeof(*roots));
	rc = proc_tree(roots, nroots, ids, n);
	free(roots);
	return rc;
}

/*
 * Add the targets the group does not hold yet (never ourselves, should
 * the agent descend from a task), and have them persisted before any is
 * stopped.  0, or -1 (nothing added) when that failed.
 */
static int _hold(struct freeze_group *g, const struct proc_id *ids, size_t n)
{
	size_t before = g->held.n;
	pid_t self = getpid();

	for (size_t i = 0; i < n; i++) {
		if (ids[i].pid == self || frz_set_has(&g->held, &ids[i]))
			continue;
		if (frz_set_add(&g->held, &ids[i]))
			goto undo;
	}
	if (g->held.n == before || !g->persist || !g->persist(g->persist_arg))
		return 0;
undo:
	g->held.n = before;
	return -1;
}

/* SIGCONT to exactly what the group holds; forget the ones gone. */
int frz_signal_thaw(struct freeze_group *g)
{
	size_t kept = 0;

	for (size_t i = 0; i < g->held.n; i++)
		if (!proc_signal(&g->held.ids[i], SIGCONT) ||
		    proc_alive(&g->held.ids[i]))
			g->held.ids[kept++] = g->held.ids[i];
	g->held.n = kept;
	return 0;
}

/*
 * One round: hold every target, then SIGSTOP those not in done, each
 * added to done.  Returns how many it stopped, or -1 when /proc was
 * unreadable or the hold could not be persisted.
 */
static int _signal_round(struct freeze_group *g, struct id_set *done)
{
	struct proc_id *ids;
	size_t n;
	int stopped = 0;

	if (_signal_targets(g, &ids, &n))
		return -1;
	if (_hold(g, ids, n)) {
		free(ids);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (ids[i].pid == getpid() || frz_set_has(done, &ids[i]) ||
		    proc_signal(&ids[i], SIGSTOP))
			continue;
		if (frz_set_add(done, &ids[i])) {
			stopped = -1;
			break;
		}
		stopped++;
	}
	free(ids);
	return stopped;
}

/*
 * Stop the group, in rounds until one finds nothing new (a process may
 * fork while a round runs; a stopped one cannot), then wait until all
 * are stopped.  On failure or timeout everything held is continued.
 * 0, FREEZE_SLOW or -1.
 */
int frz_signal_freeze(struct freeze_group *g)
{
	struct id_set done = { 0 };
	int rc = 0;

	for (int round = 0; round < SIGNAL_ROUNDS; round++) {
		int stopped = _signal_round(g, &done);

		if (stopped < 0)
			rc = -1;
		if (stopped <= 0)
			break;
	}
	if (!rc)
		rc = _wait_stopped(&done);
	free(done.ids);
	if (rc)
		frz_signal_thaw(g);
	return rc;
}

int freeze_continue_pid(const struct proc_id *id)
{
	return id ? proc_signal(id, SIGCONT) : -1;
}
