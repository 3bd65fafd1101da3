/*
 * boost.h - how the node agent changes a process's share of the CPU.
 *
 * A boost level (lib/cosched/tick.h) is in nice steps: 0 is the process's
 * own priority, > 0 more CPU, < 0 less.  Two mechanisms:
 *
 *   cgroup  cgroup v1 cpu controller through libcgroup: the process is
 *           moved into its own group <root>/coschedd/<node>/<job>.<pid>
 *           whose cpu.shares is 1024 * 1.25^level (2..262144); restoring
 *           moves it back to the group it came from and removes ours.
 *           Works across sessions, unlike nice under autogroup.
 *   cgroup2 the unified (v2) hierarchy's cpu.weight, the same shares
 *           scaled as the kernel does (weight 100 = 1024 shares, 1..10000).
 *           A process of a Slurm step is weighed in place, in its own
 *           (task) group, whose weight restoring puts back; any other
 *           one is moved into a group of ours as with cgroup (boost.c
 *           says why).
 *   nice    setpriority() on every thread: nice = own nice - level,
 *           clamped to [-20, 19].  With kernel.sched_autogroup_enabled=1
 *           nice only weighs within one session, which the description
 *           says, so operators know why boosts may have little effect.
 *   rt      level > 0: SCHED_RR priority BOOST_RT_PRIORITY with
 *           SCHED_RESET_ON_FORK on every thread, so that the process
 *           preempts at once, as the paper's boost to the head of the
 *           highest queue does; level <= 0: the policy it had, and for
 *           level < 0 the nice of the nice mechanism.  The agent renews
 *           it every tick; the kernel's RT throttling and the guardian
 *           bound it when the agent stops (boost_rt.c says how).
 *           boost_open() refuses it when the throttling is off or
 *           SCHED_RR cannot be set.
 *
 * BOOST_AUTO picks cgroup2 on a node whose main hierarchy is v2 with the
 * cpu controller, else cgroup when the v1 cpu hierarchy is mounted and
 * writable, else nice (boost_describe() says why); never rt, which is
 * opt-in.  Everything a restore needs is in struct boost_saved, so a
 * restarted agent or the guardian process can restore from the state file
 * without the backend that attached the process.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHEDD_BOOST_H
#define COSCHEDD_BOOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host/proc.h"

enum boost_kind {
	BOOST_AUTO,
	BOOST_CGROUP,
	BOOST_NICE,
	BOOST_CGROUP2,
	BOOST_RT,
};

/* rt: the priority of a boosted process; the agent and its guardian run
 * above it (SCHED_FIFO BOOST_RT_PRIORITY + 1) to end boosts on time. */
#define BOOST_RT_PRIORITY 1

#define BOOST_CGROUP_LEN 256

/* What a process had before the agent touched it. */
struct boost_saved {
	enum boost_kind kind;		/* mechanism that attached it */
	int nice;			/* its nice value (main thread) */
	char cpu_cgroup[BOOST_CGROUP_LEN]; /* its cpu cgroup, e.g. "/" */
	char our_cgroup[BOOST_CGROUP_LEN]; /* ours, relative to the mount;
					    * "" for cgroup2 in place */
	uint32_t weight;		/* cgroup2 in place: the cpu.weight of
					 * cpu_cgroup before us, else 0 */
	uint32_t uid;			/* its owner (the job's uid) */
	/* nice: every nice value boost_set() gave it, bit nice + 20; a
	 * child forked meanwhile inherited one of them */
	uint64_t nice_set;
	/* rt: its scheduling policy (main thread, SCHED_OTHER, _BATCH or
	 * _IDLE: attach refuses real-time ones), RT priority (0 for those)
	 * and whether it had SCHED_RESET_ON_FORK; zero for other kinds */
	int32_t policy;
	int32_t rt_priority;
	bool reset_on_fork;
};

struct boost;

/*
 * Open a mechanism for node (named in our cgroup path).  want BOOST_AUTO
 * chooses; an explicit kind that is not available is an error (message in
 * err).  Returns NULL on error.
 */
struct boost *boost_open(enum boost_kind want, const char *node, char *err,
			 size_t err_len);

/* Which mechanism it is. */
enum boost_kind boost_kind(const struct boost *b);

/* One line saying what it uses and any caveat (autogroup, mount point),
 * and for BOOST_AUTO why a cgroup mechanism was not chosen. */
const char *boost_describe(const struct boost *b);

/* The mechanism in a few words: "cgroup-v2 cpu.weight",
 * "cgroup-v1 cpu.shares", "nice", "SCHED_RR". */
const char *boost_mechanism(const struct boost *b);

/* "auto", "cgroup", "nice", "cgroup2", "rt" (lib/cosched_proto/
 * boost_names.h); parse returns 0 or -1. */
const char *boost_kind_name(enum boost_kind kind);
int boost_kind_parse(const char *text, enum boost_kind *kind);

/* kernel.sched_autogroup_enabled=1: nice acts only within a session. */
bool boost_autogroup_enabled(void);

/*
 * Prepare id (for job_id) for boosts and record its original state in
 * saved.  Returns 0, or -1 with a message.
 */
int boost_attach(struct boost *b, const struct proc_id *id, unsigned job_id,
		 struct boost_saved *saved, char *err, size_t err_len);

/*
 * Apply level to an attached process (id is re-checked).  0 or -1.
 * nice: a nice value the process never had from us is first added to
 * saved->nice_set and persisted (boost_on_new_nice); if that fails it is
 * not applied.  rt: the same for level < 0, and for level > 0 the nice 0
 * that the kernel gives children forked while it is real-time.
 */
int boost_set(struct boost *b, const struct proc_id *id,
	      struct boost_saved *saved, int level);

/* Call persist(arg) whenever boost_set() is about to give a process a
 * nice value not yet in its saved->nice_set (NULL: nothing to persist);
 * nonzero refuses that boost. */
void boost_on_new_nice(struct boost *b, int (*persist)(void *arg),
		       void *arg);

/*
 * Put the process back as saved (priority of every thread, cgroup) and
 * remove what attach created.  Works without a struct boost (NULL), from
 * saved alone; a process that is gone only has our cgroup removed.
 * nice: also every thread of its live descendants owned by saved->uid
 * whose nice is one boost_set() gave (saved->nice_set): what children
 * forked while it was boosted inherited; a nice they chose is kept.
 * rt: every thread back at saved's policy, priority, SCHED_RESET_ON_FORK
 * and nice, and the descendants' nice as for nice.
 * Returns 0 or -1.
 */
int boost_restore(const struct proc_id *id, const struct boost_saved *saved);

/* Close the mechanism (does not restore anything). */
void boost_close(struct boost *b);

#endif /* COSCHEDD_BOOST_H */
