/*
 * arrivals.h - messages from other hosts, noticed by the agent as they
 * arrive: the modern counterpart of the paper's network card marking an
 * arrival (see arrivals.c for how, and why nothing is kept alive).
 *
 * Every watched process has an epoll instance of the agent's own with
 * its connected TCP sockets in it (level-triggered readability); the
 * agent's poll loop waits on one master epoll over those.  A process
 * whose sockets turn readable is "pending" (has unconsumed remote data)
 * until a tick sees them all drained; one remote arrival is counted per
 * transition from not pending to pending.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHEDD_ARRIVALS_H
#define COSCHEDD_ARRIVALS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "host/proc.h"

#define ARRIVALS_WATCH_MAX 256	/* watched sockets per process */
#define ARRIVALS_TRACK_MAX 512	/* sockets remembered per process */
#define ARRIVALS_SCAN_MAX PROC_FD_SCAN_MAX /* /proc/PID/fd entries a scan */
#define ARRIVALS_RING 1024	/* detection delays kept per step */

/* A step's arrivals, for status (lives in its struct agent_counters). */
struct arrivals_stats {
	uint64_t local;			/* same-host: the pages' msgs_arrived */
	uint64_t remote;		/* from other hosts: epoll wake-ups */
	uint32_t delay_us[ARRIVALS_RING];	/* the last detection delays */
	uint32_t ndelays, next;
	uint32_t delay_us_max;
	uint64_t noticed_ns;		/* CLOCK_MONOTONIC, the last remote one */
};

struct arrivals;	/* the agent's: master epoll, schedstat */
struct arrivals_proc;	/* one process's watch */

/* NULL (logged) when epoll is not there: then nothing is watched. */
struct arrivals *arrivals_open(void);
void arrivals_close(struct arrivals *arr);	/* after every unwatch */
/* The fd for the agent's poll (readable: call arrivals_wake), or -1. */
int arrivals_fd(const struct arrivals *arr);

/*
 * Around the poll of the agent's loop, for the detection delay: begin
 * right before poll, end right after it, ready when arrivals_fd() was
 * readable.  Both do nothing while no process is watched.
 */
void arrivals_poll_begin(struct arrivals *arr);
void arrivals_poll_end(struct arrivals *arr, bool ready);

/*
 * Serve the master epoll: processes whose sockets turned readable become
 * pending.  Returns true when one of them is in a step that reacts at
 * once (the caller runs its decision now).
 */
bool arrivals_wake(struct arrivals *arr);

/*
 * Watch id (a registered process of a step of uid: proved the job's by
 * the caller), counting into stats (which must outlive the watch);
 * react: its step reacts to an arrival at once (DCS; PB, ECM and EDM see
 * it at their next tick, as they see a same-host arrival).  What is
 * taken from it is closed by uid's closer (closer.h).  NULL when it
 * cannot be watched (logged, rate limited).  The sockets are found at
 * the first arrivals_sample().
 */
struct arrivals_proc *arrivals_watch(struct arrivals *arr,
				     const struct proc_id *id, uid_t uid,
				     struct arrivals_stats *stats, bool react);
void arrivals_unwatch(struct arrivals_proc *w);	/* NULL: nothing */

/*
 * At a tick: look for new sockets when due, re-check a pending process
 * (drained: no longer pending, watched again).  Returns whether w has
 * unconsumed data from its sockets now (false for NULL).
 */
bool arrivals_sample(struct arrivals_proc *w, uint64_t now_ns);

/* Every socket w's process has is watched (its /proc fallback can rest). */
bool arrivals_complete(const struct arrivals_proc *w);
/* Sockets watched now, and seen but not watched for the bound. */
uint32_t arrivals_watched(const struct arrivals_proc *w);
uint32_t arrivals_unwatched(const struct arrivals_proc *w);

/* Same-host arrivals: the page's msgs_arrived is now total, was *seen. */
void arrivals_count_local(struct arrivals_stats *stats, uint64_t *seen,
			  uint64_t total);
/* The median and max of the kept detection delays (0 when none). */
uint32_t arrivals_delay_median_us(const struct arrivals_stats *stats);

#endif /* COSCHEDD_ARRIVALS_H */
