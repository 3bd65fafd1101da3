/*
 * slurm_release.c - see slurm_release.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include "slurm/slurm.h"
#include "src/common/log.h"
#include "src/common/macros.h"

#include "slurm_release.h"

/*
 * The release series of each libslurm API number (SLURM_API_CURRENT, the
 * soname libslurm.so.N).  Only for the message: the check itself compares
 * numbers.  38, 42, 44 and 45 are read from the configured 22.05.8,
 * 24.11.5, 25.11.7 and 26.05.3 trees; the others from the libslurmN
 * package names of those releases.
 */
static const struct {
	long api;
	const char *series;
} slurm_series[] = {
	{ 38, "22.05" }, { 39, "23.02" }, { 40, "23.11" },
	{ 41, "24.05" }, { 42, "24.11" }, { 43, "25.05" },
	{ 44, "25.11" }, { 45, "26.05" },
};

static const char *_series_of(long api)
{
	for (size_t i = 0; i < ARRAY_SIZE(slurm_series); i++)
		if (slurm_series[i].api == api)
			return slurm_series[i].series;
	return "another release";
}

int coalloc_slurm_release_check(const char *plugin)
{
	long running = SLURM_VERSION_MAJOR(slurm_api_version());

	if (running == SLURM_API_CURRENT)
		return 0;
	error("%s: built for Slurm %s (libslurm API %d), but this process runs Slurm %s (libslurm API %ld): rebuild %s with make SLURM=%s and install that build",
	      plugin, SLURM_VERSION_STRING, SLURM_API_CURRENT,
	      _series_of(running), running, plugin, _series_of(running));
	return -1;
}
