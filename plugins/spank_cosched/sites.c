/*
 * sites.c - the cluster's sites as slurmctld reports them, so that sbatch,
 * salloc and srun refuse a --coalloc request no site can take before the
 * job is queued, with the reason (an unknown site, a component larger
 * than its site...).  select/coalloc publishes them as the key pair
 * CoallocSites of slurm_load_ctl_conf() (lib/coalloc/shape.h).
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
#include "slurm_public.h"

#include "cosched.h"
#include "coalloc/shape.h"

struct key_pair {	/* Slurm's config_key_pair_t, opaque in slurm.h */
	char *name;
	char *value;
};

/* The list types are List/ListIterator in 22.05, list_t in 24.11. */
struct slurm_api {
	int (*load_conf)(time_t, slurm_conf_t **);
	void (*free_conf)(slurm_conf_t *);
	void *(*iter_create)(void *);
	void *(*iter_next)(void *);
	void (*iter_destroy)(void *);
};

static int _lookup(struct slurm_api *api)
{
	*(void **)&api->load_conf = dlsym(RTLD_DEFAULT, "slurm_load_ctl_conf");
	*(void **)&api->free_conf = dlsym(RTLD_DEFAULT, COALLOC_FREE_CTL_CONF_SYMBOL);
	*(void **)&api->iter_create = dlsym(RTLD_DEFAULT,
					    "slurm_list_iterator_create");
	*(void **)&api->iter_next = dlsym(RTLD_DEFAULT, "slurm_list_next");
	*(void **)&api->iter_destroy = dlsym(RTLD_DEFAULT,
					     "slurm_list_iterator_destroy");
	return (api->load_conf && api->free_conf && api->iter_create &&
		api->iter_next && api->iter_destroy) ? 0 : -1;
}

int cosched_controller_sites(struct coalloc_site_list *sites)
{
	struct slurm_api api;
	slurm_conf_t *conf = NULL;
	struct key_pair *kp;
	void *it;
	int rc = -1;

	if (_lookup(&api)) {
		slurm_debug("cosched: Slurm's API is not at hand: --coalloc is checked by slurmctld");
		return -1;
	}
	if (api.load_conf((time_t)0, &conf) != SLURM_SUCCESS || !conf) {
		slurm_debug("cosched: cannot ask slurmctld for its sites: --coalloc is checked by slurmctld");
		return -1;
	}
	it = conf->select_conf_key_pairs ?
	     api.iter_create(conf->select_conf_key_pairs) : NULL;
	while (it && rc && (kp = api.iter_next(it)))
		if (kp->name && kp->value &&
		    !strcmp(kp->name, COALLOC_SITES_KEY))
			rc = coalloc_site_list_parse(kp->value, sites);
	if (it)
		api.iter_destroy(it);
	api.free_conf(conf);
	if (rc)
		slurm_debug("cosched: slurmctld reports no %s: --coalloc is checked by slurmctld",
			    COALLOC_SITES_KEY);
	return rc;
}
