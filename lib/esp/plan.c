/*
 * plan.c - scale, compress, order and block an ESP mix (see plan.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coalloc/rng.h"
#include "esp/plan.h"

/* Run times are given to jobs with millisecond resolution. */
static double _ms(double seconds)
{
	return fmax(0.001, round(seconds * 1000.0) / 1000.0);
}

static void _fill_job(struct esp_job *j, const struct esp_mix *mix,
		      unsigned cls, unsigned instance, double compress,
		      const struct esp_plan_opts *o)
{
	const struct esp_class *c = &mix->classes[cls];
	struct esp_scaled s = esp_class_scale(c, o->procs, o->light);

	snprintf(j->name, sizeof(j->name), "%s.%u", c->name, instance);
	j->cls = cls;
	j->size = s.size;
	j->seconds = _ms(s.seconds * compress);
	j->full = c->full;
}

/* Every job of the mix, the two Z jobs last, in class order. */
static size_t _expand(const struct esp_mix *mix, double compress,
		      const struct esp_plan_opts *o, struct esp_job *jobs)
{
	size_t n = 0;

	for (int want_full = 0; want_full < 2; want_full++)
		for (unsigned i = 0; i < mix->nclasses; i++) {
			if (mix->classes[i].full != (bool)want_full)
				continue;
			for (unsigned k = 1; k <= mix->classes[i].count; k++)
				_fill_job(&jobs[n++], mix, i, k, compress, o);
		}
	return n;
}

static void _shuffle(struct esp_job *jobs, size_t n, struct coalloc_rng *rng)
{
	for (size_t i = n; i > 1; i--) {
		size_t k = coalloc_rng_below(rng, (uint32_t)i);
		struct esp_job t = jobs[i - 1];

		jobs[i - 1] = jobs[k];
		jobs[k] = t;
	}
}

/* Blocks 1 and 2 are the shortest prefixes requesting 2P, then P. */
static void _assign_blocks(struct esp_job *jobs, size_t ngeneral,
			   uint32_t procs)
{
	uint64_t need[] = { 2ull * procs, procs }, sum = 0;
	unsigned block = 1;

	for (size_t i = 0; i < ngeneral; i++) {
		jobs[i].block = block;
		sum += jobs[i].size;
		if (block < 3 && sum >= need[block - 1]) {
			block++;
			sum = 0;
		}
	}
}

/* Stable by submission time: insertion sort keeps block order on ties. */
static void _sort_by_submit(struct esp_job *jobs, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct esp_job t = jobs[i];
		size_t k = i;

		for (; k > 0 && jobs[k - 1].submit > t.submit; k--)
			jobs[k] = jobs[k - 1];
		jobs[k] = t;
	}
}

static int _check_opts(const struct esp_mix *mix,
		       const struct esp_plan_opts *o, char *err,
		       size_t errlen)
{
	if (!o->procs) {
		snprintf(err, errlen, "processors: must be at least 1");
		return -1;
	}
	if (o->minutes < 0 || !isfinite(o->minutes)) {
		snprintf(err, errlen, "minutes: must be a number >= 0");
		return -1;
	}
	if (o->light && !mix->has_light) {
		snprintf(err, errlen, "mix %s has no Light= times", mix->name);
		return -1;
	}
	if (esp_mix_full_jobs(mix) != 2) {
		snprintf(err, errlen, "mix %s has %zu full-configuration jobs;"
			 " the ESP rules need exactly 2", mix->name,
			 esp_mix_full_jobs(mix));
		return -1;
	}
	if (esp_mix_jobs(mix) < 3) {
		snprintf(err, errlen, "mix %s has no general jobs", mix->name);
		return -1;
	}
	return 0;
}

int esp_plan_make(const struct esp_mix *mix, const struct esp_plan_opts *o,
		  struct esp_plan *plan, char *err, size_t errlen)
{
	double paper_min;
	size_t n, ngeneral;
	struct coalloc_rng rng;

	memset(plan, 0, sizeof(*plan));
	if (_check_opts(mix, o, err, errlen))
		return -1;
	n = esp_mix_jobs(mix);
	plan->jobs = calloc(n, sizeof(*plan->jobs));
	if (!plan->jobs) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	paper_min = esp_mix_min_time(mix, o->light);
	plan->procs = o->procs;
	plan->compress = o->minutes > 0 ? o->minutes * 60.0 / paper_min : 1.0;
	plan->min_time = paper_min * plan->compress;
	plan->reboot = o->reboot * plan->compress;
	plan->block_at[0] = ESP_Z1_AT_SHARE * plan->min_time;
	plan->block_at[2] = ESP_BLOCK2_AT * plan->compress;
	plan->block_at[3] = ESP_BLOCK3_AT * plan->compress;
	plan->njobs = _expand(mix, plan->compress, o, plan->jobs);

	ngeneral = n - 2;
	coalloc_rng_seed(&rng, o->seed);
	_shuffle(plan->jobs, ngeneral, &rng);
	_assign_blocks(plan->jobs, ngeneral, o->procs);
	/* Both Z jobs, first then second, in block 0 (see plan.h). */
	plan->jobs[ngeneral].block = plan->jobs[ngeneral + 1].block = 0;
	for (size_t i = 0; i < n; i++) {
		plan->jobs[i].submit = plan->block_at[plan->jobs[i].block];
		plan->work += plan->jobs[i].size * plan->jobs[i].seconds;
	}
	_sort_by_submit(plan->jobs, n);
	return 0;
}

void esp_plan_free(struct esp_plan *plan)
{
	free(plan->jobs);
	memset(plan, 0, sizeof(*plan));
}

uint64_t esp_plan_block_procs(const struct esp_plan *plan, unsigned block)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < plan->njobs; i++)
		if (plan->jobs[i].block == block)
			sum += plan->jobs[i].size;
	return sum;
}
