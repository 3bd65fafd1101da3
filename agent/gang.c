/*
 * gang.c - gang rows switched by the node agent (lib/cosched_proto/gang.h).
 *
 * With Matrix=gang and a TimeSlice below a second, slurmctld's
 * select/coalloc sends every node's agent a table each second and at
 * every change: the jobs with cells on the node and the rows each holds
 * there.  Quanta are aligned on the wall clock (quantum q starts at
 * q x slice_ms); at each boundary the agent freezes the registered steps
 * whose job does not hold the row of q and thaws the others, freeze first
 * so that a node never runs two rows at once (switch.c).
 *
 * Guard tables (GangGuard=yes, gang.h) name the rows that run now:
 * slurmctld switches the rows through Slurm's suspend and resume, and
 * the agent applies each new table at once, freeze first, and again
 * every GANG_GUARD_CHECK_MS (to run everything once the table is stale).
 * A step added to a job the table does not run is frozen with its first
 * process: a step slurmd launched after the job's suspend went by.
 *
 * With guard tables the agent also repairs a lost resume: a step whose
 * job the table runs (slurmctld has it RUNNING, in its row) but whose
 * registered processes stay stopped by a signal (state T) for
 * GANG_STOPPED_REPAIR_MS, the table having run it for as long, had
 * slurmd's resume overtaken by an older suspend (contribs/esp/repro/
 * lost-resume.sh); the agent continues every process of the step's trees
 * (SIGCONT through pidfds), logs it and counts it.
 *
 * It fails open: a step the table does not name runs, and so does every
 * step once the newest table is older than gang_stale_ms (3.5 resends)
 * (slurmctld dead, restarting or cut off); a step that cannot be frozen
 * runs in every quantum; a step is thawed when it ends and when the agent
 * stops, and the guardian thaws what the state file lists if the agent
 * dies.
 *
 * Tables come sealed (lib/cosched_proto/seal.h), or in a munge
 * credential each, from root or the agent's allow_user (SlurmUser), a
 * sealed one only when newer than the last taken, and only from
 * slurmctld's addresses (SlurmctldHost and
 * its backups, which each gang request lists): a datagram from any other
 * address is dropped before munge is asked, so a stranger who reaches
 * the port costs a few compares, not a munged round trip.
 *
 * The port is bound at start when the agent is given --gang-self (the
 * plugin passes the address its gang requests name, the permanent
 * agent's unit may), else at the first gang request.  Where it cannot
 * be bound (a user holds it: the port is above 1024), gang rows are off
 * on this node: one log line, "bind_error" in status, and every gang
 * request refused, so the plugin runs the steps in every row (fail open)
 * rather than let the squatter receive the tables while nothing switches.
 * Each later gang request tries the bind again.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <json-c/json.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "cosched_proto/gang.h"
#include "cosched_proto/peer.h"
#include "num/errbuf.h"

#define HISTORY 32		/* quanta kept for status */
/* Stopped this long while it should run: a resume slurmd lost.  Longer
 * than a resume takes to reach every node of a switch. */
#define GANG_STOPPED_REPAIR_MS 3000
#define BATCH_MAX 64		/* datagrams read per wake-up of the loop */

struct gang_record {
	uint64_t q;
	unsigned row;		/* UINT32_MAX: no fresh table, all ran */
	char run[256];		/* the steps that ran, "J.S J.S" */
};

struct agent_gang {
	struct peer_ctx peer;
	struct peer_addr self;
	bool bound;
	char bind_error[AGENT_ERR_LEN];	/* "": none (or not tried yet) */
	struct peer_hosts ctld;		/* slurmctld's addresses, n 0: none yet */
	int timer_fd;
	bool armed;
	uint64_t slice_ns;		/* of the timer armed, 0: none */
	struct gang_table table;	/* the newest */
	bool have_table;
	uint64_t table_ns;		/* agent_now_ns() when it came */
	bool stale;			/* the last quantum had no fresh table */
	uint64_t quanta, stale_quanta, tables, refused, old;
	uint64_t continued;		/* steps a lost resume left stopped */
	struct gang_record hist[HISTORY];
	size_t hist_n, hist_next;
};

/* Refusals an outsider can cause: logged within a budget (a minute's). */
static struct agent_log_limit refused_log =
	AGENT_LOG_LIMIT_WINDOW("gang table refusals", 60);

/* ---- set-up: the agent's gang state and the "gang" request ---- */

static struct agent_gang *_gang(struct agent *a, char *why, size_t len)
{
	struct agent_gang *g = a->gang;

	if (g)
		return g;
	g = calloc(1, sizeof(*g));
	if (!g) {
		snprintf(why, len, "out of memory");
		return NULL;
	}
	g->peer.fd = -1;
	g->timer_fd = agent_wall_timer_new(why, len);
	if (g->timer_fd < 0) {
		free(g);
		return NULL;
	}
	a->gang = g;
	return g;
}

/* A bind that failed: one log line when it starts failing (or fails
 * otherwise), none while it fails the same way again. */
static void _bind_failed(struct agent_gang *g, const char *self,
			 const char *why)
{
	char was[sizeof(g->bind_error)];

	memcpy(was, g->bind_error, sizeof(was));
	snprintf(g->bind_error, sizeof(g->bind_error), "%s", why);
	if (strcmp(was, g->bind_error))
		agent_log("gang: cannot bind the gang port (%s): gang rows are off on this node (its steps run in every row) until a gang request binds %s",
			  g->bind_error, self);
}

/* Bind the UDP socket on self (NAME@HOST:PORT) the first time; later
 * ones keep it.  0, or -1 with why (and bind_error when the port is
 * taken or the address unusable). */
static int _bind_self(struct agent *a, struct agent_gang *g, const char *text,
		      char *why, size_t len)
{
	struct peer_addr self;

	if (g->bound) {
		if (strcmp(text, g->self.text))
			agent_log("gang: keeping %s (a step said %s)",
				  g->self.text, text);
		return 0;
	}
	if (peer_parse(text, &self, why, len))
		goto fail;
	if (strcmp(self.name, a->conf.node)) {
		snprintf(why, len, "self=%s is not this agent's node %s",
			 self.name, a->conf.node);
		goto fail;
	}
	if (peer_open(&g->peer, &self, a->conf.munge_socket, why, len))
		goto fail;
	g->peer.allow_set = a->conf.allow_uid_set;
	g->peer.allow_uid = a->conf.allow_uid;
	g->self = self;
	g->bound = true;
	if (g->bind_error[0])
		agent_log("gang: bound %s at last: gang rows are on", self.text);
	g->bind_error[0] = '\0';
	agent_log("gang: tables reach us at %s", self.text);
	return 0;
fail:
	_bind_failed(g, text, why);
	return -1;
}

void agent_gang_open(struct agent *a)
{
	char err[AGENT_ERR_LEN];
	struct agent_gang *g;

	if (!a->conf.gang_self[0])
		return;
	g = _gang(a, err, sizeof(err));
	if (!g)
		agent_log("gang: %s: gang rows are off on this node", err);
	else
		(void)_bind_self(a, g, a->conf.gang_self, err, sizeof(err));
}

int agent_gang_request(struct agent *a, const char *request, char *reply,
		       size_t len)
{
	struct cosched_gang_req r;
	char err[AGENT_ERR_LEN];
	struct agent_gang *g;

	if (cosched_gang_request_parse(request, &r, err, sizeof(err)) ||
	    !(g = _gang(a, err, sizeof(err)))) {
		snprintf(reply, len, "error: %s\n", err);
		return -1;
	}
	if (_bind_self(a, g, r.self, err, sizeof(err))) {
		snprintf(reply, len, "error: gang rows are off on this node: %s\n",
			 err);
		return -1;
	}
	g->ctld = r.hosts;	/* the newest: slurm.conf may have changed */
	snprintf(reply, len, "ok gang self=%s from=%s\n", g->self.text, r.from);
	return 0;
}

/* ---- steps ---- */

static void _arm(struct agent_gang *g);

int agent_gang_step_init(struct agent *a, struct agent_step *s, char *why,
			 size_t len)
{
	struct agent_switched *gs;
	char err[AGENT_ERR_LEN];

	if (s->gang)
		return 0;
	if (!_gang(a, why, len))
		return -1;
	gs = calloc(1, sizeof(*gs));
	if (!gs) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	gs->freeze = freeze_group_create(a->conf.node, s->job, s->step,
					 a->conf.freeze, err, sizeof(err));
	if (!gs->freeze)
		agent_log("job %u step %u: cannot freeze it (%s): it runs in every gang quantum",
			  s->job, s->step, err);
	gs->runs = true;
	s->gang = gs;
	agent_log("job %u step %u: in gang rows%s", s->job, s->step,
		  a->gang->bound ? "" : " (no gang port bound: it runs in every row)");
	_arm(a->gang);	/* a table held already: switch from now on */
	return 0;
}

static bool _fresh(const struct agent_gang *g);

int agent_gang_proc_add(struct agent *a, struct agent_step *s,
			const struct agent_proc *p, char *why, size_t len)
{
	struct agent_gang *g = a->gang;
	uint8_t run;

	if (s->gang->freeze && freeze_group_add(s->gang->freeze, &p->id)) {
		snprintf(why, len, "pid %d: cannot be added to the step's freezer group",
			 (int)p->id.pid);
		return -1;
	}
	/* a guarded job that does not run: stopped from its first process
	 * (quantum tables wait for the next boundary, a slice away) */
	if (g && g->have_table && g->table.guard && _fresh(g) &&
	    !gang_job_runs(&g->table, s->job, 0)) {
		run = 0;
		agent_switch_apply(&s, &s->gang, 1, &run);
	}
	return 0;
}

void agent_gang_step_release(struct agent_step *s)
{
	if (!s->gang)
		return;
	freeze_group_destroy(s->gang->freeze);	/* thaws */
	s->gang->freeze = NULL;
	s->gang->runs = true;
}

static size_t _steps(struct agent *a, struct agent_step **out, size_t max)
{
	size_t n = 0;

	for (struct agent_step *s = a->steps; s && n < max; s = s->next)
		if (s->gang && s->nprocs)
			out[n++] = s;
	return n;
}

/* ---- the quantum timer ---- */

static void _arm_at(struct agent_gang *g, uint64_t at_ns)
{
	agent_wall_timer_at(g->timer_fd, at_ns);
	g->armed = true;
}

/* A quantum table's slice; a guard table's checks. */
static uint64_t _period_ns(const struct gang_table *t)
{
	return (uint64_t)(t->guard ? GANG_GUARD_CHECK_MS : t->slice_ms) *
	       1000000ull;
}

/* The quantum whose start is nearest: a timer fires a little late. */
static uint64_t _quantum_now(const struct agent_gang *g)
{
	return (agent_wall_ns() + g->slice_ns / 2) / g->slice_ns;
}

/* The next boundary of the table's slice, when none is armed or the
 * slice changed. */
static void _arm(struct agent_gang *g)
{
	uint64_t slice = _period_ns(&g->table);

	if (!g->have_table || (g->armed && g->slice_ns == slice))
		return;
	g->slice_ns = slice;
	_arm_at(g, (agent_wall_ns() / slice + 1) * slice);
}

static void _disarm(struct agent_gang *g)
{
	agent_wall_timer_off(g->timer_fd);
	g->armed = false;
}

static bool _fresh(const struct agent_gang *g)
{
	return g->have_table &&
	       agent_now_ns() - g->table_ns <=
		       gang_stale_ms(&g->table) * 1000000ull;
}

static void _record(struct agent_gang *g, uint64_t q, unsigned row,
		    struct agent_step **steps, size_t n)
{
	struct gang_record *r = &g->hist[g->hist_next];
	size_t used = 0;

	memset(r, 0, sizeof(*r));
	r->q = q;
	r->row = row;
	for (size_t i = 0; i < n && used < sizeof(r->run); i++) {
		int w;

		if (!steps[i]->gang->runs)
			continue;
		w = snprintf(r->run + used, sizeof(r->run) - used, "%s%u.%u",
			     used ? " " : "", steps[i]->job, steps[i]->step);
		used += w > 0 ? (size_t)w : 0;
	}
	g->hist_next = (g->hist_next + 1) % HISTORY;
	if (g->hist_n < HISTORY)
		g->hist_n++;
}

static struct agent_log_limit continued_log =
	AGENT_LOG_LIMIT_WINDOW("steps continued", 60);

/* Whether a registered process of s is stopped by a signal (state T). */
static bool _signal_stopped(const struct agent_step *s)
{
	for (size_t i = 0; i < s->nprocs; i++) {
		struct proc_brief b;

		if (!proc_brief(s->procs[i].id.pid, &b) &&
		    b.start_ticks == s->procs[i].id.start_ticks &&
		    b.state == 'T')
			return true;
	}
	return false;
}

/* SIGCONT to every process of s's trees: slurmd stopped them all. */
static size_t _continue_step(const struct agent_step *s)
{
	struct proc_id *roots = calloc(s->nprocs ? s->nprocs : 1,
				       sizeof(*roots)), *ids = NULL;
	size_t nids = 0, sent = 0;

	if (!roots)
		return 0;
	for (size_t i = 0; i < s->nprocs; i++)
		roots[i] = s->procs[i].id;
	if (!proc_tree(roots, s->nprocs, &ids, &nids))
		for (size_t i = 0; i < nids; i++)
			sent += !proc_signal(&ids[i], SIGCONT);
	free(ids);
	free(roots);
	return sent;
}

/*
 * A guarded step that should run (run) and ran last time too: stopped by
 * a signal for GANG_STOPPED_REPAIR_MS since the table first ran it, it
 * is continued (the top of this file).
 */
static void _repair_stopped(struct agent_gang *g, struct agent_step *s,
			    bool run, uint64_t now)
{
	struct agent_switched *sw = s->gang;
	uint64_t wait = GANG_STOPPED_REPAIR_MS * 1000000ull;
	size_t sent;

	if (!run || !sw->runs) {
		sw->runs_since_ns = sw->stopped_since_ns = 0;
		return;
	}
	if (!sw->runs_since_ns)
		sw->runs_since_ns = now;
	if (!_signal_stopped(s)) {
		sw->stopped_since_ns = 0;
		return;
	}
	if (!sw->stopped_since_ns)
		sw->stopped_since_ns = now;
	if (now - sw->stopped_since_ns < wait || now - sw->runs_since_ns < wait)
		return;
	sent = _continue_step(s);
	sw->continued++;
	g->continued++;
	sw->stopped_since_ns = 0;
	if (agent_log_allow(&continued_log))
		agent_log("job %u step %u: stopped for %llu ms though slurmctld runs it (a resume slurmd lost): continued %zu process(es)",
			  s->job, s->step,
			  (unsigned long long)GANG_STOPPED_REPAIR_MS, sent);
}

/* Quantum q begins: each step runs when its job holds q's row. */
static void _switch(struct agent *a, struct agent_gang *g, uint64_t q)
{
	struct agent_step *steps[GANG_JOBS_MAX * 4];
	struct agent_switched *sw[GANG_JOBS_MAX * 4];
	uint8_t run[GANG_JOBS_MAX * 4];
	size_t n = _steps(a, steps, GANG_JOBS_MAX * 4);
	bool fresh = _fresh(g);
	uint64_t now;

	if (!fresh && !g->stale)
		agent_log("gang: quantum %llu: no table from slurmctld for %u ms: every step runs",
			  (unsigned long long)q, gang_stale_ms(&g->table));
	else if (fresh && g->stale)
		agent_log("gang: quantum %llu: tables again", (unsigned long long)q);
	g->stale = !fresh;
	for (size_t i = 0; i < n; i++) {
		sw[i] = steps[i]->gang;
		run[i] = !fresh || gang_job_runs(&g->table, steps[i]->job, q);
	}
	agent_switch_apply(steps, sw, n, run);
	now = agent_now_ns();
	for (size_t i = 0; fresh && g->table.guard && i < n; i++)
		_repair_stopped(g, steps[i], run[i], now);
	g->quanta++;
	g->stale_quanta += !fresh;
	_record(g, q, fresh ? gang_row_of(&g->table, q) : UINT32_MAX, steps, n);
}

void agent_gang_timer(struct agent *a)
{
	struct agent_gang *g = a->gang;
	struct agent_step *steps[1];
	uint64_t expirations, q;

	if (!g || read(g->timer_fd, &expirations, sizeof(expirations)) <= 0)
		return;
	if (!_steps(a, steps, 1)) {
		_disarm(g);	/* no gang step left: the next table re-arms */
		return;
	}
	q = _quantum_now(g);
	_switch(a, g, q);
	_arm_at(g, (q + 1) * g->slice_ns);
}

/* ---- tables from slurmctld ---- */

static void _refuse(struct agent_gang *g, const char *why)
{
	g->refused++;
	if (agent_log_allow(&refused_log))
		agent_log("gang: refused a table: %s", why);
}

/* A table as new as the held one replaces it (the same epoch sent again
 * keeps it fresh); an older one is a datagram that came late, unless the
 * held one is stale (slurmctld restarted with a clock set back). */
static void _take(struct agent *a, struct agent_gang *g,
		  const struct gang_table *t)
{
	struct agent_step *steps[1];

	if (g->have_table && t->epoch < g->table.epoch && _fresh(g)) {
		g->old++;
		return;
	}
	g->table = *t;
	g->have_table = true;
	g->table_ns = agent_now_ns();
	g->tables++;
	if (!_steps(a, steps, 1))
		return;
	_arm(g);
	if (t->guard)	/* slurmctld switched: now, not at a boundary */
		_switch(a, g, _quantum_now(g));
}

/* Before munge: only slurmctld's addresses are worth a round trip. */
static bool _from_slurmctld(const struct sockaddr_storage *from,
			    socklen_t len, void *arg)
{
	const struct agent_gang *g = arg;

	return peer_hosts_has(&g->ctld, from, len);
}

void agent_gang_peer(struct agent *a)
{
	struct agent_gang *g = a->gang;
	char err[ERRBUF_LEN], host[64], why_from[ERRBUF_LEN + 64];
	struct peer_datagram d;
	struct gang_table t;
	const char *why;

	if (!g || !g->bound)
		return;
	for (int i = 0; i < BATCH_MAX; i++) {
		uint64_t strangers = g->peer.dropped_source;
		int rc = peer_recv(&g->peer, _from_slurmctld, g, &d, &why);

		if (!rc)
			return;
		if (rc < 0 && g->peer.dropped_source != strangers) {
			snprintf(why_from, sizeof(why_from),
				 "from %s, not one of slurmctld's addresses%s",
				 peer_host_text(&d.from, d.from_len, host,
						sizeof(host)),
				 g->ctld.n ? "" : " (none known: no gang request yet)");
			_refuse(g, why_from);
			continue;
		}
		if (rc < 0) {
			_refuse(g, why);
			continue;
		}
		if (gang_table_parse(d.text, d.len, a->conf.node, &t, err,
				     sizeof(err)))
			_refuse(g, err);
		else
			_take(a, g, &t);
		free(d.text);
	}
}

int agent_gang_timer_fd(const struct agent *a)
{
	return a->gang ? a->gang->timer_fd : -1;
}

int agent_gang_peer_fd(const struct agent *a)
{
	return a->gang && a->gang->bound ? a->gang->peer.fd : -1;
}

void agent_gang_close(struct agent *a)
{
	struct agent_gang *g = a->gang;

	if (!g)
		return;
	if (g->bound)
		peer_close(&g->peer);
	if (g->timer_fd >= 0)
		close(g->timer_fd);
	free(g);
	a->gang = NULL;
}

/* ---- status ---- */

static json_object *_int(uint64_t v)
{
	return json_object_new_int64((int64_t)v);
}

static json_object *_table_json(const struct agent_gang *g)
{
	json_object *o = json_object_new_object();
	char jobs[GANG_JOBS_MAX * 24] = "";
	size_t used = 0;

	for (size_t i = 0; i < g->table.njobs; i++) {
		int w = snprintf(jobs + used, sizeof(jobs) - used, "%s%u:%x",
				 i ? " " : "", g->table.jobs[i].job,
				 g->table.jobs[i].rows);
		used += w > 0 ? (size_t)w : 0;
	}
	json_object_object_add(o, "epoch", _int(g->table.epoch));
	json_object_object_add(o, "age_ms",
			       _int((agent_now_ns() - g->table_ns) / 1000000));
	json_object_object_add(o, "slice_ms", _int(g->table.slice_ms));
	json_object_object_add(o, "rows", _int(g->table.rows));
	json_object_object_add(o, "first", _int(g->table.first));
	json_object_object_add(o, "priority",
			       json_object_new_boolean(g->table.priority));
	json_object_object_add(o, "guard",
			       json_object_new_boolean(g->table.guard));
	json_object_object_add(o, "run", g->table.guard ?
			       _int(g->table.run) : NULL);
	json_object_object_add(o, "jobs", json_object_new_string(jobs));
	return o;
}

json_object *agent_gang_status(const struct agent *a)
{
	const struct agent_gang *g = a->gang;
	char ctld[PEER_HOSTS_TEXT_LEN];
	json_object *o, *hist;

	if (!g)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "self", json_object_new_string(
		g->bound ? g->self.text : ""));
	json_object_object_add(o, "bound", json_object_new_boolean(g->bound));
	json_object_object_add(o, "bind_error", g->bind_error[0] ?
			       json_object_new_string(g->bind_error) : NULL);
	(void)peer_hosts_format(&g->ctld, ctld, sizeof(ctld));
	json_object_object_add(o, "slurmctld", json_object_new_string(ctld));
	json_object_object_add(o, "fresh", json_object_new_boolean(_fresh(g)));
	json_object_object_add(o, "table", g->have_table ? _table_json(g) : NULL);
	json_object_object_add(o, "quanta", _int(g->quanta));
	json_object_object_add(o, "stale_quanta", _int(g->stale_quanta));
	json_object_object_add(o, "tables", _int(g->tables));
	json_object_object_add(o, "refused", _int(g->refused));
	json_object_object_add(o, "refused_source",
			       _int(g->bound ? g->peer.dropped_source : 0));
	json_object_object_add(o, "old", _int(g->old));
	json_object_object_add(o, "continued", _int(g->continued));
	hist = json_object_new_array();
	for (size_t k = 0; k < g->hist_n; k++) {
		const struct gang_record *r =
			&g->hist[(g->hist_next + HISTORY - g->hist_n + k) % HISTORY];
		json_object *q = json_object_new_object();

		json_object_object_add(q, "q", _int(r->q));
		json_object_object_add(q, "row", r->row == UINT32_MAX ? NULL :
				       _int(r->row));
		json_object_object_add(q, "run", json_object_new_string(r->run));
		json_object_array_add(hist, q);
	}
	json_object_object_add(o, "history", hist);
	return o;
}

json_object *agent_gang_step_status(const struct agent_step *s)
{
	const struct agent_switched *gs = s->gang;
	json_object *o;

	if (!gs)
		return NULL;
	o = json_object_new_object();
	agent_switched_status(o, gs);
	return o;
}
