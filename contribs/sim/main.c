/*
 * main.c - coalloc-sim: what would each co-allocation queue policy do to
 * a workload?  See coalloc-sim(1).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coalloc/engine.h"
#include "num/cli.h"
#include "num/num.h"
#include "output.h"
#include "coalloc_sim/simulate.h"
#include "version/version.h"
#include "coalloc_sim/workload.h"

#define MAX_REPLICATIONS 1000

struct options {
	struct workload_params wp;
	bool policies[COALLOC_POLICY_COUNT];
	unsigned npolicies;
	uint64_t seed;
	unsigned replications;
	const char *swf;
	unsigned swf_split;
	bool json;
	const char *plot;
	const char *title;
	double aging;
	double warmup;
	bool util_set;		/* --utilization given (SWF: rescale) */
};

static void usage(FILE *fp)
{
	fprintf(fp,
"usage: coalloc-sim [options]\n"
"  --policy NAME[,NAME...]|all  GS LS-OR LS-RD LS-RO LS-DO GP LP-LF LP-GF\n"
"                               LP-RD EQ-LF EQ-GF EQ-RD LQ (default all)\n"
"  --composition P1,P2,...      %% of 1-,2-,...-component jobs (sum 100;\n"
"                               default 25,25,25,25)\n"
"  --unbalanced                 local queue 0 gets 40%% of local jobs\n"
"  --request-mix O,U,F          fractions of multi-component jobs that are\n"
"                               ordered, unordered, flexible (default 0,1,0)\n"
"  --utilization U              offered utilization, 0 < U (default 0.8)\n"
"  --jobs N                     jobs per replication (default 20000)\n"
"  --seed S                     first seed (default 1)\n"
"  --replications R             replications, seeds S..S+R-1 (default 5)\n"
"  --sites N1,N2,...            processors per site (default 32,32,32,32)\n"
"  --dq Q,N1,N2                 component sizes D(Q) on [N1,N2]\n"
"                               (default 0.9,1,8)\n"
"  --aging W                    aging wait (default 0: off, as the paper)\n"
"  --warmup F                   fraction of jobs not measured (default 0.1)\n"
"  --swf FILE                   replay a Standard Workload Format trace\n"
"  --swf-split S                processors per component for SWF jobs\n"
"                               (default: the smallest site)\n"
"  --json                       JSON on stdout instead of a table\n"
"  --plot FILE.png              bar chart (gnuplot)\n"
"  --title TEXT                 title of the table and the chart\n"
"  --help\n"
"  --version\n");
}

#define PROG "coalloc-sim"
/* "coalloc-sim: MESSAGE"; returns -1. */
#define fail(...) cli_fail(PROG, __VA_ARGS__)

/* Comma-separated numbers into out[0..max); returns the count or -1. */
static int parse_list(const char *s, double *out, int max)
{
	char buf[512], *save = NULL, *tok;
	int n = 0;

	if (strlen(s) >= sizeof(buf) || s[0] == ',' || !s[0] ||
	    s[strlen(s) - 1] == ',' || strstr(s, ",,"))
		return -1;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n == max || num_parse_double(tok, &out[n]))
			return -1;
		n++;
	}
	return n;
}

static int parse_policies(struct options *o, const char *arg)
{
	char buf[256], *save = NULL, *tok;

	memset(o->policies, 0, sizeof(o->policies));
	if (!strcmp(arg, "all")) {
		for (int p = 0; p < COALLOC_POLICY_COUNT; p++)
			o->policies[p] = true;
		return 0;
	}
	if (strlen(arg) >= sizeof(buf))
		return fail("--policy: list too long");
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		enum coalloc_policy p;
		char names[128];

		if (coalloc_policy_parse(tok, &p))
			return fail("unknown policy '%s' (known: %s; or all)",
				    tok, coalloc_policy_list(names,
							     sizeof(names)));
		o->policies[p] = true;
	}
	return 0;
}

static int parse_sites(struct options *o, const char *arg)
{
	double v[COALLOC_MAX_SITES];
	int n = parse_list(arg, v, COALLOC_MAX_SITES);

	if (n < 1)
		return fail("--sites '%s': expected 1 to "
			    COALLOC_MAX_SITES_TEXT " comma-separated "
			    "processor counts", arg);
	for (int i = 0; i < n; i++) {
		if (v[i] < 1 || v[i] > 1e9 || v[i] != floor(v[i]))
			return fail("--sites '%s': processor counts must be "
				    "positive integers", arg);
		o->wp.site_procs[i] = (uint32_t)v[i];
	}
	o->wp.nsites = (unsigned)n;
	return 0;
}

static int parse_composition(struct options *o, const char *arg,
			     double *comp, int *ncomp)
{
	double sum = 0;

	*ncomp = parse_list(arg, comp, COALLOC_MAX_SITES);
	if (*ncomp < 1)
		return fail("--composition '%s': expected comma-separated "
			    "percentages", arg);
	for (int i = 0; i < *ncomp; i++) {
		if (comp[i] < 0)
			return fail("--composition '%s': negative percentage",
				    arg);
		sum += comp[i];
	}
	if (fabs(sum - 100) > 1e-6) {
		char msg[64];

		snprintf(msg, sizeof(msg), "%g", sum);
		fprintf(stderr, "coalloc-sim: --composition '%s': percentages "
			"sum to %s, not 100\n", arg, msg);
		return -1;
	}
	(void)o;
	return 0;
}

/* Three fractions, ordered, unordered, flexible, summing to 1. */
static int parse_mix(struct options *o, const char *arg)
{
	double v[MIX_TYPES], sum = 0;

	if (parse_list(arg, v, MIX_TYPES) != MIX_TYPES)
		return fail("--request-mix '%s': expected three fractions "
			    "O,U,F (ordered, unordered, flexible)", arg);
	for (int i = 0; i < MIX_TYPES; i++) {
		if (!(v[i] >= 0) || v[i] > 1)
			return fail("--request-mix '%s': each fraction must be "
				    "in [0, 1]", arg);
		sum += v[i];
	}
	if (fabs(sum - 1) > 1e-6)
		return fail("--request-mix '%s': the fractions sum to %g, "
			    "not 1", arg, sum);
	memcpy(o->wp.request_mix, v, sizeof(v));
	return 0;
}

static int parse_dq(struct options *o, const char *arg)
{
	double v[3];

	if (parse_list(arg, v, 3) != 3 || !(v[0] > 0) || v[1] < 1 ||
	    v[2] < v[1] || v[2] > 4096 || v[1] != floor(v[1]) ||
	    v[2] != floor(v[2]))
		return fail("--dq '%s': expected Q,N1,N2 with Q > 0 and "
			    "1 <= N1 <= N2 <= 4096", arg);
	o->wp.q = v[0];
	o->wp.n1 = (unsigned)v[1];
	o->wp.n2 = (unsigned)v[2];
	return 0;
}

enum {
	OPT_POLICY = 256, OPT_COMPOSITION, OPT_UNBALANCED, OPT_UTIL, OPT_JOBS,
	OPT_SEED, OPT_REPS, OPT_SITES, OPT_DQ, OPT_AGING, OPT_WARMUP, OPT_SWF,
	OPT_SWF_SPLIT, OPT_JSON, OPT_PLOT, OPT_TITLE, OPT_HELP, OPT_MIX,
};

static const struct option long_opts[] = {
	{ "policy", required_argument, NULL, OPT_POLICY },
	{ "composition", required_argument, NULL, OPT_COMPOSITION },
	{ "unbalanced", no_argument, NULL, OPT_UNBALANCED },
	{ "request-mix", required_argument, NULL, OPT_MIX },
	{ "utilization", required_argument, NULL, OPT_UTIL },
	{ "jobs", required_argument, NULL, OPT_JOBS },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "replications", required_argument, NULL, OPT_REPS },
	{ "sites", required_argument, NULL, OPT_SITES },
	{ "dq", required_argument, NULL, OPT_DQ },
	{ "aging", required_argument, NULL, OPT_AGING },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "swf", required_argument, NULL, OPT_SWF },
	{ "swf-split", required_argument, NULL, OPT_SWF_SPLIT },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "title", required_argument, NULL, OPT_TITLE },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

#define NUM(opt, name, field, lo, hi, open, expect) \
	CLI_NUMBER(struct options, opt, name, field, lo, hi, open, expect)

static const struct cli_number numbers[] = {
	CLI_NUMBER_FLAG(struct options, OPT_UTIL, "utilization",
			wp.utilization, 0, 10, CLI_OPEN_LO,
			"a number in (0, 10]", util_set),
	NUM(OPT_JOBS, "jobs", wp.njobs, 10, 100000000, 0, "10 to 100000000"),
	NUM(OPT_SEED, "seed", seed, 0, INFINITY, 0, "an integer"),
	NUM(OPT_REPS, "replications", replications, 1, MAX_REPLICATIONS, 0,
	    "1 to 1000"),
	NUM(OPT_AGING, "aging", aging, 0, INFINITY, 0, "a wait >= 0"),
	NUM(OPT_WARMUP, "warmup", warmup, 0, 0.9, CLI_OPEN_HI,
	    "a fraction in [0, 0.9)"),
	NUM(OPT_SWF_SPLIT, "swf-split", swf_split, 1, UINT32_MAX, 0,
	    "a positive integer"),
};

/* What parsing keeps between options: --composition waits for --sites. */
struct parse_ctx {
	struct options *o;
	double comp[COALLOC_MAX_SITES];
	int ncomp;
};

static void *options_of(void *ctx)
{
	return ((struct parse_ctx *)ctx)->o;
}

static int handle_opt(int opt, const char *arg, void *ctx)
{
	struct parse_ctx *pc = ctx;
	struct options *o = pc->o;

	switch (opt) {
	case OPT_POLICY:
		return parse_policies(o, arg);
	case OPT_COMPOSITION:
		return parse_composition(o, arg, pc->comp, &pc->ncomp);
	case OPT_UNBALANCED:
		o->wp.unbalanced = true;
		return 0;
	case OPT_MIX:
		return parse_mix(o, arg);
	case OPT_SITES:
		return parse_sites(o, arg);
	case OPT_DQ:
		return parse_dq(o, arg);
	case OPT_SWF:
		o->swf = arg;
		return 0;
	case OPT_JSON:
		o->json = true;
		return 0;
	case OPT_PLOT:
		o->plot = arg;
		return 0;
	case OPT_TITLE:
		o->title = arg;
		return 0;
	default:
		return -1;
	}
}

static int parse_args(int argc, char **argv, struct options *o)
{
	static const struct cli_spec spec = {
		.prog = PROG, .options = long_opts, .help_opt = OPT_HELP,
		.usage = usage, .handle = handle_opt, .numbers = numbers,
		.nnumbers = sizeof(numbers) / sizeof(numbers[0]),
		.options_of = options_of,
	};
	struct parse_ctx pc = { .o = o, .ncomp = -1 };

	if (cli_parse(&spec, argc, argv, &pc))
		return -1;
	if (pc.ncomp >= 0) {
		if ((unsigned)pc.ncomp > o->wp.nsites)
			return fail("--composition: more component counts than "
				    "sites");
		memset(o->wp.comp_pct, 0, sizeof(o->wp.comp_pct));
		memcpy(o->wp.comp_pct, pc.comp,
		       (size_t)pc.ncomp * sizeof(pc.comp[0]));
	}
	return 0;
}

static void options_defaults(struct options *o)
{
	memset(o, 0, sizeof(*o));
	workload_defaults(&o->wp);
	for (int p = 0; p < COALLOC_POLICY_COUNT; p++)
		o->policies[p] = true;
	o->seed = 1;
	o->replications = 5;
	o->aging = COALLOC_AGING_OFF;
	o->warmup = 0.1;
}

/* The job stream of one replication. */
static long load_jobs(const struct options *o, unsigned rep,
		      struct sim_job **jobs)
{
	char err[512];
	long n;

	if (o->swf) {
		struct workload_params wp = o->wp;
		unsigned split = o->swf_split;

		/* replay the trace's own arrival times unless asked */
		if (!o->util_set)
			wp.utilization = 0;

		if (!split) {
			split = UINT32_MAX;
			for (unsigned i = 0; i < o->wp.nsites; i++)
				if (o->wp.site_procs[i] < split)
					split = o->wp.site_procs[i];
		}
		n = workload_load_swf(o->swf, &wp, split, jobs, err,
				      sizeof(err));
		if (n < 0)
			fprintf(stderr, "coalloc-sim: %s\n", err);
	} else if (workload_generate(&o->wp, o->seed + rep, jobs)) {
		fprintf(stderr, "coalloc-sim: cannot generate the workload\n");
		return -1;
	} else {
		n = (long)o->wp.njobs;
	}
	if (n > 0 && workload_apply_mix(&o->wp, o->seed + rep, *jobs,
					(size_t)n)) {
		free(*jobs);
		*jobs = NULL;
		return fail("--request-mix: no type has a share");
	}
	return n;
}

static int simulate_all(const struct options *o, struct sim_result *res)
{
	/* an SWF trace is the same in every replication: run it once */
	unsigned reps = o->swf ? 1 : o->replications;

	for (unsigned r = 0; r < reps; r++) {
		struct sim_job *jobs = NULL;
		long n = load_jobs(o, r, &jobs);
		unsigned i = 0;

		if (n < 0)
			return -1;
		for (int p = 0; p < COALLOC_POLICY_COUNT; p++) {
			struct sim_config sc = {
				.policy = (enum coalloc_policy)p,
				.nsites = o->wp.nsites, .seed = o->seed + r,
				.aging_wait = o->aging, .warmup = o->warmup,
			};

			if (!o->policies[p])
				continue;
			memcpy(sc.site_procs, o->wp.site_procs,
			       sizeof(sc.site_procs));
			if (sim_run(jobs, (size_t)n, &sc,
				    &res[(size_t)i * reps + r])) {
				free(jobs);
				return fail("simulation failed");
			}
			i++;
		}
		free(jobs);
	}
	return 0;
}

static void heading(const struct options *o, char *buf, size_t len)
{
	int w;

	if (o->title) {
		snprintf(buf, len, "%s", o->title);
		return;
	}
	if (o->swf) {
		if (o->util_set)
			snprintf(buf, len, "%s on %u sites, arrivals scaled to "
				 "utilization %g", o->swf, o->wp.nsites,
				 o->wp.utilization);
		else
			snprintf(buf, len, "%s on %u sites", o->swf,
				 o->wp.nsites);
		return;
	}
	w = snprintf(buf, len, "composition (");
	for (unsigned k = 0; k < o->wp.nsites && w > 0 && (size_t)w < len; k++)
		w += snprintf(buf + w, len - (size_t)w, "%s%g", k ? ", " : "",
			      o->wp.comp_pct[k]);
	if (w > 0 && (size_t)w < len)
		w += snprintf(buf + w, len - (size_t)w, "), %s local queues, "
			      "utilization %g, %zu jobs x %u replications",
			      o->wp.unbalanced ? "unbalanced" : "balanced",
			      o->wp.utilization, o->wp.njobs, o->replications);
	if (w > 0 && (size_t)w < len &&
	    o->wp.request_mix[MIX_UNORDERED] != 1.0)
		snprintf(buf + w, len - (size_t)w, ", requests %g ordered, "
			 "%g unordered, %g flexible",
			 o->wp.request_mix[MIX_ORDERED],
			 o->wp.request_mix[MIX_UNORDERED],
			 o->wp.request_mix[MIX_FLEXIBLE]);
}

static int report(const struct options *o, const struct sim_result *res)
{
	struct policy_summary s[COALLOC_POLICY_COUNT];
	unsigned reps = o->swf ? 1 : o->replications, n = 0;
	char title[512];

	for (int p = 0; p < COALLOC_POLICY_COUNT; p++) {
		if (!o->policies[p])
			continue;
		summarise_policy((enum coalloc_policy)p, &res[(size_t)n * reps],
				 reps, &s[n]);
		n++;
	}
	heading(o, title, sizeof(title));
	if (o->json) {
		if (print_json(stdout, s, n,
			       o->swf && !o->util_set ? NAN : o->wp.utilization))
			return -1;
	} else {
		print_table(stdout, title, s, n);
	}
	if (o->plot && plot_png(o->plot, title, s, n))
		return -1;
	return fflush(stdout) ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct options o;
	struct sim_result *res = NULL;
	int rc = 1;

	if (coalloc_version_wanted(argc, argv))
		return coalloc_version_print("coalloc-sim");

	options_defaults(&o);
	if (parse_args(argc, argv, &o))
		return 2;
	res = calloc((size_t)COALLOC_POLICY_COUNT * o.replications,
		     sizeof(*res));
	if (!res) {
		fail("out of memory");
		goto out;
	}
	if (simulate_all(&o, res) || report(&o, res))
		goto out;
	rc = 0;
out:
	free(res);
	return rc;
}
