/*
 * metrics.c - coschedctl status --prometheus: the agent's status (the
 * JSON of status.c) as metrics for node-exporter's textfile collector
 * (lib/promtext).  A leaf: it reads only the JSON.
 *
 * Per step (labels job and step, running or ended): boosts by kind and
 * arrivals by origin, both counters.  For the agent: its versions and
 * boost mechanism, uptime, CPU and ticks (its overhead), the steps it
 * holds and, once MemBUS is in use, its quanta, fallbacks, coordinated
 * decisions, late and refused messages.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE	/* open_memstream */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosched/tick.h"
#include "metrics.h"
#include "promtext/promtext.h"
#include "version/version.h"

static json_object *_get(json_object *o, const char *key)
{
	json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static double _num(json_object *o, const char *key)
{
	json_object *v = _get(o, key);

	return v ? json_object_get_double(v) : 0;
}

static const char *_str(json_object *o, const char *key)
{
	json_object *v = _get(o, key);

	return v ? json_object_get_string(v) : "";
}

static void _agent(FILE *f, json_object *o)
{
	json_object *ov = _get(o, "overhead");
	struct prom_label info[] = {
		{ "node", _str(o, "node") },
		{ "version", coalloc_version() },
		{ "boost", _str(o, "boost") },
	};

	prom_single(f, "coschedd_info", PROM_GAUGE,
		  "The node agent's node, version and boost mechanism (always 1).",
		  info, 3, 1);
	prom_single(f, "coschedd_uptime_seconds", PROM_GAUGE,
		  "Seconds since the agent started.", NULL, 0,
		  _num(o, "uptime_s"));
	prom_single(f, "coschedd_cpu_seconds_total", PROM_COUNTER,
		  "CPU time the agent used (its overhead).", NULL, 0,
		  _num(ov, "cpu_s"));
	prom_single(f, "coschedd_ticks_total", PROM_COUNTER,
		  "Scheduling ticks the agent ran.", NULL, 0, _num(ov, "ticks"));
	prom_family(f, "coschedd_tick_seconds", PROM_GAUGE,
		  "Length of a tick's work, mean and max.");
	prom_sample(f, "coschedd_tick_seconds",
		  (struct prom_label[]) { { "stat", "mean" } }, 1,
		  _num(ov, "tick_us_mean") / 1e6);
	prom_sample(f, "coschedd_tick_seconds",
		  (struct prom_label[]) { { "stat", "max" } }, 1,
		  _num(ov, "tick_us_max") / 1e6);
}

static size_t _count(json_object *o, const char *key)
{
	json_object *a = _get(o, key);

	return a && json_object_is_type(a, json_type_array) ?
	       json_object_array_length(a) : 0;
}

static void _steps(FILE *f, json_object *o)
{
	prom_family(f, "coschedd_steps", PROM_GAUGE,
		  "Job steps the agent holds, running or ended.");
	prom_sample(f, "coschedd_steps",
		  (struct prom_label[]) { { "state", "running" } }, 1,
		  (double)_count(o, "jobs"));
	prom_sample(f, "coschedd_steps",
		  (struct prom_label[]) { { "state", "ended" } }, 1,
		  (double)_count(o, "ended"));
}

/* One counter per step and key of 'what' holding a number (boosts:
 * pb, dcs, sy-boost, ...; arrivals: local, remote). */
static void _per_step(FILE *f, json_object *o, const char *name,
		      const char *arrivals_or_boosts, const char *const *keys,
		      size_t nkeys)
{
	static const char *const lists[] = { "jobs", "ended" };

	for (size_t l = 0; l < 2; l++) {
		json_object *steps = _get(o, lists[l]);

		for (size_t i = 0; i < _count(o, lists[l]); i++) {
			json_object *s = json_object_array_get_idx(steps, i);
			json_object *b = _get(s, "boosts");
			struct prom_label lab[] = {
				{ "job", _str(s, "job") },
				{ "step", _str(s, "step") },
				{ "kind", NULL },
			};

			if (!strcmp(arrivals_or_boosts, "arrivals"))
				b = _get(b, "arrivals");
			for (size_t k = 0; k < nkeys; k++) {
				if (!_get(b, keys[k]))
					continue;
				lab[2].value = keys[k];
				prom_sample(f, name, lab, 3, _num(b, keys[k]));
			}
		}
	}
}

static void _boosts(FILE *f, json_object *o)
{
	static const char *const origins[] = { "local", "remote" };
	const char *kinds[COSCHED_WHY_COUNT];
	size_t nkinds = 0;

	/* the reasons status.c counts, by the names it gives them */
	for (int r = COSCHED_WHY_PB; r < COSCHED_WHY_COUNT; r++)
		kinds[nkinds++] = cosched_reason_name((enum cosched_reason)r);
	prom_family(f, "coschedd_boosts_total", PROM_COUNTER,
		  "Boosts of a step's processes, by kind (pb per tick, the others per episode).");
	_per_step(f, o, "coschedd_boosts_total", "boosts", kinds, nkinds);
	prom_family(f, "coschedd_arrivals_total", PROM_COUNTER,
		  "Messages that arrived at a step's processes, local or remote.");
	_per_step(f, o, "coschedd_arrivals_total", "arrivals", origins, 2);
}

static void _membus(FILE *f, json_object *o)
{
	static const char *const counters[][2] = {
		{ "quanta", "Quanta switched with a membus step." },
		{ "fallbacks", "Quanta voted in without a decision (everything ran)." },
		{ "coordinated", "Decisions this agent made as the coordinator." },
		{ "late", "Votes and decisions too late or not expected." },
		{ "refused", "Datagrams dropped (bad credential or sender, not a vote or decision)." },
	};
	json_object *m = _get(o, "membus");
	char name[64];

	if (!m || !_get(m, "quantum_ms"))
		return;
	for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); i++) {
		snprintf(name, sizeof(name), "coschedd_membus_%s_total",
			 counters[i][0]);
		prom_single(f, name, PROM_COUNTER, counters[i][1], NULL, 0,
			  _num(m, counters[i][0]));
	}
}

char *agent_status_metrics(json_object *o)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	_agent(f, o);
	_steps(f, o);
	_boosts(f, o);
	_membus(f, o);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}
