/*
 * layout.c - slurmstepd, in each task: SLURM_COALLOC_LAYOUT, the sites the
 * job's nodes belong to ("site1:n[1-4];site2:n[5-6]").
 *
 * The sites come from coalloc.conf beside slurm.conf (the file slurmctld
 * reads), the nodes from SLURM_JOB_NODELIST; the text is built by the same
 * lib/coalloc_conf function slurmctld uses for the job's SystemComment, so
 * both always agree.  Without a coalloc.conf nothing is set.  Problems are
 * logged and never fail the task.
 *
 * Hostlists are 'struct hostlist *', which both Slurm 22.05 (hostlist_t
 * is that pointer) and 24.11 (hostlist_t is the struct) accept.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <slurm/slurm.h>

#include "coalloc_conf/coalloc_conf.h"
#include "cosched.h"

#define LAYOUT_VAR "SLURM_COALLOC_LAYOUT"

/* coalloc.conf in the directory of the slurm.conf this job uses. */
static void _conf_path(spank_t sp, char *path, size_t len)
{
	char conf[4096] = "/etc/slurm/slurm.conf";
	const char *env = getenv("SLURM_CONF");

	if (spank_getenv(sp, "SLURM_CONF", conf, sizeof(conf)) != ESPANK_SUCCESS &&
	    env)
		snprintf(conf, sizeof(conf), "%s", env);
	snprintf(path, len, "%s/coalloc.conf", dirname(conf));
}

/* The site of a host, -1 when none; sites[i] NULL means Nodes=ALL. */
static int _site_of(struct hostlist **sites, size_t n, const char *host)
{
	for (size_t i = 0; i < n; i++)
		if (!sites[i] || slurm_hostlist_find(sites[i], host) >= 0)
			return (int)i;
	return -1;
}

/* "n[1-4]" of a hostlist, malloc()ed; NULL if it does not fit (Slurm
 * 24.11 no longer has slurm_hostlist_ranged_string_malloc). */
static char *_ranged(struct hostlist *hl)
{
	char buf[8192];

	if (slurm_hostlist_ranged_string(hl, sizeof(buf), buf) < 0)
		return NULL;
	return strdup(buf);
}

static int _build(const struct coalloc_conf *conf, const char *nodelist,
		  char *buf, size_t len)
{
	struct hostlist **sites = calloc(conf->nsites, sizeof(*sites));
	struct hostlist **mine = calloc(conf->nsites, sizeof(*mine));
	char **hosts = calloc(conf->nsites, sizeof(*hosts));
	struct hostlist *job = slurm_hostlist_create(nodelist);
	char *host;
	int rc = -1;

	if (!sites || !mine || !hosts || !job)
		goto fail;
	for (size_t i = 0; i < conf->nsites; i++) {
		if (strcasecmp(conf->sites[i].nodes, "ALL"))
			sites[i] = slurm_hostlist_create(conf->sites[i].nodes);
		mine[i] = slurm_hostlist_create(NULL);
	}
	while ((host = slurm_hostlist_shift(job))) {
		int s = _site_of(sites, conf->nsites, host);

		if (s >= 0)
			slurm_hostlist_push_host(mine[s], host);
		free(host);
	}
	for (size_t i = 0; i < conf->nsites; i++)
		if (mine[i] && slurm_hostlist_count(mine[i]) &&
		    !(hosts[i] = _ranged(mine[i])))
			goto fail;	/* a site dropped would be a wrong layout */
	rc = coalloc_layout_join(conf, hosts, buf, len);
fail:
	for (size_t i = 0; sites && mine && hosts && i < conf->nsites; i++) {
		if (sites[i])
			slurm_hostlist_destroy(sites[i]);
		if (mine[i])
			slurm_hostlist_destroy(mine[i]);
		free(hosts[i]);
	}
	if (job)
		slurm_hostlist_destroy(job);
	free(sites);
	free(mine);
	free(hosts);
	return rc;
}

int cosched_layout_export(spank_t sp)
{
	char path[4200], nodelist[8192], layout[8192];
	char err[COALLOC_CONF_ERR_LEN];
	struct coalloc_conf conf;

	if (spank_getenv(sp, "SLURM_JOB_NODELIST", nodelist,
			 sizeof(nodelist)) != ESPANK_SUCCESS)
		return 0;
	_conf_path(sp, path, sizeof(path));
	if (access(path, R_OK))
		return 0;	/* not a select/coalloc cluster */
	if (coalloc_conf_load(path, &conf, err, sizeof(err))) {
		slurm_error("cosched: %s: no %s for this task", err, LAYOUT_VAR);
		return 0;
	}
	if (_build(&conf, nodelist, layout, sizeof(layout)))
		slurm_error("cosched: cannot build %s for %s", LAYOUT_VAR,
			    nodelist);
	else if (spank_setenv(sp, LAYOUT_VAR, layout, 1) != ESPANK_SUCCESS)
		slurm_error("cosched: cannot set %s", LAYOUT_VAR);
	coalloc_conf_free(&conf);
	return 0;
}
