/*
 * timers.c - where select/coalloc's time in slurmctld goes.
 *
 * sdiag times slurmctld's main and backfill cycles as a whole.  To tell
 * the plugin's part, and which of its steps costs it, each job_test mode
 * and the release loop of a start estimate are timed (two clock reads a
 * call, tens of nanoseconds).  So is the status thread's work, since it
 * shares the CPUs with the scheduler: the pending reasons it restores
 * under the job write lock and the queues' sync under the job read lock
 * are timed while the lock is held, because that is how long every RPC
 * needing the other lock waits for the plugin.
 *
 * The counts are kept two ways.  Since slurmctld started: calls, time,
 * the longest call and how many calls took over 1 ms, 10 ms, 100 ms and
 * 1 s; the same of the calling thread's CPU time, which tells a step
 * that works long from one whose thread waited for a CPU (slurmctld
 * shares a node's CPUs with its own threads and everything else), in
 * the status JSON and in scontrol show config's CoallocTimers
 * (coalloc_timers_json), so that they can be read without debug logging
 * and differenced over a window (bench-sched).  And per minute: with
 * DebugFlags=SelectType a summary is logged once a minute and at scontrol
 * reconfigure.  The counters are atomic: job_test's callers hold the node
 * usage lock, the status thread does not.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "select_coalloc.h"

#define REPORT_EVERY_NS (60ULL * 1000000000ULL)
#define NS_PER_MS 1000000ULL

/* A call longer than each of these is counted (ms; the JSON's keys). */
static const uint64_t over_ms[] = { 1, 10, 100, 1000 };
#define NOVER (sizeof(over_ms) / sizeof(over_ms[0]))

struct timer {
	uint64_t calls;
	uint64_t total_ns;
	uint64_t max_ns;
};

struct timer_since_start {
	struct timer t;
	uint64_t over[NOVER];
	struct timer cpu;	/* calls unused: those of t */
	uint64_t cpu_over[NOVER];
};

/* name: the log's words; key: the JSON's */
static const struct {
	const char *name, *key;
} timer_names[COALLOC_TIMER_COUNT] = {
	[COALLOC_TIMER_TEST_ONLY] = { "test_only", "test_only" },
	[COALLOC_TIMER_RUN_NOW] = { "run_now", "run_now" },
	[COALLOC_TIMER_WILL_RUN] = { "will_run", "will_run" },
	[COALLOC_TIMER_WHEN_FREED] = { "will_run's release search",
				       "will_run_release_search" },
	[COALLOC_TIMER_RELEASE_PICK] = { "its node picks",
					 "will_run_node_picks" },
	[COALLOC_TIMER_REASONS] = {
		"status thread: pending reasons (job write lock held)",
		"reasons_job_write_lock" },
	[COALLOC_TIMER_QUEUE_SYNC] = {
		"status thread: queue sync (job read lock held)",
		"queue_sync_job_read_lock" },
	[COALLOC_TIMER_JOB_WALK] = { "job table walks and slices",
				     "job_table_walk" },
	[COALLOC_TIMER_STATUS] = { "status thread: status written",
				   "status_written" },
};

static struct timer window[COALLOC_TIMER_COUNT];	/* the log's minute */
static struct timer_since_start total[COALLOC_TIMER_COUNT];
static uint64_t since_ns;	/* of the window, 0: not started */

static uint64_t _clock_ns(clockid_t clock)
{
	struct timespec ts;

	if (clock_gettime(clock, &ts))
		return 0;
	return (uint64_t) ts.tv_sec * 1000000000ULL + (uint64_t) ts.tv_nsec;
}

static uint64_t _now(void)
{
	return _clock_ns(CLOCK_MONOTONIC);
}

struct coalloc_timer_start coalloc_timer_start(void)
{
	return (struct coalloc_timer_start) {
		.wall_ns = _now(),
		.cpu_ns = _clock_ns(CLOCK_THREAD_CPUTIME_ID),
	};
}

static void _count(struct timer *t, uint64_t ns)
{
	uint64_t max = __atomic_load_n(&t->max_ns, __ATOMIC_RELAXED);

	__atomic_fetch_add(&t->calls, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&t->total_ns, ns, __ATOMIC_RELAXED);
	while (ns > max &&
	       !__atomic_compare_exchange_n(&t->max_ns, &max, ns, true,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static void _count_over(uint64_t *over, uint64_t ns)
{
	for (size_t i = 0; i < NOVER && ns > over_ms[i] * NS_PER_MS; i++)
		__atomic_fetch_add(&over[i], 1, __ATOMIC_RELAXED);
}

void coalloc_timer_add(enum coalloc_timer which,
		       const struct coalloc_timer_start *start)
{
	struct timer_since_start *s = &total[which];
	uint64_t ns = _now() - start->wall_ns;
	uint64_t cpu_ns = _clock_ns(CLOCK_THREAD_CPUTIME_ID) - start->cpu_ns;

	_count(&window[which], ns);
	_count(&s->t, ns);
	_count_over(s->over, ns);
	_count(&s->cpu, cpu_ns);
	_count_over(s->cpu_over, cpu_ns);
}

static uint64_t _load(const uint64_t *v)
{
	return __atomic_load_n(v, __ATOMIC_RELAXED);
}

/* {"1": n, "10": n, ...}: the calls over each of over_ms */
static json_object *_over_json(const uint64_t *over)
{
	json_object *o = json_object_new_object();

	for (size_t i = 0; i < NOVER; i++) {
		char key[16];

		snprintf(key, sizeof(key), "%" PRIu64, over_ms[i]);
		json_object_object_add(o, key, json_object_new_int64(
					       (int64_t) _load(&over[i])));
	}
	return o;
}

static json_object *_timer_json(const struct timer_since_start *s)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "calls", json_object_new_int64(
				       (int64_t) _load(&s->t.calls)));
	json_object_object_add(o, "seconds", json_object_new_double(
				       _load(&s->t.total_ns) / 1e9));
	json_object_object_add(o, "max_ms", json_object_new_double(
				       _load(&s->t.max_ns) / 1e6));
	json_object_object_add(o, "over_ms", _over_json(s->over));
	json_object_object_add(o, "cpu_seconds", json_object_new_double(
				       _load(&s->cpu.total_ns) / 1e9));
	json_object_object_add(o, "cpu_max_ms", json_object_new_double(
				       _load(&s->cpu.max_ns) / 1e6));
	json_object_object_add(o, "cpu_over_ms", _over_json(s->cpu_over));
	return o;
}

json_object *coalloc_timers_json(void)
{
	json_object *root = json_object_new_object();

	for (int i = 0; i < COALLOC_TIMER_COUNT; i++)
		json_object_object_add(root, timer_names[i].key,
				       _timer_json(&total[i]));
	return root;
}

static void _log_timers(uint64_t now)
{
	char line[1024];
	size_t len = 0;

	line[0] = '\0';
	for (int i = 0; i < COALLOC_TIMER_COUNT; i++) {
		struct timer t = {
			__atomic_exchange_n(&window[i].calls, 0, __ATOMIC_RELAXED),
			__atomic_exchange_n(&window[i].total_ns, 0,
					    __ATOMIC_RELAXED),
			__atomic_exchange_n(&window[i].max_ns, 0,
					    __ATOMIC_RELAXED),
		};

		if (!t.calls)
			continue;
		len += snprintf(line + len, sizeof(line) - len,
				"%s%s %" PRIu64 " calls %.3f ms (mean %.1f us, max %.1f us)",
				len ? "; " : "", timer_names[i].name, t.calls,
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
	uint64_t now = _now();

	if (!since_ns) {
		since_ns = now;
		return;
	}
	if (!force && now - since_ns < REPORT_EVERY_NS)
		return;
	_log_timers(now);	/* and restarts the window */
	since_ns = now;
}
