/*
 * runlog.c - parser of an ESP run log (see runlog.h).
 *
 * Strict about what it knows, silent about what it does not: a known field
 * that does not parse, a line whose first word is not a number, or a job
 * event before that job's submit line stops the read with a message naming
 * file and line; unknown events and unknown keys are skipped, so a newer
 * esp-work can add fields without breaking an older analysis.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "esp/runlog.h"
#include "num/num.h"
#include "num/errbuf.h"

#define MAX_FIELDS 64	/* per line; today's lines have 7 at most */

struct field {
	char *key;
	char *value;
};

struct reader {
	const char *file;
	unsigned long line;
	char *err;
	size_t errlen;
	struct esp_run *run;
	bool have_test;
	size_t cap;			/* allocated jobs */
};

/* A message about the line being read (errbuf_at), then -1. */
#define _fail(r, key, ...) \
	errbuf_at((r)->err, (r)->errlen, (r)->file, (r)->line, (key), \
		  __VA_ARGS__)

/* ------------------------------------------------------------ values */

static int _get_double(struct reader *r, const struct field *f, double min,
		       double *out)
{
	double v;

	if (num_parse_double(f->value, &v))
		return _fail(r, f->key, "'%s' is not a number", f->value);
	if (v < min)
		return _fail(r, f->key, "%s is below %g", f->value, min);
	*out = v;
	return 0;
}

/* A time of the log (epoch seconds), returned as seconds after t0. */
static int _get_time(struct reader *r, const struct field *f, double *out)
{
	double v;

	if (num_parse_double(f->value, &v))
		return _fail(r, f->key, "'%s' is not a time", f->value);
	*out = v - r->run->t0;
	return 0;
}

static int _get_u64(struct reader *r, const struct field *f, uint64_t min,
		    uint64_t max, uint64_t *out)
{
	const char *s = f->value;
	uint64_t v;

	if (num_parse_u64(s, &v) || v < min || v > max)
		return _fail(r, f->key, "'%s' is not a whole number from %llu to %llu",
			     s, (unsigned long long)min,
			     (unsigned long long)max);
	*out = v;
	return 0;
}

static int _get_u32(struct reader *r, const struct field *f, uint32_t min,
		    uint32_t *out)
{
	uint64_t v = 0;	/* set whenever _get_u64 returns 0 */

	if (_get_u64(r, f, min, UINT32_MAX, &v))
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int _get_bool(struct reader *r, const struct field *f, bool *out)
{
	if (strcmp(f->value, "0") && strcmp(f->value, "1"))
		return _fail(r, f->key, "'%s' is not 0 or 1", f->value);
	*out = f->value[0] == '1';
	return 0;
}

static int _get_str(struct reader *r, const struct field *f, char *out,
		    size_t size)
{
	size_t n = strlen(f->value);

	if (!n || n >= size)
		return _fail(r, f->key, "'%s' must have 1 to %zu characters",
			     f->value, size - 1);
	memcpy(out, f->value, n + 1);
	return 0;
}

/* ------------------------------------------------------------ jobs */

/* Jobs are few (hundreds) and looked up a handful of times each. */
static struct esp_run_job *_find(struct esp_run *run, uint32_t jobid)
{
	size_t i;

	for (i = 0; i < run->njobs; i++)
		if (run->jobs[i].jobid == jobid)
			return &run->jobs[i];
	return NULL;
}

static struct esp_run_job *_add(struct reader *r, uint32_t jobid)
{
	struct esp_run *run = r->run;
	struct esp_run_job *j;

	if (run->njobs == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 64;

		j = realloc(run->jobs, cap * sizeof(*j));
		if (!j) {
			_fail(r, NULL, "out of memory");
			return NULL;
		}
		run->jobs = j;
		r->cap = cap;
	}
	j = &run->jobs[run->njobs++];
	memset(j, 0, sizeof(*j));
	j->jobid = jobid;
	j->submit = j->start = j->end = NAN;
	j->run = j->suspended = NAN;
	return j;
}

/*
 * Keep the intervals sorted by start: esp-work notices its stops in order,
 * so this is an append, but the analysis relies on the order and a log
 * merged from several writers must not break it.
 */
static int _add_susp(struct reader *r, struct esp_run_job *j, double from,
		     double to)
{
	struct esp_interval *v;
	size_t i;

	v = realloc(j->susp, (j->nsusp + 1) * sizeof(*v));
	if (!v)
		return _fail(r, NULL, "out of memory");
	j->susp = v;
	for (i = j->nsusp; i > 0 && v[i - 1].from > from; i--)
		v[i] = v[i - 1];
	v[i].from = from;
	v[i].to = to;
	j->nsusp++;
	return 0;
}

/* ------------------------------------------------------------ events */

static const struct field *_need(struct reader *r, const char *event,
				 const struct field *f, size_t n,
				 const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(f[i].key, key))
			return &f[i];
	_fail(r, NULL, "%s line without %s=", event, key);
	return NULL;
}

static int _ev_test(struct reader *r, double t, const struct field *f,
		    size_t n)
{
	struct esp_run *run = r->run;
	int rc = 0;
	size_t i;

	if (r->have_test)
		return _fail(r, NULL, "a second test line");
	if (!_need(r, "test", f, n, "procs"))
		return -1;
	r->have_test = true;
	run->t0 = t;
	for (i = 0; i < n && !rc; i++) {
		const struct field *kv = &f[i];

		if (!strcmp(kv->key, "mix"))
			rc = _get_str(r, kv, run->mix, sizeof(run->mix));
		else if (!strcmp(kv->key, "procs"))
			rc = _get_u32(r, kv, 1, &run->procs);
		else if (!strcmp(kv->key, "work"))
			rc = _get_double(r, kv, 0, &run->work);
		else if (!strcmp(kv->key, "min_time"))
			rc = _get_double(r, kv, 0, &run->min_time);
		else if (!strcmp(kv->key, "reboot"))
			rc = _get_double(r, kv, 0, &run->reboot);
		else if (!strcmp(kv->key, "compress"))
			rc = _get_double(r, kv, 0, &run->compress);
		else if (!strcmp(kv->key, "seed"))
			rc = _get_u64(r, kv, 0, UINT64_MAX, &run->seed);
	}
	return rc;
}

static int _ev_submit(struct reader *r, double t, uint32_t jobid,
		      const struct field *f, size_t n)
{
	struct esp_run_job *j;
	int rc = 0;
	size_t i;

	if (_find(r->run, jobid))
		return _fail(r, NULL, "job %u submitted twice", jobid);
	if (!_need(r, "submit", f, n, "size"))
		return -1;
	j = _add(r, jobid);
	if (!j)
		return -1;
	j->submit = t;
	for (i = 0; i < n && !rc; i++) {
		const struct field *kv = &f[i];

		if (!strcmp(kv->key, "name"))
			rc = _get_str(r, kv, j->name, sizeof(j->name));
		else if (!strcmp(kv->key, "size"))
			rc = _get_u32(r, kv, 1, &j->size);
		else if (!strcmp(kv->key, "block")) {
			uint32_t b = 0;

			rc = _get_u32(r, kv, 0, &b);
			j->block = b;
		} else if (!strcmp(kv->key, "full"))
			rc = _get_bool(r, kv, &j->full);
		else if (!strcmp(kv->key, "seconds"))
			rc = _get_double(r, kv, 0, &j->seconds);
	}
	return rc;
}

static int _ev_start(struct reader *r, double t, struct esp_run_job *j,
		     const struct field *f, size_t n)
{
	size_t i;

	if (!isnan(j->start))
		return _fail(r, NULL, "job %u started twice", j->jobid);
	j->start = t;
	for (i = 0; i < n; i++)
		if (!strcmp(f[i].key, "nodes"))
			/* informative only: a huge hostlist is cut, not refused */
			snprintf(j->nodes, sizeof(j->nodes), "%s", f[i].value);
	return 0;
}

static int _ev_suspend(struct reader *r, struct esp_run_job *j,
		       const struct field *f, size_t n)
{
	const struct field *kf, *kt;
	double from = 0, to = 0;

	kf = _need(r, "suspend", f, n, "from");
	kt = kf ? _need(r, "suspend", f, n, "to") : NULL;
	if (!kt || _get_time(r, kf, &from) || _get_time(r, kt, &to))
		return -1;
	if (to < from)
		return _fail(r, kt->key, "ends before from=%s", kf->value);
	return _add_susp(r, j, from, to);
}

static int _ev_end(struct reader *r, double t, struct esp_run_job *j,
		   const struct field *f, size_t n)
{
	int rc = 0;
	size_t i;

	if (!isnan(j->end))
		return _fail(r, NULL, "job %u ended twice", j->jobid);
	j->end = t;
	for (i = 0; i < n && !rc; i++) {
		const struct field *kv = &f[i];

		if (!strcmp(kv->key, "run"))
			rc = _get_double(r, kv, 0, &j->run);
		else if (!strcmp(kv->key, "suspended"))
			rc = _get_double(r, kv, 0, &j->suspended);
		else if (!strcmp(kv->key, "cancelled"))
			rc = _get_bool(r, kv, &j->cancelled);
	}
	return rc;
}

/* The run a job line belongs to: its restart= (Slurm's requeues), or 0. */
static int _restart_of(struct reader *r, const struct field *f, size_t n,
		       uint32_t *restart)
{
	*restart = 0;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(f[i].key, "restart"))
			return _get_u32(r, &f[i], 0, restart);
	return 0;
}

/*
 * A later run of a job (Slurm requeued it, e.g. a start that a slurmctld
 * crash lost and that Slurm made again): what the earlier run logged is
 * dropped; the last run is the job's.  An earlier run may even have
 * completed: slurmctld died before it saved the end, and Slurm ran the
 * job again.
 */
static void _rerun(struct esp_run_job *j, uint32_t restart)
{
	j->start = j->end = j->run = j->suspended = NAN;
	j->cancelled = false;
	j->nsusp = 0;
	j->nodes[0] = '\0';
	j->restart = restart;
	j->restarts++;
}

/* start, suspend and end: events of a job already submitted. */
static int _ev_job(struct reader *r, const char *event, double t,
		   const struct field *f, size_t n)
{
	const struct field *kj = _need(r, event, f, n, "job");
	struct esp_run_job *j;
	uint32_t jobid, restart;

	if (!kj || _get_u32(r, kj, 0, &jobid) || _restart_of(r, f, n, &restart))
		return -1;
	j = _find(r->run, jobid);
	if (!j)
		return _fail(r, NULL, "%s of job %u before its submit line",
			     event, jobid);
	if (restart < j->restart)
		return 0;	/* an earlier run's last words */
	if (restart > j->restart) {
		if (strcmp(event, "start"))
			return _fail(r, NULL, "%s of job %u's run restart=%u before its start",
				     event, jobid, restart);
		_rerun(j, restart);
	}
	if (!strcmp(event, "start"))
		return _ev_start(r, t, j, f, n);
	if (!strcmp(event, "suspend"))
		return _ev_suspend(r, j, f, n);
	return _ev_end(r, t, j, f, n);
}

/* ------------------------------------------------------------ lines */

/* Split "key=value key=value" in place; 0 or -1 with the error set. */
static int _fields(struct reader *r, char *s, struct field *f, size_t *n)
{
	char *save = NULL, *tok, *eq;

	*n = 0;
	for (tok = strtok_r(s, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		eq = strchr(tok, '=');
		if (!eq || eq == tok)
			return _fail(r, NULL, "'%s' is not key=value", tok);
		if (*n == MAX_FIELDS)
			return _fail(r, NULL, "more than %d fields",
				     MAX_FIELDS);
		*eq = '\0';
		f[*n].key = tok;
		f[*n].value = eq + 1;
		(*n)++;
	}
	return 0;
}

static bool _is_job_event(const char *event)
{
	return !strcmp(event, "start") || !strcmp(event, "suspend") ||
	       !strcmp(event, "end");
}

static int _line(struct reader *r, char *s)
{
	struct field f[MAX_FIELDS];
	char *save = NULL, *word, *event;
	double t;
	size_t n;

	s[strcspn(s, "\r\n")] = '\0';
	word = strtok_r(s, " \t", &save);
	if (!word)
		return 0;		/* blank line */
	if (num_parse_double(word, &t))
		return _fail(r, NULL, "time '%s' is not a number", word);
	event = strtok_r(NULL, " \t", &save);
	if (!event)
		return _fail(r, NULL, "no event after the time");
	if (strcmp(event, "test") && strcmp(event, "submit") &&
	    strcmp(event, "finish") && !_is_job_event(event))
		return 0;		/* a newer writer's event */
	if (_fields(r, save, f, &n))
		return -1;
	if (!strcmp(event, "test"))
		return _ev_test(r, t, f, n);
	if (!r->have_test)
		return _fail(r, NULL, "%s line before the test line", event);
	t -= r->run->t0;
	if (!strcmp(event, "finish")) {
		r->run->finished = true;
		return 0;
	}
	if (!strcmp(event, "submit")) {
		const struct field *kj = _need(r, event, f, n, "job");
		uint32_t jobid;

		if (!kj || _get_u32(r, kj, 0, &jobid))
			return -1;
		return _ev_submit(r, t, jobid, f, n);
	}
	return _ev_job(r, event, t, f, n);
}

int esp_runlog_read(const char *path, struct esp_run *run, char *err,
		    size_t errlen)
{
	struct reader r = {
		.file = path, .err = err, .errlen = errlen, .run = run,
	};
	char *buf = NULL;
	size_t bufsize = 0;
	int rc = 0;
	FILE *fp;

	memset(run, 0, sizeof(*run));
	fp = fopen(path, "r");
	if (!fp) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (!rc) {
		errno = 0;
		if (getline(&buf, &bufsize, fp) < 0) {
			if (ferror(fp))
				rc = _fail(&r, NULL, "read: %s",
					   strerror(errno ? errno : EIO));
			break;
		}
		r.line++;
		rc = _line(&r, buf);
	}
	free(buf);
	fclose(fp);
	if (!rc && !r.have_test) {
		snprintf(err, errlen, "%s: no test line", path);
		rc = -1;
	}
	if (rc)
		esp_run_free(run);
	return rc;
}

void esp_run_free(struct esp_run *run)
{
	size_t i;

	if (!run)
		return;
	for (i = 0; i < run->njobs; i++)
		free(run->jobs[i].susp);
	free(run->jobs);
	memset(run, 0, sizeof(*run));
}

/* ------------------------------------------------------------ job states */

double esp_job_end_or(const struct esp_run_job *j, double T)
{
	return isnan(j->end) ? T : j->end;
}

static bool _suspended_at(const struct esp_run_job *j, double t)
{
	size_t i;

	for (i = 0; i < j->nsusp && j->susp[i].from <= t; i++)
		if (t < j->susp[i].to)
			return true;
	return false;
}

enum esp_job_state esp_job_state_at(const struct esp_run_job *j, double T,
				    double t)
{
	/* [start, end): a job ending as another starts never doubles */
	if (isnan(j->start) || t < j->start || t >= esp_job_end_or(j, T))
		return ESP_JOB_OFF;
	return _suspended_at(j, t) ? ESP_JOB_STOPPED : ESP_JOB_RUNNING;
}
