/*
 * timeslice.c - the thread that makes the matrix true on the nodes.
 *
 * Every TimeSlice (Matrix=gang) the active row changes; at once when a
 * job starts outside the active row, a preempting job arrives or a job
 * leaves (coalloc_timeslice_kick).  Each time the thread compares the
 * matrix with slurmctld's job states and suspends the jobs that must not
 * run and resumes those that must, through slurmctld's own job_suspend(),
 * so slurmd really stops and continues their processes and slurmctld
 * accounts the suspended time as it does for Slurm's gang scheduler.
 *
 * A job waits for its row's turn rather than starting beside the active
 * row (job_test.c); at each switch the thread asks slurmctld to schedule,
 * so the jobs waiting for the new row start at once.  A slice does not end
 * within LAUNCH_GRACE of the start of a job the switch stops; held so, it
 * lets no such job start (node_usage_draining), else steady starts would
 * hold the other rows back for good.
 *
 * After a restart slurmctld's job states may be older than what the nodes
 * did (a switch cut by a crash: a node got the resume but not the
 * suspend).  The first pass with the matrix rebuilt therefore sends every
 * job of the matrix the suspend or resume its row calls for, even one
 * slurmctld believes already there (slurmd takes both twice harmlessly).
 *
 * With GangGuard=yes the node agents hold the rows too (gang_tables.c):
 * slurmd holds a suspend back while a job's launch on the node completes
 * (up to 9 s) and carries out the other row's resume at once; the agent
 * keeps the entering row frozen until it froze the leaving one.
 *
 * A suspend and the resume that follows it can also reach a node in the
 * other order (each goes in an agent thread of its own), and the node
 * then keeps the job stopped while slurmctld has it running.  So every
 * suspend or resume is sent again twice, 3 s and 11 s later, if slurmctld
 * and the matrix still agree on it (lib/coalloc/resend.h): the last word
 * each node hears is the newest.
 *
 * Locks, in the order every path takes them: slurmctld's (job and node
 * write, as for a suspend RPC), then the matrix mutex.  The matrix mutex
 * is dropped before job_suspend(), which calls back into
 * select_p_job_suspend()/resume().  Jobs an admin suspended (scontrol
 * suspend sets their priority to 0) are left alone.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <pthread.h>
#include <time.h>

#include "select_coalloc.h"
#include "coalloc/resend.h"
#include "src/common/xmalloc.h"
#include "src/common/node_conf.h"
#include "src/slurmctld/agent.h"
#include "src/slurmctld/job_scheduler.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/state_save.h"

/*
 * slurmctld's own functions: weak, so that Slurm's commands (which load
 * every select plugin, with immediate binding) can load us; the thread
 * runs only inside slurmctld, where they exist.
 */
#pragma weak job_suspend
#pragma weak find_job_record
#pragma weak lock_slurmctld
#pragma weak unlock_slurmctld
#pragma weak schedule_job_save
#pragma weak schedule
#pragma weak agent_queue_request
#pragma weak set_agent_arg_r_uid

static void *_timeslice_main(void *arg);
static struct coalloc_worker worker =
	COALLOC_WORKER("coalloc_slice", _timeslice_main);
static bool ts_reassert = true;	/* first pass of this slurmctld to come */
/* The matrix reset (node_usage_resets) whose one-row pass is done. */
static unsigned ts_one_row_done = (unsigned)-1;
static struct coalloc_resend ts_resend;	/* the thread's own */

/* With nothing to rotate the thread still wakes now and then, to catch a
 * job state it could not change the first time. */
#define IDLE_CHECK 10

/*
 * A time slice does not end within LAUNCH_GRACE seconds of a job's start
 * in the active row.  Suspended then, the job's batch script stops with
 * the srun in it while srun is still launching its tasks; srun misses
 * their messages and the step never ends (18-ctld-faults.t, a fresh-clone
 * run of 2026-11-24: the queued job stuck for 4 minutes).  slurmd itself
 * holds a suspend up to 9 s for a job's launch on the node.
 */
#define LAUNCH_GRACE 10
static time_t ts_slice_held_until;	/* set by _apply, read by the loop */

struct todo {
	time_t now;
	size_t cap;		/* of each array */
	uint32_t *suspend, *resume;
	size_t nsuspend, nresume;
	bool reassert;		/* the state slurmctld believes too */
	uint32_t *again_suspend, *again_resume;
	size_t nagain_suspend, nagain_resume;
};

/* Every operation sent is sent again later (see the top of this file). */
static void _note(struct todo *t, uint32_t job_id, enum coalloc_resend_op op)
{
	if (coalloc_resend_note(&ts_resend, job_id, op, t->now))
		error("%s: JobId=%u: no memory to send its %s again",
		      plugin_type, job_id,
		      op == COALLOC_RESEND_SUSPEND ? "suspend" : "resume");
}

static int _compare_job(void *x, void *arg)
{
	job_record_t *job_ptr = x;
	struct todo *t = arg;
	bool runs;

	if (!IS_JOB_RUNNING(job_ptr) && !IS_JOB_SUSPENDED(job_ptr))
		return 0;
	if (!node_usage_has_job(job_ptr->job_id))
		return 0;
	runs = node_usage_job_runs(job_ptr->job_id);
	if (IS_JOB_RUNNING(job_ptr) && !runs)
		t->suspend[t->nsuspend++] = job_ptr->job_id;
	else if (IS_JOB_SUSPENDED(job_ptr) && runs && job_ptr->priority)
		t->resume[t->nresume++] = job_ptr->job_id;
	else if (t->reassert && IS_JOB_SUSPENDED(job_ptr) && !runs)
		t->again_suspend[t->nagain_suspend++] = job_ptr->job_id;
	else if (t->reassert && IS_JOB_RUNNING(job_ptr) && runs)
		t->again_resume[t->nagain_resume++] = job_ptr->job_id;
	else
		return 0;
	_note(t, job_ptr->job_id,
	      runs ? COALLOC_RESEND_RESUME : COALLOC_RESEND_SUSPEND);
	return 0;
}

/*
 * The resends due now, for the jobs slurmctld and the matrix still agree
 * on: a job whose state changed since (it ended, an admin suspended it, or
 * this pass changes it) is left out.  With both locks held.
 */
static void _add_due_resends(struct todo *t)
{
	size_t used = MAX(t->nagain_suspend, t->nagain_resume);
	size_t room = t->cap - used, n;
	struct coalloc_resend_item *due;

	if (!room || !coalloc_resend_count(&ts_resend))
		return;
	due = xcalloc(room, sizeof(*due));
	n = coalloc_resend_due(&ts_resend, t->now, due, room);
	for (size_t i = 0; i < n; i++) {
		job_record_t *job_ptr = find_job_record(due[i].job);
		bool runs;

		if (!job_ptr)
			continue;
		/* a job a smaller matrix has no room for runs outside it
		 * (_collect_ours_suspended): its resume is resent too */
		runs = !node_usage_has_job(due[i].job) ||
		       node_usage_job_runs(due[i].job);
		if (due[i].op == COALLOC_RESEND_SUSPEND &&
		    IS_JOB_SUSPENDED(job_ptr) && !runs)
			t->again_suspend[t->nagain_suspend++] = due[i].job;
		else if (due[i].op == COALLOC_RESEND_RESUME &&
			 IS_JOB_RUNNING(job_ptr) && runs)
			t->again_resume[t->nagain_resume++] = due[i].job;
	}
	xfree(due);
}

/*
 * Send slurmd a suspend or resume for a job in the state slurmctld already
 * has it in (job_suspend() refuses those): no accounting changes, only the
 * nodes brought in line.  Best effort, as slurmctld's own (no retry).
 */
static void _suspend_again(uint32_t job_id, uint16_t op, const char *why)
{
	job_record_t *job_ptr = find_job_record(job_id);
	suspend_int_msg_t *msg;
	agent_arg_t *args;

	if (!job_ptr || !job_ptr->node_bitmap || !job_ptr->details)
		return;
	args = xmalloc(sizeof(*args));
	args->msg_type = REQUEST_SUSPEND_INT;
	args->hostlist = hostlist_create(NULL);
	args->protocol_version = SLURM_PROTOCOL_VERSION;
	for (int i = 0; i < node_record_count; i++) {
		node_record_t *node_ptr = node_record_table_ptr[i];

		if (!node_ptr || !bit_test(job_ptr->node_bitmap, i))
			continue;
		hostlist_push_host(args->hostlist, node_ptr->name);
		args->node_count++;
		if (node_ptr->protocol_version < args->protocol_version)
			args->protocol_version = node_ptr->protocol_version;
	}
	if (!args->node_count) {
		FREE_NULL_HOSTLIST(args->hostlist);
		xfree(args);
		return;
	}
	msg = xmalloc(sizeof(*msg));
	coalloc_suspend_msg_target(msg, job_ptr);
	msg->op = op;
	coalloc_suspend_int_core_spec(msg, job_ptr->details->core_spec);
	args->msg_args = msg;
	set_agent_arg_r_uid(args, SLURM_AUTH_UID_ANY);
	agent_queue_request(args);
	log_flag(SELECT_TYPE, "%s: %s JobId=%u again (%s)",
		 plugin_type, op == SUSPEND_JOB ? "suspended" : "resumed",
		 job_id, why);
}

/*
 * job_suspend() marks the job active (time_last_active), as for an admin's
 * suspend; ours come every TimeSlice, and a batch job that no slurmd runs
 * any more (its end lost by a slurmctld crash) is purged only once it was
 * not active for ~20 s when its batch node registers: keep the mark.
 * slurmd's registrations still mark the jobs it does run.
 */
/* False: Slurm refused (logged here). */
static bool _suspend_op(uint32_t job_id, uint16_t op)
{
	suspend_msg_t msg = { .op = op };
	job_record_t *job_ptr = find_job_record(job_id);
	time_t last_active;
	int rc;

	if (!job_ptr)	/* gone since the table was made: nothing to do */
		return true;
	last_active = job_ptr->time_last_active;
	coalloc_suspend_msg_target(&msg, job_ptr);
	rc = coalloc_job_suspend(&msg);

	if ((job_ptr = find_job_record(job_id)))
		job_ptr->time_last_active = last_active;
	xfree(msg.job_id_str);
	if (rc != SLURM_SUCCESS) {
		info("%s: %s JobId=%u: %s", plugin_type,
		     op == SUSPEND_JOB ? "suspending" : "resuming", job_id,
		     slurm_strerror(rc));
		return false;
	}
	log_flag(SELECT_TYPE, "%s: %s JobId=%u", plugin_type,
		 op == SUSPEND_JOB ? "suspended" : "resumed", job_id);
	return true;
}

struct youngest {
	int next_row;		/* the row the switch activates */
	time_t start;		/* of the youngest job it stops */
};

static int _find_youngest_stopped(void *x, void *arg)
{
	job_record_t *job_ptr = x;
	struct youngest *y = arg;

	/* a job the switch leaves running (a replica in the next row)
	 * needs no grace */
	if (IS_JOB_RUNNING(job_ptr) && job_ptr->start_time > y->start &&
	    node_usage_job_runs(job_ptr->job_id) &&
	    !node_usage_job_in_row(job_ptr->job_id, y->next_row))
		y->start = job_ptr->start_time;
	return 0;
}

/* Until when the running row must go on (LAUNCH_GRACE) before the switch
 * to the next row, or 0.  With both locks held. */
static time_t _launch_grace_until(time_t now)
{
	struct youngest y = { .next_row = node_usage_next_row() };

	if (job_list)
		list_for_each(job_list, _find_youngest_stopped, &y);
	return y.start + LAUNCH_GRACE > now ? y.start + LAUNCH_GRACE : 0;
}

static int _collect_ours_suspended(void *x, void *arg)
{
	job_record_t *job_ptr = x;
	struct todo *t = arg;

	/* priority 0: an admin's or user's suspend, which stays theirs; a
	 * job the smaller matrix has no room for runs outside it */
	if (IS_JOB_SUSPENDED(job_ptr) && job_ptr->priority &&
	    (!node_usage_has_job(job_ptr->job_id) ||
	     node_usage_job_runs(job_ptr->job_id)) && t->nresume < t->cap)
		t->resume[t->nresume++] = job_ptr->job_id;
	return 0;
}

/*
 * One row, so nothing to suspend: once after each reset (a
 * reconfiguration to Matrix=off or MPL=1) and after a restart, resume
 * every job a row switch left suspended, so that none stays stopped
 * until an admin resumes it.  The pass is done once all resumes went
 * through; one Slurm refused is tried again at the next idle check.
 * Each resume is sent again like a switch's (resend.h): the switch's
 * suspend may still be on its way to slurmd, which then loses the resume
 * (21-gang-switch: a job RUNNING for slurmctld, stopped on both nodes).
 * Other passes touch no job list unless a resend is due.
 */
static bool _resume_left_suspended(unsigned now_resets)
{
	slurmctld_lock_t lock = { .job = WRITE_LOCK, .node = WRITE_LOCK,
				  .fed = READ_LOCK };
	struct todo t = { .now = time(NULL) };
	bool owed = now_resets != ts_one_row_done || ts_reassert;
	size_t failed = 0;

	if (!owed && coalloc_resend_wait(&ts_resend, t.now) != 0)
		return false;
	lock_slurmctld(lock);
	t.cap = (job_list ? list_count(job_list) : 0) + 1;
	t.resume = xcalloc(t.cap, sizeof(uint32_t));
	t.again_suspend = xcalloc(t.cap, sizeof(uint32_t));
	t.again_resume = xcalloc(t.cap, sizeof(uint32_t));
	node_usage_lock();
	/* a reconfiguration may have made rows since the caller looked:
	 * then the next pass rotates them, and this one has nothing to do */
	if (node_usage_rows() <= 1) {
		if (owed && job_list)
			list_for_each(job_list, _collect_ours_suspended, &t);
		_add_due_resends(&t);
	}
	node_usage_unlock();
	for (size_t i = 0; i < t.nresume; i++) {
		if (_suspend_op(t.resume[i], RESUME_JOB))
			_note(&t, t.resume[i], COALLOC_RESEND_RESUME);
		else
			failed++;
	}
	for (size_t i = 0; i < t.nagain_resume; i++)
		_suspend_again(t.again_resume[i], RESUME_JOB,
			       "in case the last was overtaken");
	unlock_slurmctld(lock);
	if (owed && !failed) {
		ts_one_row_done = now_resets;
		ts_reassert = false;
	}
	if (t.nresume > failed) {
		info("%s: one row now: resumed %zu job(s) a row switch had suspended",
		     plugin_type, t.nresume - failed);
		schedule_job_save();
		coalloc_status_changed();
	}
	xfree(t.resume);
	xfree(t.again_suspend);
	xfree(t.again_resume);
	return t.nresume > failed;
}

/* One pass: rotate if due, then suspend and resume.  True: a change. */
static bool _apply(bool slice_over)
{
	slurmctld_lock_t lock = {
		.job = WRITE_LOCK, .node = WRITE_LOCK, .fed = READ_LOCK };
	struct todo t = { .now = time(NULL) };
	const char *why = ts_reassert ? "after a restart" : "in case the last was overtaken";
	bool rotated, shared, ready;
	unsigned resets;

	ts_slice_held_until = 0;
	node_usage_lock();
	/* no matrix yet (a start, a backup controller before it takes
	 * over): nothing is known, and the pass after a restart is owed */
	ready = node_usage_ready();
	shared = node_usage_rows() > 1;
	resets = node_usage_resets();
	node_usage_unlock();
	if (!ready)
		return false;
	if (!shared)	/* one row: nothing to rotate or suspend */
		return _resume_left_suspended(resets);
	lock_slurmctld(lock);
	t.cap = job_list ? list_count(job_list) + 1 : 1;
	t.suspend = xcalloc(t.cap, sizeof(uint32_t));
	t.resume = xcalloc(t.cap, sizeof(uint32_t));
	t.again_suspend = xcalloc(t.cap, sizeof(uint32_t));
	t.again_resume = xcalloc(t.cap, sizeof(uint32_t));
	t.reassert = ts_reassert;
	ts_reassert = false;
	node_usage_lock();
	/* held only when the slice's end would stop the running row */
	ts_slice_held_until = slice_over && node_usage_switch_due() ?
			      _launch_grace_until(t.now) : 0;
	if (slice_over)	/* held: no job the switch stops starts now */
		node_usage_set_draining(ts_slice_held_until != 0);
	if (ts_slice_held_until) {
		log_flag(SELECT_TYPE, "%s: the slice goes on until %ld: a job of the running row started less than %d s ago",
			 plugin_type, (long) ts_slice_held_until, LAUNCH_GRACE);
		slice_over = false;
	}
	rotated = node_usage_rotate(slice_over);
	if (rotated)
		log_flag(SELECT_TYPE, "%s: row %d active", plugin_type,
			 node_usage_active_row());
	if (job_list)
		list_for_each(job_list, _compare_job, &t);
	_add_due_resends(&t);
	node_usage_unlock();
	/* stop the leaving row first: the nodes are never oversubscribed */
	for (size_t i = 0; i < t.nagain_suspend; i++)
		_suspend_again(t.again_suspend[i], SUSPEND_JOB, why);
	for (size_t i = 0; i < t.nsuspend; i++)
		_suspend_op(t.suspend[i], SUSPEND_JOB);
	for (size_t i = 0; i < t.nresume; i++)
		_suspend_op(t.resume[i], RESUME_JOB);
	for (size_t i = 0; i < t.nagain_resume; i++)
		_suspend_again(t.again_resume[i], RESUME_JOB, why);
	unlock_slurmctld(lock);
	if (t.nsuspend || t.nresume) {
		schedule_job_save();
		coalloc_status_changed();
	} else if (rotated) {
		coalloc_status_changed();
	}
	if (rotated) {
		/* guarded rows: each node's agent hears of the switch before
		 * the jobs waiting for the new row start (gang_tables.c) */
		coalloc_gang_tables_send_now();
		schedule(false);	/* those jobs start now */
	}
	xfree(t.suspend);
	xfree(t.resume);
	xfree(t.again_suspend);
	xfree(t.again_resume);
	return rotated || t.nsuspend || t.nresume;
}

/* The next slice, or an earlier resend. */
static time_t _wake_at(time_t now, time_t next_slice)
{
	int64_t wait = coalloc_resend_wait(&ts_resend, now);

	return (wait >= 0 && now + wait < next_slice) ? now + wait : next_slice;
}

static void *_timeslice_main(void *arg)
{
	struct coalloc_worker *w = arg;
	time_t next_slice = 0;

	if (coalloc_resend_init(&ts_resend))
		fatal("%s: no memory for the time-slicing thread", plugin_type);
	slurm_mutex_lock(&w->mutex);
	while (!w->stopping) {
		time_t now = time(NULL), wake;
		bool sliced, slice_over, due;
		unsigned slice;

		node_usage_lock();
		sliced = node_usage_time_sliced();
		slice = node_usage_time_slice();
		node_usage_unlock();
		/* unsliced: an idle check every IDLE_CHECK s (it used to be
		 * put off at every wake-up, so it never came) */
		if (!next_slice || (!sliced && next_slice > now + IDLE_CHECK))
			next_slice = now + (sliced ? slice : IDLE_CHECK);
		wake = _wake_at(now, next_slice);
		if (!w->kicked && now < wake) {
			struct timespec until = { .tv_sec = wake };

			(void) coalloc_worker_wait(w, &until);
			continue;	/* the state again, or stop */
		}
		due = now >= next_slice;
		slice_over = sliced && due;
		(void) coalloc_worker_take_kick(w);
		slurm_mutex_unlock(&w->mutex);
		_apply(slice_over);
		slurm_mutex_lock(&w->mutex);
		if (slice_over)
			next_slice = ts_slice_held_until ? ts_slice_held_until :
				     time(NULL) + slice;
		else if (due)
			next_slice = time(NULL) + IDLE_CHECK;
	}
	slurm_mutex_unlock(&w->mutex);
	coalloc_resend_free(&ts_resend);
	return NULL;
}

void coalloc_timeslice_start(void)
{
	if (!job_suspend || !lock_slurmctld || !unlock_slurmctld ||
	    !schedule_job_save || !schedule || !agent_queue_request ||
	    !set_agent_arg_r_uid || !find_job_record) {
		error("%s: slurmctld's suspend functions are missing: no time slicing",
		      plugin_type);
		return;
	}
	coalloc_worker_start(&worker);
}

void coalloc_timeslice_stop(void)
{
	coalloc_worker_stop(&worker);
}

/* Called with the matrix lock held or not: only the worker's is taken. */
void coalloc_timeslice_kick(void)
{
	coalloc_worker_kick(&worker);
}
