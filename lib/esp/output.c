/*
 * output.c - what an ESP run leaves behind (see runlog.h): jobs.csv,
 * results.json, and the utilization chronology of Figures 1-3 of Wong et
 * al. (data files and a gnuplot script).
 *
 * Each file is written whole and checked at fclose, and removed when any
 * write failed, so a reader never mistakes a cut file for a result.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "esp/runlog.h"
#include "json_text/json_text.h"

/* The y2 axis (partition sizes) goes to this many times P. */
#define SIZE_AXIS_SHARE 1.5

/* ------------------------------------------------------------ files */

static FILE *_create(const char *path, char *err, size_t errlen)
{
	FILE *fp = fopen(path, "w");

	if (!fp)
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	return fp;
}

/* Close a file written with stdio; -1 and the file removed on any error. */
static int _finish(FILE *fp, const char *path, char *err, size_t errlen)
{
	int e = 0;

	errno = 0;
	if (fflush(fp) || ferror(fp))
		e = errno ? errno : EIO;
	if (fclose(fp) && !e)
		e = errno ? errno : EIO;
	if (!e)
		return 0;
	snprintf(err, errlen, "%s: %s", path, strerror(e));
	unlink(path);
	return -1;
}

static int _join(char *out, size_t size, const char *dir, const char *name,
		 char *err, size_t errlen)
{
	if ((size_t)snprintf(out, size, "%s/%s", dir, name) >= size) {
		snprintf(err, errlen, "%s/%s: %s", dir, name,
			 strerror(ENAMETOOLONG));
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------ jobs.csv */

/* A CSV field, quoted when it holds a separator (hostlists do: n[1,3]). */
static void _csv_str(FILE *fp, const char *s)
{
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

/* A time or duration; empty when not seen. */
static void _csv_num(FILE *fp, double v)
{
	if (isfinite(v))
		fprintf(fp, "%.6f", v);
	fputc(',', fp);
}

int esp_write_csv(const struct esp_run *run, const char *path, char *err,
		  size_t errlen)
{
	FILE *fp = _create(path, err, errlen);
	size_t i;

	if (!fp)
		return -1;
	fputs("job,name,block,size,full,seconds,submit,start,end,run,"
	      "suspended,nodes\n", fp);
	for (i = 0; i < run->njobs; i++) {
		const struct esp_run_job *j = &run->jobs[i];

		fprintf(fp, "%u,", j->jobid);
		_csv_str(fp, j->name);
		fprintf(fp, ",%u,%u,%d,", j->block, j->size, j->full);
		_csv_num(fp, j->seconds);
		_csv_num(fp, j->submit);
		_csv_num(fp, j->start);
		_csv_num(fp, j->end);
		_csv_num(fp, j->run);
		_csv_num(fp, j->suspended);
		_csv_str(fp, j->nodes);
		fputc('\n', fp);
	}
	return _finish(fp, path, err, errlen);
}

/* ------------------------------------------------------------ results.json */

/*
 * A number, null when not known.  Ten significant digits keep the file
 * readable (json-c's default prints 0.1 as 0.10000000000000001), and a
 * decimal point keeps it a double for readers that care.
 */
static json_object *_jnum(double v)
{
	char buf[64];

	if (!isfinite(v))
		return NULL;
	snprintf(buf, sizeof(buf), "%.10g", v);
	if (!buf[strcspn(buf, ".eE")])
		strcat(buf, ".0");
	return json_object_new_double_s(v, buf);
}

static void _add(json_object *o, const char *key, json_object *v)
{
	json_object_object_add(o, key, v);
}

static void _json_run(json_object *o, const struct esp_run *run,
		      const char *label)
{
	_add(o, "label", label ? json_object_new_string(label) : NULL);
	_add(o, "mix", json_object_new_string(run->mix));
	_add(o, "seed", json_object_new_uint64(run->seed));
	_add(o, "processors", json_object_new_int64(run->procs));
	_add(o, "work", _jnum(run->work));
	_add(o, "min_time", _jnum(run->min_time));
	_add(o, "reboot", _jnum(run->reboot));
	_add(o, "compress", _jnum(run->compress));
	_add(o, "jobs", json_object_new_int64((int64_t)run->njobs));
	_add(o, "finished", json_object_new_boolean(run->finished));
}

/* "loss": processor-seconds by cause (loss.h), and their total. */
static json_object *_json_loss(const struct esp_loss *loss)
{
	json_object *o = json_object_new_object();

	for (int c = 0; c < ESP_LOSS_NCAUSES; c++)
		_add(o, esp_loss_names[c], _jnum(loss->cause[c]));
	_add(o, "total", _jnum(loss->total));
	_add(o, "by_node", json_object_new_boolean(loss->by_node));
	return o;
}

static void _json_result(json_object *o, const struct esp_result *res)
{
	_add(o, "elapsed", _jnum(res->elapsed));
	_add(o, "efficiency", _jnum(res->efficiency));
	_add(o, "efficiency_with_reboot",
	     _jnum(res->efficiency_with_reboot));
	_add(o, "busy", _jnum(res->busy));
	_add(o, "utilization", _jnum(res->utilization));
	_add(o, "completed", json_object_new_int64((int64_t)res->completed));
	_add(o, "missing", json_object_new_int64((int64_t)res->missing));
	_add(o, "restarted", json_object_new_int64((int64_t)res->restarted));
	_add(o, "z_first_immediate",
	     json_object_new_boolean(res->z_first_immediate));
	_add(o, "z1_submit", _jnum(res->z1_submit));
	_add(o, "z1_start", _jnum(res->z1_start));
	_add(o, "z1_wait", _jnum(res->z1_wait));
	_add(o, "z1_overtaken",
	     json_object_new_int64((int64_t)res->z1_overtaken));
	_add(o, "z_second_within_90",
	     json_object_new_boolean(res->z_second_within_90));
	_add(o, "z2_end", _jnum(res->z2_end));
	_add(o, "z2_limit", _jnum(res->z2_limit));
	_add(o, "loss", _json_loss(&res->loss));
}

int esp_write_json(const struct esp_run *run, const struct esp_result *res,
		   const char *label, const char *path, char *err,
		   size_t errlen)
{
	json_object *o = json_object_new_object();
	const char *text;
	FILE *fp;
	int rc = -1;

	if (!o) {
		snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
		return -1;
	}
	_json_run(o, run, label);
	_json_result(o, res);
	text = json_text_of(o);
	if (!text) {
		snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
	} else if ((fp = _create(path, err, errlen))) {
		fputs(text, fp);
		fputc('\n', fp);
		rc = _finish(fp, path, err, errlen);
	}
	json_object_put(o);
	return rc;
}

/* ------------------------------------------------------------ chronology */

static int _cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Every time the utilization can change, clipped to [0, T], sorted and
 * unique: 0, T, and each job's start, end and suspension edges.
 */
static double *_change_points(const struct esp_run *run, double T,
			      size_t *n)
{
	size_t i, k, cap = 2;
	double *v;

	for (i = 0; i < run->njobs; i++)
		cap += 2 + 2 * run->jobs[i].nsusp;
	v = malloc(cap * sizeof(*v));
	if (!v)
		return NULL;
	*n = 0;
	v[(*n)++] = 0;
	v[(*n)++] = T;
	for (i = 0; i < run->njobs; i++) {
		const struct esp_run_job *j = &run->jobs[i];

		if (isnan(j->start))
			continue;
		v[(*n)++] = j->start;
		if (!isnan(j->end))
			v[(*n)++] = j->end;
		for (k = 0; k < j->nsusp; k++) {
			v[(*n)++] = j->susp[k].from;
			v[(*n)++] = j->susp[k].to;
		}
	}
	for (i = 0; i < *n; i++)
		v[i] = fmin(fmax(v[i], 0), T);
	qsort(v, *n, sizeof(*v), _cmp_double);
	for (i = k = 0; i < *n; i++)
		if (!k || v[i] != v[k - 1])
			v[k++] = v[i];
	*n = k;
	return v;
}

/*
 * utilization.dat: one row per change point, the utilization from there to
 * the next row (gnuplot's `steps`).  Each row asks esp_utilization_at(), so
 * the plot is exactly what the analysis counts; O(jobs^2), which for the
 * hundreds of jobs of a mix is nothing.
 */
static int _write_util(const struct esp_run *run, double T, double norm,
		       const char *path, char *err, size_t errlen)
{
	double *pts;
	size_t i, n;
	FILE *fp;

	pts = _change_points(run, T, &n);
	if (!pts) {
		snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
		return -1;
	}
	fp = _create(path, err, errlen);
	if (!fp) {
		free(pts);
		return -1;
	}
	fputs("# normalized_time utilization_percent\n", fp);
	for (i = 0; i < n; i++)
		fprintf(fp, "%.6f %.3f\n", pts[i] / norm,
			100 * esp_utilization_at(run, pts[i]));
	free(pts);
	return _finish(fp, path, err, errlen);
}

/*
 * loss.dat: the idle processors of each stretch by cause, stacked above
 * the running ones, in percent of P: column 2 is the utilization, column
 * 2 + k the top of the k-th cause's band (esp_loss_names order).  Each
 * stretch is written at both ends, so filledcurves draws steps.
 */
static int _write_loss(const struct esp_run *run, double T, double W,
		       double norm, const char *path, size_t *nsegs,
		       char *err, size_t errlen)
{
	struct esp_loss_segment *segs;
	struct esp_loss loss;
	size_t n;
	FILE *fp;

	*nsegs = 0;
	if (esp_loss_compute(run, T, W, &loss, &segs, &n)) {
		snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
		return -1;
	}
	if (!(fp = _create(path, err, errlen))) {
		free(segs);
		return -1;
	}
	fputs("# normalized_time utilization_percent", fp);
	for (int c = 0; c < ESP_LOSS_NCAUSES; c++)
		fprintf(fp, " +%s", esp_loss_names[c]);
	fputc('\n', fp);
	for (size_t i = 0; i < n && run->procs; i++, (*nsegs)++) {
		for (int end = 0; end < 2; end++) {
			double top = segs[i].running;

			fprintf(fp, "%.6f %.3f", (end ? segs[i].to :
				segs[i].from) / norm, 100 * top / run->procs);
			for (int c = 0; c < ESP_LOSS_NCAUSES; c++) {
				top += segs[i].idle[c];
				fprintf(fp, " %.3f", 100 * top / run->procs);
			}
			fputc('\n', fp);
		}
	}
	free(segs);
	return _finish(fp, path, err, errlen);
}

/* starts.dat: an impulse per job start, as high as its partition. */
static int _write_starts(const struct esp_run *run, double norm,
			 const char *path, size_t *nstarts, double *xmax,
			 char *err, size_t errlen)
{
	FILE *fp = _create(path, err, errlen);
	size_t i;

	if (!fp)
		return -1;
	*nstarts = 0;
	fputs("# normalized_time size\n", fp);
	for (i = 0; i < run->njobs; i++) {
		const struct esp_run_job *j = &run->jobs[i];

		if (isnan(j->start))
			continue;
		fprintf(fp, "%.6f %u\n", j->start / norm, j->size);
		*xmax = fmax(*xmax, j->start / norm);
		(*nstarts)++;
	}
	return _finish(fp, path, err, errlen);
}

/* A gnuplot single-quoted string: only ' is special, written twice. */
static void _gp_str(FILE *fp, const char *s)
{
	fputc('\'', fp);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', fp);
		fputc((unsigned char)*s < ' ' ? ' ' : *s, fp);
	}
	fputc('\'', fp);
}

/* One color per cause, esp_loss_names order. */
static const char *const loss_colors[ESP_LOSS_NCAUSES] = {
	[ESP_LOSS_IDLE_WAITING] = "#d62728",
	[ESP_LOSS_ROW_SWITCH] = "#9467bd",
	[ESP_LOSS_LAUNCH] = "#ff7f0e",
	[ESP_LOSS_TAIL] = "#7f7f7f",
	[ESP_LOSS_Z_DRAIN] = "#1f77b4",
	[ESP_LOSS_OTHER] = "#bcbd22",
};

static int _write_script(const struct esp_run *run, const char *title,
			 bool normalized, double xmax, size_t nstarts,
			 size_t nsegs, const char *path, char *err,
			 size_t errlen)
{
	FILE *fp = _create(path, err, errlen);

	if (!fp)
		return -1;
	fputs("# ESP utilization chronology (Wong et al., Figures 1-3).\n"
	      "# Run it where it lies: gnuplot utilization.gp writes "
	      "utilization.png.\n"
	      "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
	      "\tset terminal pngcairo size 1024,640\n"
	      "} else {\n"
	      "\tset terminal png size 1024,640\n"
	      "}\n"
	      "set output 'utilization.png'\n"
	      "set title ", fp);
	_gp_str(fp, title);
	fprintf(fp, " noenhanced\n"
		"set xlabel '%s'\n"
		"set ylabel 'Utilization (%%)'\n"
		"set y2label 'Partition size (processors)'\n"
		"set xrange [0:%.6f]\n"
		"set yrange [0:100]\n"
		"set y2range [0:%.6g]\n"
		"set ytics nomirror\n"
		"set y2tics\n"
		"set key below\n"
		"set style fill transparent solid 0.35 noborder\n"
		"plot ",
		normalized ? "Normalized Time" : "Time (seconds)", xmax,
		SIZE_AXIS_SHARE * run->procs);
	/* the idle processors shaded by cause (loss.dat), under the line */
	for (int c = 0; nsegs && c < ESP_LOSS_NCAUSES; c++)
		fprintf(fp, "'loss.dat' using 1:%d:%d with filledcurves "
			"lc rgb '%s' title 'idle: %s' noenhanced, \\\n     ", c + 2,
			c + 3, loss_colors[c], esp_loss_names[c]);
	fputs("'utilization.dat' using 1:2 with steps lw 2 lc rgb 'black' "
	      "title 'Utilization (%)' noenhanced", fp);
	/* gnuplot refuses a plot whose every point is missing */
	if (nstarts)
		fputs(", \\\n     'starts.dat' using 1:2 axes x1y2 with impulses "
		      "title 'Job start (partition size)'", fp);
	fputs("\nunset output\n", fp);
	return _finish(fp, path, err, errlen);
}

int esp_write_chronology(const struct esp_run *run, const char *dir,
			 const char *title, char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct esp_result res;
	bool normalized = run->min_time > 0;
	double norm = normalized ? run->min_time : 1, xmax;
	size_t nstarts, nsegs;

	if (mkdir(dir, 0777) && errno != EEXIST) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	esp_analyze(run, ESP_IMMEDIATE_DEFAULT, ESP_TIE_DEFAULT, &res);
	xmax = res.elapsed / norm;
	if (_join(path, sizeof(path), dir, "utilization.dat", err, errlen) ||
	    _write_util(run, res.elapsed, norm, path, err, errlen))
		return -1;
	if (_join(path, sizeof(path), dir, "loss.dat", err, errlen) ||
	    _write_loss(run, res.elapsed, res.elapsed * run->procs -
			res.loss.total, norm, path, &nsegs, err, errlen))
		return -1;
	if (_join(path, sizeof(path), dir, "starts.dat", err, errlen) ||
	    _write_starts(run, norm, path, &nstarts, &xmax, err, errlen))
		return -1;
	if (xmax <= 0)		/* nothing ran: still a valid empty axis */
		xmax = 1;
	if (_join(path, sizeof(path), dir, "utilization.gp", err, errlen))
		return -1;
	return _write_script(run, title && *title ? title :
			     "ESP Utilization Chronology", normalized, xmax,
			     nstarts, nsegs, path, err, errlen);
}
