/*
 * node_features_coalloc.c - node_features/coalloc: select/coalloc's
 * status for Slurm's clients from 25.05 on (compat/ctld_pairs.h).
 *
 * Slurm 25.05 stopped asking a select plugin for the key pairs that
 * scontrol show config prints and slurm_load_ctl_conf() returns to any
 * host; a node_features plugin's get_config is still asked (proc_req.c,
 * _fill_ctld_conf).  This plugin manages no feature: every other call
 * answers what slurmctld and slurmd do with no node_features plugin at
 * all (interfaces/node_features.c), so that loading it changes nothing
 * but the pairs, except what Slurm decides from the plugin count alone
 * (doc/porting.md: an update of a node's Features without
 * ActiveFeatures leaves the active ones).
 *
 * slurmd loads it too (NodeFeaturesPlugins is read on every node): there
 * select/coalloc is not loaded and get_config is never asked.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "ctld_pairs.h"
#include "slurm_release.h"
#include "version/version.h"

const char plugin_name[] = "node_features/coalloc: select/coalloc's status for Slurm's clients";
const char plugin_type[] = COALLOC_NODE_FEATURES_TYPE;
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

/* As select/coalloc's (slurm_compat.c): a build for another release is
 * named before Slurm's own plugin_version check refuses it. */
__attribute__((constructor)) static void _check_slurm_version(void)
{
	(void) coalloc_slurm_release_check(plugin_type);
}

extern int init(void)
{
	debug("%s: loaded, version %s for Slurm %s", plugin_type,
	      coalloc_version(), SLURM_VERSION_STRING);
	return SLURM_SUCCESS;
}

extern void fini(void)
{
}

/*
 * select/coalloc's pairs, from the select plugin mapped in this process
 * (its soname; RTLD_NOLOAD: never loads it).  Nothing when SelectType is
 * another plugin, and a note for the administrator, once.
 */
extern void node_features_p_get_config(config_plugin_params_t *p)
{
	static int told;	/* RPC threads: the note once */
	void (*pairs)(list_t *) = NULL;
	void *select = dlopen(COALLOC_SELECT_SONAME, RTLD_LAZY | RTLD_NOLOAD);

	xstrcat(p->name, plugin_type);
	if (select)
		*(void **) &pairs = dlsym(select, COALLOC_CTLD_PAIRS_SYMBOL);
	if (pairs)
		pairs(p->key_pairs);
	else if (!__atomic_exchange_n(&told, 1, __ATOMIC_RELAXED)) {
		info("%s: select/coalloc is not loaded in slurmctld (SelectType=%s): no status to show",
		     plugin_type, slurm_conf.select_type);
	}
	if (select)
		dlclose(select);
}

/* ---- the rest: as if no node_features plugin were loaded ---- */

extern uint32_t node_features_p_boot_time(void)
{
	return 0;	/* no reboot for features */
}

extern bool node_features_p_changeable_feature(char *feature)
{
	(void) feature;
	return false;	/* every feature is active where available */
}

extern int node_features_p_job_valid(char *job_features, list_t *feature_list)
{
	(void) job_features;
	(void) feature_list;
	return SLURM_SUCCESS;
}

extern char *node_features_p_job_xlate(char *job_features, list_t *feature_list,
				       bitstr_t *job_node_bitmap)
{
	(void) job_features;
	(void) feature_list;
	(void) job_node_bitmap;
	return NULL;	/* nothing to reboot into */
}

extern bitstr_t *node_features_p_get_node_bitmap(void)
{
	return NULL;	/* no node has changeable features */
}

extern int node_features_p_overlap(bitstr_t *active_bitmap)
{
	(void) active_bitmap;
	return 0;	/* no reservation node needs a reboot */
}

extern int node_features_p_node_set(char *active_features, bool *need_reboot)
{
	(void) active_features;
	(void) need_reboot;
	return SLURM_SUCCESS;
}

extern void node_features_p_node_state(char **avail_modes, char **current_mode)
{
	(void) avail_modes;	/* slurmd reports no modes of ours */
	(void) current_mode;
}

/* Without a plugin slurmctld keeps NEW_FEATURES as they are. */
extern char *node_features_p_node_xlate(char *new_features, char *orig_features,
					char *avail_features, int node_inx)
{
	(void) orig_features;
	(void) avail_features;
	(void) node_inx;
	return xstrdup(new_features);
}

extern char *node_features_p_node_xlate2(char *new_features)
{
	return xstrdup(new_features);
}

/* Without a plugin slurmctld says yes: a node may take a feature that
 * is available but not active (nothing reboots: no job_xlate here). */
extern bool node_features_p_user_update(uid_t uid)
{
	(void) uid;
	return true;
}

/* 26.05: with no plugin, slurmctld says every feature change reboots. */
extern bool node_features_p_job_features_need_reboot(char *features)
{
	(void) features;
	return true;
}
