/*
 * workload.c - synthetic workload (Bucur and Epema, section 3) and SWF
 * trace replay.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coalloc/placement.h"
#include "coalloc/rng.h"
#include "num/num.h"
#include "coalloc_sim/workload.h"

#define SWF_FIELDS 18
#define DQ_MAX 4096

void workload_defaults(struct workload_params *wp)
{
	memset(wp, 0, sizeof(*wp));
	wp->nsites = 4;
	for (unsigned i = 0; i < 4; i++) {
		wp->site_procs[i] = 32;
		wp->comp_pct[i] = 25;
	}
	wp->q = 0.9;
	wp->n1 = 1;
	wp->n2 = 8;
	wp->utilization = 0.8;
	wp->service_mean = 1.0;
	wp->njobs = 20000;
	wp->request_mix[MIX_UNORDERED] = 1.0;	/* the paper's requests */
}

static bool power_of_two(unsigned i)
{
	return i && !(i & (i - 1));
}

/* Unnormalised weight of size i in D(q): q^i, tripled for powers of 2. */
static double dq_weight(double q, unsigned i)
{
	return (power_of_two(i) ? 3.0 : 1.0) * pow(q, (double)i);
}

double workload_dq_mean(double q, unsigned n1, unsigned n2)
{
	double sum = 0, wsum = 0;

	for (unsigned i = n1; i <= n2; i++) {
		sum += dq_weight(q, i);
		wsum += i * dq_weight(q, i);
	}
	return sum > 0 ? wsum / sum : 0;
}

static double mean_components(const struct workload_params *wp)
{
	double m = 0;

	for (unsigned k = 0; k < wp->nsites; k++)
		m += (k + 1) * wp->comp_pct[k] / 100.0;
	return m;
}

static uint64_t total_procs(const struct workload_params *wp)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < wp->nsites; i++)
		n += wp->site_procs[i];
	return n;
}

double workload_arrival_rate(const struct workload_params *wp)
{
	double work = mean_components(wp) *
		      workload_dq_mean(wp->q, wp->n1, wp->n2) *
		      wp->service_mean;

	return wp->utilization * (double)total_procs(wp) / work;
}

/* Draw from a cumulative table of n entries (the last one is 1). */
static unsigned draw(struct coalloc_rng *rng, const double *cdf, unsigned n)
{
	double u = coalloc_rng_uniform(rng);
	unsigned i = 0;

	while (i + 1 < n && u >= cdf[i])
		i++;
	return i;
}

static int build_cdf(const double *w, unsigned n, double *cdf)
{
	double sum = 0, acc = 0;

	for (unsigned i = 0; i < n; i++)
		sum += w[i];
	if (!(sum > 0))
		return -EINVAL;
	for (unsigned i = 0; i < n; i++) {
		acc += w[i];
		cdf[i] = acc / sum;
	}
	cdf[n - 1] = 1.0;
	return 0;
}

struct generator {
	double dq_cdf[DQ_MAX];
	double comp_cdf[COALLOC_MAX_SITES];
	double queue_cdf[COALLOC_MAX_SITES];
};

static int generator_init(struct generator *g,
			  const struct workload_params *wp)
{
	double w[DQ_MAX > COALLOC_MAX_SITES ? DQ_MAX : COALLOC_MAX_SITES];
	unsigned nsizes = wp->n2 - wp->n1 + 1;

	for (unsigned i = 0; i < nsizes; i++)
		w[i] = dq_weight(wp->q, wp->n1 + i);
	if (build_cdf(w, nsizes, g->dq_cdf) ||
	    build_cdf(wp->comp_pct, wp->nsites, g->comp_cdf))
		return -EINVAL;
	/* unbalanced: queue 0 twice the share of each other (40/20/20/20) */
	for (unsigned i = 0; i < wp->nsites; i++)
		w[i] = (wp->unbalanced && i == 0 && wp->nsites > 1) ? 2 : 1;
	return build_cdf(w, wp->nsites, g->queue_cdf);
}

int workload_generate(const struct workload_params *wp, uint64_t seed,
		      struct sim_job **jobs)
{
	struct generator *g = NULL;
	struct coalloc_rng rng;
	struct sim_job *out = NULL;
	double rate, t = 0;
	int rc = -EINVAL;

	if (!wp->nsites || wp->nsites > COALLOC_MAX_SITES || wp->n1 < 1 ||
	    wp->n2 < wp->n1 || wp->n2 - wp->n1 >= DQ_MAX || !(wp->q > 0) ||
	    !(wp->utilization > 0) || !wp->njobs)
		goto fail;
	rc = -ENOMEM;
	g = malloc(sizeof(*g));
	out = calloc(wp->njobs, sizeof(*out));
	if (!g || !out)
		goto fail;
	rc = generator_init(g, wp);
	if (rc)
		goto fail;
	rate = workload_arrival_rate(wp);
	coalloc_rng_seed(&rng, seed);
	for (size_t n = 0; n < wp->njobs; n++) {
		struct sim_job *j = &out[n];

		t += coalloc_rng_exponential(&rng, 1.0 / rate);
		j->arrival = t;
		j->service = coalloc_rng_exponential(&rng, wp->service_mean);
		j->ncomp = 1 + draw(&rng, g->comp_cdf, wp->nsites);
		/* every component drawn independently from D(q) */
		for (unsigned k = 0; k < j->ncomp; k++)
			j->size[k] = wp->n1 + draw(&rng, g->dq_cdf,
						   wp->n2 - wp->n1 + 1);
		j->origin = draw(&rng, g->queue_cdf, wp->nsites);
	}
	free(g);
	*jobs = out;
	return 0;
fail:
	free(g);
	free(out);
	return rc;
}

/* ------------------------------------------------------------ SWF */

struct swf_reader {
	const char *path;
	unsigned line;
	char *err;
	size_t errlen;
};

static int swf_fail(struct swf_reader *rd, const char *fmt, const char *what,
		    int n)
{
	int len = snprintf(rd->err, rd->errlen, "%s:%u: malformed SWF line: ",
			   rd->path, rd->line);

	if (len >= 0 && (size_t)len < rd->errlen)
		snprintf(rd->err + len, rd->errlen - (size_t)len, fmt, what, n);
	return -1;
}

/* Split a data line into SWF_FIELDS numbers; -1 on a malformed line. */
static int swf_parse(struct swf_reader *rd, char *line, double *f)
{
	char *save = NULL, *tok;
	int n = 0;

	for (tok = strtok_r(line, " \t\r\n", &save); tok;
	     tok = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == SWF_FIELDS)
			return swf_fail(rd, "more than 18 fields%s", "", 0);
		if (num_parse_double(tok, &f[n]))
			return swf_fail(rd, "field '%s' (number %d) is not a "
					"number", tok, n + 1);
		n++;
	}
	if (n != SWF_FIELDS)
		return swf_fail(rd, "expected 18 fields%s, got %d", "", n);
	return 0;
}

static bool blank(const char *s)
{
	return s[strspn(s, " \t\r\n")] == '\0';
}

/* Map one SWF record to a job; false when the record is skipped. */
static bool swf_job(const double *f, const struct workload_params *wp,
		    unsigned split, struct sim_job *j)
{
	double procs = f[7] > 0 ? f[7] : f[4];	/* requested, else allocated */
	uint16_t site[COALLOC_MAX_SITES];
	unsigned k;
	long p;

	if (!(procs >= 1) || f[3] < 0 || f[1] < 0)
		return false;
	p = (long)procs;
	k = (unsigned)((p + split - 1) / split);
	if (k > wp->nsites)
		return false;
	memset(j, 0, sizeof(*j));
	j->arrival = f[1];
	j->service = f[3];
	j->ncomp = k;
	for (unsigned c = 0; c < k; c++)
		j->size[c] = (uint32_t)(p / k + ((unsigned long)c <
						 (unsigned long)(p % k)));
	/* a job that could not fit even on an empty system is dropped */
	if (!coalloc_worst_fit(wp->site_procs, wp->nsites, j->size, k, -1,
			       site))
		return false;
	j->origin = f[15] >= 1 ? (unsigned)((long)f[15] - 1) % wp->nsites :
				 (unsigned)((long)f[0] % wp->nsites);
	return true;
}

static int by_arrival(const void *a, const void *b)
{
	const struct sim_job *x = a, *y = b;

	return (x->arrival > y->arrival) - (x->arrival < y->arrival);
}

/* Shift arrivals to start at 0 and scale them to the offered load. */
static void swf_rescale(struct sim_job *jobs, size_t n,
			const struct workload_params *wp)
{
	double t0 = jobs[0].arrival, span, work = 0, native;

	for (size_t i = 0; i < n; i++) {
		jobs[i].arrival -= t0;
		for (unsigned k = 0; k < jobs[i].ncomp; k++)
			work += jobs[i].size[k] * jobs[i].service;
	}
	span = jobs[n - 1].arrival;
	if (!(wp->utilization > 0) || !(span > 0) || !(work > 0))
		return;
	native = work / ((double)total_procs(wp) * span);
	for (size_t i = 0; i < n; i++)
		jobs[i].arrival *= native / wp->utilization;
}

long workload_load_swf(const char *path, const struct workload_params *wp,
		       unsigned split, struct sim_job **jobs, char *err,
		       size_t errlen)
{
	struct swf_reader rd = { .path = path, .err = err, .errlen = errlen };
	struct sim_job *out = NULL;
	size_t n = 0, cap = 0, len = 0;
	char *line = NULL;
	double f[SWF_FIELDS];
	FILE *fp = fopen(path, "r");

	if (!fp) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (getline(&line, &len, fp) >= 0) {
		rd.line++;
		if (line[strspn(line, " \t")] == ';' || blank(line))
			continue;
		if (swf_parse(&rd, line, f))
			goto fail;
		if (n == cap) {
			size_t c = cap ? cap * 2 : 1024;
			struct sim_job *o = realloc(out, c * sizeof(*o));

			if (!o) {
				snprintf(err, errlen, "%s: out of memory", path);
				goto fail;
			}
			out = o;
			cap = c;
		}
		if (swf_job(f, wp, split, &out[n]))
			n++;
	}
	if (!n) {
		snprintf(err, errlen, "%s: no usable jobs in the trace", path);
		goto fail;
	}
	qsort(out, n, sizeof(*out), by_arrival);
	swf_rescale(out, n, wp);
	free(line);
	fclose(fp);
	*jobs = out;
	return (long)n;
fail:
	free(line);
	free(out);
	fclose(fp);
	return -1;
}

/* A uniformly random order of the n sites (Fisher-Yates). */
static void random_sites(struct coalloc_rng *rng, unsigned n, int16_t *out)
{
	for (unsigned i = 0; i < n; i++)
		out[i] = (int16_t)i;
	for (unsigned i = n; i > 1; i--) {
		unsigned k = coalloc_rng_below(rng, i);
		int16_t t = out[i - 1];

		out[i - 1] = out[k];
		out[k] = t;
	}
}

int workload_apply_mix(const struct workload_params *wp, uint64_t seed,
		       struct sim_job *jobs, size_t njobs)
{
	double cdf[MIX_TYPES];
	struct coalloc_rng rng;

	if (build_cdf(wp->request_mix, MIX_TYPES, cdf))
		return -EINVAL;
	/* a stream of its own: the jobs' other draws stay the same */
	coalloc_rng_seed(&rng, seed ^ 0x6d69782d72657175ull);
	for (size_t n = 0; n < njobs; n++) {
		struct sim_job *j = &jobs[n];
		int16_t order[COALLOC_MAX_SITES];
		unsigned type = draw(&rng, cdf, MIX_TYPES);

		j->type = COALLOC_REQ_UNORDERED;
		if (j->ncomp < 2 || j->ncomp > wp->nsites)
			continue;
		if (type == MIX_ORDERED) {
			j->type = COALLOC_REQ_ORDERED;
			random_sites(&rng, wp->nsites, order);
			memcpy(j->want_site, order,
			       j->ncomp * sizeof(j->want_site[0]));
		} else if (type == MIX_FLEXIBLE) {
			j->type = COALLOC_REQ_FLEXIBLE;
		}
	}
	return 0;
}
