/*
 * queues.c - the queue-priority policies in slurmctld.
 *
 * One lib/coalloc engine models the system: a site has as many processors
 * as nodes (allocation is node-exclusive), the global queue is the jobs of
 * GlobalPartition, a site's local queue the jobs of its LocalPartition
 * (under GS every job is in the one global queue).  Slurm's scheduler asks
 * select_p_job_test about one job at a time in its own priority order; we
 * answer from the engine's decisions instead, so which queue may start a
 * job, and in which order, is the policy's:
 *
 *   sync      pending jobs join the engine in submit order, withdrawn
 *             ones leave it (only when slurmctld's job table changed);
 *   grant     a decision pass returns the jobs that start now and their
 *             sites; they stay granted until select_p_job_begin;
 *   place     a granted job gets nodes on its sites (job_test.c);
 *   depart    select_p_job_fini: the policy re-enables its queues.
 *
 * Jobs of other partitions (and jobs with required nodes, -w) bypass the
 * policy: they are placed as before and counted as running, so that the
 * engine sees the nodes they hold.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <json-c/json.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "coalloc/engine.h"
#include "coalloc/route.h"
#include "coalloc/walk.h"
#include "num/errbuf.h"
#include "select_coalloc.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

extern time_t last_job_update __attribute__((weak));
#pragma weak find_job_record	/* slurmctld's: weak, as in timeslice.c */

/* A granted job not begun after this long gives its grant back. */
#define GRANT_TIMEOUT 60
/* What starts the text of every pending reason we set. */
#define REASON_PREFIX "coalloc: "
/* Jobs whose pending reason may need restoring, at most (ids). */
#define TOLD_MAX 65536

struct grant {
	time_t when;
	struct coalloc_start start;
};

static pthread_mutex_t queues_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct coalloc_engine *engine;
static struct grant *grants;
static size_t ngrants;
/* What the last walk of slurmctld's job table saw (lib/coalloc/walk.h). */
static struct coalloc_walk_seen last_walk;
/* Jobs told why they wait since the last coalloc_queues_restore_reasons
 * (ids; a job may be listed more than once). */
static uint32_t *told;
static size_t ntold, told_cap;

#define WALK_SLICE 2048

struct fresh_job {
	time_t submit;
	uint32_t id;
};

struct walk {
	size_t skip;		/* jobs before this slice */
	size_t budget;		/* jobs in it */
	size_t pos;
	struct fresh_job *fresh;
	size_t nfresh, fresh_cap;
	size_t submitted;	/* of fresh, sorted at the table's end */
	/* the table when the walk began, the sync's record at its end */
	time_t stamp, clock;
	int count;
	bool active;		/* begun, not ended */
	bool walked;		/* the table's end reached: fresh to submit */
};

/* The status thread's walk, across its slices. */
static struct walk sliced;

/* slurmctld's last_job_update, 0 outside slurmctld. */
static time_t _table_stamp(void)
{
	return &last_job_update ? last_job_update : 0;
}

/* ------------------------------------------------------------ grants */

static struct grant *_find_grant(uint32_t id)
{
	for (size_t i = 0; i < ngrants; i++)
		if (grants[i].start.id == id)
			return &grants[i];
	return NULL;
}

static void _drop_grant(struct grant *g)
{
	*g = grants[--ngrants];
}

/* Still waiting in slurmctld: its record kept, pending, not held. */
static bool _still_waiting(uint32_t id)
{
	job_record_t *job_ptr;

	if (!find_job_record)	/* not slurmctld: nothing to ask */
		return true;
	job_ptr = find_job_record(id);
	return job_ptr && IS_JOB_PENDING(job_ptr) && job_ptr->priority;
}

/*
 * One decision pass of the engine; its starts become grants.  A job it
 * chose that slurmctld no longer has waiting leaves at once and the pass
 * runs again for the nodes it held: a pending job cancelled and purged
 * (MinJobAge) before a sync saw it, which Slurm 24.11 does not tell us
 * (no select_p_job_signal).  Each round removes a job: it ends.
 * Returns how many jobs the pass granted or removed.
 */
static size_t _grant_pass(time_t now)
{
	size_t changed = 0, ngone;

	do {
		const struct coalloc_start *starts;
		size_t n = coalloc_engine_schedule(engine, now, &starts);
		uint32_t *gone = xcalloc(n ? n : 1, sizeof(*gone));

		ngone = 0;
		grants = xrecalloc(grants, ngrants + n, sizeof(*grants));
		for (size_t i = 0; i < n; i++) {
			if (!_still_waiting(starts[i].id)) {
				gone[ngone++] = starts[i].id;
				continue;
			}
			grants[ngrants].when = now;
			grants[ngrants].start = starts[i];
			ngrants++;
		}
		for (size_t i = 0; i < ngone; i++) {
			debug("%s: JobId=%u is gone from slurmctld: it leaves the policy engine",
			      plugin_type, gone[i]);
			coalloc_engine_depart(engine, gone[i]);
		}
		xfree(gone);
		changed += n;
	} while (ngone);
	return changed;
}

/*
 * A job that will not start after all: a granted one gives its grant
 * back (the engine counts it as running), a queued one leaves its queue.
 * The engine ignores a cancel of a job it has running.
 */
static void _withdraw_locked(uint32_t id)
{
	struct grant *g = _find_grant(id);

	if (g) {
		coalloc_engine_depart(engine, id);
		_drop_grant(g);
	} else {
		coalloc_engine_cancel(engine, id);
	}
}

/* ------------------------------------------------------------ routing */

/*
 * The engine queue of a job (lib/coalloc's coalloc_route: the
 * simulator's rule too), or QUEUE_BYPASS when the policy does not manage
 * it: it asks for given nodes, or its partition is no queue's.
 */
#define QUEUE_BYPASS (-100)

/*
 * The policy jobs are routed by: the engine's, which the last reset built
 * from coalloc.conf, or the configuration's before there is one.  Caller
 * holds queues_mutex.
 */
static enum coalloc_policy _policy_locked(void)
{
	return engine ? coalloc_engine_policy(engine) : coalloc_sites_policy();
}

static enum coalloc_policy _policy(void)
{
	enum coalloc_policy policy;

	slurm_mutex_lock(&queues_mutex);
	policy = _policy_locked();
	slurm_mutex_unlock(&queues_mutex);
	return policy;
}

static const char *_partition(job_record_t *job_ptr)
{
	return job_ptr->part_ptr ? job_ptr->part_ptr->name : NULL;
}

/* Given nodes, or a partition that is no queue's: whatever it asks. */
static bool _bypasses(job_record_t *job_ptr)
{
	const char *part = _partition(job_ptr);

	if (job_ptr->details && job_ptr->details->req_node_bitmap)
		return true;
	return coalloc_local_site_of_partition(part) < 0 &&
	       !coalloc_is_global_partition(part);
}

static int _route(job_record_t *job_ptr, enum coalloc_policy policy,
		  const struct coalloc_request *req)
{
	int origin = coalloc_local_site_of_partition(_partition(job_ptr));

	if (_bypasses(job_ptr))
		return QUEUE_BYPASS;
	return coalloc_route(policy, req,
			     origin < 0 ? COALLOC_ORIGIN_NONE : origin);
}

/* The engine request of a job, from its request on the sites. */
static int _request(job_record_t *job_ptr, enum coalloc_policy policy,
		    struct coalloc_request *req, char *err, size_t err_len)
{
	struct coalloc_shape shape;

	memset(req, 0, sizeof(*req));
	if (coalloc_job_shape(job_ptr, &shape, err, err_len) < 0)
		return -1;
	coalloc_request_from_shape(&shape, job_ptr->job_id,
				   job_ptr->details ?
				   job_ptr->details->submit_time : time(NULL),
				   req);
	req->queue = _route(job_ptr, policy, req);
	return 0;
}

/* Asked of every pending job outside the engine at each sync: the
 * bypass is told apart before the job's request is read. */
static bool _manages(job_record_t *job_ptr, enum coalloc_policy policy)
{
	struct coalloc_request req;
	char err[ERRBUF_LEN];

	return !_bypasses(job_ptr) &&
	       !_request(job_ptr, policy, &req, err, sizeof(err)) &&
	       req.queue != QUEUE_BYPASS;
}

bool coalloc_queues_manage(job_record_t *job_ptr)
{
	return _manages(job_ptr, _policy());
}

int coalloc_queues_valid(job_record_t *job_ptr)
{
	struct coalloc_request req;
	enum coalloc_policy policy = _policy();
	char err[ERRBUF_LEN];

	if (_request(job_ptr, policy, &req, err, sizeof(err))) {
		info("%s: %pJ: %s", plugin_type, job_ptr, err);
		return -1;
	}
	if (req.queue == COALLOC_ROUTE_WRONG_SITE) {
		info("%s: %pJ: --coalloc names another site than the one of its partition %s; submit it to GlobalPartition or to that site's partition",
		     plugin_type, job_ptr, job_ptr->part_ptr->name);
		return -1;
	}
	if (req.queue == COALLOC_ROUTE_NO_LOCAL) {
		info("%s: %pJ: Policy=%s puts single-component jobs in local queues, not in GlobalPartition; submit it to a site's partition or with --coalloc",
		     plugin_type, job_ptr,
		     coalloc_policy_name(policy));
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------ engine */

/* The sites of a running job and nodes per site, from its node bitmap. */
static int _placement(job_record_t *job_ptr, struct coalloc_request *req,
		      uint16_t *site)
{
	uint32_t per_site[COALLOC_MAX_SITES] = { 0 };
	int nsites = coalloc_site_count();

	if (!job_ptr->node_bitmap || nsites > COALLOC_MAX_SITES)
		return -1;
	for (int i = 0; i < node_record_count; i++) {
		int s = coalloc_site_of_node(i);

		if (s >= 0 && bit_test(job_ptr->node_bitmap, i))
			per_site[s]++;
	}
	memset(req, 0, sizeof(*req));
	req->id = job_ptr->job_id;
	req->queue = COALLOC_QUEUE_GLOBAL;
	for (int s = 0; s < nsites; s++) {
		if (!per_site[s])
			continue;
		site[req->ncomp] = s;
		req->size[req->ncomp++] = per_site[s];
	}
	return req->ncomp ? 0 : -1;
}

/*
 * A job that runs without the engine's grant: count its nodes as used in
 * its row (row < 0: a preempting job, outside the engine's rows).
 */
static void _add_running_locked(job_record_t *job_ptr, int row)
{
	struct coalloc_request req;
	uint16_t site[COALLOC_MAX_SITES];
	int rc;

	if (!engine || row < 0 || _placement(job_ptr, &req, site))
		return;
	req.row = row;
	rc = coalloc_engine_add_running(engine, &req, site);
	if (rc && rc != -EEXIST)
		error("%s: %pJ runs outside the policy and its nodes could not be counted (%s)",
		      plugin_type, job_ptr, strerror(-rc));
}

/* Running jobs and their engine rows, read from the matrix. */
struct active_jobs {
	job_record_t **job;
	int *row;
	size_t n;
};

static int _collect_active(void *x, void *arg)
{
	job_record_t *job_ptr = x;
	struct active_jobs *a = arg;

	if (IS_JOB_RUNNING(job_ptr) || IS_JOB_SUSPENDED(job_ptr)) {
		a->job[a->n] = job_ptr;
		a->row[a->n++] = node_usage_engine_row(job_ptr->job_id);
	}
	return 0;
}

/* Engine rows and capacities for the matrix of coalloc.conf. */
static void _engine_shape(struct coalloc_config *cfg, int nsites)
{
	struct coalloc_matrix_settings m;
	bool preempt;

	coalloc_sites_matrix(&m, &preempt);
	for (int s = 0; s < nsites; s++)
		cfg->site_procs[s] = coalloc_site_nodes(s);
	if (m.mode == COALLOC_CONF_MATRIX_GANG) {
		cfg->rows = m.mpl;		/* a job takes one row */
	} else if (m.mode == COALLOC_CONF_MATRIX_LOCAL) {
		for (int s = 0; s < nsites; s++)	/* MPL jobs per node */
			cfg->site_procs[s] *= m.mpl;
	}
}

/*
 * Disabled queues, kept across a reconfiguration or a restart with the
 * job then at their head (a record holds only while that job still
 * heads the queue: coalloc_engine_disable_queue).  Applied once the
 * pending jobs are back in the queues, at the first sync after a reset.
 */
static struct coalloc_statefile_queue disabled_queues[COALLOC_MAX_SITES + 1];
static bool disabled_due;	/* apply them at the next sync */

/*
 * Who hears that the queues changed, or that waiting jobs need their
 * reasons back: the status writer, registered by init
 * (coalloc_queues_notify).  A callback, not a call, because status.c
 * reads the queues: neither file calls back into the other.
 */
static void (*tell_changed)(void), (*tell_reasons_due)(void);

void coalloc_queues_notify(void (*changed)(void), void (*reasons_due)(void))
{
	__atomic_store_n(&tell_changed, changed, __ATOMIC_RELEASE);
	__atomic_store_n(&tell_reasons_due, reasons_due, __ATOMIC_RELEASE);
}

static void _tell_changed(void)
{
	void (*fn)(void) = __atomic_load_n(&tell_changed, __ATOMIC_ACQUIRE);

	if (fn)
		fn();
}

static void _tell_reasons_due(void)
{
	void (*fn)(void) = __atomic_load_n(&tell_reasons_due,
					   __ATOMIC_ACQUIRE);

	if (fn)
		fn();
}
static size_t ndisabled;	/* > 0: to restore after the next reset */

/* The queues that hold jobs and are disabled, with their heads, into
 * out; how many. */
static size_t _disabled_locked(struct coalloc_statefile_queue *out)
{
	size_t n = 0;

	for (int q = COALLOC_QUEUE_GLOBAL;
	     engine && q < (int) coalloc_engine_nsites(engine); q++)
		if (coalloc_engine_queue_length(engine, q) &&
		    !coalloc_engine_queue_enabled(engine, q))
			out[n++] = (struct coalloc_statefile_queue){
				.queue = q,
				.head = coalloc_engine_queue_head(engine, q) };
	return n;
}

static void _remember_disabled_locked(void)
{
	if (!ndisabled)
		ndisabled = _disabled_locked(disabled_queues);
}

static void _restore_disabled_locked(void)
{
	for (size_t i = 0; i < ndisabled; i++) {
		struct coalloc_statefile_queue *d = &disabled_queues[i];
		int rc = coalloc_engine_disable_queue(engine, d->queue,
						      d->head);

		log_flag(SELECT_TYPE, "%s: queue %d (head JobId=%u) %s",
			 plugin_type, d->queue, d->head,
			 !rc ? "stays disabled" :
			 rc == -ESTALE ? "enabled: its head has changed" :
			 "is not the policy's: enabled");
	}
	ndisabled = 0;
	disabled_due = false;
}

int coalloc_queues_reset(list_t *jobs)
{
	struct coalloc_config cfg;
	struct active_jobs active = { 0 };
	int nsites = coalloc_site_count();

	if (jobs) {	/* the matrix lock is taken before ours, never after */
		size_t cap = list_count(jobs) + 1;

		active.job = xcalloc(cap, sizeof(*active.job));
		active.row = xcalloc(cap, sizeof(*active.row));
		node_usage_lock();
		list_for_each(jobs, _collect_active, &active);
		node_usage_unlock();
	}
	slurm_mutex_lock(&queues_mutex);
	_remember_disabled_locked();
	coalloc_engine_destroy(engine);
	engine = NULL;
	ngrants = 0;
	memset(&last_walk, 0, sizeof(last_walk));
	sliced.active = false;	/* a walk begun for the old engine starts over */
	if (nsites < 1 || nsites > COALLOC_MAX_SITES) {
		error("%s: %d sites: the policy engine handles 1 to %d",
		      plugin_type, nsites, COALLOC_MAX_SITES);
		goto done;
	}
	coalloc_config_init(&cfg, coalloc_sites_policy(), nsites, 1);
	_engine_shape(&cfg, nsites);
	coalloc_sites_engine_settings(&cfg);
	engine = coalloc_engine_create(&cfg);
	for (size_t i = 0; engine && i < active.n; i++)
		_add_running_locked(active.job[i], active.row[i]);
	disabled_due = engine && jobs;
done:
	slurm_mutex_unlock(&queues_mutex);
	xfree(active.job);
	xfree(active.row);
	_tell_changed();
	return engine ? SLURM_SUCCESS : SLURM_ERROR;
}

void coalloc_queues_save(FILE *fp)
{
	struct coalloc_statefile_queue queues[COALLOC_MAX_SITES + 1];
	size_t n;

	slurm_mutex_lock(&queues_mutex);
	if (ndisabled) {	/* restored, not applied yet: kept as read */
		n = ndisabled;
		memcpy(queues, disabled_queues, n * sizeof(*queues));
	} else {
		n = _disabled_locked(queues);
	}
	slurm_mutex_unlock(&queues_mutex);
	for (size_t i = 0; i < n; i++)
		if (queues[i].head)	/* 0.9's records hold no head: none */
			fprintf(fp, "queue %d disabled %u\n",
				queues[i].queue, queues[i].head);
}

void coalloc_queues_restore(const struct coalloc_statefile *st)
{
	slurm_mutex_lock(&queues_mutex);
	for (size_t i = 0; i < st->nqueues; i++)
		if (ndisabled < COALLOC_MAX_SITES + 1)
			disabled_queues[ndisabled++] = st->queues[i];
	slurm_mutex_unlock(&queues_mutex);
}

void coalloc_queues_fini(void)
{
	slurm_mutex_lock(&queues_mutex);
	coalloc_engine_destroy(engine);
	engine = NULL;
	xfree(grants);
	ngrants = 0;
	xfree(told);
	ntold = told_cap = 0;
	xfree(sliced.fresh);
	sliced.nfresh = sliced.fresh_cap = 0;
	sliced.active = false;
	slurm_mutex_unlock(&queues_mutex);
}

/* ------------------------------------------------------------ sync */

/*
 * A walk of slurmctld's job table: a pending job the engine does not
 * know joins it, a job the engine has that no longer waits (cancelled,
 * held, purged) leaves it.  The new jobs are kept by id, and join in
 * submit order at the end of the walk.  The status thread walks in
 * slices of WALK_SLICE jobs, each under a job read lock of its own, so
 * that no hold of the lock grows with the table; a slice starts where
 * the last one ended (a job purged meanwhile shifts the list by one: a
 * job then seen twice is harmless, one skipped is seen at the next walk).
 */
static void _fresh_add(struct walk *w, job_record_t *job_ptr)
{
	if (w->nfresh == w->fresh_cap) {
		w->fresh_cap = w->fresh_cap ? 2 * w->fresh_cap : 64;
		xrecalloc(w->fresh, w->fresh_cap, sizeof(*w->fresh));
	}
	w->fresh[w->nfresh].submit = job_ptr->details ?
				     job_ptr->details->submit_time : 0;
	w->fresh[w->nfresh].id = job_ptr->job_id;
	w->nfresh++;
}

static int _walk_one(void *x, void *arg)
{
	job_record_t *job_ptr = x;
	struct walk *w = arg;

	if (w->pos++ < w->skip)
		return 0;	/* an earlier slice's: not even read */
	if (w->pos > w->skip + w->budget)
		return -1;	/* the next slice's */
	if (IS_JOB_PENDING(job_ptr) && job_ptr->priority) {
		/* held jobs (priority 0) wait outside the queues */
		if (coalloc_engine_job_state(engine, job_ptr->job_id) ==
		    COALLOC_JOB_UNKNOWN && _manages(job_ptr, _policy_locked()))
			_fresh_add(w, job_ptr);
	} else if (!IS_JOB_RUNNING(job_ptr) && !IS_JOB_SUSPENDED(job_ptr) &&
		   coalloc_engine_job_state(engine, job_ptr->job_id) !=
		   COALLOC_JOB_UNKNOWN) {
		_withdraw_locked(job_ptr->job_id);
	}
	return 0;
}

static void _walk_begin(struct walk *w, int count, time_t now)
{
	w->skip = 0;
	w->nfresh = 0;
	w->submitted = 0;
	w->walked = false;
	w->stamp = _table_stamp();
	w->count = count;
	w->clock = now;
	w->active = true;
}

static int _by_submit(const void *x, const void *y)
{
	const struct fresh_job *a = x, *b = y;

	if (a->submit != b->submit)
		return a->submit < b->submit ? -1 : 1;
	return (a->id > b->id) - (a->id < b->id);
}

/* One slice of at most budget jobs; whether it reached the table's end. */
static bool _walk_slice(struct walk *w, size_t budget)
{
	w->pos = 0;
	w->budget = budget;
	if (list_for_each_ro(job_list, _walk_one, w) >= 0) {
		if (w->nfresh)	/* in submit order (_walk_end) */
			qsort(w->fresh, w->nfresh, sizeof(*w->fresh),
			      _by_submit);
		return true;
	}
	w->skip += budget;
	return false;
}

/* A new pending job joins the engine's queues, if it still waits. */
static void _submit_fresh(uint32_t id)
{
	job_record_t *job_ptr = find_job_record ? find_job_record(id) : NULL;
	struct coalloc_request req;
	char err[ERRBUF_LEN];
	int rc;

	if (!job_ptr || !IS_JOB_PENDING(job_ptr) || !job_ptr->priority ||
	    coalloc_engine_job_state(engine, id) != COALLOC_JOB_UNKNOWN)
		return;
	/* a request the sites cannot take (they changed since its
	 * submit) stays pending outside the queues */
	if (_request(job_ptr, _policy_locked(), &req, err, sizeof(err))) {
		debug("%s: %pJ not queued in the policy engine: %s",
		      plugin_type, job_ptr, err);
		return;
	}
	if (req.queue < COALLOC_QUEUE_GLOBAL)
		return;
	rc = coalloc_engine_submit(engine, &req);
	if (rc)
		debug("%s: %pJ not queued in the policy engine: %s",
		      plugin_type, job_ptr, strerror(-rc));
}

/*
 * Queued jobs slurmctld no longer has waiting leave their queues.  A walk
 * sees a cancelled job only until slurmctld purges it (MinJobAge, checked
 * every 10 s at the least), and Slurm 24.11 tells a select plugin nothing
 * of a pending job's cancel: one purged before a walk reached it stayed
 * counted until it came to its queue's head (28-cancel-purged, under
 * load).  One lookup in slurmctld's job hash per queued job, once a walk.
 */
static void _sweep_gone_locked(void)
{
	size_t n = coalloc_engine_pending(engine);
	uint32_t *ids;

	if (!n || !find_job_record)
		return;
	ids = xcalloc(n, sizeof(*ids));
	n = coalloc_engine_pending_ids(engine, ids, n);
	for (size_t i = 0; i < n; i++)
		if (!_still_waiting(ids[i]))
			_withdraw_locked(ids[i]);
	xfree(ids);
}

/*
 * The walk's new jobs join in submit order, at most budget of them (the
 * first walk after a restart finds every pending job new: the status
 * thread adds them a slice at a time too); once all have joined, the
 * sync is recorded.  Returns whether all have.
 */
static bool _walk_end(struct walk *w, size_t budget)
{
	size_t until;

	until = w->nfresh - w->submitted > budget ? w->submitted + budget :
						     w->nfresh;
	for (; w->submitted < until; w->submitted++)
		_submit_fresh(w->fresh[w->submitted].id);
	if (w->submitted < w->nfresh)
		return false;
	_sweep_gone_locked();
	last_walk.stamp = w->stamp;
	last_walk.count = w->count;
	last_walk.clock = w->clock;
	w->active = false;
	w->walked = false;
	w->nfresh = 0;
	w->submitted = 0;
	return true;
}

/* Grants not used in time (nodes down, job held) go back to the engine. */
static void _expire_grants(time_t now)
{
	for (size_t i = 0; i < ngrants;) {
		if (now - grants[i].when < GRANT_TIMEOUT) {
			i++;
			continue;
		}
		info("%s: JobId=%u did not start within %ds of its turn; it queues again",
		     plugin_type, grants[i].start.id, GRANT_TIMEOUT);
		coalloc_engine_depart(engine, grants[i].start.id);
		_drop_grant(&grants[i]);
	}
}

/* After a walk: records back at their heads, the status to rewrite. */
static void _after_walk(void)
{
	if (disabled_due)	/* the heads are back: the records can hold */
		_restore_disabled_locked();
	_tell_changed();
}

/* A whole walk at once: a job_test call's, under the scheduler's locks. */
static void _sync_locked(time_t now)
{
	struct walk w = { 0 };
	struct coalloc_timer_start t0;
	int count;

	_expire_grants(now);
	if (!job_list)
		return;
	count = list_count(job_list);
	if (!coalloc_walk_due(&last_walk, _table_stamp(), count, now))
		return;
	t0 = coalloc_timer_start();
	_walk_begin(&w, count, now);
	(void) _walk_slice(&w, SIZE_MAX);
	(void) _walk_end(&w, SIZE_MAX);
	xfree(w.fresh);
	coalloc_timer_add(COALLOC_TIMER_JOB_WALK, &t0);
	_after_walk();
}

/* ------------------------------------------------------------ API */

static void _remember_told_locked(uint32_t id)
{
	/* Bounded, should the status thread never come to empty the list. */
	if ((ntold && told[ntold - 1] == id) || ntold >= TOLD_MAX)
		return;
	if (ntold == told_cap) {
		told_cap = told_cap ? 2 * told_cap : 64;
		xrecalloc(told, told_cap, sizeof(*told));
	}
	told[ntold++] = id;
}

static void _set_reason(job_record_t *job_ptr, time_t now)
{
	struct coalloc_reason reason;
	char buf[256], site[128] = "";

	/* the engine numbers sites; users know them by name */
	coalloc_engine_reason(engine, job_ptr->job_id, now, &reason);
	if (reason.queue != COALLOC_QUEUE_GLOBAL)
		coalloc_site_name_copy(reason.queue, site, sizeof(site));
	coalloc_reason_format(&reason, site, buf, sizeof(buf));
	xfree(job_ptr->state_desc);
	job_ptr->state_desc = xstrdup_printf(REASON_PREFIX "%s", buf);
	/*
	 * The reason slurmctld leaves to the select plugin (its other
	 * reasons would overwrite our text): squeue and scontrol show the
	 * text, not the reason's name.  Not kept by 24.11 (slurm_compat.h):
	 * coalloc_queues_restore_reasons() sets it again.
	 */
	job_ptr->state_reason = COALLOC_WAIT_SELECT;
}

int coalloc_queues_turn(job_record_t *job_ptr, struct coalloc_start *start)
{
	time_t now = time(NULL);
	struct grant *g;
	int rc = -1;

	slurm_mutex_lock(&queues_mutex);
	if (!engine)
		goto done;
	_sync_locked(now);
	if (!(g = _find_grant(job_ptr->job_id))) {
		if (_grant_pass(now))
			_tell_changed();
		g = _find_grant(job_ptr->job_id);
	}
	if (g) {
		*start = g->start;
		rc = 0;
	} else {
		_set_reason(job_ptr, now);
		_remember_told_locked(job_ptr->job_id);
	}
done:
	slurm_mutex_unlock(&queues_mutex);
	if (rc)
		_tell_reasons_due();
	return rc;
}

/*
 * What a will-run test (backfill, squeue --start) may say of a managed
 * job: it holds a grant or gets one at the next pass, it heads its queue
 * and waits only for room (it
 * starts once nodes free: an estimate makes sense), or the policy holds
 * it (another queue goes first, jobs ahead, a drain): no estimate.  No
 * grant pass: backfill asks for every pending job, and an estimate must
 * not change who goes next.
 */
enum coalloc_outlook coalloc_queues_outlook(job_record_t *job_ptr)
{
	enum coalloc_outlook outlook = COALLOC_OUTLOOK_HELD;
	time_t now = time(NULL);

	slurm_mutex_lock(&queues_mutex);
	if (!engine)
		goto done;
	_sync_locked(now);
	if (_find_grant(job_ptr->job_id)) {
		outlook = COALLOC_OUTLOOK_GRANTED;
		goto done;
	}
	switch (coalloc_engine_why(engine, job_ptr->job_id, now, NULL, 0)) {
	case COALLOC_WHY_ELIGIBLE:	/* granted at the next pass: backfill
					 * may start it, as the main pass would */
		outlook = COALLOC_OUTLOOK_GRANTED;
		break;
	case COALLOC_WHY_NO_ROOM:
	case COALLOC_WHY_NO_ROW:
	case COALLOC_WHY_QUEUE_DISABLED:	/* enabled at a departure */
		outlook = COALLOC_OUTLOOK_WAITS_FOR_NODES;
		break;
	default:
		break;
	}
done:
	slurm_mutex_unlock(&queues_mutex);
	return outlook;
}

/*
 * The text of every job told why it waits, again where slurmctld has since
 * replaced it by its generic "Resources": Slurm 24.11's select_nodes()
 * does so after every failed job test, and a backfill pass on either
 * release.  Other reasons (held, dependency, limits) are slurmctld's and
 * stay.  Called with slurmctld's job write lock held (status.c).
 */
void coalloc_queues_restore_reasons(void)
{
	time_t now = time(NULL);
	bool changed = false;

	slurm_mutex_lock(&queues_mutex);
	for (size_t i = 0; engine && find_job_record && i < ntold; i++) {
		job_record_t *job_ptr = find_job_record(told[i]);

		if (!job_ptr || !IS_JOB_PENDING(job_ptr) ||
		    job_ptr->state_reason != WAIT_RESOURCES ||
		    !xstrncmp(job_ptr->state_desc, REASON_PREFIX,
			      strlen(REASON_PREFIX)))
			continue;
		_set_reason(job_ptr, now);
		changed = true;
	}
	ntold = 0;
	slurm_mutex_unlock(&queues_mutex);
	if (changed && &last_job_update)
		last_job_update = now;
}

void coalloc_queues_begin(job_record_t *job_ptr, int engine_row)
{
	struct grant *g;

	slurm_mutex_lock(&queues_mutex);
	if ((g = _find_grant(job_ptr->job_id))) {
		_drop_grant(g);
	} else if (engine) {
		/* started without a grant: bypassing, or recovered */
		if (coalloc_engine_job_state(engine, job_ptr->job_id) ==
		    COALLOC_JOB_PENDING)
			coalloc_engine_cancel(engine, job_ptr->job_id);
		_add_running_locked(job_ptr, engine_row);
	}
	slurm_mutex_unlock(&queues_mutex);
	_tell_changed();
}

void coalloc_queues_fini_job(job_record_t *job_ptr)
{
	struct grant *g;

	slurm_mutex_lock(&queues_mutex);
	if (engine) {
		if ((g = _find_grant(job_ptr->job_id)))
			_drop_grant(g);
		if (coalloc_engine_depart(engine, job_ptr->job_id) == -EINVAL)
			coalloc_engine_cancel(engine, job_ptr->job_id);
	}
	slurm_mutex_unlock(&queues_mutex);
	_tell_changed();
}

static json_object *_queue_json(int queue, const char *name)
{
	json_object *q = json_object_new_object();

	json_object_object_add(q, "name", json_object_new_string(name));
	json_object_object_add(q, "length", json_object_new_int64(
				       coalloc_engine_queue_length(engine, queue)));
	json_object_object_add(q, "enabled", json_object_new_boolean(
				       coalloc_engine_queue_enabled(engine, queue)));
	return q;
}

void coalloc_queues_json(json_object *root)
{
	json_object *queues = json_object_new_array();

	slurm_mutex_lock(&queues_mutex);
	if (engine) {
		enum coalloc_policy policy = coalloc_engine_policy(engine);

		if (coalloc_policy_has_global(policy))
			json_object_array_add(queues, _queue_json(
				COALLOC_QUEUE_GLOBAL, "global"));
		for (unsigned s = 0; coalloc_policy_has_local(policy) &&
				     s < coalloc_engine_nsites(engine); s++) {
			char name[128];

			json_object_array_add(queues, _queue_json(s,
				coalloc_site_name_copy(s, name, sizeof(name))));
		}
		json_object_object_add(root, "pending", json_object_new_int64(
					       coalloc_engine_pending(engine)));
		json_object_object_add(root, "running", json_object_new_int64(
					       coalloc_engine_running(engine)));
	}
	slurm_mutex_unlock(&queues_mutex);
	json_object_object_add(root, "queues", queues);
}

/*
 * The engine's queues brought up to slurmctld's job table between the
 * scheduler's questions: one slice of a walk (job read lock held,
 * status.c, which calls again, under a lock of its own, until true).
 */
bool coalloc_queues_sync_slice(void)
{
	time_t now = time(NULL);
	bool done = true;
	struct coalloc_timer_start t0;

	slurm_mutex_lock(&queues_mutex);
	if (!engine || !job_list) {
		sliced.active = false;
		goto out;
	}
	if (!sliced.active) {
		int count = list_count(job_list);

		_expire_grants(now);
		if (!coalloc_walk_due(&last_walk, _table_stamp(), count, now))
			goto out;
		_walk_begin(&sliced, count, now);
	}
	/* one slice's work a call: WALK_SLICE jobs walked, or as many new
	 * ones added once the walk reached the table's end */
	t0 = coalloc_timer_start();
	if (!sliced.walked) {
		sliced.walked = _walk_slice(&sliced, WALK_SLICE);
		done = sliced.walked && !sliced.nfresh && _walk_end(&sliced, 0);
	} else {
		done = _walk_end(&sliced, WALK_SLICE);
	}
	coalloc_timer_add(COALLOC_TIMER_JOB_WALK, &t0);
	if (done)
		_after_walk();
out:
	slurm_mutex_unlock(&queues_mutex);
	return done;
}

/* scancel of a pending job: 22.05's only word to us about pending jobs. */
void coalloc_queues_withdraw(job_record_t *job_ptr)
{
	slurm_mutex_lock(&queues_mutex);
	if (engine)
		_withdraw_locked(job_ptr->job_id);
	slurm_mutex_unlock(&queues_mutex);
	_tell_changed();
}
