/*
 * check.h - coalloc-status --check (check.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_STATUS_CHECK_H
#define COALLOC_STATUS_CHECK_H

/*
 * slurm.conf (slurm_conf, else SLURM_CONF, else the default), coalloc.conf
 * (coalloc_conf, else beside slurm.conf) and plugstack.conf (PlugStackConfig,
 * else beside slurm.conf) checked as select/coalloc checks them when
 * slurmctld starts, without starting anything.  Every finding on stdout;
 * returns the exit code: 0 no error (warnings allowed), 1 errors.
 */
int status_check(const char *slurm_conf, const char *coalloc_conf);

#endif
