/*
 * esp-driver.c - the ESP utilization test's driver (see esp(1)): plan,
 * run, analyze and table.  esp(1), a shell front end, starts clusters and
 * calls it; it can also be run directly against any Slurm.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver.h"
#include "num/num.h"
#include "esp/runlog.h"
#include "version/version.h"

static const char usage_text[] =
"usage: esp-driver plan    --mix FILE --procs P [--minutes M] [--seed S]\n"
"                          [--light] [--reboot SECS]\n"
"       esp-driver run     --mix FILE --procs P --out DIR [--minutes M]\n"
"                          [--seed S] [--light] [--reboot SECS]\n"
"                          [--partition P] [--z-partition P] [--per-cpu]\n"
"                          [--work PATH] [--burn] [--timeout SECS]\n"
"                          [--stall SECS] [--quiet]\n"
"                          [--label TEXT] [--immediate SECS] [--tie SECS]\n"
"                          [--sbatch-arg ARG]...\n"
"       esp-driver analyze --out DIR [--label TEXT] [--immediate SECS]\n"
"                          [--tie SECS]\n"
"       esp-driver table   [--output FILE] DIR...\n"
"       esp-driver --help | --version\n";

static int _usage(int rc)
{
	fputs(usage_text, rc ? stderr : stdout);
	return rc;
}

static int _bad(const char *opt, const char *val, const char *want)
{
	fprintf(stderr, "esp-driver: --%s: '%s' is not %s\n", opt, val, want);
	return -1;
}

static int _number(const char *opt, const char *val, double min, double *out)
{
	if (num_parse_double(val, out) || *out < min)
		return _bad(opt, val, min > 0 ? "a positive number" :
			    "a number >= 0");
	return 0;
}

static int _unsigned(const char *opt, const char *val, uint64_t max,
		     uint64_t *out)
{
	if (num_parse_u64(val, out) || *out > max)
		return _bad(opt, val, "a whole number in range");
	return 0;
}

enum {
	O_MIX = 256, O_PROCS, O_MINUTES, O_SEED, O_LIGHT, O_REBOOT, O_OUT,
	O_PART, O_ZPART, O_PERCPU, O_WORK, O_BURN, O_TIMEOUT, O_LABEL,
	O_IMMEDIATE, O_TIE, O_SBATCH, O_OUTPUT, O_STALL, O_QUIET,
};

static const struct option options[] = {
	{ "mix", required_argument, NULL, O_MIX },
	{ "procs", required_argument, NULL, O_PROCS },
	{ "minutes", required_argument, NULL, O_MINUTES },
	{ "seed", required_argument, NULL, O_SEED },
	{ "light", no_argument, NULL, O_LIGHT },
	{ "reboot", required_argument, NULL, O_REBOOT },
	{ "out", required_argument, NULL, O_OUT },
	{ "partition", required_argument, NULL, O_PART },
	{ "z-partition", required_argument, NULL, O_ZPART },
	{ "per-cpu", no_argument, NULL, O_PERCPU },
	{ "work", required_argument, NULL, O_WORK },
	{ "burn", no_argument, NULL, O_BURN },
	{ "timeout", required_argument, NULL, O_TIMEOUT },
	{ "stall", required_argument, NULL, O_STALL },
	{ "label", required_argument, NULL, O_LABEL },
	{ "immediate", required_argument, NULL, O_IMMEDIATE },
	{ "tie", required_argument, NULL, O_TIE },
	{ "sbatch-arg", required_argument, NULL, O_SBATCH },
	{ "output", required_argument, NULL, O_OUTPUT },
	{ "quiet", no_argument, NULL, O_QUIET },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int _option(struct run_opts *o, int c, const char **output)
{
	uint64_t u;

	switch (c) {
	case O_MIX: o->mix_path = optarg; return 0;
	case O_OUT: o->out = optarg; return 0;
	case O_PART: o->partition = optarg; return 0;
	case O_ZPART: o->z_partition = optarg; return 0;
	case O_WORK: o->work = optarg; return 0;
	case O_LABEL: o->label = optarg; return 0;
	case O_OUTPUT: *output = optarg; return 0;
	case O_LIGHT: o->plan.light = true; return 0;
	case O_PERCPU: o->per_cpu = true; return 0;
	case O_BURN: o->burn = true; return 0;
	case O_QUIET: o->quiet = true; return 0;
	case O_MINUTES: return _number("minutes", optarg, 0, &o->plan.minutes);
	case O_REBOOT: return _number("reboot", optarg, 0, &o->plan.reboot);
	case O_TIMEOUT: return _number("timeout", optarg, 1, &o->timeout);
	case O_STALL: return _number("stall", optarg, 0, &o->stall);
	case O_IMMEDIATE: return _number("immediate", optarg, 0, &o->immediate);
	case O_TIE: return _number("tie", optarg, 0, &o->tie);
	case O_PROCS:
		if (_unsigned("procs", optarg, 1000000, &u) || !u)
			return u ? -1 : _bad("procs", optarg, "at least 1");
		o->plan.procs = (uint32_t)u;
		return 0;
	case O_SEED:
		if (_unsigned("seed", optarg, UINT64_MAX, &u))
			return -1;
		o->plan.seed = u;
		return 0;
	case O_SBATCH:
		if (o->nextra == ESP_MAX_EXTRA) {
			fprintf(stderr, "esp-driver: at most %d --sbatch-arg\n",
				ESP_MAX_EXTRA);
			return -1;
		}
		o->extra[o->nextra++] = optarg;
		return 0;
	}
	return -1;
}

/* esp-work beside this program, unless --work says otherwise. */
static const char *_default_work(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 16);
	char *slash;

	if (n <= 0)
		return "esp-work";
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	strcpy(slash + 1, "esp-work");
	return buf;
}

static int _need(const char *what, const void *value)
{
	if (value)
		return 0;
	fprintf(stderr, "esp-driver: --%s is required\n", what);
	return -1;
}

static int _print_plan(const struct run_opts *o)
{
	char err[ESP_ERR_LEN];
	struct esp_mix mix;
	struct esp_plan plan;

	if (esp_mix_load(o->mix_path, &mix, err, sizeof(err)) ||
	    esp_plan_make(&mix, &o->plan, &plan, err, sizeof(err))) {
		fprintf(stderr, "esp-driver: %s\n", err);
		return 1;
	}
	printf("# mix %s on %u processors, seed %llu: %zu jobs, work %.1f "
	       "CPU-s, T_min %.1f s, compression %.6f, reboot %.1f s\n",
	       mix.name, plan.procs, (unsigned long long)o->plan.seed,
	       plan.njobs, plan.work, plan.min_time, plan.compress,
	       plan.reboot);
	for (unsigned b = 0; b < 4; b++)
		printf("# block %u at %.3f s: %llu processors\n", b,
		       plan.block_at[b],
		       (unsigned long long)esp_plan_block_procs(&plan, b));
	printf("submit\tblock\tname\tsize\tseconds\tfull\n");
	for (size_t i = 0; i < plan.njobs; i++)
		printf("%.3f\t%u\t%s\t%u\t%.3f\t%d\n", plan.jobs[i].submit,
		       plan.jobs[i].block, plan.jobs[i].name,
		       plan.jobs[i].size, plan.jobs[i].seconds,
		       plan.jobs[i].full);
	esp_plan_free(&plan);
	return 0;
}

int main(int argc, char **argv)
{
	struct run_opts o = {
		.immediate = ESP_IMMEDIATE_DEFAULT, .tie = ESP_TIE_DEFAULT,
		.stall = ESP_STALL_DEFAULT,
		.plan = { .seed = 1, .reboot = ESP_T3E_REBOOT },
	};
	const char *cmd, *output = NULL;
	char work[PATH_MAX];
	int c;

	if (coalloc_version_wanted(argc, argv))
		return coalloc_version_print("esp-driver");

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return _usage(argc < 2 ? 2 : 0);
	cmd = argv[1];
	optind = 2;
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		if (c == 'h')
			return _usage(0);
		if (c == '?' || _option(&o, c, &output))
			return 2;
	}
	if (!o.work)
		o.work = _default_work(work, sizeof(work));
	if (!o.z_partition)
		o.z_partition = o.partition;
	if (!strcmp(cmd, "plan"))
		return _need("mix", o.mix_path) || _need("procs",
		       o.plan.procs ? &o : NULL) ? 2 : _print_plan(&o);
	if (!strcmp(cmd, "run"))
		return _need("mix", o.mix_path) || _need("out", o.out) ||
		       _need("procs", o.plan.procs ? &o : NULL) ? 2 :
		       esp_cmd_run(&o);
	if (!strcmp(cmd, "analyze"))
		return _need("out", o.out) ? 2 :
		       esp_cmd_analyze(o.out, o.label, o.immediate, o.tie);
	if (!strcmp(cmd, "table"))
		return optind >= argc ? _usage(2) :
		       esp_cmd_table(output, argv + optind,
				     (size_t)(argc - optind));
	fprintf(stderr, "esp-driver: unknown command '%s'\n", cmd);
	return _usage(2);
}
