/*
 * switch.c - the start of a quantum for the steps that quanta stop and
 * resume: membus's (002_*, Algorithm 1: "stop all of its processes" /
 * "resume applications") and gang rows' (gang.c).
 *
 * Freeze first, then thaw: between the two passes fewer steps run than
 * the quantum's set, never more (membus: never more than P; gang: never
 * two rows at once).  A step whose group cannot be frozen runs in every
 * quantum from then on: failing open.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "agent.h"

void agent_switch_apply(struct agent_step **steps, struct agent_switched **sw,
			size_t n, const bool *run)
{
	for (size_t i = 0; i < n; i++) {
		if (run[i] || !sw[i]->freeze ||
		    !freeze_group_freeze(sw[i]->freeze))
			continue;
		agent_log("job %u step %u: freezing failed: it runs from now on",
			  steps[i]->job, steps[i]->step);
		freeze_group_destroy(sw[i]->freeze);
		sw[i]->freeze = NULL;
	}
	for (size_t i = 0; i < n; i++) {
		sw[i]->runs = run[i] || !sw[i]->freeze;
		if (sw[i]->runs && sw[i]->freeze &&
		    freeze_group_thaw(sw[i]->freeze))
			agent_log("job %u step %u: thawing failed",
				  steps[i]->job, steps[i]->step);
		if (sw[i]->runs)
			sw[i]->quanta_run++;
		else
			sw[i]->quanta_frozen++;
	}
}
