/*
 * switch.c - quanta for the steps that they stop and resume: membus's
 * (Koukis and Koziris, Algorithm 1: "stop all of its processes" / "resume
 * applications") and gang rows' (gang.c).  Both align quanta on the wall
 * clock (quantum q starts at q x its length, so every node numbers them
 * alike) with a CLOCK_REALTIME timerfd armed at absolute times.
 *
 * Freeze first, then thaw: between the two passes fewer steps run than
 * the quantum's set, never more (membus: never more than P; gang: never
 * two rows at once).  A step whose group cannot be frozen runs in every
 * quantum from then on: failing open.  One whose processes did not all
 * stop in time (a loaded node; a process in uninterruptible sleep) runs
 * this quantum and is tried again at the next: it fails open for good
 * after FREEZE_SLOW_MAX such quanta in a row, which bounds what a
 * process that never stops costs the agent (FREEZE_WAIT_NS each).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <json-c/json.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>

#include "agent.h"

uint64_t agent_wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int agent_wall_timer_new(char *why, size_t len)
{
	int fd = timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC | TFD_NONBLOCK);

	if (fd < 0)
		snprintf(why, len, "timerfd: %s", strerror(errno));
	return fd;
}

void agent_wall_timer_at(int fd, uint64_t at_ns)
{
	struct itimerspec its = { 0 };

	its.it_value.tv_sec = (time_t)(at_ns / 1000000000ull);
	its.it_value.tv_nsec = (long)(at_ns % 1000000000ull);
	(void)timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL);
}

void agent_wall_timer_off(int fd)
{
	struct itimerspec its = { 0 };

	(void)timerfd_settime(fd, 0, &its, NULL);
}

void agent_switched_status(json_object *o, const struct agent_switched *sw)
{
	json_object_object_add(o, "freeze", json_object_new_string(
		sw->freeze ? freeze_kind_name(freeze_group_kind(sw->freeze)) :
			     "none"));
	json_object_object_add(o, "running", json_object_new_boolean(sw->runs));
	json_object_object_add(o, "quanta_run",
			       json_object_new_int64((int64_t)sw->quanta_run));
	json_object_object_add(o, "quanta_frozen",
			       json_object_new_int64((int64_t)sw->quanta_frozen));
	json_object_object_add(o, "quanta_unstopped",
			       json_object_new_int64((int64_t)sw->quanta_unstopped));
	json_object_object_add(o, "continued",
			       json_object_new_int64((int64_t)sw->continued));
}

/* A user's processes decide how often this happens: bounded */
static struct agent_log_limit slow_log =
	AGENT_LOG_LIMIT_WINDOW("freezes not done in time", 60);

/* Stop the step of sw as its quantum says; false if it still runs. */
static bool _stop(const struct agent_step *step, struct agent_switched *sw)
{
	int rc = freeze_group_freeze(sw->freeze);

	if (!rc) {
		sw->slow = 0;
		return true;
	}
	if (rc == FREEZE_SLOW && ++sw->slow < FREEZE_SLOW_MAX) {
		if (agent_log_allow(&slow_log))
			agent_log("job %u step %u: not stopped within %ld ms (%u in a row): it runs this quantum",
				  step->job, step->step,
				  FREEZE_WAIT_NS / 1000000L, sw->slow);
		return false;
	}
	agent_log("job %u step %u: freezing failed%s: it runs from now on",
		  step->job, step->step,
		  rc == FREEZE_SLOW ? " (never in time)" : "");
	freeze_group_destroy(sw->freeze);
	sw->freeze = NULL;
	return false;
}

void agent_switch_apply(struct agent_step **steps, struct agent_switched **sw,
			size_t n, const uint8_t *run)
{
	for (size_t i = 0; i < n; i++)
		sw[i]->unstopped = !run[i] && sw[i]->freeze &&
				   !_stop(steps[i], sw[i]);
	for (size_t i = 0; i < n; i++) {
		sw[i]->runs = run[i] || !sw[i]->freeze ||
			      !freeze_group_frozen(sw[i]->freeze);
		if (sw[i]->unstopped)
			sw[i]->quanta_unstopped++;
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
