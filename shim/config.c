/*
 * config.c - the shim's settings, from the environment the SPANK plugin
 * gives every task.
 *
 * Nothing here may stop the program: a value that does not parse gets one
 * line on stderr and the default.  Without Slurm's job and step ids or
 * the step's page directory (not launched by slurmstepd, or it could not
 * make the directory and said so once) or with COSCHED_SHM=0 the shim
 * stays disabled and silent, since the page needs the ids and the
 * directory and the wait policy needs the page (its futex word).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cosched/pages.h"
#include "cosched/shim_env.h"
#include "cosched/spin.h"
#include "num/num.h"
#include "shim.h"

/* One write per line: the ranks of a node share the stream. */
void shim_warn(const char *fmt, ...)
{
	char line[512] = "cosched_mpi: ";
	size_t len = strlen(line);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line + len, sizeof(line) - len - 1, fmt, ap);
	va_end(ap);
	len = strlen(line);
	line[len] = '\n';
	if (write(STDERR_FILENO, line, len + 1) < 0)
		return;	/* nowhere to report it */
}


static bool load_id(const char *name, uint32_t *out)
{
	const char *text = getenv(name);

	if (!text)
		return false;	/* not under Slurm: stay silent */
	uint64_t v;

	if (!num_parse_range(text, 0, UINT32_MAX, &v)) {
		*out = (uint32_t)v;
		return true;
	}
	shim_warn("%s='%s' is not a number; coscheduling off", name, text);
	return false;
}

/* COSCHED_PAGE_DIR: where slurmstepd lets this step's pages live. */
static bool load_page_dir(struct shim_config *cfg)
{
	const char *text = getenv(COSCHED_PAGE_DIR_ENV);

	if (!text || !*text)
		return false;	/* no directory made for us: stay silent */
	/* room for "/RANK" */
	if (strlen(text) + 16 > sizeof(cfg->page_dir)) {
		shim_warn("%s is too long; coscheduling off",
			  COSCHED_PAGE_DIR_ENV);
		return false;
	}
	snprintf(cfg->page_dir, sizeof(cfg->page_dir), "%s", text);
	return true;
}

/* COSCHED_SHM: "1" or unset publishes, "0" turns the shim off. */
static bool load_publish(void)
{
	const char *text = getenv(COSCHED_ENV_SHM);

	if (!text || !strcmp(text, "1"))
		return true;
	if (!strcmp(text, "0"))
		return false;
	shim_warn("%s='%s' is not 0 or 1; using 1", COSCHED_ENV_SHM, text);
	return true;
}

static void load_wait(struct shim_config *cfg)
{
	const char *text = getenv(COSCHED_ENV_WAIT);

	if (!text || !cosched_wait_parse(text, &cfg->wait))
		return;
	shim_warn("%s='%s' is not busy, sb or sy; using busy",
		  COSCHED_ENV_WAIT, text);
	cfg->wait = COSCHED_WAIT_BUSY;
}

static void load_spin(struct shim_config *cfg)
{
	const char *ns = getenv(COSCHED_ENV_SPIN_NS);
	const char *factor = getenv(COSCHED_ENV_SPIN_FACTOR);
	double f;

	if (ns && num_parse_u64(ns, &cfg->spin_fixed_ns)) {
		shim_warn("%s='%s' is not a number of ns; "
			  "measuring the latency", COSCHED_ENV_SPIN_NS, ns);
		cfg->spin_fixed_ns = 0;
	}
	if (!factor)
		return;
	if (!num_parse_double(factor, &f) && f > 0) {
		cfg->spin_factor = f;
		return;
	}
	shim_warn("%s='%s' is not a positive number; using %g",
		  COSCHED_ENV_SPIN_FACTOR, factor, COSCHED_SPIN_FACTOR_DEFAULT);
}

void shim_config_load(struct shim_config *cfg)
{
	*cfg = (struct shim_config) {
		.wait = COSCHED_WAIT_BUSY,
		.spin_factor = COSCHED_SPIN_FACTOR_DEFAULT,
	};
	if (!load_id("SLURM_JOB_ID", &cfg->job_id) ||
	    !load_id("SLURM_STEP_ID", &cfg->step_id) || !load_publish() ||
	    !load_page_dir(cfg))
		return;
	load_wait(cfg);
	load_spin(cfg);
	cfg->enabled = true;
}
