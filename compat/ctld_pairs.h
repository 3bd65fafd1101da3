/*
 * ctld_pairs.h - how select/coalloc's key pairs (CoallocStatus,
 * CoallocSites) reach Slurm's clients on every release: one side in
 * slurmctld, one in each client (coalloc-status, the SPANK site check).
 *
 * slurm_load_ctl_conf() returns them (scontrol show config prints them):
 *  - before 25.05, among the select plugin's pairs (select_conf_key_pairs),
 *    which slurmctld asks select/coalloc for;
 *  - from 25.05 on slurmctld asks no select plugin: node_features/coalloc,
 *    a companion loaded by NodeFeaturesPlugins, shows the same pairs as
 *    its own (node_features_conf), taken from select/coalloc in the same
 *    process through the exported COALLOC_CTLD_PAIRS_SYMBOL.
 * doc/porting.md says why that channel and what it costs.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_CTLD_PAIRS_H
#define COALLOC_CTLD_PAIRS_H

#include <string.h>

#include <slurm/slurm.h>

/* select_coalloc.so's soname (module.mk), for dlopen(RTLD_NOLOAD) */
#define COALLOC_SELECT_SONAME "select_coalloc.so"
/* void coalloc_ctld_key_pairs(list_t *pairs): appends the pairs */
#define COALLOC_CTLD_PAIRS_SYMBOL "coalloc_ctld_key_pairs"
#define COALLOC_NODE_FEATURES_TYPE "node_features/coalloc"

/* Slurm's config_key_pair_t and config_plugin_params_t (read_config.h),
 * opaque in slurm.h */
struct coalloc_key_pair {
	char *name;
	char *value;
};
struct coalloc_plugin_params {
	char *name;
	void *key_pairs;
};

/* libslurm's list iteration, linked (coalloc-status) or looked up at run
 * time (the SPANK plugin, which links no Slurm library) */
struct coalloc_list_api {
	void *(*iter_create)(void *list);
	void *(*iter_next)(void *it);
	void (*iter_destroy)(void *it);
};

static inline const char *coalloc_pairs_value(const struct coalloc_list_api *api,
					      void *pairs, const char *key)
{
	struct coalloc_key_pair *kp;
	const char *value = NULL;
	void *it;

	if (!pairs || !(it = api->iter_create(pairs)))
		return NULL;
	while (!value && (kp = api->iter_next(it)))
		if (kp->name && kp->value && !strcmp(kp->name, key))
			value = kp->value;
	api->iter_destroy(it);
	return value;
}

/* KEY's value in a slurm_load_ctl_conf() reply, on any release; NULL when
 * slurmctld sent none.  Points into CONF. */
static inline const char *coalloc_ctld_value(const struct coalloc_list_api *api,
					     const slurm_conf_t *conf,
					     const char *key)
{
	const char *value = coalloc_pairs_value(api, conf->select_conf_key_pairs, key);
	struct coalloc_plugin_params *p;
	void *it;

	if (value || !conf->node_features_conf ||
	    !(it = api->iter_create(conf->node_features_conf)))
		return value;
	while (!value && (p = api->iter_next(it)))
		if (p->name && !strcmp(p->name, COALLOC_NODE_FEATURES_TYPE))
			value = coalloc_pairs_value(api, p->key_pairs, key);
	api->iter_destroy(it);
	return value;
}

#endif
