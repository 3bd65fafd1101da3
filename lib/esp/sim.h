/*
 * sim.h - the ESP scheduling simulator: one plan (plan.h) run on P
 * processors under a job-start policy, as the simulator of Wong et al.,
 * "System Utilization Benchmark on the Cray T3E and IBM SP", section 4
 * (Table V).
 *
 * The machine is a processor count, as the T3E with migration/compaction
 * and disjoint partitions: a job of k processors fits wherever k are free
 * (no fragmentation, no topology).  Jobs arrive at their plan submit
 * times and run for exactly the plan's seconds while they progress.
 *
 * Placement goes through lib/coalloc's Ousterhout matrix in gang mode
 * with one column per processor, the code select/coalloc uses for its
 * rows: MPL ordinary rows (MPL 1 = space sharing only) and, with
 * preemption, its priority row.  A row of P columns is exactly a
 * processor count here because a gang job may take any free cells of its
 * row, not necessarily adjacent ones.
 *
 * Policies, applied whenever something may start (an arrival, an end):
 *  - FCFS: strict queue order, the head blocks everything behind it;
 *  - firstfit, smallest: select/coalloc's QueueOrder= (lib/coalloc's
 *    order.h, the same sort): every queued job that fits starts, in queue
 *    order or fewest processors first; with aging, once the oldest queued
 *    job has waited that long nothing passes it (the machine drains for
 *    it), as the policy engine's AgingTime;
 *  - BFF (best fit first): start the largest queued job that fits (in
 *    some row), ties by queue order; repeat;
 *  - backfill: EASY backfilling on FCFS with the a priori run times the
 *    simulator knows: the head gets a reservation at the earliest time
 *    enough processors free up, a later job starts now if it fits and
 *    ends before that time or uses only processors the head will not
 *    need (MPL 1 only).
 * Under gang scheduling (MPL > 1) a job goes to the first row with room,
 * rows are active in turn for a time slice each (an empty row is
 * skipped) and only the jobs of the active row progress.  Optionally the
 * processors the active row leaves idle do useful work ("alternate
 * scheduling"):
 *  - replicas: the matrix's own (coalloc_matrix_replicate()): a job also
 *    runs in every row where all of its columns are free, its columns
 *    being the lowest free ones of its row, as select/coalloc takes them;
 *  - migrate: the processor-count form that a machine with migration
 *    allows: jobs of the other rows, in rotation order, run on the active
 *    row's idle processors while they fit.
 *
 * Preemption: full-configuration (Z) jobs go to a preempting queue; a Z
 * job takes the priority row at once (if no other Z job holds it), every
 * other job is suspended with its remaining time kept and resumes when
 * the Z job ends (the row that was interrupted gets a fresh slice).
 *
 * Drain (without preemption): Z jobs go to the head of the queue and
 * nothing else starts while one waits, whatever the policy, so the
 * machine (a row, under gang) empties for it: how a scheduler that cannot
 * preempt obeys the ESP rule that the first Z job runs before any further
 * job is launched (the SP run of the paper: a high-priority class, no
 * backfill).  Without preempt or drain, Z jobs are ordinary jobs of the
 * queue (BFF then starves them and breaks the rule).
 *
 * Launch cost: a job holds its processors for launch seconds of
 * progress before its work begins (slurmctld's start, slurmd, the
 * step), as each job does on a real cluster; 0 by default.  A run
 * compressed by c on a cluster whose launch takes L wall seconds is
 * modelled by launch = L / c plan seconds.
 *
 * Switch overhead: each change of the active row that suspends jobs (the
 * outgoing row still holds some) costs switch_cost seconds during which
 * nothing progresses: a model of writing one row's images out and
 * reading the other's in.  0 by default, as the paper's simulator.
 *
 * A job's start is the first instant it progresses; the Z rules are
 * those of runlog.h on these exact times.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ESP_SIM_H
#define ESP_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "esp/plan.h"

#define ESP_SIM_MAX_MPL 16
#define ESP_SIM_MAX_PROCS (1U << 20)
#define ESP_SIM_SLICE_DEFAULT 1000.0	/* the paper's gang simulation */
#define ESP_SIM_SLICE_SWAP 1200.0	/* the T3E "Swap" run: 20 minutes */
#define ESP_SIM_IMMEDIATE_DEFAULT 10.0	/* as ESP_IMMEDIATE_DEFAULT */

/* What idle processors of the active row do under gang scheduling. */
enum esp_sim_alternate {
	ESP_SIM_ALT_NONE,	/* nothing: only the active row progresses */
	ESP_SIM_ALT_REPLICAS,	/* the matrix's alternate scheduling */
	ESP_SIM_ALT_MIGRATE,	/* jobs of other rows that fit, migrated */
	ESP_SIM_ALT_COUNT,
};

enum esp_sim_policy {
	ESP_SIM_FCFS,
	ESP_SIM_BFF,
	ESP_SIM_BACKFILL,
	ESP_SIM_FIRSTFIT,
	ESP_SIM_SMALLEST,
	ESP_SIM_POLICY_COUNT,
};

struct esp_sim_opts {
	enum esp_sim_policy policy;
	bool preempt;		/* Z jobs preempt everything */
	bool drain;		/* Z jobs first, nothing passes them */
	unsigned mpl;		/* ordinary rows, 1..ESP_SIM_MAX_MPL */
	enum esp_sim_alternate alternate;	/* gang: idle processors */
	double slice;		/* seconds a row stays active, > 0 */
	double switch_cost;	/* seconds lost per suspending switch */
	double immediate;	/* Z1 may wait this long and be "at once" */
	double aging;		/* firstfit, smallest: seconds; 0: none */
	double launch;		/* seconds a job holds its processors
				 * before it works (Slurm's launch) */
	bool chronology;	/* fill res->steps */
};

/* FCFS, no preemption, MPL 1, the default slice, no switch cost. */
void esp_sim_opts_default(struct esp_sim_opts *o);

/* "fcfs", "bff", "backfill", "firstfit", "smallest"; NULL for a bad
 * value. */
const char *esp_sim_policy_name(enum esp_sim_policy p);
/* "FCFS", "BFF", "backfill", "first fit", "smallest first": for tables. */
const char *esp_sim_policy_label(enum esp_sim_policy p);
/* Parse a policy name (case-insensitive); 0 or -1. */
int esp_sim_policy_parse(const char *s, enum esp_sim_policy *p);

/* "none", "replicas", "migrate"; NULL for a bad value; and parse. */
const char *esp_sim_alternate_name(enum esp_sim_alternate a);
int esp_sim_alternate_parse(const char *s, enum esp_sim_alternate *a);

/* A step of the utilization chronology: from t on, busy processors
 * progress (until the next step). */
struct esp_sim_step {
	double t;
	uint32_t busy;
};

struct esp_sim_job {
	double submit;
	double placed;		/* taken into the matrix (launched) */
	double start;		/* first progress */
	double end;
	double suspended;	/* end - start - seconds */
	unsigned row;		/* matrix row (0: the priority row) */
};

struct esp_sim_result {
	double work;		/* W: sum of size * seconds */
	double elapsed;		/* T: the last end */
	double efficiency;	/* W / (P T) */
	double efficiency_with_reboot;	/* W / (P (T + reboot)) */
	double busy;		/* integral of the progressing processors */
	double utilization;	/* busy / (P T); equals E in this model */
	size_t switches;	/* row changes that suspended jobs */
	double overhead;	/* seconds lost to them (switch_cost) */
	/* first Z job (block 0): NAN fields and false when absent */
	bool z_first_immediate;
	double z1_submit, z1_start, z1_wait;
	size_t z1_overtaken;	/* jobs that started while it waited */
	/* second Z job */
	bool z_second_within_90;
	double z2_end, z2_limit;	/* limit = 0.9 T */
	/* per plan job, in the plan's order */
	size_t njobs;
	struct esp_sim_job *jobs;
	/* with opts.chronology */
	size_t nsteps;
	struct esp_sim_step *steps;
};

/*
 * Simulate the plan.  Returns 0, or -1 with err set (bad options, a job
 * larger than the machine, backfill with MPL > 1, out of memory).  Free
 * the result with esp_sim_result_free() in either case.
 */
int esp_sim_run(const struct esp_plan *plan, const struct esp_sim_opts *o,
		struct esp_sim_result *res, char *err, size_t errlen);
void esp_sim_result_free(struct esp_sim_result *res);

#endif /* ESP_SIM_H */
