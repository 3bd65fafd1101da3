/*
 * test_plan.c - ESP run plans: the blocks follow the paper's composition
 * rules, the Z jobs their submission rules, the seed reproduces the order,
 * and compression and scaling keep the work profile within tolerance.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include <string.h>

#include "esp/plan.h"
#include "tap.h"

#ifndef ESP_MIX_DIR
#define ESP_MIX_DIR "contribs/esp"
#endif

static char err[ESP_ERR_LEN];

static struct esp_plan make(const struct esp_mix *m, uint32_t procs,
			    double minutes, uint64_t seed, bool light)
{
	struct esp_plan_opts o = { .procs = procs, .minutes = minutes,
				   .seed = seed, .light = light,
				   .reboot = ESP_T3E_REBOOT };
	struct esp_plan p;

	if (esp_plan_make(m, &o, &p, err, sizeof(err)))
		diag("plan: %s", err);
	return p;
}

/* Last job of a block, to check "the shortest prefix" rule. */
static uint32_t last_size(const struct esp_plan *p, unsigned block)
{
	uint32_t size = 0;

	for (size_t i = 0; i < p->njobs; i++)
		if (p->jobs[i].block == block && !p->jobs[i].full)
			size = p->jobs[i].size;
	return size;
}

static void check_blocks(const struct esp_plan *p, const char *what)
{
	uint64_t b1 = esp_plan_block_procs(p, 1), b2 = esp_plan_block_procs(p, 2);
	size_t z0 = 0, nfull = 0, zlast = 0;
	bool times = true, sorted = true;

	ok(b1 >= 2ull * p->procs && b1 - last_size(p, 1) < 2ull * p->procs,
	   "%s: block 1 is the shortest prefix of >= 2P (%llu)", what,
	   (unsigned long long)b1);
	ok(b2 >= p->procs && b2 - last_size(p, 2) < p->procs,
	   "%s: block 2 is the shortest prefix of >= P (%llu)", what,
	   (unsigned long long)b2);
	for (size_t i = 0; i < p->njobs; i++) {
		const struct esp_job *j = &p->jobs[i];

		nfull += j->full;
		z0 += j->full && j->block == 0;
		zlast += j->full && i + 2 >= p->njobs;
		times &= j->submit == p->block_at[j->block];
		sorted &= !i || p->jobs[i - 1].submit <= j->submit;
	}
	ok(nfull == 2 && z0 == 2 && zlast == 2,
	   "%s: the two Z jobs alone in block 0, submitted last", what);
	is_double(p->block_at[0], 0.1 * p->min_time, 1e-9,
		  "%s: Z jobs at 10%% of the theoretical minimum", what);
	ok(strcmp(p->jobs[p->njobs - 2].name, p->jobs[p->njobs - 1].name) < 0,
	   "%s: the first Z job before the second", what);
	is_double(p->block_at[2], 600 * p->compress, 1e-9,
		  "%s: block 2 at 10 minutes (scaled)", what);
	is_double(p->block_at[3], 1200 * p->compress, 1e-9,
		  "%s: block 3 at 20 minutes (scaled)", what);
	ok(times && sorted, "%s: jobs in submission order at their block's "
	   "time", what);
}

/* Per class: planned CPU-seconds against the mix's share of P, compressed. */
static double worst_profile(const struct esp_mix *m, const struct esp_plan *p,
			    bool light)
{
	double worst = 0;

	for (size_t c = 0; c < m->nclasses; c++) {
		const struct esp_class *k = &m->classes[c];
		double want = k->count * k->fraction * p->procs *
			      (light ? k->light : k->seconds) * p->compress;
		double got = 0;

		for (size_t i = 0; i < p->njobs; i++)
			if (p->jobs[i].cls == c)
				got += p->jobs[i].size * p->jobs[i].seconds;
		worst = fmax(worst, fabs(got / want - 1));
	}
	return worst;
}

static void test_profile(const struct esp_mix *esp1, const struct esp_mix *esp2)
{
	static const uint32_t procs[] = { 8, 16, 32, 64, 128, 512 };

	for (size_t i = 0; i < sizeof(procs) / sizeof(procs[0]); i++) {
		struct esp_plan p = make(esp1, procs[i], 10, 1, false);
		struct esp_plan q = make(esp2, procs[i], 3, 1, true);
		double w1 = worst_profile(esp1, &p, false);
		double w2 = worst_profile(esp2, &q, true);

		ok(w1 < ESP_PROFILE_TOLERANCE, "esp1 P=%u, 10 min: work "
		   "profile within %g (worst %.2g)", procs[i],
		   ESP_PROFILE_TOLERANCE, w1);
		ok(w2 < ESP_PROFILE_TOLERANCE, "esp2 light P=%u, 3 min: work "
		   "profile within %g (worst %.2g)", procs[i],
		   ESP_PROFILE_TOLERANCE, w2);
		is_double(p.work / (p.procs * p.min_time), 1, 1e-3,
			  "esp1 P=%u: planned work = P x T_min", procs[i]);
		check_blocks(&p, "esp1");
		esp_plan_free(&p);
		esp_plan_free(&q);
	}
}

static bool same_order(const struct esp_plan *a, const struct esp_plan *b)
{
	if (a->njobs != b->njobs)
		return false;
	for (size_t i = 0; i < a->njobs; i++)
		if (strcmp(a->jobs[i].name, b->jobs[i].name) ||
		    a->jobs[i].block != b->jobs[i].block)
			return false;
	return true;
}

static void test_seed(const struct esp_mix *m)
{
	struct esp_plan a = make(m, 64, 10, 42, false);
	struct esp_plan b = make(m, 64, 10, 42, false);
	struct esp_plan c = make(m, 64, 10, 43, false);

	ok(same_order(&a, &b), "the same seed gives the same order");
	ok(!same_order(&a, &c), "another seed gives another order");
	is_str(a.jobs[a.njobs - 2].name, "gfft-512.1",
	       "esp1 P=64: the first Z job is submitted after block 3 (10%% "
	       "of T_min is 24 minutes)");
	is_str(a.jobs[a.njobs - 1].name, "gfft-512.2",
	       "... and the second right after it");
	esp_plan_free(&a);
	esp_plan_free(&b);
	esp_plan_free(&c);
}

static void test_compression(const struct esp_mix *m)
{
	struct esp_plan p = make(m, 32, 10, 1, false);
	struct esp_plan full = make(m, 512, 0, 1, false);
	struct esp_plan_opts bad = { .procs = 0 };
	struct esp_plan x;

	is_double(p.min_time, 600, 1e-6, "10 minutes: T_min is 600 s");
	is_double(p.compress, 600 / 14527.51973, 1e-6, "compression factor");
	is_double(p.reboot, ESP_T3E_REBOOT * p.compress, 1e-9,
		  "reboot compressed too");
	is_double(full.compress, 1, 0, "minutes 0: no compression");
	is_double(full.min_time, 14527.51973, 1e-3, "T_min of ESP-1");
	is_int(full.njobs, 82, "82 jobs planned");
	is_int(esp_plan_make(m, &bad, &x, err, sizeof(err)), -1,
	       "0 processors refused");
	is_str(err, "processors: must be at least 1", "... with a message");
	bad = (struct esp_plan_opts){ .procs = 4, .light = true };
	is_int(esp_plan_make(m, &bad, &x, err, sizeof(err)), -1,
	       "light refused for esp1");
	is_str(err, "mix esp1 has no Light= times", "... with a message");
	esp_plan_free(&p);
	esp_plan_free(&full);
}

int main(void)
{
	struct esp_mix esp1, esp2;

	if (esp_mix_load(ESP_MIX_DIR "/esp1.mix", &esp1, err, sizeof(err)) ||
	    esp_mix_load(ESP_MIX_DIR "/esp2.mix", &esp2, err, sizeof(err))) {
		printf("Bail out! %s\n", err);
		return 1;
	}
	test_profile(&esp1, &esp2);
	test_seed(&esp1);
	test_compression(&esp1);
	return done_testing();
}
