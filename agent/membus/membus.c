/*
 * membus.c - --cosched=membus in the node agent: bandwidth-aware gang
 * pairing (Koukis and Koziris, sections 4-5), one quantum at a time.
 *
 * Quanta are aligned on the wall clock, so every agent numbers them alike:
 * quantum k starts at k x q (CLOCK_REALTIME; hosts keep their clocks in
 * step with NTP as Slurm needs anyway).  For each k an agent
 *   VOTE    (at start - 0.4 q) selects candidates by Algorithm 2 from its
 *           window averages and sends its vector S_l to the coordinator;
 *   DECIDE  (at start - 0.2 q) if votes came to it, sums them (S_total),
 *           sorts, and sends the order back to every voter;
 *   SWITCH  (at start) samples the quantum just ended, then freezes the
 *           steps the decision leaves out and thaws the ones it runs
 *           (Algorithm 1's stop/resume); no decision: everything runs.
 * The coordinator is the first live candidate (Slurm's node order, the
 * first three nodes of each step) by natural name order, so all agents
 * of the same jobs pick the same one.  A candidate that sends no decision
 * in MISSES_DEAD quanta in a row is passed over for DEAD_QUANTA quanta,
 * which elects the next one (one miss is not enough: the nodes of a new
 * step register it with their agents up to a few quanta apart, and a
 * candidate that has not yet heard of the step drops its votes); it is
 * then retried for one quantum at a time, ever more rarely.  An
 * application some of whose nodes did not vote runs everywhere that
 * quantum (membus_tally_decide), unless the coordinator counts them gone:
 * a dead agent never leaves a job stopped, and the survivors keep
 * pairing the steps it spanned.
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

/* ---- time ---- */

/* When phase of quantum q happens (wall clock, ns). */
static uint64_t _phase_at(const struct agent_membus *m, enum phase ph,
			  uint64_t q)
{
	uint64_t start = q * m->q_ns;

	switch (ph) {
	case PHASE_VOTE:
		return start - m->q_ns * 2 / 5;
	case PHASE_DECIDE:
		return start - m->q_ns / 5;
	default:
		return start;
	}
}

static void _arm_at(struct agent_membus *m, uint64_t at_ns)
{
	agent_wall_timer_at(m->timer_fd, at_ns);
}

/* Schedule the next VOTE far enough ahead to keep every phase's order. */
static void _schedule_first(struct agent_membus *m)
{
	uint64_t now = agent_wall_ns();
	uint64_t q = now / m->q_ns + 1;

	if (_phase_at(m, PHASE_VOTE, q) <= now)
		q++;
	m->next_q = q;
	m->next_phase = PHASE_VOTE;
	_arm_at(m, _phase_at(m, PHASE_VOTE, q));
}

/* ---- the node's membus steps ---- */

/*
 * Every node keeps its own list, yet the votes only add up to a common
 * choice when the lists agree: a place is the quantum a step joined or
 * last ran in (the same number on every node: quanta are wall-clock),
 * and steps of one place are in job and step order, not in the order
 * their tasks happened to register on this node.
 */
static bool _listed_after(const struct agent_step *a,
			  const struct agent_step *b)
{
	if (a->mb->seq != b->mb->seq)
		return a->mb->seq > b->mb->seq;
	if (a->job != b->job)
		return a->job > b->job;
	return a->step > b->step;
}

static size_t _steps(struct agent *a, struct agent_step **out, size_t max)
{
	size_t n = 0;

	for (struct agent_step *s = a->steps; s && n < max; s = s->next)
		if (s->mb && s->nprocs)
			out[n++] = s;
	/* the node's list (Algorithm 1): by place, oldest place first */
	for (size_t i = 1; i < n; i++) {
		struct agent_step *cur = out[i];
		size_t j = i;

		while (j > 0 && _listed_after(out[j - 1], cur)) {
			out[j] = out[j - 1];
			j--;
		}
		out[j] = cur;
	}
	return n;
}

static void _step_id(const struct agent_step *s, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%u", s->job, s->step);
}

static struct membus_app _app(const struct agent_step *s)
{
	struct membus_app app = { .procs = (uint32_t)s->nprocs };

	app.per_proc = s->mb->estimate;
	return app;
}

/* ---- capacities, measured once, when the first membus step comes ---- */

static uint32_t _affinity_cpus(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	return (uint32_t)CPU_COUNT(&set);
}

static void _measure(struct agent *a, struct agent_membus *m)
{
	char host[NI_MAXHOST];

	if (m->measured)
		return;
	m->measured = true;
	m->cpus = a->conf.cpus ? a->conf.cpus : _affinity_cpus();
	bw_detect(&m->have);
	m->mem_cap = a->conf.membus_mem;
	m->mem_cap_how = "configured";
	if (!m->mem_cap) {
		m->mem_cap = bw_probe_memory(m->cpus, 0.2);
		m->mem_cap_how = "probed";
	}
	m->net_cap = a->conf.membus_net;
	m->net_cap_how = "configured";
	/* the link of the address we listen on (resolved, so numeric) */
	if (!m->net_cap && m->bound &&
	    !getnameinfo((const struct sockaddr *)&m->self.sa, m->self.len,
			 host, sizeof(host), NULL, 0, NI_NUMERICHOST)) {
		m->net_cap = bw_link_speed(host);
		m->net_cap_how = "link speed";
	}
	if (!m->net_cap) {
		m->net_cap = bw_probe_loopback(0.1);
		m->net_cap_how = "loopback probe";
	}
	agent_log("membus: P=%u CPUs, M=%.0f MB/s (%s), N=%.0f MB/s (%s); sources: perf %s, resctrl %s, tcp %s",
		  m->cpus, m->mem_cap / 1e6, m->mem_cap_how, m->net_cap / 1e6,
		  m->net_cap_how, m->have.perf ? "yes" : m->have.perf_why,
		  m->have.resctrl ? "yes" : m->have.resctrl_why,
		  m->have.tcp ? "yes" : m->have.tcp_why);
}

/* ---- set-up: the agent's membus state and the "membus" request ---- */

static struct agent_membus *_membus(struct agent *a, char *why, size_t len)
{
	struct agent_membus *m = a->mb;

	if (m)
		return m;
	m = calloc(1, sizeof(*m));
	if (!m) {
		snprintf(why, len, "out of memory");
		return NULL;
	}
	m->q_ns = (uint64_t)a->conf.membus_quantum_ms * 1000000ull;
	m->peer.fd = -1;
	m->voted_cand = -1;
	membus_tally_init(&m->tally);
	m->timer_fd = agent_wall_timer_new(why, len);
	if (m->timer_fd < 0) {
		free(m);
		return NULL;
	}
	a->mb = m;
	return m;
}

/* Bind our UDP socket on self the first time. */
static int _bind_self(struct agent *a, struct agent_membus *m,
		      const char *self_text, char *why, size_t len)
{
	struct peer_addr self;

	if (peer_parse(self_text, &self, why, len))
		return -1;
	if (strcmp(self.name, a->conf.node)) {
		snprintf(why, len, "self=%s is not this agent's node %s",
			 self.name, a->conf.node);
		return -1;
	}
	if (m->bound) {
		if (strcmp(self.text, m->self.text))
			agent_log("membus: keeping %s (a step said %s)",
				  m->self.text, self.text);
		return 0;
	}
	if (peer_open(&m->peer, &self, a->conf.munge_socket, why, len))
		return -1;
	m->peer.allow_set = a->conf.allow_uid_set;
	m->peer.allow_uid = a->conf.allow_uid;
	m->self = self;
	m->bound = true;
	agent_log("membus: peers reach us at %s", self.text);
	return 0;
}

static void _add_candidate(struct agent_membus *m, const struct peer_addr *p)
{
	for (size_t i = 0; i < m->ncand; i++)
		if (!strcmp(m->cand[i].addr.name, p->name)) {
			m->cand[i].addr = *p;	/* the latest address wins */
			return;
		}
	if (m->ncand == CANDIDATES_MAX) {
		agent_log("membus: more than %d coordinator candidates, %s ignored",
			  CANDIDATES_MAX, p->name);
		return;
	}
	m->cand[m->ncand].addr = *p;
	m->cand[m->ncand].dead_until = 0;
	m->cand[m->ncand].misses = 0;
	m->cand[m->ncand].deaths = 0;
	m->ncand++;
}

static int _add_candidates(struct agent_membus *m, char *list, char *why,
			   size_t len)
{
	char *save = NULL;
	int added = 0;

	for (char *tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		struct peer_addr p;

		if (peer_parse(tok, &p, why, len))
			return -1;
		_add_candidate(m, &p);
		added++;
	}
	if (!added) {
		snprintf(why, len, "coord= names no node");
		return -1;
	}
	return 0;
}

/* The span of a step announced before its first process registers. */
static void _remember_span(struct agent_membus *m, uint32_t job,
			   uint32_t step, uint32_t nnodes)
{
	struct span *slot = &m->spans[m->nspans++ % SPANS_MAX];

	slot->job = job;
	slot->step = step;
	slot->nnodes = nnodes;
}

static uint32_t _recall_span(const struct agent_membus *m, uint32_t job,
			     uint32_t step)
{
	for (size_t i = 0; i < SPANS_MAX && i < m->nspans; i++)
		if (m->spans[i].job == job && m->spans[i].step == step)
			return m->spans[i].nnodes;
	return 0;
}

/*
 * "membus job=J step=S nnodes=K self=NAME@HOST:PORT coord=A@H:P,..."
 * (root only, from the step's slurmstepd before it registers the tasks):
 * where this agent listens, who may coordinate, how many nodes the step
 * spans.  The step itself appears with its first registered process.
 */
int agent_membus_request(struct agent *a, const char *request, char *reply,
			 size_t len)
{
	struct cosched_membus req;
	char why[AGENT_ERR_LEN];
	struct agent_membus *m;
	struct agent_step *s;

	if (cosched_membus_parse(request, &req, why, sizeof(why)))
		goto fail;
	if (!(m = _membus(a, why, sizeof(why))) ||
	    _bind_self(a, m, req.self, why, sizeof(why)) ||
	    _add_candidates(m, req.coord, why, sizeof(why)))
		goto fail;
	s = agent_find_step(a, req.job, req.step);
	if (s && s->mb)
		s->mb->nnodes = req.nnodes;
	else
		_remember_span(m, req.job, req.step, req.nnodes);
	snprintf(reply, len, "ok membus job=%u step=%u nnodes=%u\n",
		 (unsigned)req.job, (unsigned)req.step, (unsigned)req.nnodes);
	return 0;
fail:
	agent_log("refused membus request: %s", why);
	snprintf(reply, len, "error: %s\n", why);
	return -1;
}

/* ---- steps and processes ---- */

static void _choose_sources(const struct agent_membus *m,
			    struct agent_mb_step *mb)
{
	mb->mem_src = mb->hint_mem_set ? BW_SRC_HINT : BW_SRC_NONE;
	if (m->have.resctrl)
		mb->mem_src = BW_SRC_RESCTRL;
	if (m->have.perf)
		mb->mem_src = BW_SRC_PERF;
	mb->net_src = mb->hint_net_set ? BW_SRC_HINT : BW_SRC_NONE;
	if (m->have.tcp)
		mb->net_src = BW_SRC_TCP;
}

int agent_membus_step_init(struct agent *a, struct agent_step *s,
			   double hint_mem, double hint_net, char *why,
			   size_t len)
{
	struct agent_membus *m = _membus(a, why, len);
	struct agent_mb_step *mb;
	char err[AGENT_ERR_LEN], name[96];

	if (!m)
		return -1;
	if (s->mb)
		return 0;
	_measure(a, m);
	mb = calloc(1, sizeof(*mb));
	if (!mb) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	mb->hint_mem_set = hint_mem >= 0;
	mb->hint_mem = mb->hint_mem_set ? hint_mem : 0;
	mb->hint_net_set = hint_net >= 0;
	mb->hint_net = mb->hint_net_set ? hint_net : 0;
	mb->nnodes = _recall_span(m, s->job, s->step);
	if (!mb->nnodes)
		mb->nnodes = 1;
	membus_window_init(&mb->win, a->conf.membus_window);
	if (mb->hint_mem_set || mb->hint_net_set) {
		/* the first vote already knows what the job declared */
		membus_window_add(&mb->win, (struct membus_sample){
					  mb->hint_mem, mb->hint_net });
		mb->estimate = membus_window_mean(&mb->win);
	}
	_choose_sources(m, mb);
	if (mb->mem_src == BW_SRC_RESCTRL) {
		snprintf(name, sizeof(name), "coschedd.%s.%u.%u", a->conf.node,
			 s->job, s->step);
		if (bw_resctrl_open(name, &mb->resctrl, err, sizeof(err))) {
			agent_log("job %u step %u: resctrl: %s", s->job, s->step, err);
			mb->mem_src = mb->hint_mem_set ? BW_SRC_HINT : BW_SRC_NONE;
		}
	}
	mb->sw.freeze = freeze_group_create(a->conf.node, s->job, s->step,
					 a->conf.freeze, err, sizeof(err));
	if (!mb->sw.freeze)
		agent_log("job %u step %u: cannot freeze it (%s): it runs in every quantum",
			  s->job, s->step, err);
	mb->seq = agent_wall_ns() / m->q_ns;	/* joins the list's end */
	mb->sw.runs = true;
	s->mb = mb;
	agent_log("job %u step %u: membus on %u node(s), memory from %s, network from %s, freezing by %s",
		  s->job, s->step, mb->nnodes, bw_source_name(mb->mem_src),
		  bw_source_name(mb->net_src),
		  mb->sw.freeze ? freeze_kind_name(freeze_group_kind(mb->sw.freeze)) : "nothing");
	if (m->timer_fd >= 0 && m->next_q == 0)
		_schedule_first(m);
	return 0;
}

int agent_membus_proc_add(struct agent *a, struct agent_step *s,
			  struct agent_proc *p, char *why, size_t len)
{
	struct agent_mb_step *mb = s->mb;
	char err[AGENT_ERR_LEN];

	(void)a;
	if (mb->sw.freeze && freeze_group_add(mb->sw.freeze, &p->id)) {
		snprintf(why, len, "pid %d: cannot be added to the step's freezer group",
			 (int)p->id.pid);
		return -1;
	}
	if (mb->mem_src == BW_SRC_PERF &&
	    bw_perf_open(p->id.pid, &p->perf, err, sizeof(err)))
		agent_log("job %u step %u: pid %d: perf: %s", s->job, s->step,
			  (int)p->id.pid, err);
	/* opened by pid: still the registered process (start time), not
	 * one that got its pid meanwhile, whose counts would be lent us? */
	if (p->perf.fd >= 0 && !proc_alive(&p->id)) {
		bw_perf_close(&p->perf);
		p->perf.fd = -1;
	}
	if (mb->mem_src == BW_SRC_RESCTRL &&
	    bw_resctrl_add(&mb->resctrl, p->id.pid))
		agent_log("job %u step %u: pid %d: resctrl: cannot add",
			  s->job, s->step, (int)p->id.pid);
	return 0;
}

void agent_membus_proc_release(struct agent_proc *p)
{
	bw_tcp_track_free(&p->tcp);
	if (p->perf.fd >= 0)
		bw_perf_close(&p->perf);
	p->perf.fd = -1;
}

void agent_membus_step_release(struct agent_step *s)
{
	struct agent_mb_step *mb = s->mb;

	if (!mb)
		return;
	freeze_group_destroy(mb->sw.freeze);	/* thaws */
	mb->sw.freeze = NULL;
	if (mb->mem_src == BW_SRC_RESCTRL)
		bw_resctrl_close(&mb->resctrl);
	mb->sw.runs = true;
}

/* ---- sampling (at SWITCH: the quantum just ended) ---- */

static double _per_second(uint64_t bytes, uint64_t ns)
{
	return ns ? (double)bytes * 1e9 / (double)ns : 0;
}

/* Mean bandwidth per process of s over the quantum just ended. */
static struct membus_sample _sample(struct agent_membus *m,
				    struct agent_step *s, uint64_t q_ns)
{
	struct agent_mb_step *mb = s->mb;
	struct membus_sample sum = { 0, 0 };
	uint64_t bytes, group = 0;
	size_t n = s->nprocs ? s->nprocs : 1;

	if (mb->mem_src == BW_SRC_RESCTRL &&
	    !bw_resctrl_delta(&mb->resctrl, &bytes))
		group = bytes;
	for (size_t i = 0; i < s->nprocs; i++) {
		struct agent_proc *p = &s->procs[i];

		if (mb->net_src == BW_SRC_TCP &&
		    !bw_tcp_delta(&m->tcp, p->id.pid, &p->tcp, &bytes))
			sum.net += _per_second(bytes, q_ns);
		if (mb->mem_src == BW_SRC_PERF && p->perf.fd >= 0 &&
		    !bw_perf_delta(&p->perf, &bytes))
			sum.mem += _per_second(bytes, q_ns);
	}
	sum.mem += _per_second(group, q_ns);
	sum.mem /= (double)n;
	sum.net /= (double)n;
	if (mb->mem_src == BW_SRC_HINT)
		sum.mem = mb->hint_mem;
	if (mb->net_src == BW_SRC_HINT)
		sum.net = mb->hint_net;
	/* the NIC's transfers cross the memory bus too (BW^M = BW^C + BW^N) */
	if (mb->mem_src != BW_SRC_HINT)
		sum.mem += sum.net;
	return sum;
}

static void _sample_all(struct agent_membus *m, struct agent_step **steps,
			size_t n)
{
	char err[AGENT_ERR_LEN];
	bool tcp = false;

	for (size_t i = 0; i < n; i++)
		tcp |= steps[i]->mb->net_src == BW_SRC_TCP;
	if (tcp && bw_tcp_dump(&m->tcp, err, sizeof(err)))
		agent_log("membus: sock_diag: %s", err);
	for (size_t i = 0; i < n; i++) {
		struct agent_mb_step *mb = steps[i]->mb;
		struct membus_sample smp = _sample(m, steps[i], m->q_ns);

		/* the window holds the quanta it ran (a frozen quantum says
		 * nothing of its needs); a declared figure holds always */
		if (mb->sw.runs || (mb->mem_src == BW_SRC_HINT &&
				 mb->net_src != BW_SRC_TCP))
			membus_window_add(&mb->win, smp);
		mb->estimate = membus_window_mean(&mb->win);
	}
}

/* ---- the phases ---- */

static void _vote(struct agent *a, struct agent_membus *m, uint64_t q)
{
	struct agent_step *steps[VOTERS_MAX];
	struct membus_app apps[VOTERS_MAX];
	uint8_t sel[VOTERS_MAX];
	size_t n = _steps(a, steps, VOTERS_MAX);
	static struct mbmsg vote;
	int cand = coord_of(m, q);

	m->voted_q = q;
	m->voted_cand = -1;
	if (!n || cand < 0)
		return;
	m->voted_cand = cand;
	for (size_t i = 0; i < n; i++)
		apps[i] = _app(steps[i]);
	(void)membus_select(apps, n, m->cpus, m->mem_cap, m->net_cap, sel);
	memset(&vote, 0, sizeof(vote));
	vote.type = MBMSG_VOTE;
	vote.q = q;
	memcpy(vote.from, m->self.name, sizeof(vote.from));
	memcpy(vote.to, m->cand[cand].addr.name, sizeof(vote.to));
	for (size_t i = 0; i < n && i < MBMSG_APPS_MAX; i++) {
		_step_id(steps[i], vote.apps[i].id, sizeof(vote.apps[i].id));
		vote.apps[i].sel = sel[i];
		vote.apps[i].nodes = steps[i]->mb->nnodes;
		vote.napps++;
	}
	if (coord_is_self(m, cand)) {
		if (m->tally_q != q)
			coord_tally_start(m, q);
		coord_tally_vote(m, &vote, NULL, 0, true);
	} else if (coord_send(m, &vote, &m->cand[cand].addr.sa,
			      m->cand[cand].addr.len)) {
		agent_log("membus: quantum %llu: cannot send our vote to %s",
			  (unsigned long long)q, m->cand[cand].addr.name);
	}
}

static bool _named(const char (*ids)[MEMBUS_ID_LEN], size_t n, const char *id)
{
	for (size_t k = 0; k < n; k++)
		if (!strcmp(id, ids[k]))
			return true;
	return false;
}

/* rank[i] of local step i in the decision's order, forced[i] */
static void _ranks(const struct mbmsg *d, struct agent_step **steps, size_t n,
		   int *rank, uint8_t *forced)
{
	char id[MEMBUS_ID_LEN];

	for (size_t i = 0; i < n; i++) {
		rank[i] = -1;
		_step_id(steps[i], id, sizeof(id));
		for (size_t k = 0; k < d->norder; k++)
			if (!strcmp(id, d->order[k]))
				rank[i] = (int)k;
		forced[i] = _named(d->forced, d->nforced, id);
	}
}

static void _record(struct agent_membus *m, uint64_t q,
		    struct agent_step **steps, size_t n, const char *coord)
{
	struct quantum_record *r = &m->hist[m->hist_next];
	char id[MEMBUS_ID_LEN];
	size_t used = 0, uused = 0, eused = 0;

	memset(r, 0, sizeof(*r));
	r->q = q;
	snprintf(r->coordinator, sizeof(r->coordinator), "%s", coord);
	for (size_t i = 0; i < n; i++) {
		const struct agent_mb_step *mb = steps[i]->mb;
		int w;

		_step_id(steps[i], id, sizeof(id));
		if (mb->sw.runs && used < sizeof(r->run)) {
			w = snprintf(r->run + used, sizeof(r->run) - used,
				     "%s%s", used ? " " : "", id);
			used += w > 0 ? (size_t)w : 0;
		}
		if (mb->sw.unstopped && uused < sizeof(r->unstopped)) {
			w = snprintf(r->unstopped + uused,
				     sizeof(r->unstopped) - uused,
				     "%s%s", uused ? " " : "", id);
			uused += w > 0 ? (size_t)w : 0;
		}
		if (eused < sizeof(r->estimates)) {
			w = snprintf(r->estimates + eused,
				     sizeof(r->estimates) - eused,
				     "%s%s=%.1f/%.1f", eused ? " " : "", id,
				     mb->estimate.mem / 1e6, mb->estimate.net / 1e6);
			eused += w > 0 ? (size_t)w : 0;
		}
	}
	m->hist_next = (m->hist_next + 1) % HISTORY;
	if (m->hist_n < HISTORY)
		m->hist_n++;
}

/* Algorithm 1's stop and resume, run[i] for steps[i]. */
static void _enforce(struct agent_step **steps, size_t n, const uint8_t *run)
{
	struct agent_switched *sw[VOTERS_MAX];

	for (size_t i = 0; i < n; i++)
		sw[i] = &steps[i]->mb->sw;
	agent_switch_apply(steps, sw, n, run);
}

/* Quantum q had no decision from the candidate voted for: it runs
 * everything; a candidate silent MISSES_DEAD quanta in a row is passed
 * over (never this agent itself, whose decision cannot go missing).  One
 * passed over before is tried again for a single quantum, and passed
 * over twice as long each time it stays silent (DEAD_QUANTA, doubled up
 * to DEAD_DOUBLINGS times): retrying a dead coordinator costs one
 * unpaired quantum, not MISSES_DEAD, and ever more rarely. */
static void _missed(struct agent_membus *m, uint64_t q)
{
	struct candidate *c = &m->cand[m->voted_cand];
	unsigned misses_dead = c->deaths ? 1 : MISSES_DEAD;
	unsigned doublings = c->deaths < DEAD_DOUBLINGS ? c->deaths :
							  DEAD_DOUBLINGS;

	m->fallbacks++;
	if (!m->in_fallback)
		agent_log("membus: quantum %llu: no decision from %s: everything runs",
			  (unsigned long long)q, c->addr.name);
	m->in_fallback = true;
	m->coordinator[0] = '\0';
	if (coord_is_self(m, m->voted_cand) || ++c->misses < misses_dead)
		return;
	c->misses = 0;
	c->dead_until = q + ((uint64_t)DEAD_QUANTA << doublings);
	if (!c->deaths++)
		agent_log("membus: quantum %llu: no decision from %s in %d quanta: electing another coordinator",
			  (unsigned long long)q, c->addr.name, MISSES_DEAD);
}

static void _switch(struct agent *a, struct agent_membus *m, uint64_t q)
{
	struct agent_step *steps[VOTERS_MAX];
	struct membus_app apps[VOTERS_MAX];
	uint8_t run[VOTERS_MAX], forced[VOTERS_MAX];
	int rank[VOTERS_MAX];
	size_t n;
	bool decided = m->have_decision && m->decision.q == q;
	const char *from = decided ? m->decision.from : "";

	n = _steps(a, steps, VOTERS_MAX);
	_sample_all(m, steps, n);
	for (size_t i = 0; i < n; i++)
		apps[i] = _app(steps[i]);
	if (decided) {
		_ranks(&m->decision, steps, n, rank, forced);
		(void)membus_apply(apps, rank, forced, n, m->cpus, run);
		if (m->in_fallback)
			agent_log("membus: quantum %llu: decisions from %s again",
				  (unsigned long long)q, from);
		m->in_fallback = false;
		if (m->voted_cand >= 0) {
			m->cand[m->voted_cand].misses = 0;
			m->cand[m->voted_cand].deaths = 0;
		}
		snprintf(m->coordinator, sizeof(m->coordinator), "%s", from);
	} else {
		memset(run, 1, n);
		if (m->voted_cand >= 0 && m->voted_q == q)
			_missed(m, q);
	}
	_enforce(steps, n, run);
	/* Algorithm 1, lines 3-5: what ran goes to the end of the list */
	for (size_t i = 0; i < n; i++)
		if (steps[i]->mb->sw.runs)
			steps[i]->mb->seq = q;
	if (n) {
		m->quanta++;
		_record(m, q, steps, n, from);
	}
	m->have_decision = false;
	m->voted_cand = -1;	/* a decision for q from now on is late */
}

void agent_membus_timer(struct agent *a)
{
	struct agent_membus *m = a->mb;
	uint64_t expirations, q;
	struct agent_step *steps[1];

	if (!m || read(m->timer_fd, &expirations, sizeof(expirations)) <= 0)
		return;
	if (!_steps(a, steps, 1)) {
		agent_wall_timer_off(m->timer_fd);	/* no membus step left: sleep until one comes */
		m->next_q = 0;
		return;
	}
	/* late by more than a phase (a stall): start over at the next one */
	if (agent_wall_ns() > _phase_at(m, m->next_phase, m->next_q) + m->q_ns / 5) {
		_schedule_first(m);
		return;
	}
	q = m->next_q;
	switch (m->next_phase) {
	case PHASE_VOTE:
		_vote(a, m, q);
		m->next_phase = PHASE_DECIDE;
		break;
	case PHASE_DECIDE:
		coord_decide(m, q);
		m->next_phase = PHASE_SWITCH;
		break;
	case PHASE_SWITCH:
		_switch(a, m, q);
		m->next_phase = PHASE_VOTE;
		m->next_q = q + 1;
		break;
	}
	_arm_at(m, _phase_at(m, m->next_phase, m->next_q));
}
