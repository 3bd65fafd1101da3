/*
 * run.c - esp-driver run: the ESP test against the Slurm that sbatch
 * talks to.  Jobs are submitted on the plan's schedule, their esp-work
 * processes log start and end to DIR/esp.log, and the run ends when every
 * job has ended or left the queue (or at the timeout, cancelling the
 * rest).  An interrupt cancels every job submitted so far.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "driver.h"
#include "esp/runlog.h"
#include "progress/progress.h"
#include "spawn.h"

#define POLL_SECONDS 1.0
#define QUEUE_CHECK_EVERY 5	/* polls between squeue calls */

static volatile sig_atomic_t interrupted;

static void _on_signal(int sig)
{
	interrupted = sig;
}

double esp_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double _mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct run_state {
	const struct run_opts *o;
	struct esp_plan plan;
	char dir[4096], log[4200], alive[4200];
	int logfd;
	char mix[ESP_NAME_MAX];
	uint32_t *ids;		/* Slurm job id per plan job, 0: not yet */
	size_t nsubmitted;
	uint32_t *running;	/* ids squeue says run (R), for _stalled() */
	uint32_t *stopped;	/* ids the last squeue said suspended (S) */
	size_t nstopped;
	double next_check;	/* monotonic time of the next squeue */
	struct progress progress;
};

/* What the run log says so far. */
struct tally {
	size_t ended;		/* jobs with an end line */
	size_t running;		/* started, not ended, not suspended */
	size_t stopped;		/* started, not ended, suspended */
	uint64_t busy;		/* the running ones' processors */
};

/* One line, one write(2), under O_APPEND: never interleaved with jobs'. */
__attribute__((format(printf, 2, 3)))
static int _log(struct run_state *st, const char *fmt, ...)
{
	char line[1024];
	int len = snprintf(line, sizeof(line), "%.6f ", esp_now());
	va_list ap;

	va_start(ap, fmt);
	len += vsnprintf(line + len, sizeof(line) - len - 1, fmt, ap);
	va_end(ap);
	line[len++] = '\n';
	if (write(st->logfd, line, len) != len) {
		fprintf(stderr, "esp: %s: %s\n", st->log, strerror(errno));
		return -1;
	}
	return 0;
}

static int _sbatch(struct run_state *st, const struct esp_job *j,
		   uint32_t *id)
{
	const struct run_opts *o = st->o;
	char name[96], count[32], wrap[16384], output[4200], out[256];
	const char *part = j->full ? o->z_partition : o->partition;
	char *argv[32 + ESP_MAX_EXTRA];
	size_t n = 0;
	char *end;

	snprintf(name, sizeof(name), "esp-%s", j->name);
	snprintf(count, sizeof(count), "%s%u", o->per_cpu ? "--ntasks=" :
		 "--nodes=", j->size);
	snprintf(output, sizeof(output), "%s/slurm/%%j.out", st->dir);
	if ((size_t)snprintf(wrap, sizeof(wrap), "exec '%s' --seconds %.3f "
			     "--log '%s' --alive '%s'%s", o->work, j->seconds,
			     st->log, st->alive, o->burn ? " --burn" : "") >=
	    sizeof(wrap)) {
		fprintf(stderr, "esp: paths too long for %s\n", j->name);
		return -1;
	}
	argv[n++] = "sbatch";
	argv[n++] = "--parsable";
	argv[n++] = "--job-name";
	argv[n++] = name;
	argv[n++] = count;
	argv[n++] = "--output";
	argv[n++] = output;
	if (part) {
		argv[n++] = "--partition";
		argv[n++] = (char *)part;
	}
	for (size_t i = 0; i < o->nextra; i++)
		argv[n++] = (char *)o->extra[i];
	argv[n++] = "--wrap";
	argv[n++] = wrap;
	argv[n] = NULL;
	if (esp_spawn(argv, out, sizeof(out))) {
		fprintf(stderr, "esp: sbatch failed for %s\n", j->name);
		return -1;
	}
	*id = (uint32_t)strtoul(out, &end, 10);
	if (!*id || (*end && *end != ';' && *end != '\n')) {
		fprintf(stderr, "esp: sbatch said '%s' for %s\n", out, j->name);
		return -1;
	}
	return 0;
}

static int _submit(struct run_state *st, size_t i)
{
	const struct esp_job *j = &st->plan.jobs[i];

	if (_sbatch(st, j, &st->ids[i]))
		return -1;
	st->nsubmitted = i + 1;
	return _log(st, "submit job=%u name=%s size=%u block=%u full=%d "
		    "seconds=%.3f", st->ids[i], j->name, j->size, j->block,
		    j->full, j->seconds);
}

/*
 * After a slurmctld crash Slurm can launch a job whose earlier run a node
 * still holds: the node answers "already running", slurmctld drains it
 * ("Duplicate jobid") and requeues the job held ("launch failed requeued
 * held"), so the test would never end (18-ctld-faults on 26.05).  An
 * operator releases the job and resumes the node; so does the driver, for
 * its own jobs, with one log line each.
 */
#define HELD_AFTER_LAUNCH_FAILURE "launch failed requeued held"
#define DRAINED_FOR_DUPLICATE "Duplicate jobid"

static void _resume_duplicate_drains(struct run_state *st)
{
	static char out[1 << 16];
	char *argv[] = { "sinfo", "--noheader", "--states=drain",
			 "--format=%N|%E", NULL };
	char *line, *p;

	if (esp_spawn(argv, out, sizeof(out)))
		return;
	for (line = strtok_r(out, "\n", &p); line;
	     line = strtok_r(NULL, "\n", &p)) {
		char *bar = strchr(line, '|');
		char nodes[4200];
		char *up[] = { "scontrol", "update", nodes, "State=RESUME", NULL };

		if (!bar || strcmp(bar + 1, DRAINED_FOR_DUPLICATE))
			continue;
		*bar = '\0';
		snprintf(nodes, sizeof(nodes), "NodeName=%s", line);
		if (!esp_spawn(up, NULL, 0))
			_log(st, "resumed nodes=%s reason=duplicate-jobid", line);
	}
}

static void _release_held(struct run_state *st, unsigned id)
{
	char job[16];
	char *argv[] = { "scontrol", "release", job, NULL };

	snprintf(job, sizeof(job), "%u", id);
	if (!esp_spawn(argv, NULL, 0)) {
		fprintf(stderr, "esp: job %u was requeued held after a failed launch (a node still ran its earlier run): released\n",
			id);
		_log(st, "released job=%u reason=launch-failed-requeued-held", id);
	}
}

/*
 * Jobs of ours still known to Slurm in a live state, or -1; *running (its
 * size is nsubmitted) gets the ids of those Slurm says run (R, not S).
 * One held after a failed launch is released (above).
 */
static long _alive(struct run_state *st, uint32_t *running, size_t *nrun)
{
	static char out[1 << 16];
	char *ids = calloc(st->nsubmitted, 12), *p, *line;
	char *argv[] = { "squeue", "--noheader", "--format=%i %t %r",
			 "--states=PD,R,S,CG,CF,RQ,RS,SI,SO", "--jobs", ids,
			 NULL };
	long n = 0;
	int rc, released = 0;

	*nrun = 0;
	if (!ids)
		return -1;
	st->nstopped = 0;
	p = ids;
	for (size_t i = 0; i < st->nsubmitted; i++)
		p += sprintf(p, "%s%u", i ? "," : "", st->ids[i]);
	rc = esp_spawn(argv, out, sizeof(out));
	free(ids);
	if (rc)
		return -1;
	for (line = strtok_r(out, "\n", &p); line;
	     line = strtok_r(NULL, "\n", &p)) {
		char state[8];
		unsigned id;
		int reason = 0;

		n++;
		if (sscanf(line, "%u %7s %n", &id, state, &reason) != 2)
			continue;
		if (!strcmp(state, "PD") && reason &&
		    !strcmp(line + reason, HELD_AFTER_LAUNCH_FAILURE)) {
			_release_held(st, id);
			released++;
		} else if (!strcmp(state, "R") && *nrun < st->nsubmitted)
			running[(*nrun)++] = id;
		else if (!strcmp(state, "S") && st->nstopped < st->nsubmitted)
			st->stopped[st->nstopped++] = id;
	}
	if (released)	/* once a pass: one sinfo for all of them */
		_resume_duplicate_drains(st);
	return n;
}

/*
 * A job Slurm says runs whose esp-work has not renewed DIR/alive/ID for
 * o->stall seconds is stopped (a lost resume): named, and true.  A job
 * whose esp-work has not begun, or has ended, has no such file.
 */
static bool _stalled(struct run_state *st, const uint32_t *running,
		     size_t nrun)
{
	double now = esp_now();

	for (size_t r = 0; st->o->stall > 0 && r < nrun; r++) {
		char path[4300];
		struct stat sb;
		double age;

		snprintf(path, sizeof(path), "%s/%u", st->alive, running[r]);
		if (stat(path, &sb))
			continue;
		age = now - (sb.st_mtim.tv_sec + sb.st_mtim.tv_nsec / 1e9);
		if (age < st->o->stall)
			continue;
		for (size_t i = 0; i < st->nsubmitted; i++)
			if (st->ids[i] == running[r])
				fprintf(stderr, "esp: job %u (esp-%s) has been "
					"stopped for %.0f s while Slurm says "
					"it runs: ending the run\n",
					running[r], st->plan.jobs[i].name,
					age);
		_log(st, "stalled job=%u age=%.3f", running[r], age);
		return true;
	}
	return false;
}

/* Whether the last squeue said the job is suspended (a gang row off, a
 * Z job preempting): its processors are not busy. */
static bool _was_stopped(const struct run_state *st, uint32_t id)
{
	for (size_t i = 0; i < st->nstopped; i++)
		if (st->stopped[i] == id)
			return true;
	return false;
}

static void _tally(struct run_state *st, struct tally *t)
{
	char err[ESP_ERR_LEN];
	struct esp_run run;

	*t = (struct tally) { 0 };
	if (esp_runlog_read(st->log, &run, err, sizeof(err))) {
		progress_end(&st->progress);
		fprintf(stderr, "esp: %s\n", err);
		return;
	}
	for (size_t i = 0; i < run.njobs; i++) {
		const struct esp_run_job *j = &run.jobs[i];

		if (!isnan(j->end)) {
			t->ended++;
		} else if (_was_stopped(st, j->jobid)) {
			t->stopped++;
		} else if (!isnan(j->start)) {
			t->running++;
			t->busy += j->size;
		}
	}
	esp_run_free(&run);
}

/* Jobs done of all, time against the theoretical minimum, and the
 * processors the running jobs hold now. */
static void _progress(struct run_state *st, const struct tally *t,
		      double t0, bool force)
{
	double now = _mono();

	progress_show(&st->progress, now, force,
		      "esp: %zu/%zu jobs done, %zu running, %zu suspended, "
		      "%zu submitted; %.0f s of %.0f s (theoretical minimum); "
		      "busy %.0f %%",
		      t->ended, st->plan.njobs, t->running, t->stopped,
		      st->nsubmitted,
		      now - t0, st->plan.min_time,
		      100.0 * (double)t->busy / st->plan.procs);
}

/* One scancel for all: each call may wait out a MessageTimeout. */
static void _cancel_all(struct run_state *st)
{
	char **argv = calloc(st->nsubmitted + 3, sizeof(*argv));
	char *ids = calloc(st->nsubmitted + 1, 12), out[256];

	if (!argv || !ids || !st->nsubmitted)
		goto out;
	argv[0] = "scancel";
	argv[1] = "--quiet";
	for (size_t i = 0; i < st->nsubmitted; i++) {
		argv[i + 2] = ids + 12 * i;
		snprintf(argv[i + 2], 12, "%u", st->ids[i]);
	}
	esp_spawn(argv, out, sizeof(out));
out:
	free(argv);
	free(ids);
}

static void _sleep_until(double when)
{
	double left = when - _mono();

	if (left > 0) {
		struct timespec ts = {
			.tv_sec = (time_t)fmin(left, POLL_SECONDS),
			.tv_nsec = (long)(fmod(fmin(left, POLL_SECONDS), 1) * 1e9),
		};
		nanosleep(&ts, NULL);
	}
}

/*
 * Every QUEUE_CHECK_EVERY polls, from the first submission on: the jobs
 * Slurm still has (*alive, -1 when squeue failed or it was not time), and
 * whether one of them is stopped while Slurm says it runs.
 */
static bool _check_queue(struct run_state *st, long *alive)
{
	size_t nrun;

	*alive = -1;
	if (!st->nsubmitted || _mono() < st->next_check)
		return false;
	st->next_check = _mono() + QUEUE_CHECK_EVERY * POLL_SECONDS;
	*alive = _alive(st, st->running, &nrun);
	return _stalled(st, st->running, nrun);
}

static int _submit_all(struct run_state *st, double t0)
{
	struct tally t;
	long alive;

	for (size_t i = 0; i < st->plan.njobs && !interrupted; ) {
		if (_mono() < t0 + st->plan.jobs[i].submit) {
			if (_check_queue(st, &alive))
				return -1;
			/* the log is read only for a line that will show */
			if (progress_due(&st->progress, _mono())) {
				_tally(st, &t);
				_progress(st, &t, t0, false);
			}
			_sleep_until(t0 + st->plan.jobs[i].submit);
			continue;
		}
		if (_submit(st, i++))
			return -1;
	}
	return interrupted ? -1 : 0;
}

/* Until every job ended, none is left in the queue, or the timeout. */
static int _wait_all(struct run_state *st, double t0, double timeout)
{
	struct tally t;

	while (!interrupted) {
		long alive;

		_tally(st, &t);
		if (t.ended == st->plan.njobs) {
			_progress(st, &t, t0, true);
			return 0;
		}
		_progress(st, &t, t0, false);
		if (_check_queue(st, &alive))
			return -1;
		/* esp-work logs its end before Slurm sees it leave */
		_tally(st, &t);
		if (alive == 0 && t.ended < st->plan.njobs) {
			progress_end(&st->progress);
			fprintf(stderr, "esp: %zu job(s) left the queue "
				"without ending\n", st->plan.njobs - t.ended);
			return -1;
		}
		if (_mono() - t0 > timeout) {
			progress_end(&st->progress);
			fprintf(stderr, "esp: timeout after %.0f s\n", timeout);
			return -1;
		}
		_sleep_until(_mono() + POLL_SECONDS);
	}
	return -1;
}

static int _prepare(struct run_state *st)
{
	const struct run_opts *o = st->o;
	char err[ESP_ERR_LEN], sub[4200];
	struct esp_mix mix;

	if (esp_mix_load(o->mix_path, &mix, err, sizeof(err)) ||
	    esp_plan_make(&mix, &o->plan, &st->plan, err, sizeof(err))) {
		fprintf(stderr, "esp: %s\n", err);
		return -1;
	}
	snprintf(st->mix, sizeof(st->mix), "%s", mix.name);
	if (esp_plan_block_procs(&st->plan, 1) < 2ull * o->plan.procs ||
	    esp_plan_block_procs(&st->plan, 2) < o->plan.procs)
		fprintf(stderr, "esp: warning: the mix is too small for the "
			"block rules on %u processors\n", o->plan.procs);
	if (mkdir(o->out, 0755) && errno != EEXIST) {
		fprintf(stderr, "esp: %s: %s\n", o->out, strerror(errno));
		return -1;
	}
	if (!realpath(o->out, st->dir)) {
		fprintf(stderr, "esp: %s: %s\n", o->out, strerror(errno));
		return -1;
	}
	/* the job script quotes them with '...' */
	if (strchr(st->dir, '\'') || strchr(o->work, '\'')) {
		fprintf(stderr, "esp: %s: a single quote in the run's or "
			"esp-work's path is not supported\n",
			strchr(st->dir, '\'') ? st->dir : o->work);
		return -1;
	}
	snprintf(sub, sizeof(sub), "%s/slurm", st->dir);
	snprintf(st->log, sizeof(st->log), "%s/%s", st->dir, ESP_LOG_NAME);
	snprintf(st->alive, sizeof(st->alive), "%s/alive", st->dir);
	if ((mkdir(sub, 0755) && errno != EEXIST) ||
	    (mkdir(st->alive, 0755) && errno != EEXIST)) {
		fprintf(stderr, "esp: %s: %s\n", errno == EEXIST ? st->alive :
			sub, strerror(errno));
		return -1;
	}
	/* A run's directory holds one run: never append to an old log. */
	st->logfd = open(st->log, O_WRONLY | O_APPEND | O_CREAT | O_EXCL |
			 O_CLOEXEC, 0644);
	if (st->logfd < 0) {
		fprintf(stderr, "esp: %s: %s%s\n", st->log, strerror(errno),
			errno == EEXIST ? " (use a new --out directory)" : "");
		return -1;
	}
	st->ids = calloc(st->plan.njobs, sizeof(*st->ids));
	st->running = calloc(st->plan.njobs, sizeof(*st->running));
	st->stopped = calloc(st->plan.njobs, sizeof(*st->stopped));
	return st->ids && st->running && st->stopped ? 0 : -1;
}

static void _handle_signals(void)
{
	struct sigaction sa = { .sa_handler = _on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int esp_cmd_run(const struct run_opts *o)
{
	struct run_state st = { .o = o, .logfd = -1 };
	double t0, timeout;
	int rc = 1;

	_handle_signals();
	progress_init(&st.progress, stderr, isatty(STDERR_FILENO), o->quiet);
	if (_prepare(&st))
		goto fail;
	timeout = o->timeout > 0 ? o->timeout : 4 * st.plan.min_time + 120;
	printf("esp: %s, %zu jobs on %u processors, theoretical minimum "
	       "%.1f s; results in %s\n", o->mix_path, st.plan.njobs,
	       st.plan.procs, st.plan.min_time, st.dir);
	fflush(stdout);
	t0 = _mono();
	if (_log(&st, "test mix=%s procs=%u work=%.3f min_time=%.3f "
		 "reboot=%.3f seed=%llu compress=%.6f", st.mix, st.plan.procs, st.plan.work,
		 st.plan.min_time, st.plan.reboot,
		 (unsigned long long)o->plan.seed, st.plan.compress) ||
	    _submit_all(&st, t0) || _wait_all(&st, t0, timeout)) {
		progress_end(&st.progress);
		if (interrupted)
			fprintf(stderr, "esp: interrupted: cancelling the "
				"test's jobs\n");
		_cancel_all(&st);
		_log(&st, "abort");
		/* what ran is still worth its results, marked incomplete */
		esp_cmd_analyze(st.dir, o->label, o->immediate, o->tie);
		goto fail;
	}
	progress_end(&st.progress);
	_log(&st, "finish");
	rc = esp_cmd_analyze(st.dir, o->label, o->immediate, o->tie);
fail:
	if (st.logfd >= 0)
		close(st.logfd);
	free(st.ids);
	free(st.running);
	free(st.stopped);
	esp_plan_free(&st.plan);
	return interrupted ? 130 : rc;
}
