/*
 * layout.h - a job's layout as users see it: the joined text
 * ("site1:n[1-4];site2:n[5-6]", in SLURM_COALLOC_LAYOUT and scontrol's
 * SystemComment) and the environment variables slurmctld gives every job
 * it places (the batch script and each step's tasks), so that nodes need
 * no coalloc.conf.  The names live here once: select/coalloc sets them,
 * cosched.so and the tests read them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_LAYOUT_H
#define COALLOC_LAYOUT_H

#include <stddef.h>

#define COALLOC_ENV_PREFIX "SLURM_COALLOC_"
#define COALLOC_ENV_LAYOUT COALLOC_ENV_PREFIX "LAYOUT"
#define COALLOC_ENV_NCOMPONENTS COALLOC_ENV_PREFIX "NCOMPONENTS"
/* per component i, numbered from 0: ..._SITE_<i>, ..._NODELIST_<i> */
#define COALLOC_ENV_SITE_FMT COALLOC_ENV_PREFIX "SITE_%d"
#define COALLOC_ENV_NODELIST_FMT COALLOC_ENV_PREFIX "NODELIST_%d"

/* The longest joined layout, with its NUL. */
#define COALLOC_LAYOUT_MAX 8192

struct coalloc_conf;

/*
 * The joined text, sites in file order.  site_hosts[i] is the job's
 * hostlist on site i, NULL or "" for none.  Returns 0, or -1 when buf is
 * too small (buf is then "").
 */
int coalloc_layout_join(const struct coalloc_conf *conf,
			char *const *site_hosts, char *buf, size_t len);

/*
 * The layout as environment variables: COALLOC_ENV_LAYOUT (the joined
 * text), COALLOC_ENV_NCOMPONENTS and, for each component (a site with
 * hosts, in file order), its site and nodelist, as heterogeneous jobs have
 * theirs.  Calls set(name, value, arg) for each; returns the component
 * count, or -1 (nothing set) when the layout does not fit in
 * COALLOC_LAYOUT_MAX.
 */
int coalloc_layout_env(const struct coalloc_conf *conf,
		       char *const *site_hosts,
		       void (*set)(const char *name, const char *value,
				   void *arg),
		       void *arg);

#endif /* COALLOC_LAYOUT_H */
