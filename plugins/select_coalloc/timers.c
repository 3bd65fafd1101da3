/*
 * timers.c - where select/coalloc's share of a scheduling cycle goes.
 *
 * sdiag times slurmctld's main and backfill cycles as a whole.  To tell
 * the plugin's part, and which of its steps costs it, each job_test mode
 * and the release loop of a start estimate are timed (two clock reads a
 * call, tens of nanoseconds), and with DebugFlags=SelectType a summary
 * is logged once a minute and at scontrol reconfigure: calls, total,
 * mean and longest call of each.  The status thread's work is timed the
 * same way (the pending reasons it restores under the job write lock, the
 * queues' sync, the status snapshot and file), since it shares the CPUs
 * with the scheduler.  The counters are atomic: job_test's callers hold
 * the node usage lock, the status thread does not.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "select_coalloc.h"

#define REPORT_EVERY_NS (60ULL * 1000000000ULL)

struct timer {
	uint64_t calls;
	uint64_t total_ns;
	uint64_t max_ns;
};

static const char *const timer_names[COALLOC_TIMER_COUNT] = {
	[COALLOC_TIMER_TEST_ONLY] = "test_only",
	[COALLOC_TIMER_RUN_NOW] = "run_now",
	[COALLOC_TIMER_WILL_RUN] = "will_run",
	[COALLOC_TIMER_WHEN_FREED] = "will_run's release search",
	[COALLOC_TIMER_RELEASE_PICK] = "its node picks",
	[COALLOC_TIMER_REASONS] = "status thread: pending reasons",
	[COALLOC_TIMER_QUEUE_SYNC] = "status thread: queue sync",
	[COALLOC_TIMER_STATUS] = "status thread: status written",
};

static struct timer timers[COALLOC_TIMER_COUNT];
static uint64_t since_ns;	/* of the counts, 0: not started */

uint64_t coalloc_timer_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000ULL + (uint64_t) ts.tv_nsec;
}

void coalloc_timer_add(enum coalloc_timer which, uint64_t start_ns)
{
	struct timer *t = &timers[which];
	uint64_t ns = coalloc_timer_now() - start_ns;
	uint64_t max = __atomic_load_n(&t->max_ns, __ATOMIC_RELAXED);

	__atomic_fetch_add(&t->calls, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&t->total_ns, ns, __ATOMIC_RELAXED);
	while (ns > max &&
	       !__atomic_compare_exchange_n(&t->max_ns, &max, ns, true,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static void _log_timers(uint64_t now)
{
	char line[1024];
	size_t len = 0;

	line[0] = '\0';
	for (int i = 0; i < COALLOC_TIMER_COUNT; i++) {
		struct timer t = {
			__atomic_exchange_n(&timers[i].calls, 0, __ATOMIC_RELAXED),
			__atomic_exchange_n(&timers[i].total_ns, 0,
					    __ATOMIC_RELAXED),
			__atomic_exchange_n(&timers[i].max_ns, 0,
					    __ATOMIC_RELAXED),
		};

		if (!t.calls)
			continue;
		len += snprintf(line + len, sizeof(line) - len,
				"%s%s %" PRIu64 " calls %.3f ms (mean %.1f us, max %.1f us)",
				len ? "; " : "", timer_names[i], t.calls,
				t.total_ns / 1e6, t.total_ns / 1e3 / t.calls,
				t.max_ns / 1e3);
		if (len >= sizeof(line))
			break;
	}
	if (line[0])
		log_flag(SELECT_TYPE, "%s: job_test timers, last %.0f s: %s",
			 plugin_type, (now - since_ns) / 1e9, line);
}

void coalloc_timers_report(bool force)
{
	uint64_t now = coalloc_timer_now();

	if (!since_ns) {
		since_ns = now;
		return;
	}
	if (!force && now - since_ns < REPORT_EVERY_NS)
		return;
	_log_timers(now);	/* and restarts the counts */
	since_ns = now;
}
