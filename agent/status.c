/*
 * status.c - what `coschedctl status [--json]` shows: the agent, its
 * mechanism and overhead, and per job step the mode, the processes and
 * the boosts given (PB and SY boosts by the state S1-S4 of the process
 * boosted), the DCS detection delay, the shim's counters and the
 * arrivals (same-host, remote, how fast remote ones were noticed).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <json-c/json.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "agent.h"
#include "metrics.h"
#include "cosched/mode.h"

static double _cpu_seconds(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static json_object *_num(double v)
{
	return json_object_new_double(v);
}

static json_object *_counters(const struct agent_counters *c)
{
	json_object *o = json_object_new_object();
	json_object *by = json_object_new_object();
	json_object *shim = json_object_new_object();
	static const char *states[] = { "S1", "S2", "S3", "S4" };

	for (int r = COSCHED_WHY_PB; r < COSCHED_WHY_COUNT; r++)
		json_object_object_add(o, cosched_reason_name((enum cosched_reason)r),
				       json_object_new_int64((int64_t)c->boosts[r]));
	for (int i = 0; i < COSCHED_NSTATES; i++)
		json_object_object_add(by, states[i],
				       json_object_new_int64((int64_t)c->by_state[i]));
	json_object_object_add(o, "by_state", by);
	json_object_object_add(o, "dcs_detect_us_mean",
			       _num(c->dcs_detect_count ?
				    (double)c->dcs_detect_ns_sum / 1e3 /
				    (double)c->dcs_detect_count : 0));
	json_object_object_add(o, "dcs_detect_us_max",
			       _num((double)c->dcs_detect_ns_max / 1e3));
	json_object_object_add(shim, "procs", json_object_new_int64(c->shim_procs));
	json_object_object_add(shim, "messages", json_object_new_int64((int64_t)c->msgs));
	json_object_object_add(shim, "bytes", json_object_new_int64((int64_t)c->bytes));
	json_object_object_add(shim, "blocks", json_object_new_int64((int64_t)c->blocks));
	json_object_object_add(shim, "yields", json_object_new_int64((int64_t)c->yields));
	json_object_object_add(shim, "spins_satisfied",
			       json_object_new_int64((int64_t)c->spins_satisfied));
	json_object_object_add(shim, "collectives",
			       json_object_new_int64((int64_t)c->collectives));
	json_object_object_add(o, "shim", shim);
	return o;
}

/* Arrivals: same-host and remote, and how fast remote ones were seen
 * (arrivals.c says how the delay is measured). */
static json_object *_arrivals(const struct agent_step *s)
{
	const struct arrivals_stats *st = &s->count.arrivals;
	json_object *o = json_object_new_object();
	uint64_t unwatched = 0;

	for (size_t i = 0; i < s->nprocs; i++)
		unwatched += arrivals_unwatched(s->procs[i].arrivals);
	json_object_object_add(o, "local", json_object_new_int64((int64_t)st->local));
	json_object_object_add(o, "remote", json_object_new_int64((int64_t)st->remote));
	json_object_object_add(o, "detect_us_median",
			       json_object_new_int64(arrivals_delay_median_us(st)));
	json_object_object_add(o, "detect_us_max",
			       json_object_new_int64(st->delay_us_max));
	json_object_object_add(o, "detect_samples", json_object_new_int64(st->ndelays));
	json_object_object_add(o, "unwatched", json_object_new_int64((int64_t)unwatched));
	json_object_object_add(o, "noticed_ns", json_object_new_int64((int64_t)st->noticed_ns));
	return o;
}

static json_object *_step(const struct agent_step *s, bool ended)
{
	json_object *o = json_object_new_object(), *procs;
	json_object *boosts = _counters(&s->count);

	json_object_object_add(o, "job", json_object_new_int64(s->job));
	json_object_object_add(o, "step", json_object_new_int64(s->step));
	json_object_object_add(o, "uid", json_object_new_int64(s->uid));
	json_object_object_add(o, "mode",
			       json_object_new_string(cosched_mode_name(s->mode)));
	json_object_object_add(o, "wait",
			       json_object_new_string(cosched_wait_name(s->parts.wait)));
	json_object_object_add(o, "react",
			       json_object_new_string(cosched_react_name(s->parts.react)));
	json_object_object_add(o, "pb", json_object_new_string(cosched_pb_name(&s->pb)));
	json_object_object_add(o, "tick_us", json_object_new_int64(s->tick_us));
	json_object_object_add(o, "ended", json_object_new_boolean(ended));
	procs = json_object_new_array();
	for (size_t i = 0; i < s->nprocs && !ended; i++) {
		const struct agent_proc *p = &s->procs[i];
		json_object *po = json_object_new_object();

		json_object_object_add(po, "pid", json_object_new_int64(p->id.pid));
		json_object_object_add(po, "rank", json_object_new_int64(p->rank));
		json_object_object_add(po, "attached", json_object_new_boolean(p->attached));
		json_object_object_add(po, "shim", json_object_new_boolean(p->shm != NULL));
		json_object_object_add(po, "level", json_object_new_int(p->level));
		json_object_object_add(po, "cpu_share", _num(p->cpu_share));
		if (p->energy >= 0)
			json_object_object_add(po, "energy", _num(p->energy));
		json_object_object_add(po, "sockets_watched",
				       json_object_new_int64(arrivals_watched(p->arrivals)));
		json_object_object_add(po, "sockets_unwatched",
				       json_object_new_int64(arrivals_unwatched(p->arrivals)));
		json_object_array_add(procs, po);
	}
	json_object_object_add(o, "procs", procs);
	json_object_object_add(boosts, "arrivals", _arrivals(s));
	json_object_object_add(o, "boosts", boosts);
	if (s->mb)
		json_object_object_add(o, "membus", agent_membus_step_status(s));
	if (s->gang)
		json_object_object_add(o, "gang", agent_gang_step_status(s));
	return o;
}

/* What boosts and freezes on this node, in a few words each. */
static json_object *_mechanisms(const struct agent *a)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "boost",
			       json_object_new_string(boost_mechanism(a->boost)));
	json_object_object_add(o, "freeze",
			       json_object_new_string(freeze_mechanism(a->conf.freeze)));
	return o;
}

static json_object *_agent(const struct agent *a)
{
	json_object *o = json_object_new_object(), *jobs, *ended, *ov;
	double up = (double)(agent_now_ns() - a->started_ns) / 1e9;
	double cpu = _cpu_seconds();

	json_object_object_add(o, "node", json_object_new_string(a->conf.node));
	json_object_object_add(o, "pid", json_object_new_int64(getpid()));
	json_object_object_add(o, "boost", json_object_new_string(boost_describe(a->boost)));
	json_object_object_add(o, "mechanisms", _mechanisms(a));
	json_object_object_add(o, "tick_us", json_object_new_int64(a->timer_us));
	json_object_object_add(o, "energy_model",
			       json_object_new_string(cosched_energy_variant_name(a->conf.tick.energy.variant)));
	json_object_object_add(o, "uptime_s", _num(up));
	ov = json_object_new_object();
	json_object_object_add(ov, "cpu_s", _num(cpu));
	json_object_object_add(ov, "cpu_percent", _num(up > 0 ? 100 * cpu / up : 0));
	json_object_object_add(ov, "ticks", json_object_new_int64((int64_t)a->ticks));
	json_object_object_add(ov, "tick_us_mean",
			       _num(a->ticks ? (double)a->tick_ns_sum / 1e3 /
					       (double)a->ticks : 0));
	json_object_object_add(ov, "tick_us_max", _num((double)a->tick_ns_max / 1e3));
	json_object_object_add(o, "overhead", ov);
	jobs = json_object_new_array();
	for (const struct agent_step *s = a->steps; s; s = s->next)
		json_object_array_add(jobs, _step(s, false));
	json_object_object_add(o, "jobs", jobs);
	ended = json_object_new_array();
	for (const struct agent_step *s = a->ended; s; s = s->next)
		json_object_array_add(ended, _step(s, true));
	json_object_object_add(o, "ended", ended);
	if (a->mb)
		json_object_object_add(o, "membus", agent_membus_status(a));
	if (a->gang)
		json_object_object_add(o, "gang", agent_gang_status(a));
	return o;
}

/* printf onto a growing buffer; -1 (buffer freed) when out of memory */
static int _put(char **buf, size_t *cap, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int _put(char **buf, size_t *cap, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(*buf + *used, *cap - *used, fmt, ap);
		va_end(ap);
		if (n < 0)
			return 0;
		if ((size_t)n < *cap - *used)
			break;
		char *b = realloc(*buf, *cap * 2);
		if (!b) {
			free(*buf);
			*buf = NULL;
			return -1;
		}
		*buf = b;
		*cap *= 2;
	}
	*used += (size_t)n;
	return 0;
}

static const char *_get(json_object *o, const char *key)
{
	return json_object_get_string(json_object_object_get(o, key));
}

static double _dbl(json_object *o, const char *key)
{
	return json_object_get_double(json_object_object_get(o, key));
}

/* A membus step: its sources, estimate and quanta. */
static int _membus_step_text(json_object *s, char **buf, size_t *cap,
			     size_t *used)
{
	json_object *m = json_object_object_get(s, "membus");

	if (!m)
		return 0;
	return _put(buf, cap, used,
		    "  membus: %s now, ran %s quanta, frozen %s; per process mem %.1f MB/s (%s) net %.1f MB/s (%s); freeze by %s; spans %s node(s)\n",
		    json_object_get_boolean(json_object_object_get(m, "running")) ?
		    "running" : "frozen", _get(m, "quanta_run"),
		    _get(m, "quanta_frozen"), _dbl(m, "mem_per_proc") / 1e6,
		    _get(m, "mem_source"), _dbl(m, "net_per_proc") / 1e6,
		    _get(m, "net_source"), _get(m, "freeze"), _get(m, "nnodes"));
}

/* The node's MemBUS scheduler and its last quanta. */
static int _membus_text(json_object *m, char **buf, size_t *cap,
			size_t *used)
{
	json_object *hist, *src;
	size_t n, from;

	if (!m || !json_object_object_get(m, "quantum_ms"))
		return 0;
	src = json_object_object_get(m, "sources");
	hist = json_object_object_get(m, "history");
	if (_put(buf, cap, used,
		 "membus: quantum %s ms, window %s, P %s, M %.0f MB/s (%s), N %.0f MB/s (%s)\n"
		 "  sources: perf %s; resctrl %s; tcp %s\n"
		 "  at %s, coordinator %s; %s quanta, %s without a decision, %s coordinated here\n",
		 _get(m, "quantum_ms"), _get(m, "window"), _get(m, "cpus"),
		 _dbl(m, "mem_capacity") / 1e6, _get(m, "mem_capacity_from"),
		 _dbl(m, "net_capacity") / 1e6, _get(m, "net_capacity_from"),
		 _get(src, "perf"), _get(src, "resctrl"), _get(src, "tcp"),
		 _get(m, "self"),
		 *_get(m, "coordinator") ? _get(m, "coordinator") : "(none)",
		 _get(m, "quanta"), _get(m, "fallbacks"), _get(m, "coordinated")))
		return -1;
	n = json_object_array_length(hist);
	from = n > 8 ? n - 8 : 0;
	for (size_t i = from; i < n; i++) {
		json_object *q = json_object_array_get_idx(hist, i);

		if (_put(buf, cap, used, "  quantum %s: ran [%s] by %s; MB/s mem/net per process: %s\n",
			 _get(q, "q"), _get(q, "run"),
			 *_get(q, "coordinator") ? _get(q, "coordinator") :
						   "fallback (everything)",
			 _get(q, "estimates_mbs")))
			return -1;
	}
	return 0;
}

/* Text: a few lines per step, built from the same JSON. */
static char *_text(json_object *o)
{
	json_object *ov = json_object_object_get(o, "overhead");
	const char *lists[] = { "jobs", "ended" };
	size_t cap = 4096, used = 0;
	char *buf = malloc(cap);

#define PUT(...) do { \
		int _n = snprintf(buf + used, cap - used, __VA_ARGS__); \
		while (_n >= 0 && (size_t)_n >= cap - used) { \
			char *_b = realloc(buf, cap *= 2); \
			if (!_b) { free(buf); return NULL; } \
			buf = _b; \
			_n = snprintf(buf + used, cap - used, __VA_ARGS__); \
		} \
		used += (size_t)(_n > 0 ? _n : 0); \
	} while (0)

	if (!buf)
		return NULL;
	PUT("node %s  agent pid %s  tick %s us\nboost: %s\nmechanisms: boost %s, freeze %s\n",
	    json_object_get_string(json_object_object_get(o, "node")),
	    json_object_get_string(json_object_object_get(o, "pid")),
	    json_object_get_string(json_object_object_get(o, "tick_us")),
	    json_object_get_string(json_object_object_get(o, "boost")),
	    _get(json_object_object_get(o, "mechanisms"), "boost"),
	    _get(json_object_object_get(o, "mechanisms"), "freeze"));
	PUT("overhead: %.3f s CPU in %.1f s (%.2f %%), %s ticks, %.1f us mean, %.1f us max\n",
	    json_object_get_double(json_object_object_get(ov, "cpu_s")),
	    json_object_get_double(json_object_object_get(o, "uptime_s")),
	    json_object_get_double(json_object_object_get(ov, "cpu_percent")),
	    json_object_get_string(json_object_object_get(ov, "ticks")),
	    json_object_get_double(json_object_object_get(ov, "tick_us_mean")),
	    json_object_get_double(json_object_object_get(ov, "tick_us_max")));
	for (size_t l = 0; l < 2; l++) {
		json_object *arr = json_object_object_get(o, lists[l]);

		for (size_t i = 0; i < json_object_array_length(arr); i++) {
			json_object *s = json_object_array_get_idx(arr, i);
			json_object *b = json_object_object_get(s, "boosts");
			json_object *by = json_object_object_get(b, "by_state");
			json_object *sh = json_object_object_get(b, "shim");
			json_object *ar = json_object_object_get(b, "arrivals");

			PUT("job %s.%s %s mode %s (wait %s, react %s, pb %s) procs %zu\n",
			    json_object_get_string(json_object_object_get(s, "job")),
			    json_object_get_string(json_object_object_get(s, "step")),
			    l ? "ended" : "running",
			    json_object_get_string(json_object_object_get(s, "mode")),
			    json_object_get_string(json_object_object_get(s, "wait")),
			    json_object_get_string(json_object_object_get(s, "react")),
			    json_object_get_string(json_object_object_get(s, "pb")),
			    json_object_array_length(json_object_object_get(s, "procs")));
			PUT("  boosts: pb %s (S1 %s S2 %s S3 %s S4 %s) dcs %s sy-boost %s sy-demote %s energy %s\n",
			    json_object_get_string(json_object_object_get(b, "pb")),
			    json_object_get_string(json_object_object_get(by, "S1")),
			    json_object_get_string(json_object_object_get(by, "S2")),
			    json_object_get_string(json_object_object_get(by, "S3")),
			    json_object_get_string(json_object_object_get(by, "S4")),
			    json_object_get_string(json_object_object_get(b, "dcs")),
			    json_object_get_string(json_object_object_get(b, "sy-boost")),
			    json_object_get_string(json_object_object_get(b, "sy-demote")),
			    json_object_get_string(json_object_object_get(b, "energy")));
			if (_membus_step_text(s, &buf, &cap, &used))
				return NULL;
			PUT("  shim: %s procs, %s messages, %s collectives, %s blocks, %s yields; dcs detection %.0f us mean\n",
			    json_object_get_string(json_object_object_get(sh, "procs")),
			    json_object_get_string(json_object_object_get(sh, "messages")),
			    json_object_get_string(json_object_object_get(sh, "collectives")),
			    json_object_get_string(json_object_object_get(sh, "blocks")),
			    json_object_get_string(json_object_object_get(sh, "yields")),
			    json_object_get_double(json_object_object_get(b, "dcs_detect_us_mean")));
			PUT("  arrivals: local %s remote %s; remote detection %s us median, %s us max (of the last %s); %s sockets unwatched\n",
			    json_object_get_string(json_object_object_get(ar, "local")),
			    json_object_get_string(json_object_object_get(ar, "remote")),
			    json_object_get_string(json_object_object_get(ar, "detect_us_median")),
			    json_object_get_string(json_object_object_get(ar, "detect_us_max")),
			    json_object_get_string(json_object_object_get(ar, "detect_samples")),
			    json_object_get_string(json_object_object_get(ar, "unwatched")));
		}
	}
	if (_membus_text(json_object_object_get(o, "membus"), &buf, &cap, &used))
		return NULL;
#undef PUT
	return buf;
}

int agent_status(const struct agent *a, enum agent_status_format format,
		 char **out)
{
	json_object *o = _agent(a);

	if (format == AGENT_STATUS_METRICS) {
		*out = agent_status_metrics(o);
	} else if (format == AGENT_STATUS_JSON) {
		const char *t = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY);
		size_t len = strlen(t);

		*out = malloc(len + 2);
		if (*out) {
			memcpy(*out, t, len);
			memcpy(*out + len, "\n", 2);
		}
	} else {
		*out = _text(o);
	}
	json_object_put(o);
	return *out ? 0 : -1;
}
