/*
 * runlog.h - the run log of an ESP test, and what is computed from it.
 *
 * One text file per run, appended to by the driver and by every job
 * (esp-work) with single write(2)s of whole lines under O_APPEND, so lines
 * never interleave.  Each line is a wall-clock time (seconds since the
 * epoch, microseconds), an event, and key=value fields in any order;
 * unknown keys are ignored (forward compatibility), unknown events too.
 *
 *   T test mix=esp1 procs=32 work=19200.000 min_time=600.000
 *        reboot=86.742 seed=1 compress=0.041302
 *   T submit job=1234 name=md.3 size=1 block=1 full=0 seconds=49.888
 *   T start job=1234 nodes=n[1-4]           (esp-work, when it begins)
 *   T suspend job=1234 from=T1 to=T2        (esp-work, after a stop of
 *                                            T2 - T1 seconds it noticed)
 *   T end job=1234 run=49.890 suspended=3.100   (esp-work, when done)
 *   T end job=1234 run=20.000 suspended=0 cancelled=1  (esp-work killed
 *                                            by SIGTERM, e.g. scancel:
 *                                            not a completed job)
 *   T start job=1234 restart=1 nodes=...    (the same job run again by
 *                                            Slurm, a requeue: every line
 *                                            of that run says restart=N;
 *                                            an earlier run's lines are
 *                                            dropped, even when that run
 *                                            completed: a crash lost its
 *                                            end)
 *   T released job=1234 reason=...          (driver: released a job
 *                                            Slurm requeued held after a
 *                                            failed launch; skipped here)
 *   T resumed nodes=n[1-2] reason=...       (driver: resumed nodes Slurm
 *                                            drained for it; skipped)
 *   T finish                                (driver: all jobs done)
 *
 * The test starts at the `test` line's time t0.  Times in results are
 * seconds after t0.
 *
 * Efficiency (equation 1):  E = W / (P T),  W the planned work (the
 * `work` field: sum of size * seconds), T the observed elapsed time from
 * t0 to the last job's end.  With the shutdown/reboot S (equation 2):
 * E_r = W / (P (T + S)).  A run that did not finish, or whose jobs did
 * not all complete, is no ESP result: its W is only the completed jobs'
 * size * seconds, so its E stays a utilization.
 *
 * The full-configuration rules:
 *  - z_first_immediate: the first Z job (block 0) started no later than
 *    `immediate` seconds after its submission, and no other job started
 *    after that submission and more than `tie` seconds before the Z job's
 *    own start (jobs launched in the same scheduler pass tie).
 *  - z_second_within_90: the second Z job (the other full one) ended,
 *    not cancelled, by 0.9 T after t0.
 * A Z job absent from the log fails its rule, and its times are NAN.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ESP_RUNLOG_H
#define ESP_RUNLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "esp/loss.h"
#include "esp/mix.h"

/* Defaults for esp_analyze(). */
#define ESP_IMMEDIATE_DEFAULT 10.0	/* wall seconds */
#define ESP_TIE_DEFAULT 1.0

struct esp_interval {
	double from, to;	/* seconds after t0 */
};

struct esp_run_job {
	uint32_t jobid;
	char name[ESP_NAME_MAX + 8];
	uint32_t size;
	unsigned block;
	bool full;
	double seconds;		/* planned running time */
	double submit, start, end;	/* after t0; NAN when not seen */
	double run, suspended;	/* as esp-work reported them; NAN
				 * without an end line */
	bool cancelled;		/* its end line says cancelled=1 */
	unsigned restart;	/* the run these fields are of (restart=) */
	unsigned restarts;	/* earlier runs dropped */
	char nodes[256];	/* as logged, cut to fit */
	size_t nsusp;
	struct esp_interval *susp;	/* suspended intervals, sorted by
					 * from (log order in practice) */
};

struct esp_run {
	char mix[ESP_NAME_MAX];
	uint32_t procs;
	double work, min_time, reboot, compress;
	uint64_t seed;
	double t0;		/* epoch seconds of the `test` line */
	bool finished;		/* a `finish` line was seen */
	size_t njobs;
	struct esp_run_job *jobs;	/* in submission order */
};

struct esp_result {
	double elapsed;		/* T */
	double efficiency;	/* E */
	double efficiency_with_reboot;
	double busy;		/* CPU-seconds the jobs were running */
	double utilization;	/* busy / (P T) */
	size_t completed;	/* jobs with an end line, not cancelled */
	size_t missing;		/* submitted jobs without one, or
				 * cancelled */
	size_t restarted;	/* jobs Slurm ran more than once (their
				 * earlier runs' time shows as idle) */
	/* first Z job */
	bool z_first_immediate;
	double z1_submit, z1_start, z1_wait;	/* NAN when absent */
	size_t z1_overtaken;	/* jobs started while it waited */
	/* second Z job */
	bool z_second_within_90;
	double z2_end, z2_limit;	/* limit = 0.9 T */
	/* where P*T - W went (loss.h); all "other" when out of memory */
	struct esp_loss loss;
};

/* Parse a log; 0, or -1 with err naming the line. Free with _free. */
int esp_runlog_read(const char *path, struct esp_run *run, char *err,
		    size_t errlen);
void esp_run_free(struct esp_run *run);

/* Compute the result; immediate and tie as described above. */
void esp_analyze(const struct esp_run *run, double immediate, double tie,
		 struct esp_result *res);

/*
 * Outputs: jobs.csv (header: job,name,block,size,full,seconds,submit,
 * start,end,run,suspended,nodes; times after t0), results.json (json-c;
 * at least efficiency, efficiency_with_reboot, processors, elapsed,
 * z_first_immediate, z_second_within_90, plus the other result fields and
 * the run's parameters), and the utilization chronology: a data file of
 * (normalized time t/T_min, utilization %) steps counting only running
 * (not suspended) jobs, a data file of start impulses (normalized time,
 * size), and a gnuplot script drawing both like Figures 1-3 of the paper
 * into a PNG: utilization.dat, starts.dat and utilization.gp in dir
 * (created if missing); `cd dir && gnuplot utilization.gp` writes
 * utilization.png.  Each returns 0 or -1 with err naming the file.
 */
int esp_write_csv(const struct esp_run *run, const char *path, char *err,
		  size_t errlen);
int esp_write_json(const struct esp_run *run, const struct esp_result *res,
		   const char *label, const char *path, char *err,
		   size_t errlen);
int esp_write_chronology(const struct esp_run *run, const char *dir,
			 const char *title, char *err, size_t errlen);

/* When job j ended, or T for one without an end line (it ran to T). */
double esp_job_end_or(const struct esp_run_job *j, double T);

/*
 * Job j at time t after t0: not running (not started, or ended; one
 * without an end line runs to T), running, or stopped (suspended).
 */
enum esp_job_state { ESP_JOB_OFF, ESP_JOB_RUNNING, ESP_JOB_STOPPED };
enum esp_job_state esp_job_state_at(const struct esp_run_job *j, double T,
				    double t);

/* Instantaneous utilization (0..1) at time t after t0. */
double esp_utilization_at(const struct esp_run *run, double t);

#endif /* ESP_RUNLOG_H */
