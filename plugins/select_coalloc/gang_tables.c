/*
 * gang_tables.c - rows the node agents switch (Matrix=gang with a
 * TimeSlice below a second) or guard (GangGuard=yes): the thread that
 * tells every node's coschedd which rows its jobs hold there, and in
 * guard tables which of them run now.
 *
 * Guarded rows are switched by timeslice.c through Slurm's suspend and
 * resume; the agent freezes a job whose rows do not run before it thaws
 * one whose rows do, so a resume slurmd carries out before the leaving
 * row's suspend (which it holds back while a launch completes) starts
 * nothing.  A switch sends the tables at once (send_now) before slurmctld
 * schedules the entering row's jobs: a job the table does not name yet
 * runs, and it must not start before its node's agent froze the leaving
 * row.
 *
 * Slurm sees the jobs of every row running; the agents freeze and thaw
 * them at quantum boundaries aligned on the wall clock
 * (lib/cosched_proto/gang.h), taking turns among the rows that hold some
 * job anywhere (busy=, the same in every table, so that every node skips
 * the same empty rows).  Each node with cells gets its table, one sealed
 * UDP datagram (lib/cosched_proto/seal.h: one munge credential signs the
 * whole pass, a key in it each node's table, so that a pass over 4,096
 * nodes costs one munge encode, not 4,096), at once when the
 * matrix changes and again every resend interval (gang_resend_ms: a
 * second up to 1,024 nodes with cells, a second more for each 1,024
 * beyond, named in the tables), so that a lost datagram costs an
 * interval and an agent hears within 3.5 of them that slurmctld is gone
 * (it then runs every row: fail open).  A node without
 * cells gets nothing: with no table, or a stale one, everything runs.
 *
 * Where: the node's address as slurmctld has it (NodeAddr, else
 * NodeHostname, else its name), port its slurmd's plus GangPortOffset,
 * the same rule the cosched plugin tells the agent to bind by.  Names are
 * resolved once and again only when NodeAddr or the port changes.
 *
 * Sending never blocks: the sockets are non-blocking and a full buffer
 * loses a datagram (the next second sends it again).  Locks: slurmctld's
 * node read lock, then the matrix mutex, as timeslice.c takes them; both
 * are dropped before munge is asked.  Guard tables read the jobs' states
 * too (the job read lock, taken only then).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <pthread.h>
#include <time.h>

#include "select_coalloc.h"
#include "cosched_proto/gang.h"
#include "cosched_proto/peer.h"
#include "cosched_proto/proto.h"
#include "src/common/node_conf.h"
#include "src/common/slurm_protocol_api.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"

#pragma weak lock_slurmctld
#pragma weak unlock_slurmctld
#pragma weak find_job_record

/* Send errors an unreachable node causes: logged at most this often. */
#define ERROR_LOG_PERIOD 60

static void *_gang_tables_main(void *arg);
static struct coalloc_worker worker =
	COALLOC_WORKER("coalloc_gang", _gang_tables_main);

/* One node's table and where it goes, built under the locks. */
struct outgoing {
	int node_inx;
	char peer[COSCHED_PEER_LEN];	/* NAME@ADDR:PORT, "" unusable */
	struct gang_table table;
};

/* A node's resolved address, kept while its NAME@ADDR:PORT is the same. */
struct resolved {
	char text[COSCHED_PEER_LEN];
	struct peer_addr addr;
	bool ok;
};

static struct {
	pthread_mutex_t mutex;	/* one sender at a time: the thread, a switch */
	struct peer_ctx peer;
	bool open;
	struct resolved *cache;
	int ncache;
	uint64_t passes, sent, failed;
	uint32_t resend_ms;	/* of the last pass (gang_resend_ms) */
	time_t error_logged;
} gt = { .mutex = PTHREAD_MUTEX_INITIALIZER };

/* What every node's table says alike, read once per pass: the busy and
 * priority rows take a scan of the whole matrix each. */
static void _common(struct gang_table *t)
{
	memset(t, 0, sizeof(*t));
	t->epoch = node_usage_epoch();
	t->guard = node_usage_gang_guard();
	t->slice_ms = t->guard ? 0 : node_usage_time_slice_ms();
	t->rows = (uint16_t)node_usage_rows();
	t->first = (uint16_t)node_usage_first_row();
	t->priority = node_usage_priority_busy();
	t->busy = node_usage_busy_rows();
}

/*
 * A guard table runs a job that the matrix runs and slurmctld has
 * RUNNING: not one an admin suspended (scontrol suspend), which the agent
 * would otherwise continue as a resume slurmd lost (agent/gang.c).  With
 * the job read lock and the matrix mutex held.
 */
static bool _guard_runs(uint32_t id)
{
	job_record_t *job_ptr;

	if (!node_usage_job_runs(id))
		return false;
	job_ptr = find_job_record(id);
	return job_ptr && IS_JOB_RUNNING(job_ptr);
}

/* The table of node i over common, false when no job has a cell there. */
static bool _table_of(int i, const node_record_t *node_ptr,
		      const struct gang_table *common, struct gang_table *t)
{
	uint32_t ids[GANG_JOBS_MAX], rows[GANG_JOBS_MAX];
	size_t n = node_usage_column_jobs(i, ids, rows, GANG_JOBS_MAX);

	if (!n)
		return false;
	*t = *common;
	snprintf(t->node, sizeof(t->node), "%s", node_ptr->name);
	t->njobs = n;
	for (size_t k = 0; k < n; k++) {
		t->jobs[k].job = ids[k];
		t->jobs[k].rows = rows[k];
		if (t->guard && _guard_runs(ids[k]))
			t->run |= rows[k];
	}
	return true;
}

/* NAME@ADDR:PORT of a node's agent, "" when it has none (logged). */
static void _peer_of(const node_record_t *node_ptr, unsigned offset,
		     char *buf, size_t len)
{
	char err[256];

	if (cosched_agent_peer(node_ptr->name, node_ptr->comm_name,
			       node_ptr->node_hostname, node_ptr->port, offset,
			       buf, len, err, sizeof(err))) {
		buf[0] = '\0';
		log_flag(SELECT_TYPE, "%s: %s (GangPortOffset): no gang table",
			 plugin_type, err);
	}
}

/* The tables of every node with cells, into a new array (*n of them). */
static struct outgoing *_collect(size_t *n)
{
	slurmctld_lock_t lock = { .node = READ_LOCK };
	struct outgoing *out = NULL;
	struct gang_table common;
	node_record_t *node_ptr;
	unsigned offset;
	bool tables;

	*n = 0;
	node_usage_lock();
	tables = node_usage_ready() && node_usage_agent_tables();
	if (node_usage_gang_guard())	/* the jobs' states (_guard_runs) */
		lock.job = READ_LOCK;
	node_usage_unlock();
	if (!tables)	/* slurmctld's locks are not worth taking */
		return NULL;
	lock_slurmctld(lock);
	node_usage_lock();
	/* (a reconfiguration that turned the guard on meanwhile waits for
	 * the next pass, which takes the job lock) */
	if (node_usage_ready() && node_usage_agent_tables() &&
	    node_usage_rows() > 1 &&
	    (lock.job == READ_LOCK || !node_usage_gang_guard())) {
		offset = node_usage_gang_port_offset();
		_common(&common);
		out = xcalloc(node_record_count ? node_record_count : 1,
			      sizeof(*out));
		for (int i = 0; (node_ptr = next_node(&i)); i++) {
			struct outgoing *o = &out[*n];

			if (!_table_of(i, node_ptr, &common, &o->table))
				continue;
			o->node_inx = i;
			_peer_of(node_ptr, offset, o->peer, sizeof(o->peer));
			(*n)++;
		}
	}
	node_usage_unlock();
	unlock_slurmctld(lock);
	return out;
}

/* The resolved address of o's peer, NULL when it does not resolve. */
static const struct peer_addr *_resolve(const struct outgoing *o)
{
	struct resolved *r;
	char err[256];

	if (o->node_inx >= gt.ncache) {
		gt.cache = xrecalloc(gt.cache, o->node_inx + 1,
				     sizeof(*gt.cache));
		gt.ncache = o->node_inx + 1;
	}
	r = &gt.cache[o->node_inx];
	if (strcmp(r->text, o->peer)) {
		snprintf(r->text, sizeof(r->text), "%s", o->peer);
		r->ok = !peer_parse(o->peer, &r->addr, err, sizeof(err));
		if (!r->ok)
			error("%s: node %s's agent: %s: it gets no gang table (its jobs run in every row)",
			      plugin_type, o->table.node, err);
	}
	return r->ok ? &r->addr : NULL;
}

/* node: whose table failed, NULL for the whole pass */
static void _log_failure(const char *node, const char *why)
{
	time_t now = time(NULL);

	gt.failed++;
	if (now - gt.error_logged < ERROR_LOG_PERIOD)
		return;
	gt.error_logged = now;
	if (node)
		error("%s: cannot send node %s its gang table: %s (%"PRIu64" failures so far; logged once a minute)",
		      plugin_type, node, why, gt.failed);
	else
		error("%s: cannot send the gang tables: %s (%"PRIu64" failures so far; logged once a minute)",
		      plugin_type, why, gt.failed);
}

/* peer_batch's report of a table it could not send (tag: its outgoing) */
static void _send_failed(void *tag, int err, void *arg)
{
	const struct outgoing *o = tag;

	(void)arg;
	_log_failure(o->table.node, strerror(err));
}

static void _send(const struct outgoing *o, struct peer_batch *batch)
{
	char text[COSCHED_REQUEST_LEN];
	const struct peer_addr *to;
	int len;

	if (!o->peer[0] || !(to = _resolve(o)))
		return;
	len = gang_table_format(&o->table, text, sizeof(text));
	if (len < 0) {
		_log_failure(o->table.node, "the table does not fit a datagram");
		return;
	}
	peer_batch_add(batch, &to->sa, to->len, text, (size_t)len, (void *)o);
}

/* One credential for the pass, the tables in batches of sendmmsg. */
static void _send_pass(struct outgoing *out, size_t n)
{
	struct peer_seal seal;
	struct peer_batch batch;

	if (peer_seal_begin(&gt.peer, &seal)) {
		_log_failure(NULL, "munge cannot seal the pass");
		return;
	}
	/* fewer resends at scale: the tables name the interval */
	gt.resend_ms = gang_resend_ms(n);
	if (peer_batch_init(&batch, &gt.peer, &seal, _send_failed, NULL)) {
		_log_failure(NULL, "out of memory");
	} else {
		gt.passes++;
		for (size_t i = 0; i < n; i++) {
			out[i].table.resend_ms = gt.resend_ms == GANG_RESEND_MS ?
						 0 : gt.resend_ms;
			_send(&out[i], &batch);
		}
		peer_batch_end(&batch);
		gt.sent += batch.sent;
	}
	peer_seal_end(&seal);
}

/* Munge's socket as slurm.conf's AuthInfo names it (NULL: munge's own). */
static bool _open(void)
{
	char *socket = slurm_auth_opts_to_socket(slurm_conf.authinfo);
	char err[256];

	gt.open = !peer_open_sender(&gt.peer, socket, err, sizeof(err));
	if (!gt.open)
		error("%s: no socket for gang tables (%s): the node agents run every row",
		      plugin_type, err);
	xfree(socket);
	return gt.open;
}

static void _send_all(void)
{
	size_t n;
	struct outgoing *out = _collect(&n);

	slurm_mutex_lock(&gt.mutex);
	if (n && (gt.open || _open()))
		_send_pass(out, n);
	slurm_mutex_unlock(&gt.mutex);
	xfree(out);
}

/* A guarded switch: the tables out before the entering row's jobs start
 * (the top of this file).  Without slurmctld's locks or the matrix's. */
void coalloc_gang_tables_send_now(void)
{
	if (coalloc_worker_running(&worker))
		_send_all();
}

void coalloc_gang_tables_counts(struct coalloc_gang_counts *c)
{
	slurm_mutex_lock(&gt.mutex);
	c->passes = gt.passes;
	c->sent = gt.sent;
	c->failed = gt.failed;
	slurm_mutex_unlock(&gt.mutex);
}

static uint32_t _resend_ms(void)
{
	uint32_t ms;

	slurm_mutex_lock(&gt.mutex);
	ms = gt.resend_ms ? gt.resend_ms : GANG_RESEND_MS;
	slurm_mutex_unlock(&gt.mutex);
	return ms;
}

/* The tables at every kick, and again every resend interval (a second,
 * more beyond GANG_RESEND_TABLES_PER_S nodes with cells). */
static void *_gang_tables_main(void *arg)
{
	struct coalloc_worker *w = arg;
	struct timespec until = coalloc_worker_in_ms(GANG_RESEND_MS);

	slurm_mutex_lock(&w->mutex);
	while (coalloc_worker_wait(w, &until)) {
		(void) coalloc_worker_take_kick(w);
		slurm_mutex_unlock(&w->mutex);
		_send_all();
		slurm_mutex_lock(&w->mutex);
		until = coalloc_worker_in_ms(_resend_ms());
	}
	slurm_mutex_unlock(&w->mutex);
	slurm_mutex_lock(&gt.mutex);
	if (gt.open)
		peer_close(&gt.peer);
	gt.open = false;
	xfree(gt.cache);
	gt.ncache = 0;
	slurm_mutex_unlock(&gt.mutex);
	return NULL;
}

void coalloc_gang_tables_start(void)
{
	if (!lock_slurmctld || !unlock_slurmctld || !find_job_record) {
		error("%s: slurmctld's locks are missing: no gang tables",
		      plugin_type);
		return;
	}
	coalloc_worker_start(&worker);
}

void coalloc_gang_tables_stop(void)
{
	coalloc_worker_stop(&worker);
}

/* Called with the matrix lock held or not: only the worker's is taken. */
void coalloc_gang_tables_kick(void)
{
	coalloc_worker_kick(&worker);
}
