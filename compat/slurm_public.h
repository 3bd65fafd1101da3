/*
 * slurm_public.h - the differences between Slurm releases in the public
 * API (slurm/slurm.h) that the SPANK plugin and the commands use; the
 * select plugin's internal-API differences are in
 * plugins/select_coalloc/slurm_compat.h.  doc/porting.md lists both.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_SLURM_PUBLIC_H
#define COALLOC_SLURM_PUBLIC_H

#include <slurm/slurm.h>
#include <slurm/slurm_version.h>

/* slurm_load_ctl_conf()'s reply is freed by slurm_free_conf() from 26.05
 * on, slurm_free_ctl_conf() before; the name too, for dlsym(). */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
#define coalloc_free_ctl_conf slurm_free_conf
#define COALLOC_FREE_CTL_CONF_SYMBOL "slurm_free_conf"
#else
#define coalloc_free_ctl_conf slurm_free_ctl_conf
#define COALLOC_FREE_CTL_CONF_SYMBOL "slurm_free_ctl_conf"
#endif

#endif
