/*
 * output.c - summaries, text table, JSON and gnuplot output.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "json_text/json_text.h"
#include "output.h"

void summarise_policy(enum coalloc_policy policy,
		      const struct sim_result *res, unsigned reps,
		      struct policy_summary *out)
{
	double t[reps], l[reps], g[reps], u[reps];

	memset(out, 0, sizeof(*out));
	out->policy = policy;
	out->replications = reps;
	for (unsigned r = 0; r < reps; r++) {
		t[r] = res[r].mean_total;
		l[r] = res[r].mean_local;
		g[r] = res[r].mean_global;
		u[r] = res[r].utilization;
		out->saturated_reps += res[r].saturated;
	}
	out->total = stat_ci(t, reps);
	out->local = stat_ci(l, reps);
	out->global = stat_ci(g, reps);
	out->utilization = stat_ci(u, reps);
	out->saturated = 2 * out->saturated_reps >= reps;
}

static void print_ci(FILE *fp, struct stat_ci s)
{
	char buf[48];

	if (isnan(s.mean))
		snprintf(buf, sizeof(buf), "-");
	else if (isnan(s.ci95))
		snprintf(buf, sizeof(buf), "%.3f", s.mean);
	else
		snprintf(buf, sizeof(buf), "%.3f +- %.3f", s.mean, s.ci95);
	fprintf(fp, "  %-18s", buf);
}

void print_table(FILE *fp, const char *heading,
		 const struct policy_summary *s, unsigned n)
{
	fprintf(fp, "%s\n", heading);
	fprintf(fp, "%-6s  %-18s  %-18s  %-18s  %-6s  %s\n", "policy",
		"response total", "response local", "response global", "util",
		"saturated");
	for (unsigned i = 0; i < n; i++) {
		fprintf(fp, "%-6s", coalloc_policy_name(s[i].policy));
		print_ci(fp, s[i].total);
		print_ci(fp, s[i].local);
		print_ci(fp, s[i].global);
		fprintf(fp, "  %-6.3f  %s\n", s[i].utilization.mean,
			s[i].saturated ? "SATURATED" : "no");
	}
}

static json_object *json_ci(struct stat_ci s)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "mean", json_text_num(s.mean));
	json_object_object_add(o, "ci95", json_text_num(s.ci95));
	return o;
}

static json_object *json_policy(const struct policy_summary *s,
				double offered)
{
	json_object *o = json_object_new_object();
	json_object *resp = json_object_new_object();

	json_object_object_add(o, "policy", json_object_new_string(
				       coalloc_policy_name(s->policy)));
	json_object_object_add(resp, "total", json_ci(s->total));
	json_object_object_add(resp, "local", json_ci(s->local));
	json_object_object_add(resp, "global", json_ci(s->global));
	json_object_object_add(o, "response", resp);
	json_object_object_add(o, "utilization", json_text_num(s->utilization.mean));
	json_object_object_add(o, "offered_utilization", json_text_num(offered));
	json_object_object_add(o, "saturated",
			       json_object_new_boolean(s->saturated));
	json_object_object_add(o, "saturated_replications",
			       json_object_new_int((int)s->saturated_reps));
	json_object_object_add(o, "replications",
			       json_object_new_int((int)s->replications));
	return o;
}

int print_json(FILE *fp, const struct policy_summary *s, unsigned n,
	       double offered)
{
	json_object *arr = json_object_new_array();
	int rc = -1;

	if (arr) {
		for (unsigned i = 0; i < n; i++)
			json_object_array_add(arr, json_policy(&s[i], offered));
		rc = json_text_print(fp, arr);
		json_object_put(arr);
	}
	if (rc)
		fprintf(stderr, "coalloc-sim: cannot write JSON\n");
	return rc;
}

/* A bar height; a saturated policy has no meaningful mean, so its bars
 * stay at zero and its label says SAT, as in the paper's figures. */
static double bar(struct stat_ci s, bool saturated)
{
	return isnan(s.mean) || saturated ? 0 : s.mean;
}

static bool any_bar(const struct policy_summary *s, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (bar(s[i].total, s[i].saturated) > 0)
			return true;
	return false;
}

static int write_plot_script(FILE *fp, const char *png, const char *title,
			     const struct policy_summary *s, unsigned n)
{
	fprintf(fp, "set terminal pngcairo size 900,480 noenhanced\n"
		"set output '%s'\n"
		"set title '%s'\n"
		"set style data histograms\n"
		"set style histogram clustered gap 1\n"
		"set style fill solid 0.8 border -1\n"
		"set boxwidth 0.9\n"
		"set ylabel 'average response time'\n"
		"set yrange [0:%s]\n"
		"set key top left\n"
		"set grid ytics\n"
		"$data << EOD\n", png, title, any_bar(s, n) ? "*" : "1");
	for (unsigned i = 0; i < n; i++) {
		fprintf(fp, "\"%s%s\"", coalloc_policy_name(s[i].policy),
			s[i].saturated ? " (SAT)" : "");
		fprintf(fp, " %.4f %.4f %.4f\n", bar(s[i].total, s[i].saturated),
			bar(s[i].local, s[i].saturated),
			bar(s[i].global, s[i].saturated));
	}
	fprintf(fp, "EOD\n"
		"plot $data using 2:xtic(1) title 'total', "
		"'' using 3 title 'local queues', "
		"'' using 4 title 'global queue'\n");
	return ferror(fp) ? -1 : 0;
}

static int run_gnuplot(const char *script)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		fprintf(stderr, "coalloc-sim: cannot run gnuplot: %s "
			"(install gnuplot-nox)\n", strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int plot_png(const char *png, const char *title,
	     const struct policy_summary *s, unsigned n)
{
	char script[] = "/tmp/coalloc-sim-plot-XXXXXX";
	int fd = mkstemp(script), rc = -1;
	FILE *fp;

	if (fd < 0)
		goto fail;
	fp = fdopen(fd, "w");
	if (!fp) {
		close(fd);
		goto fail_unlink;
	}
	rc = write_plot_script(fp, png, title, s, n);
	if (fclose(fp) || rc)
		goto fail_unlink;
	rc = run_gnuplot(script);
fail_unlink:
	unlink(script);
fail:
	if (rc)
		fprintf(stderr, "coalloc-sim: could not plot %s\n", png);
	return rc;
}
