/*
 * test_cgroup_names.c - Slurm's names of a job's group as the agent
 * recognises them (agent/host/cgroup.c): job_<id> on every release, and the
 * SLUID 26.05's cgroup/v2 uses unless CgroupJobIdPaths=yes; and the
 * clean-path rule for paths read back from a state file.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "tap.h"
#include "host/cgroup.h"

static const struct {
	const char *component;
	uint32_t job;
	size_t want;
} names[] = {
	{ "job_7", 0, 5 },
	{ "job_7/step_0", 7, 5 },
	{ "job_7", 8, 0 },		/* another job's */
	{ "job_77/step_0", 7, 0 },
	{ "job_/step_0", 0, 0 },
	{ "job_7x", 0, 0 },
	{ "job_99999999999999999999", 0, 0 },	/* past uint32 */
	{ "s0C1JZ0K2Q5W3M", 0, 14 },
	{ "s0C1JZ0K2Q5W3M/step_0", 7, 14 },	/* a SLUID names no id */
	{ "s0C1JZ0K2Q5W3", 0, 0 },		/* 12 digits */
	{ "s0C1JZ0K2Q5W3MX", 0, 0 },		/* 14 */
	{ "s0c1jz0k2q5w3m", 0, 0 },		/* Slurm prints upper case */
	{ "s0C1JZ0K2Q5W3U", 0, 0 },		/* U is no base32 digit */
	{ "S0C1JZ0K2Q5W3M", 0, 0 },
	{ "step_0", 0, 0 },
	{ "", 0, 0 },
};

int main(void)
{
	plan(sizeof(names) / sizeof(names[0]) + 4);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		is_int((int)cgv1_slurm_job_component(names[i].component,
						     names[i].job),
		       (int)names[i].want, "'%s' (job %u): %zu",
		       names[i].component, names[i].job, names[i].want);
	ok(cgv1_clean_path("/a/b") && cgv1_clean_path("/"),
	   "clean: /a/b and /");
	ok(!cgv1_clean_path("/a/../b"), "not clean: a .. component");
	ok(!cgv1_clean_path("/a//b"), "not clean: an empty component");
	ok(!cgv1_clean_path("/a/b/"), "not clean: a trailing slash");
	return done_testing();
}
