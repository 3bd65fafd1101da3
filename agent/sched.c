/*
 * sched.c - the agent's tick: sample the registered processes, let the
 * pure core (lib/cosched/tick.h) decide their boost levels, apply the
 * changes through the boost mechanism, count what was done.
 *
 * What a process is doing comes from the page the MPI shim shares
 * (lib/cosched/shm.h) when there is one; otherwise only from /proc: CPU
 * time (running or not) and TCP receive queues (pending messages).  Data
 * from other hosts, which no page shows, comes from arrivals.c (epoll on
 * the process's sockets) with or without a page.
 * Whether a process ran during the last tick is read from its CPU time
 * (/proc/PID/schedstat), since Linux has no cheap "who is on that CPU".
 *
 * The page is a file of the job's user in the step's page directory
 * (lib/cosched/pages.h), so everything about it is hostile: it is opened
 * without blocking (a FIFO) or following links, kept only when it is a
 * regular file of the user of the right size with one link, and read
 * every tick with pread into a copy that the tick then uses.  A mapping
 * would be cheaper, but the user can truncate the file under it and the
 * next read of the mapping would kill the agent with SIGBUS; a short
 * pread only drops the page.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "cosched/pages.h"

#define SHM_RETRY_NS 100000000ull	/* look for a missing page every 100 ms */
/*
 * Socket queues are the fallback for processes without the shim: reading
 * them walks the kernel's whole TCP hash table (/proc/PID/net/tcp), about
 * 300 us here, so not at every tick.
 */
#define RX_EVERY_NS 250000000ull
#define PRUNE_EVERY_NS 100000000ull	/* dead processes every 100 ms */
#define EXEC_SLOW_NS 100000000ull	/* CPU time when no decision needs it */
#define DIR_UNTRIED (-2)	/* a step's page directory, not opened yet */

/* The table handed to the core, and where each row came from. */
struct row {
	struct agent_step *step;
	struct agent_proc *proc;
};
static struct cosched_tick_proc *table;
static struct row *rows;
static size_t table_cap;

static const struct cosched_shm *_copy(const struct agent_proc *p)
{
	return p->shm ? &p->shm->copy : NULL;
}

static bool _shm_valid(const struct cosched_shm *m, const struct agent_step *s,
		       const struct agent_proc *p)
{
	return m->magic == COSCHED_SHM_MAGIC &&
	       m->version == COSCHED_SHM_VERSION &&
	       m->size == sizeof(*m) && m->pid == p->id.pid &&
	       m->rank == p->rank && m->job_id == s->job &&
	       m->step_id == s->step;
}

/* This tick's copy of the page: false when it is short or not valid. */
static bool _page_read(struct agent_page *page, const struct agent_step *s,
		       const struct agent_proc *p)
{
	ssize_t n = pread(page->fd, &page->copy, sizeof(page->copy), 0);

	return n == (ssize_t)sizeof(page->copy) && _shm_valid(&page->copy, s, p);
}

/* p's page in the step's directory *dir (opened on first need), or NULL. */
static struct agent_page *_page_find(const struct agent *a,
				     const struct agent_step *s,
				     const struct agent_proc *p, int *dir)
{
	struct agent_page *page;
	char name[16];
	int fd;

	if (*dir == DIR_UNTRIED)
		*dir = cosched_pages_open(a->conf.run_dir, s->job, s->step,
					  s->uid);
	if (*dir < 0 || cosched_page_name(p->rank, name, sizeof(name)))
		return NULL;
	fd = cosched_page_open(*dir, name, O_RDONLY, s->uid);
	if (fd < 0)
		return NULL;
	page = malloc(sizeof(*page));
	if (!page) {
		close(fd);
		return NULL;
	}
	page->fd = fd;
	if (_page_read(page, s, p))
		return page;
	agent_shm_close(page);
	return NULL;
}

/* Refresh the copy of p's page; look for a missing one every 100 ms. */
static void _page_update(const struct agent *a, const struct agent_step *s,
			 struct agent_proc *p, uint64_t now, int *dir)
{
	if (p->shm) {
		if (_page_read(p->shm, s, p))
			return;
		/* truncated or rewritten: ignored from now on */
		agent_shm_close(p->shm);
		p->shm = NULL;
		p->next_shm_try_ns = now + SHM_RETRY_NS;
		return;
	}
	if (now < p->next_shm_try_ns)
		return;
	p->next_shm_try_ns = now + SHM_RETRY_NS;
	p->shm = _page_find(a, s, p, dir);
}

/*
 * The CPU time of p's main thread, from /proc/PID/schedstat opened once
 * and read with pread at each sample: the path lookup of an open per
 * process per tick cost more than everything else the tick reads.  The
 * open file stays bound to the process it was opened for (checked right
 * after the open): once that process is gone a read fails, so a pid
 * recycled before the next prune is never read.
 */
static uint64_t _exec_ns(struct agent_proc *p)
{
	char path[64], buf[128];
	unsigned long long exec = 0;
	ssize_t n;

	if (!p->schedstat_open) {
		snprintf(path, sizeof(path), "/proc/%d/schedstat",
			 (int)p->id.pid);
		p->schedstat_fd = open(path, O_RDONLY | O_CLOEXEC);
		if (p->schedstat_fd < 0)
			return 0;
		p->schedstat_open = true;
		if (!proc_alive(&p->id)) {
			agent_proc_stat_close(p);
			return 0;
		}
	}
	n = pread(p->schedstat_fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if (sscanf(buf, "%llu", &exec) != 1)
		return 0;
	return exec;
}

/*
 * Whether p ran most of the last tick, from its CPU time.  Only DCS and
 * PB decide by who runs (cosched_tick_needs_running()); with neither on
 * the node the CPU time is read every EXEC_SLOW_NS, for status only.  At
 * the first tick after a DCS or PB step comes, "ran" of the processes
 * already there spans the time since their last slow read, not one tick.
 */
static void _cpu_sample(struct agent_proc *p, uint64_t now, uint64_t dt_ns,
			bool every_tick)
{
	uint64_t exec;

	if (!every_tick && now < p->next_exec_ns) {
		p->ran = false;
		return;
	}
	exec = _exec_ns(p);
	p->ran = every_tick && exec > p->exec_ns &&
		 exec - p->exec_ns > dt_ns / 2;
	p->exec_ns = exec;
	p->next_exec_ns = now + EXEC_SLOW_NS;
}

/* Does any step of the table decide by who runs? */
static bool _needs_running(const struct agent *a)
{
	for (const struct agent_step *s = a->steps; s; s = s->next)
		if (!s->mb && cosched_tick_needs_running(&s->parts))
			return true;
	return false;
}

static bool _grow(size_t n)
{
	struct cosched_tick_proc *t;
	struct row *r;

	if (n <= table_cap)
		return true;
	t = realloc(table, n * sizeof(*t));
	if (!t)
		return false;
	table = t;
	r = realloc(rows, n * sizeof(*r));
	if (!r)
		return false;
	rows = r;
	table_cap = n;
	return true;
}

/* Without the shim: pending messages as TCP receive queues show them
 * (needless when epoll watches every socket: arrivals.c). */
static void _sample_sockets(const struct agent_step *s, struct agent_proc *p,
			    uint64_t now)
{
	if (arrivals_complete(p->arrivals)) {
		p->rx_bytes = 0;
		return;
	}
	if (s->parts.react == COSCHED_REACT_NONE || now < p->next_rx_ns)
		return;
	if (proc_socket_rx_bytes(p->id.pid, &p->rx_bytes))
		p->rx_bytes = 0;
	p->next_rx_ns = now + RX_EVERY_NS;
}

/*
 * Data from other hosts waiting in p's sockets (arrivals.c) is what a
 * same-host notice in the page is: a pending message, the awaited one
 * when p is in a receive (its receive is what will consume it), and,
 * without a page to say so, communication.
 */
static void _remote(struct agent_proc *p, struct cosched_tick_proc *t,
		    bool page, uint64_t now)
{
	if (!arrivals_sample(p->arrivals, now))
		return;
	t->view.pending++;
	if (t->view.in_recv)
		t->view.awaited_arrived = true;
	if (!page)
		t->communicating = 1;
}

/* Fill one table row from what p shows now. */
static void _sample(struct agent_step *s, struct agent_proc *p,
		    struct cosched_tick_proc *t, uint64_t now, uint64_t dt_ns)
{
	const struct cosched_shm *m = _copy(p);
	uint64_t since = m ? m->start_ns : s->started_ns;
	double age = now > since ? (double)(now - since) / 1e9 : 0;

	memset(t, 0, sizeof(*t));
	p->cpu_share = age > 0 ? (double)p->exec_ns / 1e9 / age : 0;
	t->view.running = p->ran;
	t->view.cpu_share = p->cpu_share;
	t->view.candidate = p->attached;
	t->parts = s->parts;
	t->pb = s->pb;
	t->energy = p->energy;
	t->age = age;	/* f's interval, so f t counts every message */
	if (!m) {
		_sample_sockets(s, p, now);
		t->view.pending = p->rx_bytes ? 1 : 0;
		_remote(p, t, false, now);
		return;
	}
	p->rx_bytes = 0;	/* a reading from before MPI_Init is stale */
	t->view.in_recv = atomic_load(&m->in_recv);
	t->view.awaited_arrived = atomic_load(&m->awaited_arrived);
	t->view.pending += (uint32_t)cosched_shm_pending(m);
	arrivals_count_local(&s->count.arrivals, &p->arrived_seen,
			     atomic_load(&m->msgs_arrived));
	_remote(p, t, true, now);
	t->yielding = (int)atomic_load(&m->yielding);
	t->communicating = (int)atomic_load(&m->in_comm);
	if (now - atomic_load(&m->heartbeat_ns) < dt_ns)
		t->view.running = true;	/* it polled during the last tick */
	if (age > 0) {
		uint64_t msgs = atomic_load(&m->msgs_received);
		uint64_t bytes = atomic_load(&m->bytes_received);

		t->msg_rate = (double)msgs / age;
		t->msg_kib = msgs ? (double)bytes / (double)msgs / 1024.0 : 0;
	}
}

static bool _has_energy(const struct agent *a)
{
	for (const struct agent_step *s = a->steps; s; s = s->next)
		if (!s->mb && (s->parts.react == COSCHED_REACT_ECM ||
			       s->parts.react == COSCHED_REACT_EDM))
			return true;
	return false;
}

/*
 * R of the energy models as the slides define it (the paper variant,
 * lib/cosched/energy.h): the tasks running on the node, but this agent,
 * which runs while it reads.  Read only when that R is used; a failed
 * read keeps the last value (-1, unknown, until one succeeds).
 */
static double _node_running(const struct agent *a)
{
	static double last = -1;
	uint32_t running;

	if (a->conf.tick.energy.variant == COSCHED_ENERGY_PAPER &&
	    _has_energy(a) && !proc_running(&running))
		last = running > 0 ? running - 1 : 0;
	return last;
}

/* Build the table; returns its size and the current process in *current. */
static size_t _build(struct agent *a, uint64_t now, uint64_t dt_ns,
		     int *current)
{
	bool every_tick = _needs_running(a);
	double running = _node_running(a);
	uint64_t best = 0;
	size_t n = 0;

	*current = -1;
	for (struct agent_step *s = a->steps; s; s = s->next)
		n += s->nprocs;
	if (!_grow(n))
		return 0;
	n = 0;
	for (struct agent_step *s = a->steps; s; s = s->next) {
		int dir = DIR_UNTRIED;

		if (s->mb)
			continue;	/* switched by quanta (membus.c) */
		for (size_t i = 0; i < s->nprocs; i++) {
			struct agent_proc *p = &s->procs[i];
			uint64_t before = p->exec_ns;

			_page_update(a, s, p, now, &dir);
			_cpu_sample(p, now, dt_ns, every_tick);
			_sample(s, p, &table[n], now, dt_ns);
			table[n].node_running = running;
			if (p->ran && p->exec_ns - before > best) {
				best = p->exec_ns - before;
				*current = (int)n;
			}
			rows[n++] = (struct row){ s, p };
		}
		if (dir >= 0)
			close(dir);
	}
	return n;	/* the tick starts a process's energy at the floor R */
}

/* Whether the page alone puts its process in S2 or S3. */
static bool _local_arrival(const struct cosched_shm *m)
{
	return atomic_load(&m->in_recv) ? atomic_load(&m->awaited_arrived) != 0 :
					  cosched_shm_pending(m) > 0;
}

static void _count(struct agent_step *s, struct agent_proc *p,
		   const struct cosched_tick_proc *t, uint64_t now)
{
	struct agent_counters *c = &s->count;
	bool fresh = t->reason != p->reason;

	if (t->reason == COSCHED_WHY_NONE)
		return;
	/* the periodic boost acts at every tick; the others per episode */
	if (t->reason != COSCHED_WHY_PB && !fresh)
		return;
	c->boosts[t->reason]++;
	if ((t->reason == COSCHED_WHY_PB || t->reason == COSCHED_WHY_SY_BOOST) &&
	    t->state >= COSCHED_S1 && t->state <= COSCHED_S4)
		c->by_state[t->state - 1]++;
	/* the delay from a same-host sender's stamp: not for a boost that
	 * only a remote arrival (arrivals.c, no stamp) caused */
	if (t->reason == COSCHED_WHY_DCS && p->shm &&
	    _local_arrival(&p->shm->copy)) {
		uint64_t at = atomic_load(&p->shm->copy.arrived_ns);
		uint64_t lag = now > at ? now - at : 0;

		c->dcs_detect_ns_sum += lag;
		c->dcs_detect_count++;
		if (lag > c->dcs_detect_ns_max)
			c->dcs_detect_ns_max = lag;
	}
}

static void _apply(struct agent *a, size_t n, uint64_t now)
{
	for (size_t i = 0; i < n; i++) {
		struct agent_proc *p = rows[i].proc;
		const struct cosched_tick_proc *t = &table[i];

		_count(rows[i].step, p, t, now);
		p->reason = t->reason;
		p->energy = t->energy;
		if (!p->attached || t->level == p->level)
			continue;
		if (boost_set(a->boost, &p->id, &p->saved, t->level) == 0)
			p->level = t->level;
	}
}

/* The shim's counters, summed per step, for status. */
static void _shim_totals(struct agent *a)
{
	for (struct agent_step *s = a->steps; s; s = s->next) {
		struct agent_counters *c = &s->count;

		c->msgs = c->bytes = c->blocks = c->yields = 0;
		c->spins_satisfied = c->collectives = 0;
		c->shim_procs = 0;
		for (size_t i = 0; i < s->nprocs; i++) {
			const struct cosched_shm *m = _copy(&s->procs[i]);

			if (!m)
				continue;
			c->shim_procs++;
			c->msgs += atomic_load(&m->msgs_received);
			c->bytes += atomic_load(&m->bytes_received);
			c->blocks += atomic_load(&m->blocks);
			c->yields += atomic_load(&m->yields);
			c->spins_satisfied += atomic_load(&m->spins_satisfied);
			c->collectives += atomic_load(&m->collectives);
		}
	}
}

/* Whether a process of the table holds a boost (rt: is real-time). */
static bool _any_boosted(size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].proc->attached && rows[i].proc->level > 0)
			return true;
	return false;
}

/* The guardian put every process back (rt, a late agent): what the
 * tick decides next must be applied again. */
static void _forget_levels(struct agent *a)
{
	for (struct agent_step *s = a->steps; s; s = s->next)
		for (size_t i = 0; i < s->nprocs; i++)
			s->procs[i].level = 0;
}

void agent_tick(struct agent *a)
{
	static uint64_t next_prune;
	uint64_t now = agent_now_ns(), dt_ns, took;
	int current, boosted;
	size_t n;

	dt_ns = a->last_tick_ns ? now - a->last_tick_ns : 1000000;
	if (dt_ns > 100000000ull)
		dt_ns = 100000000ull;
	a->last_tick_ns = now;
	if (now >= next_prune) {
		next_prune = now + PRUNE_EVERY_NS;
		agent_prune(a);
	}
	if (agent_guardian_took_back(a))
		_forget_levels(a);
	n = _build(a, now, dt_ns, &current);
	if (n) {
		boosted = cosched_tick(table, n, current, a->last_boosted,
				       (double)dt_ns / 1e9, &a->conf.tick);
		a->last_boosted = boosted;
		_apply(a, n, now);
		_shim_totals(a);
	}
	agent_guardian_lease(a, _any_boosted(n));
	took = agent_now_ns() - now;
	a->ticks++;
	a->tick_ns_sum += took;
	if (took > a->tick_ns_max)
		a->tick_ns_max = took;
}
