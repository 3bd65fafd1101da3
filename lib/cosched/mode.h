/*
 * mode.h - a --cosched mode split into the two independent choices of
 * Table 1 of the dynamic coscheduling paper (Zhang et al., section 2.4)
 * plus the energy models of Sriprayoonsakul and Uthayopas: how a process
 * waits for a message, and what the node agent does when messages arrive.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_COSCHED_MODE_H
#define COALLOC_COSCHED_MODE_H

#include <stdbool.h>
#include <stddef.h>

/* The name under which the SPANK plugin records the mode with the job. */
#define COSCHED_ENV_MODE "COSCHED_MODE"		/* e.g. "pb-sb" */

/*
 * The coscheduling modes of the roadmap.  The order is part of the ABI
 * between our components only through the names: never store the number,
 * store cosched_mode_name().
 */
enum cosched_mode {
	COSCHED_MODE_NONE,	/* no coscheduling: change nothing */
	COSCHED_MODE_SB,
	COSCHED_MODE_SY,
	COSCHED_MODE_DCS,
	COSCHED_MODE_PB,
	COSCHED_MODE_PB_SB,
	COSCHED_MODE_PB_SY,
	COSCHED_MODE_DCS_SB,
	COSCHED_MODE_DCS_SY,
	COSCHED_MODE_ECM,
	COSCHED_MODE_EDM,
	COSCHED_MODE_MEMBUS,
	COSCHED_MODE_COUNT	/* not a mode: the number of modes */
};

/* Parse MODE, one of the names of cosched_mode_name(), case-insensitive. */
int cosched_parse_mode(const char *text, enum cosched_mode *mode,
		       char *err, size_t err_len);

/* The canonical (lower-case) name of a mode, NULL when out of range. */
const char *cosched_mode_name(enum cosched_mode mode);

/* Every mode name, comma-separated, in enum order (for help texts). */
const char *cosched_mode_names(void);


/* How a process waits in a receive (done by the MPI shim). */
enum cosched_wait {
	COSCHED_WAIT_BUSY,	/* spin until the message is there (Local) */
	COSCHED_WAIT_SB,	/* spin for the spin time, then block */
	COSCHED_WAIT_SY,	/* spin for the spin time, then yield */
};

/* What the node agent does about arrivals (periodically, every tick). */
enum cosched_react {
	COSCHED_REACT_NONE,	/* no explicit rescheduling */
	COSCHED_REACT_DCS,	/* boost a receiver its message arrived for */
	COSCHED_REACT_PB,	/* periodic boost by a heuristic A-E */
	COSCHED_REACT_ECM,	/* energy charging model, (1)-(2) */
	COSCHED_REACT_EDM,	/* energy discharging model, (3)-(4) */
};

struct cosched_mode_parts {
	enum cosched_wait wait;
	enum cosched_react react;
};

/* A mode: a row of mode.c's table, all a component needs to know of it. */
struct cosched_mode_desc {
	const char *name;		/* canonical, lower case */
	enum cosched_wait wait;		/* how its processes wait */
	enum cosched_react react;	/* what the agent does on arrivals */
	bool shim;		/* the MPI shim runs in its processes */
	bool agent;		/* the node agent has work for it (gang rows
				 * aside): its tasks register */
	bool quanta;		/* switched by its own quanta (MemBUS
				 * pairing): peers, a declared bandwidth,
				 * never in gang rows, not re-adopted */
};

/* The row of a mode; NULL out of range. */
const struct cosched_mode_desc *cosched_mode_desc(enum cosched_mode mode);

/*
 * The parts of a mode.  none is busy/none; membus (issue 7) is busy/none
 * here since it is gang pairing, not dynamic coscheduling.
 * Returns 0, or -1 for a mode out of range (parts untouched).
 */
int cosched_mode_split(enum cosched_mode mode, struct cosched_mode_parts *parts);

/* The table's traits of a mode (false out of range). */
bool cosched_mode_needs_shim(enum cosched_mode mode);
bool cosched_mode_for_agent(enum cosched_mode mode);
bool cosched_mode_by_quanta(enum cosched_mode mode);

/*
 * The mode a job or step runs, resolved one way by every side (sbatch
 * and srun at submit, slurmstepd): the --cosched option when given, else
 * the value recorded with the job when it parses, else the site's
 * default (plugstack.conf's default_mode).
 */
enum cosched_mode cosched_mode_resolve(bool given, enum cosched_mode option,
				       const char *recorded,
				       enum cosched_mode dflt);

/* "busy", "sb", "sy" and "none", "dcs", "pb", "ecm", "edm". */
const char *cosched_wait_name(enum cosched_wait wait);
const char *cosched_react_name(enum cosched_react react);

/* Parse a cosched_wait_name() (the shim reads COSCHED_WAIT with it). */
int cosched_wait_parse(const char *text, enum cosched_wait *wait);

#endif /* COALLOC_COSCHED_MODE_H */
