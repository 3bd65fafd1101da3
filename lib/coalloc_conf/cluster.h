/*
 * cluster.h - coalloc.conf against the cluster slurm.conf describes: its
 * nodes and partitions.  One set of rules for slurmctld (select/coalloc
 * checks each file it loads against Slurm's tables) and for
 * 'coalloc-status --check' (against slurm.conf as read from disk, before
 * slurmctld starts).  Pure C: each side says how it finds a node, a
 * partition and the names of a hostlist.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_CONF_CLUSTER_H
#define COALLOC_CONF_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>

#include "coalloc_conf/coalloc_conf.h"

struct coalloc_cluster {
	/* node indexes run from 0 to nnodes - 1; node_name(i) is NULL for
	 * an index no node holds (Slurm's table has holes) */
	int nnodes;
	const char *(*node_name)(int index, void *arg);
	/* the index of a node, or -1 when slurm.conf has none so named */
	int (*node_index)(const char *name, void *arg);
	/* whether a partition exists; *force: N of its OverSubscribe=FORCE:N
	 * (0 when it does not force sharing) */
	bool (*partition)(const char *name, unsigned *force, void *arg);
	/* fn(name, fn_arg) for every name of a Slurm hostlist, in order,
	 * stopping at fn's first non-zero return (returned); -1 when the
	 * list is malformed */
	int (*hostlist_each)(const char *list,
			     int (*fn)(const char *name, void *fn_arg),
			     void *fn_arg, void *arg);
	void *arg;
};

/*
 * Every node's site into node_site[0 .. nnodes - 1] (-1 for a hole): the
 * nodes of each Site= line must exist and belong to no other site, and
 * every node must be in one.  Then the partitions coalloc.conf names must
 * exist.  0, or -1 with the file, line and key in err.
 */
int coalloc_cluster_map(const struct coalloc_conf *c,
			const struct coalloc_cluster *cl, int *node_site,
			char *err, size_t errlen);

/*
 * With more than one job per node (gang rows, a preempting partition)
 * slurmctld offers busy nodes only to jobs of OverSubscribe=FORCE:N
 * partitions, N > 1.  warn(msg, arg) for each partition of coalloc.conf
 * that lacks it: not an error, such a partition runs one job per node.
 * Returns how many.
 */
int coalloc_cluster_sharing(const struct coalloc_conf *c,
			    const struct coalloc_cluster *cl,
			    void (*warn)(const char *msg, void *arg),
			    void *arg);

/* slurm.conf settings select/coalloc refuses: the messages of both sides.
 * Slurm's own gang scheduler would suspend and resume our jobs on its own
 * schedule; a consumable-resource parameter would be ignored silently. */
#define COALLOC_RULE_PREEMPT_GANG \
	"PreemptMode=GANG (Slurm's built-in gang scheduling) must be off with select/coalloc: use Matrix=gang in coalloc.conf for gang rows"
#define COALLOC_RULE_SELECT_PARAMS \
	"is not supported: it is for select/cons_tres; select/coalloc allocates whole nodes and accepts only CR_Memory (or no SelectTypeParameters)"
#define COALLOC_RULE_SELECT_PARAM_OK "CR_Memory"

#endif /* COALLOC_CONF_CLUSTER_H */
