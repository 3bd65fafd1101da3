/*
 * slurm_compat.c - the bottom of the compatibility layer (slurm_compat.h,
 * doc/porting.md): the check that the running Slurm is the one we were
 * built for (compat/slurm_release.c), run as soon as the plugin is
 * mapped, so that a build for another release fails with a message
 * naming both (Slurm's own check only names the plugin's version).  It
 * calls nothing of the plugin's: the select_p_* symbols that differ
 * between releases are in the entry files entry_select_data.c,
 * entry_2205.c and entry_2505.c, so that each release gets exactly the
 * set its node_select_syms[] lists (Slurm's loader fails on a missing
 * symbol).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "select_coalloc.h"
#include "slurm_release.h"

/*
 * At dlopen(), before Slurm compares plugin_version with its own and
 * refuses us (it then calls nothing else here).  The plugin is linked
 * with lazy binding (module.mk) so that a build for another release gets
 * this far: with -z now its first symbol the other release lacks would
 * fail dlopen() with only that symbol's name.
 */
__attribute__((constructor)) static void _check_slurm_version(void)
{
	(void) coalloc_slurm_release_check(plugin_type);
}
