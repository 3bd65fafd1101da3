/*
 * settings.h - the one table of the settings that both the cosched
 * plugin (plugstack.conf, lib/cosched_proto/args.c) and the node
 * agent (its command line, agent/conf.c, and the register request)
 * check: name, default, lowest, highest, unit.  Nowhere else is a
 * default or limit of these written.
 *
 * The plugin starts the agent with its values (--tick-us, --idle-exit,
 * --membus-*), so both must accept the same ranges.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHED_PROTO_SETTINGS_H
#define COSCHED_PROTO_SETTINGS_H

#include <stdbool.h>
#include <stdint.h>

enum cosched_setting_id {
	COSCHED_SET_TICK_US,		/* tick of jobs that ask none */
	COSCHED_SET_MIN_TICK_US,	/* limits of --cosched-tick */
	COSCHED_SET_MAX_TICK_US,
	COSCHED_SET_MAX_SPIN_US,	/* limit of --cosched-spin */
	COSCHED_SET_IDLE_EXIT,
	COSCHED_SET_MEMBUS_QUANTUM_MS,
	COSCHED_SET_MEMBUS_WINDOW,
	COSCHED_SET_MEMBUS_MEM,		/* 0: the agent measures it */
	COSCHED_SET_MEMBUS_NET,		/* 0: the agent finds or probes it */
	COSCHED_SET_MEMBUS_PORT_OFFSET,	/* an agent's UDP port - slurmd's */
	COSCHED_SET_GANG_PORT_OFFSET,	/* its gang-table port - slurmd's */
	COSCHED_SET_COUNT
};

struct cosched_setting {
	const char *key;	/* on the plugstack.conf line */
	const char *option;	/* coschedd's, without "--"; NULL: none */
	uint64_t dflt, lo, hi;
	const char *unit;
};

/* The setting id (id < COSCHED_SET_COUNT). */
const struct cosched_setting *cosched_setting(enum cosched_setting_id id);

/* Whether v lies within id's limits. */
bool cosched_setting_ok(enum cosched_setting_id id, uint64_t v);

#endif /* COSCHED_PROTO_SETTINGS_H */
