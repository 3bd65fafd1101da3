/*
 * mode.c - a --cosched mode as its wait part and its reaction part
 * (see mode.h and Table 1 of Zhang et al., section 2.4).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "cosched/mode.h"
#include "num/errbuf.h"

#define NWAITS (COSCHED_WAIT_SY + 1)
#define NREACTS (COSCHED_REACT_EDM + 1)

#define ROW(m, n, w, r, shim, agent, quanta) \
	[COSCHED_MODE_##m] = { n, COSCHED_WAIT_##w, COSCHED_REACT_##r, \
			       shim, agent, quanta }

/*
 * One row per mode.  Wait and reaction are Table 1 of the paper, rows
 * (reaction) by columns (wait), plus the energy models.  Those were
 * defined on MPICH over TCP (Sriprayoonsakul and Uthayopas), whose
 * receives sleep in the kernel until data comes: so they wait by
 * spin-block, the nearest we have (with busy waiting, EDM's rising
 * priority while communicating makes the spinning receiver starve the
 * sender it waits for: 23x slower than alone in our benchmark).  none and
 * membus change nothing in how a process waits or is boosted; the shim
 * spins, blocks, yields and publishes the endpoint status every reaction
 * reads, so every other mode needs it; membus (gang pairing by quanta,
 * SIGSTOP/SIGCONT or the freezer) is the one switched by its own quanta.
 */
static const struct cosched_mode_desc modes[COSCHED_MODE_COUNT] = {
	/*   mode    name      wait  react  shim   agent  quanta */
	ROW(NONE,   "none",   BUSY, NONE, false, false, false),
	ROW(SB,     "sb",     SB,   NONE, true,  true,  false),
	ROW(SY,     "sy",     SY,   NONE, true,  true,  false),
	ROW(DCS,    "dcs",    BUSY, DCS,  true,  true,  false),
	ROW(PB,     "pb",     BUSY, PB,   true,  true,  false),
	ROW(PB_SB,  "pb-sb",  SB,   PB,   true,  true,  false),
	ROW(PB_SY,  "pb-sy",  SY,   PB,   true,  true,  false),
	ROW(DCS_SB, "dcs-sb", SB,   DCS,  true,  true,  false),
	ROW(DCS_SY, "dcs-sy", SY,   DCS,  true,  true,  false),
	ROW(ECM,    "ecm",    SB,   ECM,  true,  true,  false),
	ROW(EDM,    "edm",    SB,   EDM,  true,  true,  false),
	ROW(MEMBUS, "membus", BUSY, NONE, false, true,  true),
};

static const char *const wait_names[NWAITS] = {
	[COSCHED_WAIT_BUSY] = "busy",
	[COSCHED_WAIT_SB]   = "sb",
	[COSCHED_WAIT_SY]   = "sy",
};

static const char *const react_names[NREACTS] = {
	[COSCHED_REACT_NONE] = "none",
	[COSCHED_REACT_DCS]  = "dcs",
	[COSCHED_REACT_PB]   = "pb",
	[COSCHED_REACT_ECM]  = "ecm",
	[COSCHED_REACT_EDM]  = "edm",
};

/* Enums may hold any int: compare as unsigned so negatives fail too. */
static bool _mode_valid(enum cosched_mode mode)
{
	return (unsigned int)mode < COSCHED_MODE_COUNT;
}

const struct cosched_mode_desc *cosched_mode_desc(enum cosched_mode mode)
{
	return _mode_valid(mode) ? &modes[mode] : NULL;
}

int cosched_mode_split(enum cosched_mode mode, struct cosched_mode_parts *parts)
{
	if (!_mode_valid(mode) || !parts)
		return -1;
	*parts = (struct cosched_mode_parts) {
		modes[mode].wait, modes[mode].react
	};
	return 0;
}

bool cosched_mode_needs_shim(enum cosched_mode mode)
{
	return _mode_valid(mode) && modes[mode].shim;
}

bool cosched_mode_for_agent(enum cosched_mode mode)
{
	return _mode_valid(mode) && modes[mode].agent;
}

bool cosched_mode_by_quanta(enum cosched_mode mode)
{
	return _mode_valid(mode) && modes[mode].quanta;
}

enum cosched_mode cosched_mode_resolve(bool given, enum cosched_mode option,
				       const char *recorded,
				       enum cosched_mode dflt)
{
	enum cosched_mode mode = dflt;

	if (given)
		return option;
	if (recorded && cosched_parse_mode(recorded, &mode, NULL, 0))
		mode = dflt;
	return mode;
}

/* Out-of-range values name themselves "?" so log lines never get NULL. */
const char *cosched_wait_name(enum cosched_wait wait)
{
	if ((unsigned int)wait >= NWAITS)
		return "?";
	return wait_names[wait];
}

const char *cosched_react_name(enum cosched_react react)
{
	if ((unsigned int)react >= NREACTS)
		return "?";
	return react_names[react];
}

/* Case-insensitive, like cosched_parse_mode(); wait is set on success only. */
int cosched_wait_parse(const char *text, enum cosched_wait *wait)
{
	if (!text)
		return -1;
	for (unsigned int i = 0; i < NWAITS; i++) {
		if (!strcasecmp(text, wait_names[i])) {
			if (wait)
				*wait = (enum cosched_wait)i;
			return 0;
		}
	}
	return -1;
}

/* ------------------------------------------------------------ names */

/*
 * Messages quote the user's input, cut to this length (with "...") so
 * every message fits ERRBUF_LEN.
 */
#define QUOTE_MODE_MAX 24

/* Kept in step with the table's names by the unit test. */
static const char all_mode_names[] =
	"none, sb, sy, dcs, pb, pb-sb, pb-sy, dcs-sb, dcs-sy, ecm, edm, membus";

int cosched_parse_mode(const char *text, enum cosched_mode *mode,
		       char *err, size_t err_len)
{
	struct errbuf_quote qt;

	if (!text || !*text) {
		errbuf_set(err, err_len,
			 "--cosched: no mode given (expected one of: %s)",
			 all_mode_names);
		return -1;
	}
	for (int m = 0; m < COSCHED_MODE_COUNT; m++) {
		if (!strcasecmp(text, modes[m].name)) {
			if (mode)
				*mode = (enum cosched_mode)m;
			return 0;
		}
	}
	qt = errbuf_quote(strlen(text), QUOTE_MODE_MAX);
	errbuf_set(err, err_len,
		 "--cosched: unknown mode '%.*s%s' (expected one of: %s)",
		 qt.len, text, qt.more, all_mode_names);
	return -1;
}

const char *cosched_mode_name(enum cosched_mode mode)
{
	if ((int)mode < 0 || mode >= COSCHED_MODE_COUNT)
		return NULL;
	return modes[mode].name;
}

const char *cosched_mode_names(void)
{
	return all_mode_names;
}
