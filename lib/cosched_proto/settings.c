/*
 * settings.c - the settings both sides check (see settings.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "cosched/bw.h"
#include "membus/membus.h"
#include "settings.h"

static const struct cosched_setting settings[COSCHED_SET_COUNT] = {
	[COSCHED_SET_TICK_US] = { "tick_us", "tick-us", 1000, 10, 10000000, "us" },
	[COSCHED_SET_MIN_TICK_US] = { "min_tick_us", NULL, 100, 10, 10000000, "us" },
	[COSCHED_SET_MAX_TICK_US] = { "max_tick_us", NULL, 100000, 10, 10000000, "us" },
	[COSCHED_SET_MAX_SPIN_US] = { "max_spin_us", NULL, 10000, 1, 1000000, "us" },
	[COSCHED_SET_IDLE_EXIT] = { "idle_exit", "idle-exit", 600, 0, 86400 * 365, "s" },
	/* q and w of the MemBUS paper */
	[COSCHED_SET_MEMBUS_QUANTUM_MS] = { "membus_quantum_ms", "membus-quantum-ms",
					    500, 50, 60000, "ms" },
	[COSCHED_SET_MEMBUS_WINDOW] = { "membus_window", "membus-window", 2, 1,
					MEMBUS_WINDOW_MAX, "quanta" },
	[COSCHED_SET_MEMBUS_MEM] = { "membus_mem", "membus-mem", 0, 0,
				     (uint64_t)COSCHED_BW_MAX, "B/s" },
	[COSCHED_SET_MEMBUS_NET] = { "membus_net", "membus-net", 0, 0,
				     (uint64_t)COSCHED_BW_MAX, "B/s" },
	/* slurmd's port + offset must stay a port; checked per node too */
	[COSCHED_SET_MEMBUS_PORT_OFFSET] = { "membus_port_offset", NULL, 1000, 1,
					     64511, "ports" },
	/* where select/coalloc sends gang tables (coalloc.conf's
	 * GangPortOffset, the same default) */
	[COSCHED_SET_GANG_PORT_OFFSET] = { "gang_port_offset", NULL, 1001, 1,
					   64511, "ports" },
};

const struct cosched_setting *cosched_setting(enum cosched_setting_id id)
{
	return (unsigned)id < COSCHED_SET_COUNT ? &settings[id] : NULL;
}

bool cosched_setting_ok(enum cosched_setting_id id, uint64_t v)
{
	const struct cosched_setting *s = cosched_setting(id);

	return s && v >= s->lo && v <= s->hi;
}
