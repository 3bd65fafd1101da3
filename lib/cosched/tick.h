/*
 * tick.h - one decision of a node agent: given what it sees of the
 * processes of the coscheduled jobs on its node, which boost level each
 * process should have until the next tick.
 *
 * Levels are in nice steps (a step is a CPU weight ratio of about 1.25):
 * 0 is the process's own priority, > 0 a boost, < 0 a demotion.  The agent
 * maps them to cgroup cpu.shares or to nice values (see coschedd(8)).
 *
 * Per process, by the reaction part of its job's mode (mode.h):
 *   PB   one process per tick, over all PB-family processes of the node,
 *        chosen by the PB rule (pb.h) of the job of the current process
 *        (or, when the current process is not a PB one, of the first PB
 *        process in the table), scanning from the current process.
 *   DCS  a process whose awaited message has arrived (S3) or that has
 *        pending messages (S2) while it is not running is boosted until
 *        it runs or consumes them.
 *   ECM, EDM  the energy level (energy.h) while communicating.
 * Per process, by the wait part:
 *   SY   a process that has spun past its spin time and says so (yielding)
 *        is demoted, and another process is boosted, chosen by heuristic A
 *        as Zhang et al. section 2.4.2 says, excluding the yielding one.
 * Boosts never go to an S4 process.  A process has at most one reason;
 * the order of precedence is: SY demotion, DCS, SY-chosen, PB, energy.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_COSCHED_TICK_H
#define COALLOC_COSCHED_TICK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cosched/energy.h"
#include "cosched/mode.h"
#include "cosched/pb.h"

enum cosched_reason {
	COSCHED_WHY_NONE,
	COSCHED_WHY_PB,		/* chosen by the periodic boost */
	COSCHED_WHY_DCS,	/* a message arrived while it was not running */
	COSCHED_WHY_SY_BOOST,	/* chosen when another process yielded */
	COSCHED_WHY_SY_DEMOTE,	/* it yielded */
	COSCHED_WHY_ENERGY,	/* ECM/EDM level while communicating */
	COSCHED_WHY_COUNT,
};

struct cosched_tick_params {
	int boost_level;	/* level of a PB, DCS or SY boost (> 0) */
	int demote_level;	/* level of an SY demotion (< 0) */
	int max_level;		/* cap for energy levels */
	struct cosched_energy_params energy;
};

/* One process as the agent sees it, and what the tick decides for it. */
struct cosched_tick_proc {
	/* inputs */
	struct cosched_proc_view view;
	struct cosched_mode_parts parts;
	struct cosched_pb_rule pb;	/* its job's rule (PB family) */
	int yielding;			/* SY: past the spin time, wants out */
	double msg_rate;		/* f: messages per second */
	double msg_kib;			/* m: mean message size, KiB */
	int communicating;		/* in any communication call */
	double age;			/* s since it started (paper's t) */
	double node_running;		/* running processes on the node,
					 * the same in every row (paper's
					 * R); < 0: unknown */
	/* state carried from tick to tick by the caller */
	double energy;			/* ECM/EDM priority P; < 0: not
					 * started, the tick sets it to R */
	/* outputs */
	int level;
	enum cosched_reason reason;
	enum cosched_pstate state;	/* its state at this tick */
};

struct cosched_tick_params cosched_tick_defaults(void);

/*
 * Decide levels for procs[0..n).  current is the index of the process
 * believed to be on the CPU (-1: unknown, then the scan starts after
 * last_boosted, or at 0).  dt is the time since the previous tick (s),
 * the t of the energy models' tick variant.  Returns the index of the
 * PB-boosted process or -1, for the caller to pass back as last_boosted.
 */
int cosched_tick(struct cosched_tick_proc *procs, size_t n, int current,
		 int last_boosted, double dt,
		 const struct cosched_tick_params *params);

const char *cosched_reason_name(enum cosched_reason reason);

/*
 * Whether a table holding a process of these parts needs to know who is
 * on the CPU: view.running (DCS boosts only a process not running),
 * current and view.cpu_share (PB scans from the current process and its
 * fair-share rules pick by CPU share).  When no process of a table needs
 * it, cosched_tick() decides the same whatever running, cpu_share and
 * current say, so the agent need not sample CPU times at every tick.
 */
bool cosched_tick_needs_running(const struct cosched_mode_parts *parts);

#endif /* COALLOC_COSCHED_TICK_H */
