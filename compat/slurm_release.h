/*
 * slurm_release.h - the check, shared by the suite's slurmctld and slurmd
 * plugins (select/coalloc, node_features/coalloc), that the running Slurm
 * is the release a plugin was built for.  Compiled with Slurm's internal
 * headers of that release (config.h: SLURM_API_CURRENT).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_SLURM_RELEASE_H
#define COALLOC_SLURM_RELEASE_H

/*
 * The running libslurm against the one PLUGIN (its plugin_type) was
 * compiled for: 0 when they are the same release series, else -1 after
 * logging both releases and the make command that builds for the running
 * one.  Meant for an ELF constructor, before Slurm's own plugin_version
 * check (which names only the plugin's version), so it uses only what
 * every release exports with the same signature (slurm_api_version(),
 * error()).
 */
int coalloc_slurm_release_check(const char *plugin);

#endif
