/*
 * report.c - esp-driver analyze and table: results, plots and the
 * side-by-side comparison, from run logs and results.json files.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <json.h>
#include <limits.h>
#include <stdlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "driver.h"
#include "esp/compare.h"
#include "esp/runlog.h"
#include "spawn.h"

static const char *_verdict(bool pass)
{
	return pass ? "PASS" : "FAIL";
}

/* gnuplot draws the PNG; a machine without it still gets the data. */
static void _plot(const char *dir, const char *script)
{
	char cd[4200], out[256];
	char *argv[] = { "gnuplot", "-e", cd, (char *)script, NULL };

	snprintf(cd, sizeof(cd), "cd '%s'", dir);
	if (strchr(dir, '\'') || esp_spawn(argv, out, sizeof(out)))
		fprintf(stderr, "esp: gnuplot failed on %s/%s: no plot\n",
			dir, script);
}

/* Each cause as the share of P*T it cost: they add up to 1 - E. */
static void _print_loss(const struct esp_run *run, const struct esp_result *r)
{
	double pt = run->procs * r->elapsed;

	if (pt <= 0)
		return;
	printf("  lost:       1 - E = %.3f:", r->loss.total / pt);
	for (int c = 0; c < ESP_LOSS_NCAUSES; c++)
		printf(" %s %.3f", esp_loss_names[c], r->loss.cause[c] / pt);
	printf("%s\n", r->loss.by_node ? "" : " (node lists not readable: "
	       "all counted as other)");
}

static void _print_summary(const struct esp_run *run,
			   const struct esp_result *r, const char *label,
			   const char *dir)
{
	printf("ESP %s on %u processors%s%s, seed %llu: theoretical minimum "
	       "%.1f s (compression %.5f)\n", run->mix, run->procs,
	       label ? ", " : "", label ? label : "",
	       (unsigned long long)run->seed, run->min_time, run->compress);
	printf("  jobs:       %zu submitted, %zu completed, %zu missing%s\n",
	       run->njobs, r->completed, r->missing, run->finished &&
	       !r->missing ? "" : " (INCOMPLETE: not an ESP result; E "
	       "counts the completed jobs only)");
	printf("  elapsed:    T = %.1f s\n", r->elapsed);
	printf("  efficiency: E = %.3f; with shutdown/reboot of %.1f s: "
	       "%.3f\n", r->efficiency, run->reboot,
	       r->efficiency_with_reboot);
	printf("  measured utilization of the jobs' running time: %.3f\n",
	       r->utilization);
	printf("  Z rule 1 (first full-configuration job at once): %s "
	       "(submitted %.1f s, started %.1f s, waited %.1f s, "
	       "%zu job(s) started meanwhile)\n",
	       _verdict(r->z_first_immediate), r->z1_submit, r->z1_start,
	       r->z1_wait, r->z1_overtaken);
	printf("  Z rule 2 (second one done within 90%% of T): %s (ended "
	       "%.1f s, limit %.1f s)\n", _verdict(r->z_second_within_90),
	       r->z2_end, r->z2_limit);
	_print_loss(run, r);
	printf("  results:    %s/results.json, %s/jobs.csv, "
	       "%s/utilization.png\n", dir, dir, dir);
}

int esp_cmd_analyze(const char *dir, const char *label, double immediate,
		    double tie)
{
	/* empty: an incomplete run fails with no other error to print */
	char path[4096], err[ESP_ERR_LEN] = "";
	struct esp_run run;
	struct esp_result res;
	int rc = 1;

	snprintf(path, sizeof(path), "%s/%s", dir, ESP_LOG_NAME);
	if (esp_runlog_read(path, &run, err, sizeof(err))) {
		fprintf(stderr, "esp: %s\n", err);
		return 1;
	}
	esp_analyze(&run, immediate, tie, &res);
	snprintf(path, sizeof(path), "%s/jobs.csv", dir);
	if (esp_write_csv(&run, path, err, sizeof(err)))
		goto fail;
	snprintf(path, sizeof(path), "%s/results.json", dir);
	if (esp_write_json(&run, &res, label, path, err, sizeof(err)))
		goto fail;
	if (esp_write_chronology(&run, dir, label ? label : run.mix, err,
				 sizeof(err)))
		goto fail;
	_plot(dir, "utilization.gp");
	_print_summary(&run, &res, label, dir);
	rc = res.missing || !res.completed ? 1 : 0;
	if (rc)
		fprintf(stderr, "esp: %zu job(s) did not complete\n",
			res.missing);
fail:
	if (rc && err[0])
		fprintf(stderr, "esp: %s\n", err);
	esp_run_free(&run);
	return rc;
}

/* ---------------------------------------------------------------- table */

static double _num(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return NAN;
	return json_object_get_double(v);
}

static bool _bool(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) &&
	       json_object_get_boolean(v);
}

static const char *_str(json_object *o, const char *key, const char *dflt)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return dflt;
	return json_object_get_string(v);
}

static void _table_row(FILE *f, json_object *r, const char *dir)
{
	fprintf(f, "| %s | %.0f | %.1f | %.1f | %.3f | %.3f | %s | %s | "
		"%.0f/%.0f | `%s` |\n", _str(r, "label", "?"),
		_num(r, "processors"), _num(r, "min_time"),
		_num(r, "elapsed"), _num(r, "efficiency"),
		_num(r, "efficiency_with_reboot"),
		_verdict(_bool(r, "z_first_immediate")),
		_verdict(_bool(r, "z_second_within_90")),
		_num(r, "completed"), _num(r, "jobs"), dir);
}

/* The loss breakdown of each run, as shares of P*T (1 - E in all). */
static void _loss_table(FILE *f, json_object *const res[],
			char *const dirs[], size_t n)
{
	fprintf(f, "\nWhere E was lost (share of P*T; the causes add up to "
		"1 - E):\n\n| configuration |");
	for (int c = 0; c < ESP_LOSS_NCAUSES; c++)
		fprintf(f, " %s |", esp_loss_names[c]);
	fprintf(f, " 1 - E |\n|---|");
	for (int c = 0; c <= ESP_LOSS_NCAUSES; c++)
		fprintf(f, "---|");
	fputc('\n', f);
	for (size_t i = 0; i < n; i++) {
		double pt = _num(res[i], "processors") *
			    _num(res[i], "elapsed");
		json_object *loss = NULL;

		json_object_object_get_ex(res[i], "loss", &loss);
		fprintf(f, "| %s |", _str(res[i], "label", dirs[i]));
		for (int c = 0; c < ESP_LOSS_NCAUSES; c++)
			fprintf(f, " %.3f |", _num(loss, esp_loss_names[c]) / pt);
		fprintf(f, " %.3f |\n", _num(loss, "total") / pt);
	}
}

/* "0.812 +- 0.021", or the mean alone, or "-". */
static void _fmt_ci(char *buf, size_t len, struct stat_ci s, bool sign)
{
	if (isnan(s.mean))
		snprintf(buf, len, "-");
	else if (isnan(s.ci95))
		snprintf(buf, len, sign ? "%+.3f" : "%.3f", s.mean);
	else
		snprintf(buf, len, sign ? "%+.3f +- %.3f" : "%.3f +- %.3f",
			 s.mean, s.ci95);
}

/*
 * Over seeds: each configuration's mean E and the difference against the
 * best built-in, paired by seed (every configuration ran each seed's
 * plan).  An incomplete run is no ESP result: it counts as a run, not in E.
 */
static void _seeds_table(FILE *f, json_object *const res[],
			 char *const dirs[], size_t n)
{
	struct esp_cmp_run runs[64];
	struct esp_cmp_group groups[64];
	size_t ng, most = 0;

	for (size_t i = 0; i < n; i++) {
		bool complete = _bool(res[i], "finished") &&
				_num(res[i], "missing") == 0;

		runs[i].label = _str(res[i], "label", dirs[i]);
		runs[i].seed = (uint64_t)_num(res[i], "seed");
		runs[i].efficiency = complete ? _num(res[i], "efficiency") :
					       NAN;
	}
	ng = esp_compare_groups(runs, n, groups);
	for (size_t g = 0; g < ng; g++)
		most = groups[g].runs > most ? groups[g].runs : most;
	if (most < 2)
		return;
	fprintf(f, "\nOver the seeds (mean +- 95 %% confidence half-width; "
		"the difference is paired by seed against the best built-in "
		"select):\n\n| configuration | seeds | E | E - best built-in "
		"| paired seeds |\n|---|---|---|---|---|\n");
	for (size_t g = 0; g < ng; g++) {
		char e[64], d[64];

		_fmt_ci(e, sizeof(e), groups[g].e, false);
		_fmt_ci(d, sizeof(d), groups[g].diff, true);
		fprintf(f, "| %s%s | %zu | %s | %s | %zu |\n", groups[g].label,
			groups[g].best_builtin ? " (best built-in)" : "",
			groups[g].runs, e, groups[g].best_builtin ? "0" : d,
			groups[g].paired);
	}
}

/* One panel per run, stacked, with the same axes as each run's plot. */
static int _compare_plot(const char *out, char *const dirs[], size_t n,
			 json_object *const res[])
{
	char gp[4200], dir[4096], run[PATH_MAX];
	const char *slash = strrchr(out, '/');
	FILE *f;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - out) : 1,
		 slash ? out : ".");
	snprintf(gp, sizeof(gp), "%s/compare.gp", dir);
	f = fopen(gp, "w");
	if (!f)
		return -1;
	fprintf(f, "set terminal pngcairo noenhanced size 900,%zu\nset output "
		"'compare.png'\nset multiplot layout %zu,1\nset yrange "
		"[0:105]\nset ylabel 'Utilization (%%)'\nset xlabel "
		"'Normalized Time'\nset key off\n", 300 * n, n);
	/* gnuplot runs in the table's directory: absolute data paths */
	for (size_t i = 0; i < n; i++)
		fprintf(f, "set title '%s: E = %.3f'\nplot '%s/utilization.dat'"
			" using 1:2 with steps lw 1.5\n",
			_str(res[i], "label", dirs[i]),
			_num(res[i], "efficiency"),
			realpath(dirs[i], run) ? run : dirs[i]);
	fprintf(f, "unset multiplot\n");
	if (fclose(f))
		return -1;
	_plot(dir, "compare.gp");
	return 0;
}

int esp_cmd_table(const char *out, char *const dirs[], size_t n)
{
	json_object *res[64] = { NULL };
	FILE *f = stdout;
	int rc = 1;

	if (n > 64) {
		fprintf(stderr, "esp: at most 64 runs in a table\n");
		return 2;
	}
	for (size_t i = 0; i < n; i++) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/results.json", dirs[i]);
		res[i] = json_object_from_file(path);
		if (!res[i]) {
			fprintf(stderr, "esp: %s: %s\n", path,
				json_util_get_last_err());
			goto fail;
		}
	}
	if (out && !(f = fopen(out, "w"))) {
		perror(out);
		goto fail;
	}
	fprintf(f, "| configuration | P | T_min (s) | T (s) | E | E with "
		"reboot | Z rule 1 | Z rule 2 | completed | run |\n"
		"|---|---|---|---|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < n; i++)
		_table_row(f, res[i], dirs[i]);
	_loss_table(f, res, dirs, n);
	_seeds_table(f, res, dirs, n);
	rc = 0;
	if (out) {
		rc = fclose(f) ? 1 : 0;
		if (!rc && _compare_plot(out, dirs, n, res))
			fprintf(stderr, "esp: no comparison plot\n");
	}
fail:
	for (size_t i = 0; i < n; i++)
		if (res[i])
			json_object_put(res[i]);
	return rc;
}
