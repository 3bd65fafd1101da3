/*
 * plan.h - an ESP run's plan: the mix scaled to P processors, compressed
 * in time, put in a reproducible pseudo-random order and cut into the
 * three submission blocks of Wong et al. (section 3).
 *
 *  - Time compression c = minutes * 60 / T_min(mix): every run time and
 *    every rule time (the blocks at 10 and 20 minutes, the reboot) is
 *    multiplied by c, so the theoretical minimum of the run is `minutes`.
 *  - Order: the general (non-Z) jobs are shuffled (Fisher-Yates) with the
 *    seeded generator of lib/coalloc.  Block 1 is the shortest prefix
 *    requesting at least 2P processors, block 2 the next one requesting at
 *    least P, block 3 the rest.  Blocks go at 0, 600 c and 1200 c
 *    seconds.
 *  - The first Z job is submitted at 10 % of the theoretical minimum time,
 *    the second right after it (block 0 in the plan).  The paper fixes
 *    only the second one's deadline (done within 90 % of the test time);
 *    in block 3 it would, for ESP-1 (10 % of T_min = 24 minutes), be
 *    submitted before the first.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ESP_PLAN_H
#define ESP_PLAN_H

#include "esp/mix.h"

/* Paper times (seconds of the uncompressed test). */
#define ESP_BLOCK2_AT 600.0
#define ESP_BLOCK3_AT 1200.0
#define ESP_Z1_AT_SHARE 0.10	/* of the theoretical minimum time */
#define ESP_Z2_WITHIN_SHARE 0.90	/* of the observed test time */
#define ESP_T3E_REBOOT 2100.0	/* shutdown/reboot of the T3E, Table IV */

struct esp_plan_opts {
	uint32_t procs;		/* P, at least 1 */
	double minutes;		/* compressed T_min; 0 = no compression */
	uint64_t seed;
	bool light;		/* use the mix's Light= times */
	double reboot;		/* uncompressed reboot seconds (not run) */
};

struct esp_job {
	char name[ESP_NAME_MAX + 8];	/* class name and instance: "md.3" */
	unsigned cls;		/* index in the mix */
	uint32_t size;		/* processors */
	double seconds;		/* compressed run time, ms resolution */
	bool full;		/* a Z job */
	unsigned block;		/* 0 (the Z jobs), 1, 2, 3 */
	double submit;		/* seconds after the test start */
};

struct esp_plan {
	uint32_t procs;
	double compress;	/* c, wall seconds per paper second */
	double min_time;	/* theoretical minimum, compressed seconds */
	double work;		/* CPU-seconds of the planned jobs */
	double reboot;		/* compressed reboot seconds */
	double block_at[4];	/* submission time of block 0 (Z) to 3 */
	size_t njobs;
	struct esp_job *jobs;	/* in submission order (by submit time,
				 * then block order) */
};

/* Build a plan; 0, or -1 with err set.  Free with esp_plan_free(). */
int esp_plan_make(const struct esp_mix *mix, const struct esp_plan_opts *o,
		  struct esp_plan *plan, char *err, size_t errlen);
void esp_plan_free(struct esp_plan *plan);

/* Processors requested by the jobs of one block. */
uint64_t esp_plan_block_procs(const struct esp_plan *plan, unsigned block);

#endif /* ESP_PLAN_H */
