/*
 * mode.h - a --cosched mode split into the two independent choices of
 * Table 1 of the dynamic coscheduling paper (000_*, section 2.4) plus the
 * energy models of 003_*: how a process waits for a message, and what the
 * node agent does when messages arrive.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_COSCHED_MODE_H
#define COALLOC_COSCHED_MODE_H

#include <stdbool.h>

#include "cosched_opts/cosched_opts.h"

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
	COSCHED_REACT_ECM,	/* energy charging model, 003_* (1)-(2) */
	COSCHED_REACT_EDM,	/* energy discharging model, 003_* (3)-(4) */
};

struct cosched_mode_parts {
	enum cosched_wait wait;
	enum cosched_react react;
};

/*
 * The parts of a mode.  none is busy/none; membus (issue 7) is busy/none
 * here since it is gang pairing, not dynamic coscheduling.
 * Returns 0, or -1 for a mode out of range (parts untouched).
 */
int cosched_mode_split(enum cosched_mode mode, struct cosched_mode_parts *parts);

/* Whether a mode needs the MPI shim in the job's processes. */
bool cosched_mode_needs_shim(enum cosched_mode mode);

/* "busy", "sb", "sy" and "none", "dcs", "pb", "ecm", "edm". */
const char *cosched_wait_name(enum cosched_wait wait);
const char *cosched_react_name(enum cosched_react react);

/* Parse a cosched_wait_name() (the shim reads COSCHED_WAIT with it). */
int cosched_wait_parse(const char *text, enum cosched_wait *wait);

#endif /* COALLOC_COSCHED_MODE_H */
