/*
 * engine.h - the co-allocation decision engine.
 *
 * One engine object holds the whole state of a multicluster system as
 * Bucur and Epema model it (section 2): C sites with N_i processors each,
 * one FCFS local queue per site and one FCFS global queue, jobs with 1..C
 * components ("unordered requests": the job names sizes, the engine picks
 * the sites by Worst Fit), and one of the queue policies of policy.h with
 * its enable/disable rules.
 *
 * The engine is pure: no Slurm headers, no global state, no clock of its
 * own (the caller passes times in), and deterministic for a seed (the
 * seed feeds the random choices of the *-RD policies only).  The select
 * plugin and the simulator drive the same code:
 *
 *	submit(job)      a job joins its queue
 *	schedule(now)    one decision pass; returns the jobs to start now
 *	depart(id)       a running job leaves; queues are re-enabled
 *	cancel(id)       a pending job is withdrawn (scancel)
 *	add_running(job) a job already running (rebuilt after a restart)
 *	why(id)          why a pending job has not started (for squeue)
 *
 * Times are doubles in a unit the caller picks (the plugin: seconds; the
 * simulator: mean service times); they only matter for aging.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_ENGINE_H
#define COALLOC_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "coalloc/limits.h"
#include "coalloc/order.h"
#include "coalloc/placement.h"
#include "coalloc/policy.h"

/* Most rows (gang matrix) an engine models. */
#define COALLOC_MAX_ROWS 17

/* aging_wait value that turns aging off (the paper's policies, unchanged). */
#define COALLOC_AGING_OFF 0.0
/* Default aging wait for the plugin, in its time unit (seconds): 1 hour. */
#define COALLOC_AGING_DEFAULT_WAIT 3600.0

struct coalloc_config {
	enum coalloc_policy policy;
	unsigned nsites;			/* C, 1..COALLOC_MAX_SITES */
	uint32_t site_procs[COALLOC_MAX_SITES];	/* N_i, each > 0 */
	uint64_t seed;				/* for the *-RD policies */
	/*
	 * Aging: when > 0, a pending job that has waited at least this long
	 * is "starving"; the queue of the oldest starving job is served
	 * first, whatever the policy says, and while that job does not fit
	 * no other queue starts a job (the system drains for it), so it
	 * starts after a bounded number of departures.
	 */
	double aging_wait;
	/*
	 * Rows of a gang matrix (1: none).  Every row offers each site its
	 * site_procs processors; a job takes all its processors in one row,
	 * the first row (lowest index) where Worst Fit places it, so the
	 * engine's counts match a matrix of processors x rows exactly.
	 */
	unsigned rows;
	/*
	 * The order in which each queue offers its jobs (order.h): fcfs, the
	 * paper's (0, the default), or firstfit or smallest, where a job
	 * that fits starts though an earlier one does not.  A queue is then
	 * disabled when none of its jobs fits.
	 */
	enum coalloc_queue_order order;
};

/*
 * Fill cfg with nsites sites of procs processors each, one row, seed 1 and
 * the plugin's default aging (COALLOC_AGING_DEFAULT_WAIT).  Paper
 * reproductions set aging_wait = COALLOC_AGING_OFF afterwards.
 */
void coalloc_config_init(struct coalloc_config *cfg,
			 enum coalloc_policy policy, unsigned nsites,
			 uint32_t procs);

/*
 * A job as submitted: component sizes in any order.  An unordered request
 * (type 0, the paper's) leaves the sites to Worst Fit; an ordered one
 * names the site of some components (want_site[k], or COALLOC_SITE_ANY);
 * a flexible one asks for total processors over as few sites as hold
 * them, and belongs in the global queue wherever there is one.
 */
struct coalloc_request {
	uint32_t id;				/* e.g. the Slurm job id */
	enum coalloc_request_type type;		/* sizes.h; 0: unordered */
	unsigned ncomp;				/* 1..nsites; flexible: 0 */
	uint32_t size[COALLOC_MAX_SITES];	/* processors per component */
	int16_t want_site[COALLOC_MAX_SITES];	/* ordered only */
	uint32_t total;				/* flexible only */
	int queue;		/* COALLOC_QUEUE_GLOBAL or a site index */
	double submit_time;
	unsigned row;		/* add_running only: the row it runs in */
};

/*
 * A decision: start job id now.  Components are listed in decreasing
 * order of size (the order Worst Fit placed them); component k goes to
 * site[k], all on distinct sites.
 */
struct coalloc_start {
	uint32_t id;
	int queue;
	unsigned row;				/* its row (0 without rows) */
	unsigned ncomp;
	uint32_t size[COALLOC_MAX_SITES];
	uint16_t site[COALLOC_MAX_SITES];
};

/* Why a job has not started (coalloc_engine_why). */
enum coalloc_why {
	COALLOC_WHY_ELIGIBLE,		/* starts at the next pass */
	COALLOC_WHY_RUNNING,		/* not pending: it runs */
	COALLOC_WHY_UNKNOWN_JOB,	/* the engine does not know the id */
	COALLOC_WHY_NOT_HEAD,		/* jobs ahead of it in its FCFS queue */
	COALLOC_WHY_QUEUE_DISABLED,	/* its head did not fit: disabled
					 * until the next departure */
	COALLOC_WHY_NO_ROOM,		/* head of an enabled queue, no fit */
	COALLOC_WHY_HELD_GLOBAL_NONEMPTY, /* GP: global queue non-empty */
	COALLOC_WHY_HELD_NO_LOCAL_EMPTY,  /* LP: every local queue busy */
	COALLOC_WHY_HELD_GLOBAL_LONGER,   /* LQ: global longer than all */
	COALLOC_WHY_HELD_GLOBAL_SHORTER,  /* LQ: global not longest */
	COALLOC_WHY_AGING_DRAIN,	/* draining for a starving job */
	COALLOC_WHY_NO_ROW,		/* matrix: no room in any row */
	COALLOC_WHY_COUNT
};

/* A short fixed string for a reason, e.g. "queue disabled". */
const char *coalloc_why_str(enum coalloc_why why);

/*
 * Why a job waits, in numbers: all a caller needs to say it in its own
 * words (the plugin names sites, the tests number them).
 */
struct coalloc_reason {
	enum coalloc_why why;
	bool known;			/* the engine knows the job */
	int queue;			/* COALLOC_QUEUE_GLOBAL or a site */
	size_t queue_len;		/* jobs waiting in that queue */
	size_t global_len;		/* jobs waiting in the global queue */
	unsigned ncomp;			/* the job's components, 0: flexible */
	uint32_t largest;		/* its largest component; flexible:
					 * its total */
	enum coalloc_policy policy;
	enum coalloc_queue_order order;	/* what "head" means (order.h) */
};

/*
 * The reason as one line.  A local queue is named by its site's name
 * ("local queue of siteA"), or numbered ("local queue 2") when site_name
 * is NULL or empty.  reason.c.
 */
void coalloc_reason_format(const struct coalloc_reason *r,
			   const char *site_name, char *buf, size_t len);

struct coalloc_engine;

/* NULL with errno set (EINVAL for a bad config, ENOMEM) on failure. */
struct coalloc_engine *coalloc_engine_create(const struct coalloc_config *cfg);
void coalloc_engine_destroy(struct coalloc_engine *e);

/*
 * Queue a job.  Returns 0; -EINVAL for a malformed request or a queue the
 * policy does not route this job to (see coalloc_policy_queue_for(); a
 * single-component ordered request belongs to the local queue of the
 * site it names);
 * -EEXIST for a known id; -E2BIG when it could never fit, even on an
 * empty system; -ENOMEM.
 */
int coalloc_engine_submit(struct coalloc_engine *e,
			  const struct coalloc_request *req);

/*
 * One decision pass at time now.  Returns how many jobs to start and
 * points *starts at them (engine-owned, valid until the next call that
 * changes the engine).  The engine already counts them as running.
 */
size_t coalloc_engine_schedule(struct coalloc_engine *e, double now,
			       const struct coalloc_start **starts);

/*
 * A running job leaves: its processors are released and the queues are
 * enabled again in the order the policy defines.  Returns 0, -ENOENT for
 * an unknown id, -EINVAL when the job is pending (use cancel).
 */
int coalloc_engine_depart(struct coalloc_engine *e, uint32_t id);

/*
 * Withdraw a pending job.  When it headed a disabled queue, that queue is
 * enabled again: the job that did not fit is gone, and its successor has
 * not been tried.  Returns 0, -ENOENT, or -EINVAL when it is running.
 */
int coalloc_engine_cancel(struct coalloc_engine *e, uint32_t id);

/*
 * Record a job that already runs with a given placement (site[k] holds
 * size[k], any order), e.g. rebuilt from Slurm's job records at restart.
 * It bypasses the queues and the policy.  Returns 0, -EINVAL for a
 * malformed request or placement (repeated or unknown site), -EEXIST,
 * -ENOSPC when a site lacks the idle processors, -ENOMEM.
 */
int coalloc_engine_add_running(struct coalloc_engine *e,
			       const struct coalloc_request *req,
			       const uint16_t *site);

/* Whether the engine holds a job, and as what. */
enum coalloc_job_state {
	COALLOC_JOB_UNKNOWN,
	COALLOC_JOB_PENDING,
	COALLOC_JOB_RUNNING,
};

/*
 * A lookup, in constant time: unlike coalloc_engine_why, it does not
 * work out why a pending job waits (a placement search).  The plugin
 * asks it of every job in slurmctld's table at each sync.
 */
enum coalloc_job_state coalloc_engine_job_state(const struct coalloc_engine *e,
						uint32_t id);

/* Why a job has not started at time now, with the numbers (r may be NULL). */
enum coalloc_why coalloc_engine_reason(const struct coalloc_engine *e,
				       uint32_t id, double now,
				       struct coalloc_reason *r);

/*
 * The same; when buf is not NULL, coalloc_reason_format's line with the
 * queues numbered ("local queue 2").
 */
enum coalloc_why coalloc_engine_why(const struct coalloc_engine *e,
				    uint32_t id, double now,
				    char *buf, size_t len);

/*
 * Restore a queue's disabled state (saved across a restart or a
 * reconfiguration, with the job then at its head): a disabled queue
 * starts nothing until the next departure.  The record holds only while
 * head_id is still the queue's head: a queue whose head has left (or was
 * never said, head_id 0) stays enabled, and its head is tried as after a
 * departure.  Under QueueOrder=firstfit and smallest no record holds:
 * there every submission enables its queue, and after a restart the
 * jobs come back as submissions.  Returns 0, -ESTALE for a record that
 * does not hold, or -EINVAL.
 */
int coalloc_engine_disable_queue(struct coalloc_engine *e, int queue,
				 uint32_t head_id);

/* Queries. */
enum coalloc_policy coalloc_engine_policy(const struct coalloc_engine *e);
unsigned coalloc_engine_nsites(const struct coalloc_engine *e);
/* Idle processors of a site, summed over the rows / in one row. */
uint32_t coalloc_engine_idle(const struct coalloc_engine *e, unsigned site);
uint32_t coalloc_engine_idle_row(const struct coalloc_engine *e, unsigned row,
				 unsigned site);
size_t coalloc_engine_queue_length(const struct coalloc_engine *e, int queue);
/* The id of the job at the queue's head, or 0 when it is empty. */
uint32_t coalloc_engine_queue_head(const struct coalloc_engine *e, int queue);
bool coalloc_engine_queue_enabled(const struct coalloc_engine *e, int queue);
size_t coalloc_engine_pending(const struct coalloc_engine *e);
/* The ids of the queued jobs (every queue, each in its order), at most
 * max of them; returns how many. */
size_t coalloc_engine_pending_ids(const struct coalloc_engine *e,
				  uint32_t *ids, size_t max);
size_t coalloc_engine_running(const struct coalloc_engine *e);

/*
 * The visiting order of the queues set at the last departure (queue
 * indices as in coalloc_request.queue).  Returns the number written.
 */
unsigned coalloc_engine_visit_order(const struct coalloc_engine *e,
				    int *queues, unsigned max);

/* Placement of a running job; returns 0, -ENOENT, or -EINVAL (pending). */
int coalloc_engine_placement(const struct coalloc_engine *e, uint32_t id,
			     struct coalloc_start *out);

#endif /* COALLOC_ENGINE_H */
