/*
 * cluster.c - coalloc.conf against slurm.conf's nodes and partitions
 * (cluster.h): the same rules in slurmctld and in coalloc-status --check.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <strings.h>

#include "coalloc_conf/cluster.h"
#include "num/errbuf.h"

/* A message about a line of coalloc.conf, then -1. */
#define _fail(err, len, c, line, key, ...) \
	errbuf_at((err), (len), (c)->file, (unsigned long)(line), (key), \
		  __VA_ARGS__)

struct claim {
	const struct coalloc_conf *c;
	const struct coalloc_cluster *cl;
	int *node_site;
	int site;
	char *err;
	size_t errlen;
};

/* One node of a Site= line: it exists and no other site has it. */
static int _claim_one(const char *name, void *arg)
{
	struct claim *k = arg;
	const struct coalloc_conf_site *site = &k->c->sites[k->site];
	int i = k->cl->node_index(name, k->cl->arg);
	int other;

	if (i < 0 || i >= k->cl->nnodes)
		return _fail(k->err, k->errlen, k->c, site->line, "Nodes",
			     "node '%s' is not in slurm.conf", name);
	other = k->node_site[i];
	if (other >= 0)
		return _fail(k->err, k->errlen, k->c, site->line, "Nodes",
			     "node '%s' is already in site '%s' (line %d); sites must not overlap",
			     name, k->c->sites[other].name,
			     k->c->sites[other].line);
	k->node_site[i] = k->site;
	return 0;
}

/* Nodes=ALL: a single site of every node. */
static int _claim_all(struct claim *k)
{
	const struct coalloc_conf_site *site = &k->c->sites[k->site];

	for (int i = 0; i < k->cl->nnodes; i++) {
		int other = k->node_site[i];

		if (!k->cl->node_name(i, k->cl->arg))
			continue;
		if (other >= 0)
			return _fail(k->err, k->errlen, k->c, site->line,
				     "Nodes",
				     "ALL overlaps site '%s' (line %d); sites must not overlap",
				     k->c->sites[other].name,
				     k->c->sites[other].line);
		k->node_site[i] = k->site;
	}
	return 0;
}

static int _claim_site(struct claim *k)
{
	const struct coalloc_conf_site *site = &k->c->sites[k->site];
	int rc;

	if (!strcasecmp(site->nodes, "ALL"))
		return _claim_all(k);
	rc = k->cl->hostlist_each(site->nodes, _claim_one, k, k->cl->arg);
	if (rc == -1 && !k->err[0])
		return _fail(k->err, k->errlen, k->c, site->line, "Nodes",
			     "'%s' is not a valid hostlist", site->nodes);
	return rc ? -1 : 0;
}

static int _every_node_in_a_site(struct claim *k)
{
	for (int i = 0; i < k->cl->nnodes; i++) {
		const char *name = k->cl->node_name(i, k->cl->arg);

		if (name && k->node_site[i] < 0)
			return _fail(k->err, k->errlen, k->c, 0, "Site",
				     "node '%s' is in no site; every node of slurm.conf must be in exactly one Site= line",
				     name);
	}
	return 0;
}

static bool _partition_exists(const struct coalloc_cluster *cl,
			      const char *name)
{
	unsigned force;

	return cl->partition(name, &force, cl->arg);
}

/* A partition named at line/key must exist. */
static int _partition_named(const struct coalloc_conf *c,
			    const struct coalloc_cluster *cl, const char *name,
			    int line, const char *key, char *err, size_t len)
{
	if (!name || _partition_exists(cl, name))
		return 0;
	return _fail(err, len, c, line, key,
		     "partition '%s' is not in slurm.conf", name);
}

static int _check_partitions(const struct coalloc_conf *c,
			     const struct coalloc_cluster *cl, char *err,
			     size_t len)
{
	if (_partition_named(c, cl, c->global_partition, c->global_line,
			     "GlobalPartition", err, len))
		return -1;
	for (size_t i = 0; i < c->nsites; i++)
		if (_partition_named(c, cl, c->sites[i].local_partition,
				     c->sites[i].local_line, "LocalPartition",
				     err, len))
			return -1;
	return _partition_named(c, cl, c->preempt_partition,
				c->preempt_line, "PreemptPartition", err, len);
}

int coalloc_cluster_map(const struct coalloc_conf *c,
			const struct coalloc_cluster *cl, int *node_site,
			char *err, size_t errlen)
{
	struct claim k = { .c = c, .cl = cl, .node_site = node_site,
			   .err = err, .errlen = errlen };

	if (errlen)
		err[0] = '\0';
	for (int i = 0; i < cl->nnodes; i++)
		node_site[i] = -1;
	for (size_t s = 0; s < c->nsites; s++) {
		k.site = (int) s;
		if (_claim_site(&k))
			return -1;
	}
	if (_every_node_in_a_site(&k))
		return -1;
	return _check_partitions(c, cl, err, errlen);
}

/* One partition of coalloc.conf, warned about when it cannot share. */
static int _sharing_one(const struct coalloc_conf *c,
			const struct coalloc_cluster *cl, const char *name,
			void (*warn)(const char *msg, void *arg), void *arg)
{
	unsigned need = c->matrix.mpl + (c->preempt_partition ? 1 : 0);
	unsigned force = 0;
	char msg[COALLOC_CONF_ERR_LEN];

	if (!name || !cl->partition(name, &force, cl->arg) || force > 1)
		return 0;
	snprintf(msg, sizeof(msg),
		 "partition %s needs OverSubscribe=FORCE:%u in slurm.conf for Matrix=%s%s: until then its jobs get only idle nodes",
		 name, need, coalloc_conf_matrix_name(c->matrix.mode),
		 c->preempt_partition ? " with PreemptPartition" : "");
	warn(msg, arg);
	return 1;
}

int coalloc_cluster_sharing(const struct coalloc_conf *c,
			    const struct coalloc_cluster *cl,
			    void (*warn)(const char *msg, void *arg),
			    void *arg)
{
	int n = 0;

	if (c->matrix.mode == COALLOC_CONF_MATRIX_OFF && !c->preempt_partition)
		return 0;
	n += _sharing_one(c, cl, c->global_partition, warn, arg);
	n += _sharing_one(c, cl, c->preempt_partition, warn, arg);
	for (size_t i = 0; i < c->nsites; i++)
		n += _sharing_one(c, cl, c->sites[i].local_partition, warn,
				  arg);
	return n;
}
