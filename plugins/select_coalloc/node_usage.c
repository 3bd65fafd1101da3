/*
 * node_usage.c - which jobs hold each node: the Ousterhout matrix of
 * slurmctld's nodes (lib/coalloc/matrix.h), one column per node.
 *
 *   Matrix=off    one row: a node is held by at most one job;
 *   Matrix=gang   MPL rows: a job takes one row, the active row runs and
 *                 the others are suspended (timeslice.c rotates them);
 *                 with a TimeSlice below a second, Slurm sees every row
 *                 running and the node agents switch them (gang_tables.c
 *                 sends them the rows, lib/cosched_proto/gang.h);
 *   Matrix=local  up to MPL jobs per node, all running.
 * With PreemptPartition a priority row 0 comes first: its jobs run at
 * once, and only the jobs they overlap are suspended (the others run on
 * as replicas in row 0).
 *
 * Jobs' rows are saved in StateSaveLocation/coalloc_state (with the
 * active row and the disabled queues) and restored at start-up; a job
 * without a saved row is placed where it fits, running jobs first.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#include "coalloc/matrix.h"
#include "select_coalloc.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"

/* A job's row from before a restart or reconfiguration. */
struct saved_row {
	uint32_t id;
	int row;
};

static pthread_mutex_t usage_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct coalloc_matrix *matrix;
/* The settings of the matrix now built (the sites' copy at its reset). */
static struct coalloc_matrix_settings settings;
static bool preempt;		/* a priority row (PreemptPartition) */
static int first_row;		/* 1 with a priority row */
/* The slice is over and held for a launch (timeslice.c): no job the
 * switch would stop starts. */
static bool draining;
/* The row job_test chose, for select_p_job_begin (same job, same locks). */
static struct saved_row planned;
/* Rows to restore at the next reset. */
static struct saved_row *saved;
static size_t nsaved;
static int saved_active = -1;
/* When the matrix last changed (wall clock, us): orders gang tables. */
static uint64_t epoch_us;

/*
 * Who hears that the matrix changed: the gang tables' sender, registered
 * by init (node_usage_on_change).  A callback, not a call, because
 * gang_tables.c reads the matrix.
 */
static void (*on_change)(void);

void node_usage_on_change(void (*kick)(void))
{
	__atomic_store_n(&on_change, kick, __ATOMIC_RELEASE);
}

/* A change the node agents must hear of: a newer epoch, never an equal
 * one, even with the clock stepped back. */
static void _changed(void)
{
	void (*kick)(void) = __atomic_load_n(&on_change, __ATOMIC_ACQUIRE);

	struct timespec ts;
	uint64_t now;

	clock_gettime(CLOCK_REALTIME, &ts);
	now = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
	epoch_us = now > epoch_us ? now : epoch_us + 1;
	if (kick)
		kick();
}

void node_usage_lock(void)
{
	slurm_mutex_lock(&usage_mutex);
}

void node_usage_unlock(void)
{
	slurm_mutex_unlock(&usage_mutex);
}

void node_usage_fini(void)
{
	node_usage_lock();
	coalloc_matrix_destroy(matrix);
	matrix = NULL;
	xfree(saved);
	nsaved = 0;
	node_usage_unlock();
}

bool node_usage_ready(void)
{
	return matrix != NULL;
}

bool node_usage_local(void)
{
	return settings.mode == COALLOC_CONF_MATRIX_LOCAL;
}

bool node_usage_fast_gang(void)
{
	return coalloc_conf_fast_gang(&settings);
}

bool node_usage_gang_guard(void)
{
	return settings.gang_guard;
}

bool node_usage_agent_tables(void)
{
	return coalloc_conf_agent_tables(&settings);
}

/* Rows slurmctld suspends and resumes (not those the agents switch). */
bool node_usage_time_sliced(void)
{
	return (settings.mode == COALLOC_CONF_MATRIX_GANG || preempt) &&
	       !node_usage_fast_gang();
}

unsigned node_usage_time_slice_ms(void)
{
	return settings.time_slice_ms;
}

unsigned node_usage_gang_port_offset(void)
{
	return settings.gang_port_offset;
}

uint64_t node_usage_epoch(void)
{
	return epoch_us;
}

size_t node_usage_column_jobs(int node_inx, uint32_t *ids, uint32_t *rows,
			      size_t max)
{
	if (!matrix || node_inx < 0 || node_inx >= node_record_count)
		return 0;
	return coalloc_matrix_column_jobs(matrix, (unsigned)node_inx, ids,
					  rows, max);
}

/* The ordinary rows holding some job's own cells (bit r: row r): the
 * agents skip the others, as node_usage_rotate() does. */
uint32_t node_usage_busy_rows(void)
{
	uint32_t busy = 0;

	for (int r = first_row; matrix && r < node_usage_rows(); r++)
		if (coalloc_matrix_row_busy(matrix, (unsigned)r, false))
			busy |= 1u << r;
	return busy;
}

bool node_usage_priority_busy(void)
{
	return matrix && preempt && coalloc_matrix_priority_busy(matrix);
}

unsigned node_usage_time_slice(void)
{
	return settings.time_slice;
}

int node_usage_first_row(void)
{
	return first_row;
}

int node_usage_rows(void)
{
	return matrix ? (int) coalloc_matrix_rows(matrix) : 1;
}

/* The job running on a node now (active row, or any in local mode). */
uint32_t node_usage_holder(int node_inx)
{
	if (!matrix || node_inx < 0 || node_inx >= node_record_count)
		return 0;
	if (!node_usage_local())
		return coalloc_matrix_cell(matrix,
					   coalloc_matrix_active_row(matrix),
					   node_inx, NULL);
	for (unsigned r = 0; r < coalloc_matrix_rows(matrix); r++) {
		uint32_t id = coalloc_matrix_cell(matrix, r, node_inx, NULL);

		if (id)
			return id;
	}
	return 0;
}

uint32_t node_usage_cell(int row, int node_inx, bool *replica)
{
	if (!matrix)
		return 0;
	return coalloc_matrix_cell(matrix, row, node_inx, replica);
}

void node_usage_set_draining(bool on)
{
	draining = on;
}

bool node_usage_draining(void)
{
	return draining;
}

/* A gang slice's end would activate another row. */
bool node_usage_switch_due(void)
{
	return matrix && settings.mode == COALLOC_CONF_MATRIX_GANG &&
	       coalloc_matrix_next_row(matrix) !=
	       coalloc_matrix_active_row(matrix);
}

int node_usage_next_row(void)
{
	return matrix ? (int)coalloc_matrix_next_row(matrix) : 0;
}

/* It has cells (home or replica) in the row. */
bool node_usage_job_in_row(uint32_t job_id, int row)
{
	return matrix && row >= 0 &&
	       coalloc_matrix_job_in_row(matrix, job_id, (unsigned)row);
}

int node_usage_active_row(void)
{
	return matrix ? (int) coalloc_matrix_active_row(matrix) : 0;
}

uint32_t *node_usage_snapshot(int row)
{
	uint32_t *held = xcalloc(node_record_count ? node_record_count : 1,
				 sizeof(*held));

	for (int i = 0; matrix && i < node_record_count; i++) {
		if (coalloc_matrix_cell_usable(matrix, row < 0 ? 0 : row, i))
			continue;
		/* a job that blocks the cell, for WILL_RUN's releases */
		held[i] = coalloc_matrix_cell(matrix, row < 0 ? 0 : row, i,
					      NULL);
		if (!held[i])
			held[i] = node_usage_holder(i);
		if (!held[i])
			held[i] = NO_VAL;
	}
	return held;
}

/* A job waits for 'row' to become active (job_test's "not now"). */
void node_usage_want_row(int row)
{
	if (matrix && row >= 0 && !coalloc_matrix_want_row(matrix, row))
		log_flag(SELECT_TYPE, "%s: a waiting job wants row %d",
			 plugin_type, row);
}

void node_usage_plan(uint32_t job_id, int row)
{
	planned.id = job_id;
	planned.row = row;
}

/* The columns of a job, ascending; NULL (and *n 0) without nodes. */
static uint32_t *_job_cols(job_record_t *job_ptr, unsigned *n)
{
	uint32_t *cols;

	*n = 0;
	if (!job_ptr->node_bitmap ||
	    bit_size(job_ptr->node_bitmap) != node_record_count) {
		if (job_ptr->node_bitmap)
			error("%s: %pJ node bitmap has %"PRId64" bits, node table %d",
			      plugin_type, job_ptr,
			      bit_size(job_ptr->node_bitmap), node_record_count);
		return NULL;
	}
	cols = xcalloc(node_record_count ? node_record_count : 1,
		       sizeof(*cols));
	for (int i = 0; i < node_record_count; i++)
		if (bit_test(job_ptr->node_bitmap, i))
			cols[(*n)++] = i;
	return cols;
}

static int _place(job_record_t *job_ptr, int row, bool priority)
{
	unsigned n;
	uint32_t *cols = _job_cols(job_ptr, &n);
	int rc = -EINVAL;

	if (cols && n)
		rc = coalloc_matrix_place_at(matrix, job_ptr->job_id, row,
					     cols, n, priority);
	xfree(cols);
	return rc;
}

static bool _preempting(job_record_t *job_ptr)
{
	return preempt && job_ptr->part_ptr &&
	       coalloc_is_preempt_partition(job_ptr->part_ptr->name);
}

/*
 * Put a job in the matrix: in the row job_test planned, or a saved one,
 * else the first row where its nodes are free, else (a job that runs
 * anyway: rebuilt, or started by an admin) the first row at all.
 */
static int _add_locked(job_record_t *job_ptr, int want)
{
	bool priority = _preempting(job_ptr);
	int row = -ENOSPC;

	if (priority) {
		row = _place(job_ptr, 0, true);
	} else {
		if (want >= first_row && want < node_usage_rows())
			row = _place(job_ptr, want, false);
		if (row < 0 && row != -EEXIST)
			row = _place(job_ptr, -1, false);
	}
	if (row == -EEXIST)
		return coalloc_matrix_job_row(matrix, job_ptr->job_id);
	if (row < 0)
		error("%s: %pJ has no room in the matrix on its nodes (%s): it runs outside it",
		      plugin_type, job_ptr, strerror(-row));
	else
		log_flag(SELECT_TYPE, "%s: %pJ holds %d nodes in row %d%s",
			 plugin_type, job_ptr,
			 bit_set_count(job_ptr->node_bitmap), row,
			 priority ? " (priority row)" : "");
	coalloc_matrix_replicate(matrix);
	_changed();
	return row;
}

int node_usage_add_job(job_record_t *job_ptr)
{
	int want = -1;

	if (!matrix)
		return -1;
	if (planned.id == job_ptr->job_id)
		want = planned.row;
	planned.id = 0;
	return _add_locked(job_ptr, want);
}

int node_usage_job_row(uint32_t job_id)
{
	return matrix ? coalloc_matrix_job_row(matrix, job_id) : -ENOENT;
}

/* The row the policy engine knows the job in (-1: not in the engine). */
int node_usage_engine_row(uint32_t job_id)
{
	int row = node_usage_job_row(job_id);

	if (row < 0)
		return 0;	/* runs outside the matrix: count it anyway */
	if (coalloc_matrix_job_priority(matrix, job_id))
		return -1;
	if (settings.mode != COALLOC_CONF_MATRIX_GANG)
		return 0;
	return row - first_row;
}

/* Whether Slurm must see it running: with the agents switching rows,
 * every job does. */
bool node_usage_job_runs(uint32_t job_id)
{
	return !matrix || node_usage_fast_gang() ||
	       coalloc_matrix_job_runs(matrix, job_id);
}

bool node_usage_has_job(uint32_t job_id)
{
	return matrix && coalloc_matrix_job_row(matrix, job_id) >= 0;
}

void node_usage_remove_job(job_record_t *job_ptr)
{
	if (matrix && !coalloc_matrix_remove(matrix, job_ptr->job_id)) {
		coalloc_matrix_replicate(matrix);
		_changed();
		log_flag(SELECT_TYPE, "%s: %pJ released its nodes",
			 plugin_type, job_ptr);
	}
}

/* A job shrank: place it again on the nodes it kept, in the same row. */
void node_usage_remove_node(job_record_t *job_ptr, int node_inx)
{
	int row = node_usage_job_row(job_ptr->job_id);

	(void) node_inx;	/* the job's bitmap no longer names it */
	if (row < 0)
		return;
	coalloc_matrix_remove(matrix, job_ptr->job_id);
	_add_locked(job_ptr, row);
}

/*
 * Which row runs: the priority row while it holds a preempting job; when
 * it no longer does, the next row; in gang mode the next row every time
 * slice; and never a row that runs nothing.  True when it changed.
 */
bool node_usage_rotate(bool slice_over)
{
	unsigned before;
	bool prio = preempt;

	if (!matrix || node_usage_local())
		return false;
	before = coalloc_matrix_active_row(matrix);
	if (node_usage_fast_gang())	/* the agents switch by the clock */
		return false;
	if (prio && coalloc_matrix_row_busy(matrix, 0, false)) {
		coalloc_matrix_set_active(matrix, 0);
	} else if ((prio && before == 0) ||
		   !coalloc_matrix_row_busy(matrix, before, true) ||
		   (slice_over && settings.mode == COALLOC_CONF_MATRIX_GANG)) {
		coalloc_matrix_rotate(matrix);
		/* replicas alone keep a row busy: leave the priority row */
		if (prio && coalloc_matrix_active_row(matrix) == 0 &&
		    node_usage_rows() > 1)
			coalloc_matrix_set_active(matrix, first_row);
	}
	if (coalloc_matrix_active_row(matrix) == before)
		return false;
	draining = false;
	_changed();	/* the guarded agents' tables name the running rows */
	return true;
}

/* ------------------------------------------------------------ rebuild */

static struct saved_row *_saved_for(uint32_t id)
{
	for (size_t i = 0; i < nsaved; i++)
		if (saved[i].id == id)
			return &saved[i];
	return NULL;
}

/* Rebuild pass 'pass': 0 saved rows, 1 running jobs, 2 suspended ones. */
static int _add_in_pass(void *x, void *arg)
{
	job_record_t *job_ptr = x;
	int pass = *(int *) arg;
	struct saved_row *s;

	if (!IS_JOB_RUNNING(job_ptr) && !IS_JOB_SUSPENDED(job_ptr))
		return 0;
	s = _saved_for(job_ptr->job_id);
	if (pass == 0 && s)
		_add_locked(job_ptr, s->row);
	else if (pass == 1 && !s && IS_JOB_RUNNING(job_ptr))
		_add_locked(job_ptr, -1);
	else if (pass == 2 && !s && IS_JOB_SUSPENDED(job_ptr))
		_add_locked(job_ptr, -1);
	return 0;
}

/* Every job in the matrix with its home row, into a new array. */
static struct saved_row *_collect_locked(size_t *n)
{
	size_t cap = coalloc_matrix_jobs(matrix);
	uint32_t *ids = xcalloc(cap + 1, sizeof(*ids));
	struct saved_row *out = xcalloc(cap + 1, sizeof(*out));

	*n = coalloc_matrix_job_ids(matrix, ids, cap);
	for (size_t i = 0; i < *n; i++) {
		out[i].id = ids[i];
		out[i].row = coalloc_matrix_job_row(matrix, ids[i]);
	}
	xfree(ids);
	return out;
}

/* Keep the rows of the jobs in the matrix for the rebuild that follows. */
static void _save_current_locked(void)
{
	if (!matrix || nsaved || !coalloc_matrix_jobs(matrix))
		return;
	xfree(saved);
	saved = _collect_locked(&nsaved);
	saved_active = coalloc_matrix_active_row(matrix);
}

static struct coalloc_matrix *_create(void)
{
	struct coalloc_matrix_config cfg = {
		.rows = settings.mpl + (preempt ? 1 : 0),
		.cols = node_record_count ? node_record_count : 1,
		.mode = settings.mode == COALLOC_CONF_MATRIX_LOCAL ?
			COALLOC_MATRIX_LOCAL : COALLOC_MATRIX_GANG,
		.priority_row = preempt,
	};
	struct coalloc_matrix *m = coalloc_matrix_create(&cfg);

	if (!m)
		error("%s: cannot create a %u x %u matrix: %m", plugin_type,
		      cfg.rows, cfg.cols);
	return m;
}

/* Resets so far (node_usage_resets). */
static unsigned resets;

unsigned node_usage_resets(void)
{
	return resets;
}

int node_usage_reset(list_t *jobs)
{
	node_usage_lock();
	resets++;
	draining = false;
	_save_current_locked();
	coalloc_matrix_destroy(matrix);
	coalloc_sites_matrix(&settings, &preempt);
	first_row = preempt ? 1 : 0;
	planned.id = 0;
	matrix = _create();
	if (matrix && jobs) {
		for (int pass = 0; pass < 3; pass++)
			list_for_each(jobs, _add_in_pass, &pass);
		if (saved_active >= 0 &&
		    coalloc_matrix_set_active(matrix, saved_active) == 0)
			log_flag(SELECT_TYPE, "%s: active row %d restored",
				 plugin_type, saved_active);
		else
			coalloc_matrix_set_active(matrix, first_row);
		node_usage_rotate(false);
		xfree(saved);
		nsaved = 0;
		saved_active = -1;
	}
	_changed();
	node_usage_unlock();
	return matrix ? SLURM_SUCCESS : SLURM_ERROR;
}

/* ------------------------------------------------------------ state */

void node_usage_save(FILE *fp)
{
	struct saved_row *rows;
	size_t n;

	node_usage_lock();
	if (matrix) {
		rows = _collect_locked(&n);
		fprintf(fp, "active %u\n", coalloc_matrix_active_row(matrix));
		for (size_t i = 0; i < n; i++)
			fprintf(fp, "job %u %d\n", rows[i].id, rows[i].row);
		xfree(rows);
	}
	node_usage_unlock();
}

/* The rows of a state file (state.c), for the next rebuild. */
void node_usage_restore(const struct coalloc_statefile *st)
{
	node_usage_lock();
	if (st->has_active)
		saved_active = (int)st->active;
	saved = xrecalloc(saved, nsaved + st->njobs, sizeof(*saved));
	for (size_t i = 0; i < st->njobs; i++) {
		saved[nsaved].id = st->jobs[i].id;
		saved[nsaved].row = (int)st->jobs[i].row;
		nsaved++;
	}
	node_usage_unlock();
}
