/*
 * test_gap.c - the rule that tells esp-work's stops from waits
 * (lib/esp/gap.h), on the gaps the kernel reports for each cause: seen
 * on kernel 6.18 with ptrace, SIGSTOP and cgroup freezers (one voluntary
 * context switch while burning), a SCHED_FIFO task on the CPU (run_delay,
 * no voluntary switch) and steal time (neither).  Asleep, the switches
 * are unknown (-1): a v1 freezer freezes a sleeping task in its sleep.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>

#include "esp/gap.h"
#include "tap.h"

#define MS 1000000LL
#define MARGIN (25 * MS)

struct gap_case {
	const char *what;
	struct esp_gap gap;
	bool stop;
};

static const struct gap_case cases[] = {
	{ "on time", { 0, MARGIN, 0, 0, false }, false },
	{ "late by the margin exactly", { MARGIN, MARGIN, 0, 1, false }, false },
	{ "SIGCONT after a SIGSTOP of 300 ms",
	  { 300 * MS, MARGIN, 0, 1, true }, true },
	{ "SIGCONT with a gap inside the margin",
	  { 10 * MS, MARGIN, 0, 1, true }, false },
	{ "cgroup freeze of 300 ms",
	  { 300 * MS, MARGIN, 0, 1, false }, true },
	{ "freeze of 200 ms (agent row switch)",
	  { 200 * MS, MARGIN, 5 * MS, 1, false }, true },
	{ "freeze of 90 ms: too short to tell from a wait",
	  { 90 * MS, MARGIN, 0, 1, false }, false },
	{ "500 ms behind a SCHED_FIFO task: waited, never blocked",
	  { 500 * MS, MARGIN, 500 * MS, 0, false }, false },
	{ "300 ms of steal: neither waited nor blocked",
	  { 300 * MS, MARGIN, 0, 0, false }, false },
	{ "2 s of steal, no schedstat",
	  { 2000 * MS, MARGIN, -1, 0, false }, false },
	{ "blocked 300 ms, mostly waiting for a CPU after the thaw",
	  { 300 * MS, MARGIN, 250 * MS, 1, false }, false },
	{ "blocked 500 ms, no schedstat: under a second",
	  { 500 * MS, MARGIN, -1, 1, false }, false },
	{ "blocked 1.5 s, no schedstat",
	  { 1500 * MS, MARGIN, -1, 1, false }, true },
	{ "asleep (blocks unknown): the wait alone decides",
	  { 300 * MS, MARGIN, 0, -1, false }, true },
	{ "asleep, 300 ms waited",
	  { 300 * MS, MARGIN, 300 * MS, -1, false }, false },
};

int main(void)
{
	size_t n = sizeof(cases) / sizeof(cases[0]);

	plan((int)n);
	for (size_t i = 0; i < n; i++)
		ok(esp_gap_is_stop(&cases[i].gap) == cases[i].stop, "%s: %s",
		   cases[i].what, cases[i].stop ? "a stop" : "running");
	return done_testing();
}
