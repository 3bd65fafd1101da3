/*
 * membus_status.c - the membus mode in the agent's status (coschedctl
 * status): capacities and their sources, counters, the last quanta, and
 * each step's estimates.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <json-c/json.h>
#include <netdb.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "membus_internal.h"

/* ---- status ---- */

static json_object *_str(const char *s)
{
	return json_object_new_string(s ? s : "");
}

static json_object *_sources(const struct bw_sources *h)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "perf", _str(h->perf ? "yes" : h->perf_why));
	json_object_object_add(o, "resctrl",
			       _str(h->resctrl ? "yes" : h->resctrl_why));
	json_object_object_add(o, "tcp", _str(h->tcp ? "yes" : h->tcp_why));
	return o;
}

static json_object *_history(const struct agent_membus *m)
{
	json_object *arr = json_object_new_array();

	for (size_t k = 0; k < m->hist_n; k++) {
		size_t i = (m->hist_next + HISTORY - m->hist_n + k) % HISTORY;
		const struct quantum_record *r = &m->hist[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "q", json_object_new_int64((int64_t)r->q));
		json_object_object_add(o, "run", _str(r->run));
		json_object_object_add(o, "unstopped", _str(r->unstopped));
		json_object_object_add(o, "coordinator", _str(r->coordinator));
		json_object_object_add(o, "estimates_mbs", _str(r->estimates));
		json_object_array_add(arr, o);
	}
	return arr;
}

json_object *agent_membus_status(const struct agent *a)
{
	const struct agent_membus *m = a->mb;
	json_object *o = json_object_new_object(), *cands;

	if (!m)
		return o;
	json_object_object_add(o, "quantum_ms",
			       json_object_new_int64((int64_t)(m->q_ns / 1000000)));
	json_object_object_add(o, "window",
			       json_object_new_int64(a->conf.membus_window));
	json_object_object_add(o, "cpus", json_object_new_int64(m->cpus));
	json_object_object_add(o, "mem_capacity", json_object_new_double(m->mem_cap));
	json_object_object_add(o, "mem_capacity_from", _str(m->mem_cap_how));
	json_object_object_add(o, "net_capacity", json_object_new_double(m->net_cap));
	json_object_object_add(o, "net_capacity_from", _str(m->net_cap_how));
	json_object_object_add(o, "sources", _sources(&m->have));
	json_object_object_add(o, "self", _str(m->bound ? m->self.text : ""));
	json_object_object_add(o, "coordinator", _str(m->coordinator));
	cands = json_object_new_array();
	for (size_t i = 0; i < m->ncand; i++)
		json_object_array_add(cands, _str(m->cand[i].addr.text));
	json_object_object_add(o, "candidates", cands);
	json_object_object_add(o, "quanta", json_object_new_int64((int64_t)m->quanta));
	json_object_object_add(o, "fallbacks", json_object_new_int64((int64_t)m->fallbacks));
	json_object_object_add(o, "coordinated",
			       json_object_new_int64((int64_t)m->coordinated));
	json_object_object_add(o, "gone", json_object_new_int64(m->gone));
	json_object_object_add(o, "late", json_object_new_int64((int64_t)m->late));
	json_object_object_add(o, "refused", json_object_new_int64((int64_t)m->refused));
	json_object_object_add(o, "out_of_window",
			       json_object_new_int64((int64_t)m->out_of_window));
	json_object_object_add(o, "unknown_source",
			       json_object_new_int64((int64_t)m->peer.dropped_source));
	json_object_object_add(o, "messages_sent",
			       json_object_new_int64((int64_t)m->peer.sent));
	json_object_object_add(o, "messages_received",
			       json_object_new_int64((int64_t)m->peer.received));
	json_object_object_add(o, "history", _history(m));
	return o;
}

json_object *agent_membus_step_status(const struct agent_step *s)
{
	const struct agent_mb_step *mb = s->mb;
	json_object *o = json_object_new_object();

	if (!mb)
		return o;
	json_object_object_add(o, "nnodes", json_object_new_int64(mb->nnodes));
	json_object_object_add(o, "mem_source", _str(bw_source_name(mb->mem_src)));
	json_object_object_add(o, "net_source", _str(bw_source_name(mb->net_src)));
	if (mb->hint_mem_set)
		json_object_object_add(o, "hint_mem", json_object_new_double(mb->hint_mem));
	if (mb->hint_net_set)
		json_object_object_add(o, "hint_net", json_object_new_double(mb->hint_net));
	json_object_object_add(o, "mem_per_proc", json_object_new_double(mb->estimate.mem));
	json_object_object_add(o, "net_per_proc", json_object_new_double(mb->estimate.net));
	agent_switched_status(o, &mb->sw);
	return o;
}
