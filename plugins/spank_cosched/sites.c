/*
 * sites.c - the cluster's sites as slurmctld reports them, so that sbatch,
 * salloc and srun refuse a --coalloc request no site can take before the
 * job is queued, with the reason (an unknown site, a component larger
 * than its site...).  select/coalloc publishes them as the key pair
 * CoallocSites of slurm_load_ctl_conf() (lib/coalloc/shape.h), by way of
 * node_features/coalloc from 25.05 on (compat/ctld_pairs.h).
 *
 * The calls are looked up at run time: this plugin is also loaded by
 * slurmstepd, and links no Slurm library of its own.  Whatever goes wrong
 * (no controller, another select plugin, an older select/coalloc) leaves
 * the check to slurmctld, which refuses the job at submit too.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <dlfcn.h>
#include <string.h>
#include "ctld_pairs.h"
#include "slurm_public.h"

#include "cosched.h"
#include "coalloc/shape.h"

/* The list types are List/ListIterator in 22.05, list_t in 24.11. */
struct slurm_api {
	int (*load_conf)(time_t, slurm_conf_t **);
	void (*free_conf)(slurm_conf_t *);
	struct coalloc_list_api list;
};

static int _lookup(struct slurm_api *api)
{
	*(void **)&api->load_conf = dlsym(RTLD_DEFAULT, "slurm_load_ctl_conf");
	*(void **)&api->free_conf = dlsym(RTLD_DEFAULT, COALLOC_FREE_CTL_CONF_SYMBOL);
	*(void **)&api->list.iter_create = dlsym(RTLD_DEFAULT,
						 "slurm_list_iterator_create");
	*(void **)&api->list.iter_next = dlsym(RTLD_DEFAULT, "slurm_list_next");
	*(void **)&api->list.iter_destroy = dlsym(RTLD_DEFAULT,
						  "slurm_list_iterator_destroy");
	return (api->load_conf && api->free_conf && api->list.iter_create &&
		api->list.iter_next && api->list.iter_destroy) ? 0 : -1;
}

int cosched_controller_sites(struct coalloc_site_list *sites)
{
	struct slurm_api api;
	slurm_conf_t *conf = NULL;
	const char *text;
	int rc = -1;

	if (_lookup(&api)) {
		slurm_debug("cosched: Slurm's API is not at hand: --coalloc is checked by slurmctld");
		return -1;
	}
	if (api.load_conf((time_t)0, &conf) != SLURM_SUCCESS || !conf) {
		slurm_debug("cosched: cannot ask slurmctld for its sites: --coalloc is checked by slurmctld");
		return -1;
	}
	if ((text = coalloc_ctld_value(&api.list, conf, COALLOC_SITES_KEY)))
		rc = coalloc_site_list_parse(text, sites);
	api.free_conf(conf);
	if (rc)
		slurm_debug("cosched: slurmctld reports no %s: --coalloc is checked by slurmctld",
			    COALLOC_SITES_KEY);
	return rc;
}
