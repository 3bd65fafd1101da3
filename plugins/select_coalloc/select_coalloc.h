/*
 * select_coalloc.h - internal interface between the topic files of
 * select/coalloc.  Only the entry file (select_coalloc.c) defines the
 * symbols Slurm loads; everything here is hidden by the version script.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef SELECT_COALLOC_H
#define SELECT_COALLOC_H

#include "slurm_compat.h"	/* Slurm's headers, for 22.05 and 24.11 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "coalloc/policy.h"
#include "coalloc/statefile.h"
#include "coalloc_conf/coalloc_conf.h"
#include "coalloc/shape.h"
#include "coalloc/sizes.h"

/*
 * Our plugin_id in Slurm's select plugin table.  Slurm's own plugins use
 * 101, 102 and 106-110; ids are packed with node data, so ours must never
 * collide with another plugin a site may install.  190 is far from Slurm's
 * range and documented in doc/guide.md.
 */
#define SELECT_COALLOC_PLUGIN_ID 190

extern const char plugin_type[];

/* Slurmctld-only globals: weak, so that Slurm's commands, which load every
 * select plugin in PluginDir, can load us too. */
extern list_t *job_list __attribute__((weak));
extern list_t *part_list __attribute__((weak));

/* ---- select_coalloc.c: the entry file ---- */
/* True when slurmctld runs with us as its SelectType (not a command, not
 * another daemon, not a slurmctld of another select plugin). */
bool coalloc_we_select(void);

/* ---- slurm_conf_check.c: SelectTypeParameters, other slurm.conf checks ---- */
int coalloc_check_slurm_conf(void);
/* Queue partitions against slurm.conf's priorities and partitions:
 * at start-up and every reconfiguration (sites.c). */
void coalloc_check_partitions(const struct coalloc_conf *c);

/* ---- sites.c: coalloc.conf and the node -> site map ---- */
/* Load coalloc.conf; a bad file is fatal at start-up, rejected later. */
int coalloc_sites_load(bool at_startup);
void coalloc_sites_fini(void);
int coalloc_site_of_node(int node_inx);	/* -1 when unknown */
int coalloc_site_count(void);
const char *coalloc_site_name_copy(int site, char *buf, size_t len);
int coalloc_local_site_of_partition(const char *partition);
bool coalloc_is_global_partition(const char *partition);
uint32_t coalloc_site_nodes(int site);
/* Every site's name and node count, copied (for lib/coalloc/shape.h). */
void coalloc_sites_list(struct coalloc_site_list *out);
enum coalloc_policy coalloc_sites_policy(void);
/* AgingTime= and QueueOrder= of coalloc.conf into the engine's config
 * (their defaults without one). */
void coalloc_sites_engine_settings(struct coalloc_config *cfg);
/* The matrix coalloc.conf asks for. */
/* A copy of the matrix's settings; *preempt: a PreemptPartition (a
 * priority row) is configured. */
void coalloc_sites_matrix(struct coalloc_matrix_settings *out, bool *preempt);
bool coalloc_is_preempt_partition(const char *partition);
/* PreemptHold's seconds; 0 without a PreemptPartition. */
unsigned coalloc_preempt_hold(void);
char *coalloc_job_layout(job_record_t *job_ptr);
/* coalloc_layout_env() of the job's nodes: the component count, or -1. */
int coalloc_job_layout_env(job_record_t *job_ptr,
			   void (*set)(const char *name, const char *value,
				       void *arg),
			   void *arg);

/* ---- job_env.c: the layout in the job's environment ---- */
/* SLURM_COALLOC_* in the job's supplemental environment (env_sup), which
 * slurmctld gives the batch script and every step: set at job begin. */
void coalloc_job_env(job_record_t *job_ptr);

/* ---- queues.c: the queue-priority policy engine ---- */
struct coalloc_start;
/* Whom to tell of changes, and that reasons are due (status.c's). */
void coalloc_queues_notify(void (*changed)(void), void (*reasons_due)(void));
int coalloc_queues_reset(list_t *jobs);
enum coalloc_outlook {
	COALLOC_OUTLOOK_GRANTED,	  /* its turn, now or at the next pass */
	COALLOC_OUTLOOK_WAITS_FOR_NODES,  /* heads its queue, waits for room */
	COALLOC_OUTLOOK_HELD,		  /* the policy holds it */
};
enum coalloc_outlook coalloc_queues_outlook(job_record_t *job_ptr);
void coalloc_queues_save(FILE *fp);
void coalloc_queues_restore(const struct coalloc_statefile *st);
void coalloc_queues_fini(void);
/* Is the job in a queue the policy manages? */
bool coalloc_queues_manage(job_record_t *job_ptr);
/* Can the policy ever take it (submit-time check)?  0 or -1. */
int coalloc_queues_valid(job_record_t *job_ptr);
/* Its turn: 0 and the sites of its components, or -1 (reason set). */
int coalloc_queues_turn(job_record_t *job_ptr, struct coalloc_start *start);
void coalloc_queues_begin(job_record_t *job_ptr, int engine_row);
void coalloc_queues_fini_job(job_record_t *job_ptr);
void coalloc_queues_withdraw(job_record_t *job_ptr);	/* pending, cancelled */
void coalloc_queues_restore_reasons(void);	/* job write lock held */
bool coalloc_queues_sync_slice(void);	/* job read lock held */

/* ---- status.c: coalloc_status.json for coalloc-status(1) ---- */
struct json_object;
void coalloc_status_start(void);	/* slurmctld only */
void coalloc_status_stop(void);
void coalloc_status_changed(void);
void coalloc_status_reasons_due(void);	/* pending reasons to restore */
/* CoallocStatus and CoallocSites for slurm_load_ctl_conf(), appended to
 * PAIRS: SELECT_CONFIG_INFO's list before 25.05, node_features/coalloc's
 * after (exported: compat/ctld_pairs.h). */
void coalloc_ctld_key_pairs(list_t *pairs);
void coalloc_sites_json(struct json_object *root);	/* sites.c */
void coalloc_queues_json(struct json_object *root);	/* queues.c */

/* ---- node_usage.c: the matrix of jobs x nodes ---- */
/* Whom to tell that the matrix changed (gang_tables.c's kick). */
void node_usage_on_change(void (*kick)(void));
/* Build the matrix from coalloc.conf and these jobs (or none), keeping
 * the rows jobs had before (reconfigure) or saved (start-up). */
int node_usage_reset(list_t *jobs);
/* How many resets (a start, a reconfiguration) the matrix has seen.  With
 * node_usage_lock() held. */
unsigned node_usage_resets(void);
void node_usage_fini(void);
void node_usage_lock(void);
void node_usage_unlock(void);
/* Caller holds the lock for the rest. */
bool node_usage_ready(void);
bool node_usage_local(void);		/* Matrix=local */
bool node_usage_time_sliced(void);	/* rows slurmctld rotates */
unsigned node_usage_time_slice(void);
bool node_usage_fast_gang(void);	/* rows the node agents switch */
bool node_usage_gang_guard(void);	/* rows the node agents guard */
bool node_usage_agent_tables(void);	/* either: they get gang tables */
unsigned node_usage_time_slice_ms(void);
unsigned node_usage_gang_port_offset(void);
uint64_t node_usage_epoch(void);	/* of the last change, us */
/* A node's jobs and the rows each holds there (gang tables). */
size_t node_usage_column_jobs(int node_inx, uint32_t *ids, uint32_t *rows,
			      size_t max);
bool node_usage_priority_busy(void);	/* a preempting job runs alone */
uint32_t node_usage_busy_rows(void);	/* rows with jobs' own cells */
int node_usage_rows(void);		/* all rows, the priority row too */
int node_usage_first_row(void);		/* first row of ordinary jobs */
int node_usage_active_row(void);
/* The running row's slice is over, held only for a launch: no job the
 * switch would stop starts until it (set by timeslice.c, cleared by the
 * rotation). */
void node_usage_set_draining(bool on);
bool node_usage_draining(void);
bool node_usage_switch_due(void);	/* a slice's end changes the row */
int node_usage_next_row(void);		/* the row it would activate */
bool node_usage_job_in_row(uint32_t job_id, int row);	/* home or replica */
uint32_t node_usage_holder(int node_inx);	/* running there now */
uint32_t node_usage_cell(int row, int node_inx, bool *replica);
/* Per node: non-zero (a job there) when a new job cannot use it in this
 * row (local mode: the node is full); the caller frees it. */
uint32_t *node_usage_snapshot(int row);
void node_usage_plan(uint32_t job_id, int row);	/* job_test's choice */
void node_usage_want_row(int row);	/* a job waits for that row */
int node_usage_add_job(job_record_t *job_ptr);	/* its row, or < 0 */
void node_usage_remove_job(job_record_t *job_ptr);
void node_usage_remove_node(job_record_t *job_ptr, int node_inx);
int node_usage_job_row(uint32_t job_id);
int node_usage_engine_row(uint32_t job_id);	/* -1: not in the engine */
bool node_usage_has_job(uint32_t job_id);
bool node_usage_job_runs(uint32_t job_id);	/* in the active row */
bool node_usage_rotate(bool slice_over);	/* true: active row changed */
void node_usage_save(FILE *fp);
void node_usage_restore(const struct coalloc_statefile *st);

/* ---- timeslice.c: the thread that suspends and resumes rows ---- */
void coalloc_timeslice_start(void);	/* slurmctld only */
void coalloc_timeslice_stop(void);
void coalloc_timeslice_kick(void);	/* apply matrix changes soon */

/* ---- gang_tables.c: the rows sent to the node agents ---- */
void coalloc_gang_tables_start(void);	/* slurmctld only */
void coalloc_gang_tables_stop(void);
void coalloc_gang_tables_kick(void);	/* the matrix changed: send soon */
void coalloc_gang_tables_send_now(void);	/* without slurmctld's locks */
/* Since slurmctld started: passes (one munge credential each), tables
 * sent, and sends that failed (coalloc-status's gang_tables). */
struct coalloc_gang_counts {
	uint64_t passes, sent, failed;
};
void coalloc_gang_tables_counts(struct coalloc_gang_counts *c);

/* ---- state.c: StateSaveLocation/coalloc_state ---- */
int coalloc_state_save(const char *dir);
int coalloc_state_restore(const char *dir);
/* The matrix or the queues changed: the state is saved at the next
 * coalloc_state_save_due() (any thread). */
void coalloc_state_changed(void);
/* Where the plugin saves its own state (25.05 on: slurmctld no longer
 * calls select_p_state_save): write it when it differs from the file's,
 * or was marked changed.  The status thread calls it every
 * STATUS_PERIOD. */
void coalloc_state_save_due(void);

/* ---- worker.c: a thread started once, kicked, stopped and joined ---- */
struct coalloc_worker {
	const char *name;		/* the thread's (Slurm 26.05 shows it) */
	void *(*main)(void *worker);	/* its loop, given the worker */
	pthread_mutex_t mutex;		/* guards the flags below, and what
					 * the loop shares with its kickers */
	pthread_cond_t cond;
	pthread_t thread;
	bool running, stopping, kicked;
};
#define COALLOC_WORKER(thread_name, loop) { \
	.name = (thread_name), .main = (loop), \
	.mutex = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER }
void coalloc_worker_start(struct coalloc_worker *w);	/* once */
void coalloc_worker_stop(struct coalloc_worker *w);	/* and join */
bool coalloc_worker_running(struct coalloc_worker *w);	/* started, not stopped */
void coalloc_worker_kick(struct coalloc_worker *w);	/* wake it now */
/*
 * In the loop, with w->mutex held: sleep until the wall-clock time until
 * (CLOCK_REALTIME, as pthread_cond_timedwait takes it), a kick or a stop
 * (not at all when one came already).  Returns false when the worker is
 * stopping.
 */
bool coalloc_worker_wait(struct coalloc_worker *w,
			 const struct timespec *until);
/* The wall-clock time ms milliseconds from now, for coalloc_worker_wait. */
struct timespec coalloc_worker_in_ms(unsigned ms);
/* In the loop, with w->mutex held: whether it was kicked; clears it. */
bool coalloc_worker_take_kick(struct coalloc_worker *w);

/* ---- file_replace.c: a file written whole, crash-safe ---- */
int coalloc_file_replace(const char *path,
			 void (*write_fn)(FILE *fp, const void *arg),
			 const void *arg);

/* ---- job_request.c: what a job asks for ---- */
/*
 * The job's request on the sites: its --coalloc (COALLOC_SIZES in its
 * SPANK environment) resolved by lib/coalloc/shape.c, components largest
 * first, or one component of its node count.  1: --coalloc, 0: an
 * ordinary job, -1: a request no site can take (the reason in err).
 */
int coalloc_job_shape(job_record_t *job_ptr, struct coalloc_shape *shape,
		      char *err, size_t err_len);

/* ---- job_test.c: select_p_job_test's three modes ---- */
int coalloc_job_test(job_record_t *job_ptr, bitstr_t *bitmap,
		     uint32_t min_nodes, uint32_t max_nodes,
		     uint32_t req_nodes, uint16_t mode,
		     list_t *preemptee_candidates, list_t **preemptee_job_list);

/* ---- preempt_hold.c: others wait while a preempting job waits ---- */
/* Under node_usage_lock() and slurmctld's job write lock. */
void preempt_hold_note(job_record_t *job_ptr);
void preempt_hold_forget(job_record_t *job_ptr);
/* Whether job_ptr, of another partition, must not start on bitmap now. */
bool preempt_hold_blocks(job_record_t *job_ptr, bitstr_t *bitmap);

/* ---- release_order.c: running jobs by end time, for start estimates ---- */
struct release_order;
/* The running and suspended jobs of 'jobs' with an end time, earliest
 * first (ties by job id), against the node holders of 'held' (job ids,
 * 0 free, NO_VAL held by no job), which must outlive the order. */
struct release_order *release_order_create(list_t *jobs, const uint32_t *held);
uint32_t release_order_count(const struct release_order *o);
job_record_t *release_order_job(const struct release_order *o, uint32_t k);
/* out = held with the nodes of the first k jobs free. */
void release_order_apply(const struct release_order *o, uint32_t k,
			 uint32_t *out);
void release_order_destroy(struct release_order *o);

/* ---- timers.c: the plugin's share of slurmctld's time ---- */
enum coalloc_timer {
	COALLOC_TIMER_TEST_ONLY,
	COALLOC_TIMER_RUN_NOW,
	COALLOC_TIMER_WILL_RUN,
	COALLOC_TIMER_WHEN_FREED,	/* will_run releasing running jobs */
	COALLOC_TIMER_RELEASE_PICK,	/* one node pick in that search */
	COALLOC_TIMER_REASONS,		/* status thread: reasons restored */
	COALLOC_TIMER_QUEUE_SYNC,	/* status thread: the queues' sync */
	COALLOC_TIMER_JOB_WALK,		/* a sync's walk of the job table */
	COALLOC_TIMER_STATUS,		/* status thread: snapshot and file */
	COALLOC_TIMER_COUNT
};
/* A step's start: the clock and the calling thread's CPU time. */
struct coalloc_timer_start {
	uint64_t wall_ns, cpu_ns;
};
/* Any thread (the counters are atomic); the same thread starts and adds. */
struct coalloc_timer_start coalloc_timer_start(void);
void coalloc_timer_add(enum coalloc_timer which,
		       const struct coalloc_timer_start *start);
/* Logs the counts once a minute, or now (reconfigure), and restarts them. */
void coalloc_timers_report(bool force);
/* The counts since slurmctld started, for the status and CoallocTimers. */
struct json_object *coalloc_timers_json(void);

/* ---- job_resources.c: the job_resources_t Slurm expects ---- */
void coalloc_build_job_resources(job_record_t *job_ptr, bitstr_t *nodes);
uint32_t coalloc_node_cpus(int node_inx);

/* ---- nodeinfo.c: per-node data shown by sinfo ---- */
int coalloc_nodeinfo_set_all(void);

#endif /* SELECT_COALLOC_H */
