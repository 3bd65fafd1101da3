/*
 * jobs.c - the job steps registered with the agent, their processes, and
 * the state file that lets a restarted agent, or the guardian, put every
 * process back as it was.
 *
 * The state file (RUN_DIR/NODE.state, JSON) lists every process the agent
 * has attached, with what it had before (struct boost_saved).  It is
 * rewritten, by rename, whenever that list changes: at register, end and
 * when a process exits; never per tick.  The rule: the agent never holds
 * a process boosted, demoted or frozen that the file on disk does not
 * list.  So a registration writes the file before anything is applied
 * (and after, with what attach recorded), and is refused, with what it
 * applied undone, when a write fails (ENOSPC on /run, say): the step
 * then runs uncoordinated.  A nice value a process never had from us
 * (boost.c) and a process a signal freeze is about to stop (freeze.c)
 * are persisted through hooks first, and not applied when that fails.
 * Failing writes are logged once per episode.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "state.h"
#include "cosched/mode.h"

static bool _needs_boosts(const struct agent_step *s)
{
	return s->parts.react != COSCHED_REACT_NONE ||
	       s->parts.wait == COSCHED_WAIT_SY;
}

static struct agent_proc *_add_proc(struct agent_step *s)
{
	if (s->nprocs == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 4;
		struct agent_proc *p = realloc(s->procs, cap * sizeof(*p));

		if (!p)
			return NULL;
		s->procs = p;
		s->cap = cap;
	}
	memset(&s->procs[s->nprocs], 0, sizeof(s->procs[0]));
	return &s->procs[s->nprocs++];
}

/* The hooks of boost.c and freeze.c: write the state file first. */
static int _persist(void *arg)
{
	return agent_state_save(arg);
}

/* Attach a proc to the boost mechanism when its step's mode needs it. */
static int _attach(struct agent *a, struct agent_step *s,
		   struct agent_proc *p, char *err, size_t len)
{
	if (!_needs_boosts(s) || p->attached)
		return 0;
	boost_on_new_nice(a->boost, _persist, a);
	if (boost_attach(a->boost, &p->id, s->job, &p->saved, err, len))
		return -1;
	p->attached = true;
	return 0;
}

static void _release(struct agent_step *s, struct agent_proc *p)
{
	if (s->mb)
		agent_membus_proc_release(p);
	arrivals_unwatch(p->arrivals);
	p->arrivals = NULL;
	if (p->attached && boost_restore(&p->id, &p->saved))
		agent_log("could not fully restore pid %d", (int)p->id.pid);
	p->attached = false;
	if (p->shm) {
		agent_shm_close(p->shm);
		p->shm = NULL;
	}
	agent_proc_stat_close(p);
}

static struct agent_step *_new_step(struct agent *a, uint32_t job,
				    uint32_t step)
{
	struct agent_step *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->job = job;
	s->step = step;
	s->started_ns = agent_now_ns();
	s->next = a->steps;
	a->steps = s;
	return s;
}

/* Move s from the live list to the head of the ended list (trimmed). */
static void _retire(struct agent *a, struct agent_step *s)
{
	struct agent_step **pp = &a->steps;
	size_t kept = 0;

	while (*pp && *pp != s)
		pp = &(*pp)->next;
	if (*pp)
		*pp = s->next;
	agent_membus_step_release(s);	/* thaws it */
	agent_gang_step_release(s);	/* thaws it */
	for (size_t i = 0; i < s->nprocs; i++)
		_release(s, &s->procs[i]);
	s->ended_ns = agent_now_ns();
	s->next = a->ended;
	a->ended = s;
	for (pp = &a->ended; *pp; kept++) {
		struct agent_step *old = *pp;

		if (kept < AGENT_ENDED_KEEP) {
			pp = &old->next;
			continue;
		}
		*pp = old->next;
		free(old->procs);
		free(old->mb);
		free(old->gang);
		free(old);
	}
	a->last_job_ns = agent_now_ns();
}

/*
 * Is id (r->pid) the job's: a descendant of the caller, with the job's
 * uid.  Each check re-reads id's start time after it, so a pid recycled
 * since proc_identify() is refused rather than proven.
 */
static int _prove(const struct cosched_register *r, const struct proc_id *id, pid_t peer,
		  char *why, size_t len)
{
	uid_t uid;

	if (proc_id_descends_from(id, peer) != 1) {
		snprintf(why, len, "pid %u is not a process of the caller (pid %d)",
			 (unsigned)r->pid, (int)peer);
		return -1;
	}
	if (proc_owner(id, &uid) || uid != (uid_t)r->uid) {
		snprintf(why, len, "pid %u does not belong to uid %u",
			 (unsigned)r->pid, (unsigned)r->uid);
		return -1;
	}
	return 0;
}

/* The tick a register asks for: its own, else the agent's. */
static uint32_t _tick_us(const struct cosched_register *r,
			 const struct agent_conf *conf)
{
	return r->tick_us ? r->tick_us : conf->tick_us;
}

/*
 * A step's settings come with its first process; a later register (the
 * step's other tasks, or a replay) must repeat them, or a forged or
 * replayed line would change how the processes already held are
 * treated (and a step is gang-switched whole or not at all).
 */
static int _fill_step(struct agent_step *s, const struct cosched_register *r,
		      const struct agent_conf *conf, char *why, size_t len)
{
	if (s->nprocs && s->uid != (uid_t)r->uid) {
		snprintf(why, len, "job %u step %u belongs to uid %u",
			 s->job, s->step, (unsigned)s->uid);
		return -1;
	}
	if (s->nprocs && (s->mode != r->mode ||
			  s->pb.heuristic != r->pb.heuristic ||
			  s->pb.fair != r->pb.fair ||
			  s->tick_us != _tick_us(r, conf) ||
			  s->spin_ns != r->spin_ns)) {
		snprintf(why, len, "job %u step %u is registered with mode %s pb %s tick_us %u spin_ns %llu: its other processes must say the same",
			 s->job, s->step, cosched_mode_name(s->mode),
			 cosched_pb_name(&s->pb), s->tick_us,
			 (unsigned long long)s->spin_ns);
		return -1;
	}
	s->uid = (uid_t)r->uid;
	s->mode = r->mode;
	(void)cosched_mode_split(r->mode, &s->parts);
	s->pb = r->pb;
	s->tick_us = _tick_us(r, conf);
	s->spin_ns = r->spin_ns;
	return 0;
}

/* Drop process i of s (released, the state file not yet rewritten). */
static void _drop_proc(struct agent_step *s, size_t i)
{
	_release(s, &s->procs[i]);
	s->procs[i] = s->procs[--s->nprocs];
}

/*
 * Where id's pid is held already.  The same process in another step is
 * refused (two steps would boost and restore it against each other); the
 * same process in this step is a replay: 1, nothing to do.  A process
 * held under the same pid but another start time is gone, its pid
 * reused: it is dropped, and id is added as new.
 */
static int _held(struct agent *a, struct agent_step *in,
		 const struct proc_id *id, char *why, size_t len)
{
	for (struct agent_step *s = a->steps; s; s = s->next) {
		for (size_t i = 0; i < s->nprocs; i++) {
			const struct proc_id *held = &s->procs[i].id;

			if (held->pid != id->pid)
				continue;
			if (held->start_ticks != id->start_ticks) {
				agent_log("job %u step %u: pid %d was reused: dropped the process that had it",
					  s->job, s->step, (int)id->pid);
				_drop_proc(s, i);
				return 0;
			}
			if (s == in)
				return 1;
			snprintf(why, len, "pid %d is registered with job %u step %u",
				 (int)id->pid, s->job, s->step);
			return -1;
		}
	}
	return 0;
}

/* The membus part of adding p: the step's scheduling, its freezer. */
static int _membus_add(struct agent *a, struct agent_step *s,
		       struct agent_proc *p, const struct cosched_register *r, char *why,
		       size_t len)
{
	if (!s->mb && agent_membus_step_init(a, s,
					     r->bw.mem_set ? r->bw.mem : -1,
					     r->bw.net_set ? r->bw.net : -1,
					     why, len))
		return -1;
	if (s->mb->sw.freeze)
		freeze_group_set_persist(s->mb->sw.freeze, _persist, a);
	return agent_membus_proc_add(a, s, p, why, len);
}

/* The gang part of adding p: the step's freezer group. */
static int _gang_add(struct agent *a, struct agent_step *s,
		     struct agent_proc *p, char *why, size_t len)
{
	if (!s->gang && agent_gang_step_init(a, s, why, len))
		return -1;
	if (s->gang->freeze)
		freeze_group_set_persist(s->gang->freeze, _persist, a);
	return agent_gang_proc_add(a, s, p, why, len);
}

/* Write the state file, or say why the registration is refused. */
static int _record(struct agent *a, const struct agent_proc *p, char *why,
		   size_t len)
{
	if (!agent_state_save(a))
		return 0;
	snprintf(why, len, "pid %d cannot be recorded in the state file (%s): it runs uncoordinated",
		 (int)p->id.pid, strerror(errno));
	return -1;
}

/*
 * Add pid to its step: 0, 1 when it is there already (a replay), -1.
 * With record, the state file lists it before and after anything is
 * applied, else it is refused and undone (recovery passes false: the old
 * file still lists what it adopts, and is rewritten once at the end).
 */
static int _add(struct agent *a, const struct cosched_register *r,
		const struct proc_id *id, bool record, char *why, size_t len)
{
	struct agent_step *s = agent_find_step(a, r->job, r->step);
	struct agent_proc *p;
	bool fresh = !s;
	int held;

	if (!s && !(s = _new_step(a, r->job, r->step)))
		goto nomem;
	if (_fill_step(s, r, &a->conf, why, len))
		return -1;
	held = _held(a, s, id, why, len);
	if (held)
		goto held;
	p = _add_proc(s);
	if (!p)
		goto nomem;
	p->id = *id;
	p->rank = (int)r->rank;
	p->energy = -1;		/* not started */
	p->perf.fd = -1;
	if (record && _record(a, p, why, len))
		goto undo;	/* nothing applied yet */
	if ((cosched_mode_by_quanta(r->mode) &&
	     _membus_add(a, s, p, r, why, len)) ||
	    (r->gang && _gang_add(a, s, p, why, len)) ||
	    _attach(a, s, p, why, len))
		goto undo;
	if (record && _record(a, p, why, len)) {
		/*
		 * Undone; in an existing membus step p stays in the step's
		 * freezer group, covered by what the first write listed
		 * (the step's freezer cgroup, or the held set of signals).
		 */
		_release(s, p);
		goto undo;
	}
	/* membus steps are switched by quanta, not by arrivals; DCS reacts
	 * to an arrival at once, the periodic reactions at their tick */
	if (!s->mb)
		p->arrivals = arrivals_watch(a->arr, &p->id, s->uid,
					     &s->count.arrivals,
					     s->parts.react == COSCHED_REACT_DCS);
	return 0;
undo:
	s->nprocs--;
held:
	if (fresh && !s->nprocs)
		_retire(a, s);
	return held > 0 ? 1 : -1;
nomem:
	snprintf(why, len, "out of memory");
	return -1;
}

int agent_register(struct agent *a, const char *request, pid_t peer_pid,
		   char *reply, size_t len)
{
	char why[AGENT_ERR_LEN];
	struct proc_id id;
	struct cosched_register r;
	int added;

	if (cosched_register_parse(request, &r, why, sizeof(why)))
		goto fail;
	if (!cosched_mode_for_agent(r.mode) && !r.gang) {
		snprintf(why, sizeof(why), "mode %s has nothing for this agent to do",
			 cosched_mode_name(r.mode));
		goto fail;
	}
	if (proc_identify((pid_t)r.pid, &id)) {
		snprintf(why, sizeof(why), "no process %u", (unsigned)r.pid);
		goto fail;
	}
	if (_prove(&r, &id, peer_pid, why, sizeof(why)))
		goto fail;
	added = _add(a, &r, &id, true, why, sizeof(why));
	if (added < 0)
		goto fail;
	agent_log("job %u step %u: %s pid %u rank %u, mode %s",
		  (unsigned)r.job, (unsigned)r.step,
		  added ? "registered again (nothing to do)" : "registered",
		  (unsigned)r.pid, (unsigned)r.rank, cosched_mode_name(r.mode));
	snprintf(reply, len, "ok registered job=%u step=%u pid=%u%s\n",
		 (unsigned)r.job, (unsigned)r.step, (unsigned)r.pid,
		 added ? " already" : "");
	return 0;
fail:
	agent_log("refused registration: %s", why);
	snprintf(reply, len, "error: %s\n", why);
	return -1;
}

int agent_end(struct agent *a, const char *request, char *reply, size_t len)
{
	char why[AGENT_ERR_LEN];
	uint32_t job, step;
	struct agent_step *s;

	if (cosched_end_parse(request, &job, &step, why, sizeof(why))) {
		snprintf(reply, len, "error: %s\n", why);
		return -1;
	}
	s = agent_find_step(a, job, step);
	if (!s) {
		snprintf(reply, len, "ok not registered\n");
		return 0;
	}
	_retire(a, s);
	(void)agent_state_save(a);
	agent_log("job %u step %u: ended, priorities restored",
		  (unsigned)job, (unsigned)step);
	snprintf(reply, len, "ok ended job=%u step=%u\n", (unsigned)job,
		 (unsigned)step);
	return 0;
}

void agent_prune(struct agent *a)
{
	bool changed = false;
	struct agent_step *s = a->steps, *next;

	for (; s; s = next) {
		next = s->next;
		for (size_t i = 0; i < s->nprocs;) {
			if (proc_alive(&s->procs[i].id)) {
				i++;
				continue;
			}
			_release(s, &s->procs[i]);
			s->procs[i] = s->procs[--s->nprocs];
			changed = true;
		}
		if (!s->nprocs) {
			_retire(a, s);
			changed = true;
		}
	}
	if (changed)
		(void)agent_state_save(a);
}

void agent_release_all(struct agent *a)
{
	while (a->steps)
		_retire(a, a->steps);
	(void)agent_state_save(a);
}

void agent_steps_free(struct agent *a)
{
	struct agent_step *lists[] = { a->steps, a->ended };

	for (size_t l = 0; l < 2; l++) {
		for (struct agent_step *s = lists[l], *next; s; s = next) {
			next = s->next;
			agent_membus_step_release(s);
			agent_gang_step_release(s);
			for (size_t i = 0; i < s->nprocs; i++)
				_release(s, &s->procs[i]);
			free(s->procs);
			free(s->mb);
			free(s->gang);
			free(s);
		}
	}
	a->steps = a->ended = NULL;
}

uint32_t agent_wanted_tick_us(const struct agent *a)
{
	uint32_t tick = 0;

	for (const struct agent_step *s = a->steps; s; s = s->next) {
		if (!_needs_boosts(s))
			continue;
		if (!tick || s->tick_us < tick)
			tick = s->tick_us;
	}
	/* SB-only steps get no boosts: a slow tick keeps their counters */
	if (!tick && a->steps)
		tick = 100000;
	return tick;
}

/* ---- the state file ---- */

/* The freezer group of a membus or gang step, NULL: none. */
static struct freeze_group *_step_freeze(const struct agent_step *s)
{
	if (s->mb)
		return s->mb->sw.freeze;
	return s->gang ? s->gang->freeze : NULL;
}

/* One process; the step's first also carries what signals stopped. */

static json_object *_proc_json(const struct agent_step *s,
			       const struct agent_proc *p, bool first)
{
	json_object *o = json_object_new_object();
	struct freeze_group *fz = _step_freeze(s);

	json_object_object_add(o, "job", json_object_new_int64(s->job));
	json_object_object_add(o, "step", json_object_new_int64(s->step));
	json_object_object_add(o, "uid", json_object_new_int64(s->uid));
	json_object_object_add(o, "mode",
			       json_object_new_string(cosched_mode_name(s->mode)));
	json_object_object_add(o, "pb",
			       json_object_new_string(cosched_pb_name(&s->pb)));
	json_object_object_add(o, "tick_us", json_object_new_int64(s->tick_us));
	json_object_object_add(o, "spin_ns", json_object_new_int64((int64_t)s->spin_ns));
	json_object_object_add(o, "pid", json_object_new_int64(p->id.pid));
	json_object_object_add(o, "start", json_object_new_int64((int64_t)p->id.start_ticks));
	json_object_object_add(o, "rank", json_object_new_int64(p->rank));
	json_object_object_add(o, "attached", json_object_new_boolean(p->attached));
	json_object_object_add(o, "saved", state_saved_json(&p->saved));
	if (fz) {
		json_object_object_add(o, "freeze", json_object_new_string(
			freeze_kind_name(freeze_group_kind(fz))));
		json_object_object_add(o, "freezer", json_object_new_string(
			freeze_group_path(fz)));
	}
	if (s->gang)
		json_object_object_add(o, "gang", json_object_new_boolean(true));
	if (first && fz && freeze_group_kind(fz) == FREEZE_SIGNAL) {
		size_t n;
		const struct proc_id *held = freeze_group_held(fz, &n);

		json_object_object_add(o, "stopped", state_stopped_json(held, n));
	}
	return o;
}

static bool _state_failing;	/* the last write failed (logged once) */

int agent_state_save(const struct agent *a)
{
	json_object *root = json_object_new_object(), *procs;
	int rc, err;

	procs = json_object_new_array();
	json_object_object_add(root, "node", json_object_new_string(a->conf.node));
	json_object_object_add(root, "agent_pid", json_object_new_int64(getpid()));
	for (const struct agent_step *s = a->steps; s; s = s->next)
		for (size_t i = 0; i < s->nprocs; i++)
			json_object_array_add(procs,
					      _proc_json(s, &s->procs[i], !i));
	json_object_object_add(root, "procs", procs);
	rc = state_write(a->conf.state, root);
	err = errno;
	json_object_put(root);
	if (rc && !_state_failing)
		agent_log("cannot write %s: %s; until it can be, registrations are refused and nothing new is boosted or frozen",
			  a->conf.state, strerror(err));
	else if (!rc && _state_failing)
		agent_log("%s can be written again", a->conf.state);
	_state_failing = rc != 0;
	errno = err;
	return rc;
}

struct recovery {
	struct agent *a;
	bool adopt;		/* false: a corrupt file, restore only */
};

/* Restore one recovered process, then re-adopt it if still alive. */
static int _adopt(const struct state_entry *e, void *arg)
{
	struct recovery *rec = arg;
	char why[AGENT_ERR_LEN];
	struct cosched_register r = {
		.job = e->job, .step = e->step, .uid = e->uid, .pid = e->id.pid,
		.rank = (uint32_t)e->rank, .tick_us = e->tick_us,
		.spin_ns = e->spin_ns, .mode = e->mode, .pb = e->pb,
	};

	if (e->attached && boost_restore(&e->id, &e->saved))
		agent_log("recovery: could not fully restore pid %d",
			  (int)e->id.pid);
	if (state_thaw(e))
		agent_log("recovery: could not thaw pid %d", (int)e->id.pid);
	if (!rec->adopt || !proc_alive(&e->id))
		return 0;
	if (cosched_mode_by_quanta(e->mode) || e->gang) {
		/* its peers and span, or the gang request, came with the
		 * step: it runs uncoordinated until it ends */
		agent_log("recovery: pid %d (%s) thawed, not re-adopted",
			  (int)e->id.pid, e->gang ? "gang rows" : "membus");
		return 0;
	}
	if (_add(rec->a, &r, &e->id, false, why, sizeof(why)) < 0)
		agent_log("recovery: pid %d not re-adopted: %s",
			  (int)e->id.pid, why);
	return 0;
}

static int _nothing(const struct state_entry *e, void *arg)
{
	(void)e;
	(void)arg;
	return 0;
}

/*
 * A corrupt file: what it still names was restored; keep it for the
 * operator (never overwrite it silently) and say so in one line.
 */
static void _keep_corrupt(const struct agent *a,
			  const struct state_problem *problem, int restored)
{
	char aside[AGENT_PATH_LEN + 64], where[64] = "";

	if (problem->line)
		snprintf(where, sizeof(where), " at line %u (offset %zu)",
			 problem->line, problem->offset);
	if (state_keep_aside(a->conf.state, aside, sizeof(aside)))
		snprintf(aside, sizeof(aside), "nothing (cannot rename it: %s)",
			 strerror(errno));
	agent_log("state file %s is corrupt%s: %s; kept as %s; restored the %d process(es) it still names, re-adopted none",
		  a->conf.state, where, problem->what, aside, restored);
}

int agent_state_recover(struct agent *a)
{
	struct recovery rec = { .a = a };
	struct state_problem problem;
	int n;

	/* Whether the file is whole decides whether anything is adopted. */
	(void)state_read(a->conf.state, _nothing, NULL, &problem);
	rec.adopt = !problem.corrupt;
	n = state_read(a->conf.state, _adopt, &rec, &problem);
	if (problem.corrupt)
		_keep_corrupt(a, &problem, n > 0 ? n : 0);
	else if (n > 0)
		agent_log("recovered %d process(es) from %s: restored, then re-adopted the live ones",
			  n, a->conf.state);
	if (!agent_state_save(a))
		return 0;
	/* The old file lists what was adopted; this one must too, or none. */
	if (a->steps) {
		agent_log("recovery: the state file cannot be written: the re-adopted processes are released");
		agent_release_all(a);
	}
	return -1;
}
