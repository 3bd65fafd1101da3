/*
 * tick.c - one decision of a node agent: the boost level of every process
 * of the coscheduled jobs on the node until the next tick (see tick.h).
 *
 * The reactions run in their order of precedence (SY demotion, DCS, SY
 * boost, PB, energy) and each only gives a reason to a process that has
 * none yet, so a process ends with the strongest reason that applies.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdlib.h>

#include "cosched/tick.h"

#define DEFAULT_BOOST_LEVEL 10
#define DEFAULT_DEMOTE_LEVEL (-10)
#define DEFAULT_MAX_LEVEL 15

static const char *const reason_names[COSCHED_WHY_COUNT] = {
	[COSCHED_WHY_NONE]	= "none",
	[COSCHED_WHY_PB]	= "pb",
	[COSCHED_WHY_DCS]	= "dcs",
	[COSCHED_WHY_SY_BOOST]	= "sy-boost",
	[COSCHED_WHY_SY_DEMOTE]	= "sy-demote",
	[COSCHED_WHY_ENERGY]	= "energy",
};

/* SY picks who gets the yielder's CPU by heuristic A (Zhang et al., 2.4.4). */
static const struct cosched_pb_rule sy_rule = { COSCHED_PB_A, false };

struct cosched_tick_params cosched_tick_defaults(void)
{
	struct cosched_tick_params params = {
		.boost_level = DEFAULT_BOOST_LEVEL,
		.demote_level = DEFAULT_DEMOTE_LEVEL,
		.max_level = DEFAULT_MAX_LEVEL,
	};

	cosched_energy_defaults(&params.energy);
	return params;
}

const char *cosched_reason_name(enum cosched_reason reason)
{
	if ((unsigned int)reason >= COSCHED_WHY_COUNT)
		return "?";
	return reason_names[reason];
}

/* SY picks by heuristic A (never fair), energy ignores both. */
bool cosched_tick_needs_running(const struct cosched_mode_parts *parts)
{
	return parts && (parts->react == COSCHED_REACT_DCS ||
			 parts->react == COSCHED_REACT_PB);
}

/* Give p a level and a reason, unless a stronger reason came first. */
static void _decide(struct cosched_tick_proc *p, enum cosched_reason reason,
		    int level)
{
	if (p->reason != COSCHED_WHY_NONE)
		return;
	p->reason = reason;
	p->level = level;
}

static void _reset(struct cosched_tick_proc *procs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		procs[i].level = 0;
		procs[i].reason = COSCHED_WHY_NONE;
		procs[i].state = cosched_pb_state(&procs[i].view);
	}
}

/* ---------------------------------------------------------------- SY */

static bool _yields(const struct cosched_tick_proc *p)
{
	return p->view.candidate && p->parts.wait == COSCHED_WAIT_SY &&
	       p->yielding && p->view.in_recv;
}

static void _sy_demote(struct cosched_tick_proc *procs, size_t n,
		       const struct cosched_tick_params *params)
{
	for (size_t i = 0; i < n; i++) {
		if (_yields(&procs[i]))
			_decide(&procs[i], COSCHED_WHY_SY_DEMOTE,
				params->demote_level);
	}
}

/*
 * For every yielder, the process heuristic A picks from it onwards, among
 * every candidate of the node but the yielders (they just gave the CPU
 * away).  A process already boosted for a stronger reason (DCS) may be
 * picked: the yielder's hint then agrees with a boost already there, and
 * boosting someone else as well would only dilute it.
 */
static void _sy_boost(struct cosched_tick_proc *procs, size_t n,
		      struct cosched_proc_view *views,
		      const struct cosched_tick_params *params)
{
	for (size_t i = 0; i < n; i++) {
		views[i] = procs[i].view;
		if (procs[i].reason == COSCHED_WHY_SY_DEMOTE)
			views[i].candidate = false;
	}
	for (size_t i = 0; i < n; i++) {
		int pick;

		if (procs[i].reason != COSCHED_WHY_SY_DEMOTE)
			continue;
		pick = cosched_pb_pick(views, n, i, &sy_rule, (int)i, NULL);
		if (pick >= 0)
			_decide(&procs[pick], COSCHED_WHY_SY_BOOST,
				params->boost_level);
	}
}

/* --------------------------------------------------------------- DCS */

static void _dcs(struct cosched_tick_proc *procs, size_t n,
		 const struct cosched_tick_params *params)
{
	for (size_t i = 0; i < n; i++) {
		const struct cosched_tick_proc *p = &procs[i];

		if (p->parts.react != COSCHED_REACT_DCS ||
		    !p->view.candidate || p->view.running ||
		    (p->state != COSCHED_S3 && p->state != COSCHED_S2))
			continue;
		_decide(&procs[i], COSCHED_WHY_DCS, params->boost_level);
	}
}

/* ---------------------------------------------------------------- PB */

static bool _is_pb(const struct cosched_tick_proc *p)
{
	return p->parts.react == COSCHED_REACT_PB;
}

/* The rule of the current process's job, else of the first PB process. */
static const struct cosched_pb_rule *
_pb_rule(const struct cosched_tick_proc *procs, size_t n, int current)
{
	if (current >= 0 && _is_pb(&procs[current]))
		return &procs[current].pb;
	for (size_t i = 0; i < n; i++) {
		if (_is_pb(&procs[i]))
			return &procs[i].pb;
	}
	return NULL;
}

/* Where the round-robin scan starts (tick.h). */
static size_t _pb_start(size_t n, int current, int last_boosted)
{
	if (current >= 0)
		return (size_t)current;
	if (last_boosted >= 0 && (size_t)last_boosted < n)
		return ((size_t)last_boosted + 1) % n;
	return 0;
}

/*
 * One boost over the PB processes of the whole table, scanning from the
 * current process whatever its mode, so distances stay those of the
 * node.  A yielder is left out: PB would boost what SY just demoted.
 */
static int _pb(struct cosched_tick_proc *procs, size_t n,
	       struct cosched_proc_view *views, int current, int last_boosted,
	       const struct cosched_tick_params *params)
{
	const struct cosched_pb_rule *rule = _pb_rule(procs, n, current);
	int pick;

	if (!rule)
		return -1;
	for (size_t i = 0; i < n; i++) {
		views[i] = procs[i].view;
		views[i].candidate = procs[i].view.candidate &&
				     _is_pb(&procs[i]) &&
				     procs[i].reason != COSCHED_WHY_SY_DEMOTE;
	}
	pick = cosched_pb_pick(views, n, _pb_start(n, current, last_boosted),
			       rule, -1, NULL);
	if (pick >= 0)
		_decide(&procs[pick], COSCHED_WHY_PB, params->boost_level);
	return pick;
}

/* ------------------------------------------------------------ energy */

static bool _is_energy(const struct cosched_tick_proc *p)
{
	return p->parts.react == COSCHED_REACT_ECM ||
	       p->parts.react == COSCHED_REACT_EDM;
}

/*
 * t and R by the variant (energy.h): the paper's are each process's age
 * and the node's running processes; the tick's are dt and the processes
 * in the table, the coscheduled processes of the node, all of which
 * compete for its CPUs (counting only those not in S4 would make the
 * floor jump with every receive).  A process's P starts at R.  P is kept
 * even while another reason sets the level, so the model's history is
 * not lost to a one-tick boost.
 */
static void _energy_step(struct cosched_tick_proc *p, size_t n, double dt,
			 const struct cosched_tick_params *params)
{
	struct cosched_energy_clock clock = {
		.age = p->age,
		.dt = dt,
		.node_running = p->node_running,
		.coscheduled = (double)n,
	};
	struct cosched_energy_sample s = {
		.f = p->msg_rate,
		.m = p->msg_kib,
		.communicating = p->communicating != 0,
	};

	cosched_energy_t_r(&params->energy, &clock, &s);
	if (p->energy < 0)
		p->energy = cosched_energy_initial(s.running);
	if (p->parts.react == COSCHED_REACT_ECM)
		p->energy = cosched_ecm_step(&params->energy, p->energy, &s);
	else
		p->energy = cosched_edm_step(&params->energy, p->energy, &s);
}

static void _energy(struct cosched_tick_proc *procs, size_t n, double dt,
		    const struct cosched_tick_params *params)
{
	double cap = params->max_level > 0 ? params->max_level : 0;

	for (size_t i = 0; i < n; i++) {
		struct cosched_tick_proc *p = &procs[i];
		bool comm = p->communicating != 0;
		int level;

		if (!_is_energy(p))
			continue;
		_energy_step(p, n, dt, params);
		level = cosched_energy_level(p->energy < cap ? p->energy : cap,
					     comm);
		if (level > 0 && p->view.candidate)
			_decide(p, COSCHED_WHY_ENERGY, level);
	}
}

/* ------------------------------------------------------------- tick */

int cosched_tick(struct cosched_tick_proc *procs, size_t n, int current,
		 int last_boosted, double dt,
		 const struct cosched_tick_params *params)
{
	struct cosched_tick_params defaults;
	struct cosched_proc_view *views = NULL;
	int pb = -1;

	if (!procs || !n || n > (size_t)INT32_MAX)
		return -1;
	if (!params) {
		defaults = cosched_tick_defaults();
		params = &defaults;
	}
	if (current >= 0 && (size_t)current >= n)
		current = -1;	/* stale index: the process is gone */

	_reset(procs, n);
	_sy_demote(procs, n, params);
	_dcs(procs, n, params);
	/* The picks work on a masked copy of the views, never the caller's.
	 * Without memory for it, the picks are skipped for this tick. */
	views = calloc(n, sizeof(*views));
	if (views) {
		_sy_boost(procs, n, views, params);
		pb = _pb(procs, n, views, current, last_boosted, params);
		free(views);
	}
	_energy(procs, n, dt, params);
	return pb;
}
