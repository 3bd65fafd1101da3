/*
 * esp-sim.c - what efficiency would the ESP test reach under a scheduling
 * policy?  The simulator of Wong et al., section 4 and Table V, on the
 * plans of a real ESP run (lib/esp).  See esp-sim(1).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "esp/mix.h"
#include "num/cli.h"
#include "json_text/json_text.h"
#include "num/num.h"
#include "esp/plan.h"
#include "esp/sim.h"
#include "version/version.h"

#define MAX_SEEDS 10000
#define MAX_CONFIGS 12
#define LABEL_LEN 160

/* One simulated configuration, with the paper's number where it has one. */
struct config {
	char label[LABEL_LEN];
	struct esp_sim_opts so;
	double paper;		/* Table V simulation; NAN when none */
	const char *note;	/* the observed runs it compares to */
};

/* A configuration over all seeds. */
struct summary {
	double e_sum, e_min, e_max;
	double er_sum, er_min, er_max;
	double t_sum, t_min, t_max;
	double util_sum, wait_sum, wait_max, overtaken_sum;
	double switches_sum, overhead_sum;
	unsigned z1_ok, z2_ok, runs;
	double *e;		/* per seed */
};

struct options {
	const char *mix;
	bool light;
	uint32_t procs;
	uint64_t seed;
	unsigned seeds;
	bool all;
	struct esp_sim_opts so;
	bool mpl_set, slice_set;
	double reboot;
	bool json;
	const char *chronology;
};

static void usage(FILE *fp)
{
	fprintf(fp,
"usage: esp-sim --mix FILE [options]\n"
"  --mix FILE            ESP mix (esp1.mix, esp2.mix)\n"
"  --light               the mix's Light= run times\n"
"  --procs P             processors (default 512)\n"
"  --seed S              plan seed (default 1)\n"
"  --seeds N             average over seeds S..S+N-1 (default 1)\n"
"  --policy NAME|all     fcfs, bff, backfill, firstfit, smallest (default\n"
"                        bff), or all: the Table V set next to the\n"
"                        paper's numbers\n"
"  --aging SECS          firstfit, smallest: once the oldest queued job\n"
"                        has waited SECS nothing passes it (default 0:\n"
"                        never), as select/coalloc's AgingTime\n"
"  --preempt             full-configuration (Z) jobs preempt the others\n"
"  --drain               Z jobs first, nothing starts while one waits\n"
"                        (default without either: Z jobs are ordinary)\n"
"  --gang MPL            gang scheduling with MPL rows (default 1: none;\n"
"                        2 in the gang lines of --policy all)\n"
"  --slice SECS          gang time slice (default 1000)\n"
"  --alternate MODE      gang: what idle processors of the active row do:\n"
"                        none (default), replicas, migrate\n"
"  --switch-cost SECS    seconds lost per suspending row switch (default 0)\n"
"  --launch SECS         seconds each job holds its processors before it\n"
"                        works (default 0; a cluster's L wall seconds at\n"
"                        compression c are L/c)\n"
"  --reboot SECS         shutdown/reboot time for E with reboot\n"
"                        (default 2100, the T3E's)\n"
"  --json                JSON on stdout instead of a table\n"
"  --chronology FILE     utilization chronology of the first seed\n"
"                        (one configuration only)\n"
"  --help\n"
"  --version\n");
}

#define PROG "esp-sim"
/* "esp-sim: MESSAGE"; returns -1. */
#define fail(...) cli_fail(PROG, __VA_ARGS__)

enum {
	OPT_MIX = 256, OPT_LIGHT, OPT_PROCS, OPT_SEED, OPT_SEEDS, OPT_POLICY,
	OPT_PREEMPT, OPT_GANG, OPT_SLICE, OPT_SWITCH, OPT_REBOOT, OPT_JSON,
	OPT_CHRON, OPT_DRAIN, OPT_ALT, OPT_AGING, OPT_LAUNCH, OPT_HELP,
};

static const struct option long_opts[] = {
	{ "mix", required_argument, NULL, OPT_MIX },
	{ "light", no_argument, NULL, OPT_LIGHT },
	{ "procs", required_argument, NULL, OPT_PROCS },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "seeds", required_argument, NULL, OPT_SEEDS },
	{ "policy", required_argument, NULL, OPT_POLICY },
	{ "preempt", no_argument, NULL, OPT_PREEMPT },
	{ "drain", no_argument, NULL, OPT_DRAIN },
	{ "gang", required_argument, NULL, OPT_GANG },
	{ "slice", required_argument, NULL, OPT_SLICE },
	{ "alternate", required_argument, NULL, OPT_ALT },
	{ "switch-cost", required_argument, NULL, OPT_SWITCH },
	{ "aging", required_argument, NULL, OPT_AGING },
	{ "launch", required_argument, NULL, OPT_LAUNCH },
	{ "reboot", required_argument, NULL, OPT_REBOOT },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "chronology", required_argument, NULL, OPT_CHRON },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

static int parse_policy(struct options *o, const char *arg)
{
	if (!strcmp(arg, "all")) {
		o->all = true;
		return 0;
	}
	o->all = false;
	if (esp_sim_policy_parse(arg, &o->so.policy))
		return fail("--policy '%s': expected fcfs, bff, backfill, "
			    "firstfit, smallest or all", arg);
	return 0;
}

#define NUM(opt, name, field, lo, hi, open, expect) \
	CLI_NUMBER(struct options, opt, name, field, lo, hi, open, expect)
#define NUM_SET(opt, name, field, lo, hi, open, expect, flag) \
	CLI_NUMBER_FLAG(struct options, opt, name, field, lo, hi, open, \
			expect, flag)

static const struct cli_number numbers[] = {
	NUM(OPT_PROCS, "procs", procs, 1, ESP_SIM_MAX_PROCS, 0, "1 to 1048576"),
	NUM(OPT_SEED, "seed", seed, 0, INFINITY, 0, "an integer >= 0"),
	NUM(OPT_SEEDS, "seeds", seeds, 1, MAX_SEEDS, 0, "1 to 10000"),
	NUM_SET(OPT_GANG, "gang", so.mpl, 1, ESP_SIM_MAX_MPL, 0,
		"an MPL of 1 to 16", mpl_set),
	NUM_SET(OPT_SLICE, "slice", so.slice, 0, 1e9, CLI_OPEN_LO,
		"seconds > 0", slice_set),
	NUM(OPT_SWITCH, "switch-cost", so.switch_cost, 0, 1e9, 0, "seconds >= 0"),
	NUM(OPT_REBOOT, "reboot", reboot, 0, 1e9, 0, "seconds >= 0"),
	NUM(OPT_LAUNCH, "launch", so.launch, 0, 1e9, 0, "seconds >= 0"),
	NUM(OPT_AGING, "aging", so.aging, 0, 1e9, 0, "seconds >= 0"),
};

static int check_args(const struct options *o)
{
	if (!o->mix)
		return fail("--mix FILE is required");
	if (!o->all && o->so.policy == ESP_SIM_BACKFILL && o->so.mpl > 1)
		return fail("--gang: backfill works with MPL 1 only");
	if (o->so.aging > 0 && !o->all && o->so.policy != ESP_SIM_FIRSTFIT &&
	    o->so.policy != ESP_SIM_SMALLEST)
		return fail("--aging: only with --policy firstfit or smallest");
	if (o->so.preempt && o->so.drain)
		return fail("--drain: not with --preempt (Z jobs either "
			    "preempt or wait)");
	if (o->all && (o->so.preempt || o->so.drain))
		return fail("--policy all: runs every Z mode itself, without "
			    "--preempt or --drain");
	if (o->all && o->chronology)
		return fail("--chronology: give one configuration, not "
			    "--policy all");
	return 0;
}

static int handle_opt(int opt, const char *arg, void *ctx)
{
	struct options *o = ctx;

	switch (opt) {
	case OPT_MIX:
		o->mix = arg;
		return 0;
	case OPT_LIGHT:
		o->light = true;
		return 0;
	case OPT_POLICY:
		return parse_policy(o, arg);
	case OPT_PREEMPT:
		o->so.preempt = true;
		return 0;
	case OPT_DRAIN:
		o->so.drain = true;
		return 0;
	case OPT_ALT:
		if (esp_sim_alternate_parse(arg, &o->so.alternate))
			return fail("--alternate '%s': expected none, "
				    "replicas or migrate", arg);
		return 0;
	case OPT_JSON:
		o->json = true;
		return 0;
	case OPT_CHRON:
		o->chronology = arg;
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
	};

	if (cli_parse(&spec, argc, argv, o))
		return -1;
	return check_args(o);
}

static void options_defaults(struct options *o)
{
	memset(o, 0, sizeof(*o));
	esp_sim_opts_default(&o->so);
	o->so.policy = ESP_SIM_BFF;
	o->procs = 512;
	o->seed = 1;
	o->seeds = 1;
	o->reboot = ESP_T3E_REBOOT;
}

/* ---------------------------------------------------------- configurations */

static void label_of(const struct esp_sim_opts *so, char *buf, size_t len)
{
	char gang[64] = "", cost[40] = "", aging[40] = "";
	const char *pol = esp_sim_policy_label(so->policy);
	const char *z = so->preempt ? " + preempt" :
			so->drain ? " + drain" : "";

	if (so->mpl > 1)
		snprintf(gang, sizeof(gang), "gang %u x %g s%s%s, ", so->mpl,
			 so->slice, so->alternate ? " " : "",
			 so->alternate ? esp_sim_alternate_name(so->alternate)
				       : "");
	if (so->switch_cost > 0)
		snprintf(cost, sizeof(cost), ", switch %g s", so->switch_cost);
	if (so->aging > 0)
		snprintf(aging, sizeof(aging), ", aging %g s", so->aging);
	if (so->launch > 0)
		snprintf(cost + strlen(cost), sizeof(cost) - strlen(cost),
			 ", launch %g s", so->launch);
	snprintf(buf, len, "%s%s%s%s%s", gang, pol, aging, z, cost);
}

/*
 * The paper's simulated efficiency (Table V) and the observed runs
 * (Table IV) a configuration compares to; only for ESP-1 on 512
 * processors, the setup of the paper.  "Without preemption" in Table V
 * is taken as drain: a simulator that obeys the Z rule without
 * preemption must let the machine empty.
 */
static void paper_of(struct config *c, bool paper_setup)
{
	const struct esp_sim_opts *so = &c->so;

	c->paper = NAN;
	c->note = NULL;
	if (!paper_setup)
		return;
	if (so->mpl == 1 && so->policy == ESP_SIM_BFF && so->preempt) {
		c->paper = 0.84;
		c->note = "T3E NoSwap observed 0.84";
	} else if (so->mpl == 1 && so->policy == ESP_SIM_BFF && so->drain) {
		c->paper = 0.49;
	} else if (so->mpl == 1 && so->policy == ESP_SIM_FCFS &&
		   so->drain) {
		c->note = "SP observed 0.48 (FCFS-like, SP times)";
	} else if (so->mpl == 2 && so->policy == ESP_SIM_BFF &&
		   so->preempt) {
		if (so->slice == ESP_SIM_SLICE_DEFAULT)
			c->paper = 0.86;
		c->note = "T3E Swap observed 0.70 (1200 s slice)";
	}
}

static unsigned build_configs(const struct options *o, bool paper_setup,
			      struct config *c)
{
	static const enum esp_sim_policy pols[] = {
		ESP_SIM_FCFS, ESP_SIM_BFF, ESP_SIM_BACKFILL,
	};
	unsigned n = 0;

	if (!o->all) {
		c[0].so = o->so;
		n = 1;
	} else {
		for (size_t k = 0; k < sizeof(pols) / sizeof(pols[0]); k++)
			for (int z = 0; z < 3; z++) {
				c[n].so = o->so;
				c[n].so.policy = pols[k];
				c[n].so.drain = z == 1;
				c[n].so.preempt = z == 2;
				c[n].so.mpl = 1;
				n++;
			}
		/* the paper's gang simulation: MPL 2, 1000 s, preemption;
		 * as specified, then with migration into idle processors */
		for (int alt = 0; alt < 2; alt++) {
			if (alt && o->so.alternate == ESP_SIM_ALT_MIGRATE)
				break;	/* the first line was that already */
			c[n].so = o->so;
			c[n].so.policy = ESP_SIM_BFF;
			c[n].so.preempt = true;
			c[n].so.mpl = o->mpl_set && o->so.mpl > 1 ? o->so.mpl
								   : 2;
			c[n].so.alternate = alt ? ESP_SIM_ALT_MIGRATE
						: o->so.alternate;
			n++;
		}
	}
	for (unsigned i = 0; i < n; i++) {
		label_of(&c[i].so, c[i].label, sizeof(c[i].label));
		paper_of(&c[i], paper_setup);
	}
	return n;
}

/* -------------------------------------------------------------- running */

static void summary_add(struct summary *s, const struct esp_sim_result *r)
{
	double w = isnan(r->z1_wait) ? 0 : r->z1_wait;

	if (!s->runs) {
		s->e_min = s->e_max = r->efficiency;
		s->er_min = s->er_max = r->efficiency_with_reboot;
		s->t_min = s->t_max = r->elapsed;
	}
	s->e[s->runs++] = r->efficiency;
	s->e_sum += r->efficiency;
	s->e_min = fmin(s->e_min, r->efficiency);
	s->e_max = fmax(s->e_max, r->efficiency);
	s->er_sum += r->efficiency_with_reboot;
	s->er_min = fmin(s->er_min, r->efficiency_with_reboot);
	s->er_max = fmax(s->er_max, r->efficiency_with_reboot);
	s->t_sum += r->elapsed;
	s->t_min = fmin(s->t_min, r->elapsed);
	s->t_max = fmax(s->t_max, r->elapsed);
	s->util_sum += r->utilization;
	s->wait_sum += w;
	s->wait_max = fmax(s->wait_max, w);
	s->overtaken_sum += (double)r->z1_overtaken;
	s->switches_sum += (double)r->switches;
	s->overhead_sum += r->overhead;
	s->z1_ok += r->z_first_immediate;
	s->z2_ok += r->z_second_within_90;
}

/* The chronology for gnuplot: index 0 the steps of busy processors,
 * index 1 the job starts (impulses of their size, as Figures 1-3). */
static int write_chronology(const char *path, const struct config *c,
			    const struct esp_plan *plan,
			    const struct esp_sim_result *r, uint64_t seed)
{
	FILE *fp = fopen(path, "w");
	double tmin = plan->min_time > 0 ? plan->min_time : 1;

	if (!fp) {
		fprintf(stderr, "esp-sim: --chronology %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	fprintf(fp, "# esp-sim chronology: %s, %u processors, seed %llu\n"
		"# T_min %.3f s, T %.3f s, E %.4f\n"
		"# index 0: time (s), time / T_min, busy processors, "
		"utilization (%%)\n", c->label, plan->procs,
		(unsigned long long)seed, plan->min_time, r->elapsed,
		r->efficiency);
	for (size_t k = 0; k < r->nsteps; k++)
		fprintf(fp, "%.3f %.5f %u %.3f\n", r->steps[k].t,
			r->steps[k].t / tmin, r->steps[k].busy,
			100.0 * r->steps[k].busy / plan->procs);
	fprintf(fp, "\n\n# index 1: start (s), start / T_min, processors, "
		"job\n");
	for (size_t i = 0; i < r->njobs; i++)
		fprintf(fp, "%.3f %.5f %u %s\n", r->jobs[i].start,
			r->jobs[i].start / tmin, plan->jobs[i].size,
			plan->jobs[i].name);
	if (fclose(fp)) {
		fprintf(stderr, "esp-sim: --chronology %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	return 0;
}

static int run_seed(const struct options *o, const struct esp_mix *mix,
		    uint64_t seed, bool first, struct config *c, unsigned nc,
		    struct summary *s, struct esp_plan *plan0)
{
	struct esp_plan_opts po = { .procs = o->procs, .minutes = 0,
				    .seed = seed, .light = o->light,
				    .reboot = o->reboot };
	struct esp_plan plan;
	char err[ESP_ERR_LEN];
	int rc = 0;

	if (esp_plan_make(mix, &po, &plan, err, sizeof(err))) {
		fprintf(stderr, "esp-sim: %s: %s\n", o->mix, err);
		return -1;
	}
	if (first)
		*plan0 = plan;	/* kept for the heading */
	for (unsigned i = 0; i < nc && !rc; i++) {
		struct esp_sim_opts so = c[i].so;
		struct esp_sim_result r;

		so.chronology = first && o->chronology;
		if (esp_sim_run(&plan, &so, &r, err, sizeof(err))) {
			fprintf(stderr, "esp-sim: %s: %s\n", c[i].label, err);
			rc = -1;
		} else {
			summary_add(&s[i], &r);
			if (so.chronology)
				rc = write_chronology(o->chronology, &c[i],
						      &plan, &r, seed);
		}
		esp_sim_result_free(&r);
	}
	if (!first)
		esp_plan_free(&plan);
	return rc;
}

/* -------------------------------------------------------------- output */


static json_object *json_range(double sum, double lo, double hi,
			       unsigned n)
{
	json_object *j = json_object_new_object();

	json_object_object_add(j, "mean", json_text_num(sum / n));
	json_object_object_add(j, "min", json_text_num(lo));
	json_object_object_add(j, "max", json_text_num(hi));
	return j;
}

static json_object *json_config(const struct options *o,
				const struct esp_mix *mix,
				const struct esp_plan *plan,
				const struct config *c,
				const struct summary *s)
{
	json_object *j = json_object_new_object(), *e = json_object_new_array();
	unsigned n = s->runs;

	json_object_object_add(j, "configuration",
			       json_object_new_string(c->label));
	json_object_object_add(j, "policy", json_object_new_string(
				       esp_sim_policy_name(c->so.policy)));
	json_object_object_add(j, "preempt",
			       json_object_new_boolean(c->so.preempt));
	json_object_object_add(j, "drain",
			       json_object_new_boolean(c->so.drain));
	json_object_object_add(j, "mpl", json_object_new_int((int)c->so.mpl));
	json_object_object_add(j, "alternate", json_object_new_string(
			esp_sim_alternate_name(c->so.alternate)));
	json_object_object_add(j, "slice", json_text_num(c->so.slice));
	json_object_object_add(j, "switch_cost", json_text_num(c->so.switch_cost));
	json_object_object_add(j, "mix", json_object_new_string(mix->name));
	json_object_object_add(j, "light", json_object_new_boolean(o->light));
	json_object_object_add(j, "processors",
			       json_object_new_int64(o->procs));
	json_object_object_add(j, "min_time", json_text_num(plan->min_time));
	json_object_object_add(j, "work", json_text_num(plan->work));
	json_object_object_add(j, "reboot", json_text_num(plan->reboot));
	json_object_object_add(j, "first_seed",
			       json_object_new_int64((int64_t)o->seed));
	json_object_object_add(j, "seeds", json_object_new_int((int)n));
	json_object_object_add(j, "efficiency",
			       json_range(s->e_sum, s->e_min, s->e_max, n));
	json_object_object_add(j, "efficiency_with_reboot",
			       json_range(s->er_sum, s->er_min, s->er_max, n));
	json_object_object_add(j, "elapsed",
			       json_range(s->t_sum, s->t_min, s->t_max, n));
	json_object_object_add(j, "utilization", json_text_num(s->util_sum / n));
	json_object_object_add(j, "z1_wait_mean", json_text_num(s->wait_sum / n));
	json_object_object_add(j, "z1_wait_max", json_text_num(s->wait_max));
	json_object_object_add(j, "z1_overtaken_mean",
			       json_text_num(s->overtaken_sum / n));
	json_object_object_add(j, "z_first_immediate",
			       json_object_new_boolean(s->z1_ok == n));
	json_object_object_add(j, "z_first_immediate_seeds",
			       json_object_new_int((int)s->z1_ok));
	json_object_object_add(j, "z_second_within_90",
			       json_object_new_boolean(s->z2_ok == n));
	json_object_object_add(j, "z_second_within_90_seeds",
			       json_object_new_int((int)s->z2_ok));
	json_object_object_add(j, "switches_mean",
			       json_text_num(s->switches_sum / n));
	json_object_object_add(j, "overhead_mean",
			       json_text_num(s->overhead_sum / n));
	for (unsigned k = 0; k < n; k++)
		json_object_array_add(e, json_text_num(s->e[k]));
	json_object_object_add(j, "efficiency_per_seed", e);
	json_object_object_add(j, "paper", json_text_num(c->paper));
	json_object_object_add(j, "paper_note", c->note ?
			       json_object_new_string(c->note) : NULL);
	return j;
}

static int print_json(const struct options *o, const struct esp_mix *mix,
		      const struct esp_plan *plan, const struct config *c,
		      const struct summary *s, unsigned nc)
{
	json_object *arr = json_object_new_array();
	int rc;

	for (unsigned i = 0; i < nc; i++)
		json_object_array_add(arr, json_config(o, mix, plan, &c[i],
						       &s[i]));
	rc = json_text_print(stdout, arr);
	json_object_put(arr);
	if (rc)
		fail("cannot write JSON");
	return rc;
}

static void verdict(char *buf, size_t len, unsigned ok, unsigned n)
{
	if (n == 1)
		snprintf(buf, len, "%s", ok ? "yes" : "no");
	else
		snprintf(buf, len, "%u/%u", ok, n);
}

static void print_table(const struct options *o, const struct esp_mix *mix,
			const struct esp_plan *plan, const struct config *c,
			const struct summary *s, unsigned nc)
{
	int w = 13;

	printf("mix %s%s (%zu jobs), %u processors, seed%s %llu",
	       mix->name, o->light ? " light" : "", plan->njobs, o->procs,
	       o->seeds > 1 ? "s" : "", (unsigned long long)o->seed);
	if (o->seeds > 1)
		printf("..%llu", (unsigned long long)(o->seed + o->seeds - 1));
	printf("; T_min %.0f s, work %.0f CPU-s, reboot %.0f s\n",
	       plan->min_time, plan->work, plan->reboot);
	for (unsigned i = 0; i < nc; i++)
		if ((int)strlen(c[i].label) > w)
			w = (int)strlen(c[i].label);
	printf("%-*s %6s %6s %6s %8s %8s %8s %6s %6s  %s\n", w,
	       "configuration", "E", "min", "max", "E+boot", "T (s)",
	       "Z1 wait", "Z1 ok", "Z2 ok", "paper");
	for (unsigned i = 0; i < nc; i++) {
		const struct summary *x = &s[i];
		char z1[24], z2[24], paper[96] = "";
		unsigned n = x->runs;

		verdict(z1, sizeof(z1), x->z1_ok, n);
		verdict(z2, sizeof(z2), x->z2_ok, n);
		if (!isnan(c[i].paper))
			snprintf(paper, sizeof(paper), "%.2f (Table V)%s%s",
				 c[i].paper, c[i].note ? "; " : "",
				 c[i].note ? c[i].note : "");
		else if (c[i].note)
			snprintf(paper, sizeof(paper), "%s", c[i].note);
		printf("%-*s %6.3f %6.3f %6.3f %8.3f %8.0f %8.0f %6s %6s  %s\n",
		       w, c[i].label, x->e_sum / n, x->e_min, x->e_max,
		       x->er_sum / n, x->t_sum / n, x->wait_sum / n, z1, z2,
		       paper);
	}
}

int main(int argc, char **argv)
{
	struct config c[MAX_CONFIGS];
	struct summary s[MAX_CONFIGS];
	struct options o;
	struct esp_mix mix;
	struct esp_plan plan0 = { 0 };
	char err[ESP_ERR_LEN];
	unsigned nc;
	int rc = 1;

	if (coalloc_version_wanted(argc, argv))
		return coalloc_version_print("esp-sim");

	options_defaults(&o);
	if (parse_args(argc, argv, &o))
		return 2;
	if (esp_mix_load(o.mix, &mix, err, sizeof(err))) {
		fprintf(stderr, "esp-sim: %s\n", err);
		return 1;
	}
	nc = build_configs(&o, !strcmp(mix.name, "esp1") && o.procs == 512 &&
			   !o.light, c);
	memset(s, 0, sizeof(s));
	for (unsigned i = 0; i < nc; i++) {
		s[i].e = calloc(o.seeds, sizeof(*s[i].e));
		if (!s[i].e) {
			fail("out of memory");
			goto out;
		}
	}
	for (unsigned k = 0; k < o.seeds; k++)
		if (run_seed(&o, &mix, o.seed + k, k == 0, c, nc, s, &plan0))
			goto out;
	if (o.json)
		print_json(&o, &mix, &plan0, c, s, nc);
	else
		print_table(&o, &mix, &plan0, c, s, nc);
	rc = fflush(stdout) ? 1 : 0;
out:
	for (unsigned i = 0; i < nc; i++)
		free(s[i].e);
	esp_plan_free(&plan0);
	return rc;
}
