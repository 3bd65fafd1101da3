/*
 * slurm_compat.c - the bottom of the compatibility layer (slurm_compat.h,
 * doc/porting.md): the check that the running Slurm is the one we were
 * built for, run as soon as the plugin is mapped, so that a build for
 * another release fails with a message naming both (Slurm's own check
 * only names the plugin's version).  It calls nothing of the plugin's:
 * the select_p_* symbols that differ between releases are in the entry
 * files entry_select_data.c, entry_2205.c and entry_2505.c, so that each
 * release gets exactly the set its node_select_syms[] lists (Slurm's
 * loader fails on a missing symbol).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "select_coalloc.h"

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

/*
 * Uses only what every Slurm release exports with the same signature
 * (slurm_api_version(), error()): in a mismatched process nothing else
 * of ours may run.
 */
int coalloc_slurm_version_check(void)
{
	long running = SLURM_VERSION_MAJOR(slurm_api_version());

	if (running == SLURM_API_CURRENT)
		return 0;
	error("%s: built for Slurm %s (libslurm API %d), but this process runs Slurm %s (libslurm API %ld): rebuild select/coalloc with make SLURM=%s and install that build",
	      plugin_type, SLURM_VERSION_STRING, SLURM_API_CURRENT,
	      _series_of(running), running, _series_of(running));
	return -1;
}

/*
 * At dlopen(), before Slurm compares plugin_version with its own and
 * refuses us (it then calls nothing else here).  The plugin is linked
 * with lazy binding (module.mk) so that a build for another release gets
 * this far: with -z now its first symbol the other release lacks would
 * fail dlopen() with only that symbol's name.
 */
__attribute__((constructor)) static void _check_slurm_version(void)
{
	(void) coalloc_slurm_version_check();
}
