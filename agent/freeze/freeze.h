/*
 * freeze.h - how the node agent's MemBUS mode stops and resumes whole job
 * steps at quantum boundaries (Koukis and Koziris, Algorithm 1: "stop all
 * of its processes" / "resume applications").
 *
 * Preferred: cgroup v2's cgroup.freeze where v2 is the node's main
 * hierarchy, else the cgroup v1 freezer, through libcgroup.  If the step's
 * processes already sit in a freezer cgroup that is the step's own
 * (Slurm's proctrack/cgroup: .../job_J/step_S), that cgroup is used and
 * nothing is moved (moving them would hide them from Slurm).  Otherwise
 * the agent creates freezer:/coschedd/NODE/J.S and moves the processes
 * there; their children inherit it.  On destroy they go back where they
 * came from and the cgroup is removed.
 *
 * Fallback (no writable freezer hierarchy): SIGSTOP/SIGCONT to every
 * process of the group and their descendants, each checked by pid and
 * start time (proc.h) before it is signalled; every process stopped is
 * recorded (and persisted) first, and a thaw continues exactly those.
 *
 * Failing open: freeze_thaw_path() thaws a cgroup by path alone, for the
 * agent's guardian and for recovery after a crash.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHEDD_FREEZE_H
#define COSCHEDD_FREEZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host/proc.h"

enum freeze_kind {
	FREEZE_AUTO = 0,	/* cgroup freezer where writable, else signals */
	FREEZE_CGROUP,
	FREEZE_SIGNAL,
	FREEZE_CGROUP2,		/* cgroup v2's cgroup.freeze */
};

/* "auto", "cgroup", "signal", "cgroup2" */
const char *freeze_kind_name(enum freeze_kind kind);

/* What want stands for on this node: itself, or for FREEZE_AUTO v2 where
 * it is the main hierarchy, else the v1 freezer, else a v2 mounted
 * beside v1, else signals. */
enum freeze_kind freeze_resolve(enum freeze_kind want);

/* The mechanism want resolves to, in a few words: "cgroup-v2
 * cgroup.freeze", "cgroup-v1 freezer.state", "signal". */
const char *freeze_mechanism(enum freeze_kind want);

/* One line for the log: the mechanism, where, and for FREEZE_AUTO
 * falling back to signals why neither cgroup mechanism can be used. */
void freeze_describe(enum freeze_kind want, char *buf, size_t len);

/* Whether the cgroup v1 freezer hierarchy is mounted and writable here;
 * if not, why (why may be NULL). */
bool freeze_cgroup_usable(char *why, size_t len);

struct freeze_group;	/* one job step on this node */

/*
 * A group for step job.step of node, frozen by `want` (FREEZE_AUTO picks).
 * Returns NULL with err filled (e.g. FREEZE_CGROUP asked but unusable).
 */
struct freeze_group *freeze_group_create(const char *node, uint32_t job,
					 uint32_t step, enum freeze_kind want,
					 char *err, size_t len);

/* The mechanism the group uses (never FREEZE_AUTO). */
enum freeze_kind freeze_group_kind(const struct freeze_group *g);

/* The freezer cgroup's directory (absolute), "" for signals: what the
 * state file records so that a guardian can thaw it. */
const char *freeze_group_path(const struct freeze_group *g);

/* Add a process (checked alive as id).  If the group is frozen now, the
 * process is frozen too.  Returns 0, or -1 when it is gone or cannot be
 * moved. */
int freeze_group_add(struct freeze_group *g, const struct proc_id *id);

/* Stop every process of the group / resume them.  Idempotent.  Returns 0;
 * FREEZE_SLOW when they were not all stopped within FREEZE_WAIT_NS (a
 * loaded node, or a process in uninterruptible sleep): the group is
 * thawed and may be tried again; or -1 when the mechanism failed (the
 * group is then thawed as far as possible and -1 tells the caller to
 * stop freezing it). */
#define FREEZE_SLOW 1
#define FREEZE_WAIT_NS 100000000L	/* a freeze may take this long */
int freeze_group_freeze(struct freeze_group *g);
int freeze_group_thaw(struct freeze_group *g);
bool freeze_group_frozen(const struct freeze_group *g);

/* Thaw, give the processes back their original freezer cgroup, remove
 * our cgroup (if we created it), free. NULL is fine. */
void freeze_group_destroy(struct freeze_group *g);

/* Thaw a freezer cgroup by its directory (THAWED to a v1 group's
 * freezer.state, 0 to a v2 group's cgroup.freeze, as its file system
 * says); for the guardian and for recovery.  Returns 0 or -1. */
int freeze_thaw_path(const char *dir);

/* Remove the empty groups a dead agent of node left behind (its guardian
 * thaws them but cannot remove them while their processes live).  Groups
 * still holding processes stay.  Returns how many were removed. */
int freeze_sweep(const char *node);

/* SIGCONT to id and nothing else, if it still is id (for the guardian
 * with signals, which continues every process the state file says was
 * held).  Returns 0 or -1. */
int freeze_continue_pid(const struct proc_id *id);

/*
 * Signals: persist(arg) is called after the group's held set grew and
 * before any of the new processes is stopped; nonzero makes that freeze
 * fail (and thaw).  The agent writes its state file there.
 */
void freeze_group_set_persist(struct freeze_group *g, int (*persist)(void *),
			      void *arg);

/* Signals: every process a freeze of the group stopped (or was about
 * to), by pid and start time; what a thaw continues.  n is set. */
const struct proc_id *freeze_group_held(const struct freeze_group *g,
					size_t *n);

#endif /* COSCHEDD_FREEZE_H */
