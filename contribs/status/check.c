/*
 * check.c - coalloc-status --check: the configuration select/coalloc
 * would load, checked before slurmctld starts with it (check.h).
 *
 * slurm.conf is read from the file (lib/coalloc_conf/slurm_text.c), its
 * NodeName= hostlists expanded by Slurm's own public hostlist calls, and
 * coalloc.conf is checked against it by the rules slurmctld applies
 * (lib/coalloc_conf/cluster.c), as is plugstack.conf's cosched.so line
 * (plugstack_check.c).  Errors stop slurmctld or a reconfigure there;
 * warnings name what would run but not as meant.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE	/* asprintf */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "slurm_public.h"

#include "check.h"
#include "coalloc_conf/cluster.h"
#include "coalloc_conf/coalloc_conf.h"
#include "coalloc_conf/slurm_text.h"
#include "num/errbuf.h"

#define DEFAULT_SLURM_CONF "/etc/slurm/slurm.conf"
#define SELECT_TYPE "select/coalloc"

struct findings {
	int errors, warnings;
};

static void _error(struct findings *f, const char *fmt, const char *what)
{
	printf("error: ");
	printf(fmt, what);
	putchar('\n');
	f->errors++;
}

/* "FILE line N: key 'KEY': WHAT", as every other message of the suite. */
static void _error_at(struct findings *f, const struct slurm_text_line *at,
		      const char *key, const char *what)
{
	char msg[COALLOC_CONF_ERR_LEN + PATH_MAX];

	errbuf_at(msg, sizeof(msg), at->file, (unsigned long) at->line, key,
		  "%s", what);
	_error(f, "%s", msg);
}

static void _warning(struct findings *f, const char *msg)
{
	printf("warning: %s\n", msg);
	f->warnings++;
}

/* ---- slurm.conf's nodes, sorted by name for the lookups ---- */

struct node {
	char *name;
	int index;		/* in slurm.conf's order */
	const struct slurm_text_line *at;	/* its NodeName= line */
	bool again;		/* a later definition of a name */
};

struct nodes {
	struct node *by_index, *by_name;
	int n;
	const struct slurm_text *text;
	const struct slurm_text_line *line;	/* of the names being added */
};

static int _cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct node *) a)->name,
		      ((const struct node *) b)->name);
}

/* By name, then index: a name's first definition first. */
static int _cmp_name_index(const void *a, const void *b)
{
	const struct node *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->index - y->index;
}

static int _add_node(struct nodes *ns, const char *name)
{
	struct node *grown = realloc(ns->by_index,
				     (ns->n + 1) * sizeof(*grown));

	if (!grown)
		return -1;
	ns->by_index = grown;
	if (!(grown[ns->n].name = strdup(name)))
		return -1;
	grown[ns->n].index = ns->n;
	grown[ns->n].at = ns->line;
	grown[ns->n].again = false;
	ns->n++;
	return 0;
}

/* Slurm's expansion of a hostlist: its public API, so every form
 * slurmctld takes ("rack[1-2]n[01-16]") is taken here too. */
static int _slurm_hostlist_each(const char *list,
				int (*fn)(const char *name, void *fn_arg),
				void *fn_arg, void *arg)
{
	struct hostlist *hl = slurm_hostlist_create(list);
	char *host;
	int rc = 0;

	(void) arg;
	if (!hl)
		return -1;
	while (!rc && (host = slurm_hostlist_shift(hl))) {
		rc = fn(host, fn_arg);
		free(host);
	}
	slurm_hostlist_destroy(hl);
	return rc;
}

static int _node_fn(const char *name, void *arg)
{
	return _add_node(arg, name) ? -2 : 0;
}

/* Every node name of slurm.conf, in its order and sorted by name. */
static int _nodes_load(struct nodes *ns, const struct slurm_text *t,
		       struct findings *f)
{
	ns->text = t;
	for (size_t i = 0; i < t->nnodes; i++) {
		int rc;

		ns->line = &t->nodes[i].at;
		rc = _slurm_hostlist_each(t->nodes[i].hostlist, _node_fn, ns,
					  NULL);
		if (rc == -1)
			_error_at(f, ns->line, "NodeName",
				  "not a valid hostlist");
		else if (rc)
			return -1;
	}
	if (!(ns->by_name = malloc((ns->n ? ns->n : 1) * sizeof(struct node))))
		return -1;
	memcpy(ns->by_name, ns->by_index, ns->n * sizeof(struct node));
	qsort(ns->by_name, ns->n, sizeof(struct node), _cmp_name_index);
	return 0;
}

/* A name defined twice, refused as slurmctld refuses it; the later one
 * is left out of the checks that follow. */
static void _check_duplicates(struct nodes *ns, struct findings *f)
{
	char msg[PATH_MAX + 128];

	for (int i = 1; i < ns->n; i++) {
		struct node *first = &ns->by_name[i - 1], *again = &ns->by_name[i];

		if (strcmp(again->name, first->name))
			continue;
		ns->by_index[again->index].again = true;
		snprintf(msg, sizeof(msg),
			 "node '%s' is defined again (first at %s line %d)",
			 again->name, first->at->file, first->at->line);
		_error_at(f, again->at, "NodeName", msg);
	}
}

static void _nodes_free(struct nodes *ns)
{
	for (int i = 0; i < ns->n; i++)
		free(ns->by_index[i].name);
	free(ns->by_index);
	free(ns->by_name);
}

static const char *_node_name(int index, void *arg)
{
	struct nodes *ns = arg;

	if (index < 0 || index >= ns->n || ns->by_index[index].again)
		return NULL;
	return ns->by_index[index].name;
}

static int _node_index(const char *name, void *arg)
{
	struct nodes *ns = arg;
	struct node key = { .name = (char *) name };
	struct node *hit = bsearch(&key, ns->by_name, ns->n,
				   sizeof(struct node), _cmp_name);

	if (!hit)
		return -1;
	while (hit > ns->by_name && !strcmp(hit[-1].name, name))
		hit--;	/* the first definition */
	return hit->index;
}

static bool _partition(const char *name, unsigned *force, void *arg)
{
	const struct slurm_text *t = ((struct nodes *) arg)->text;

	for (size_t i = 0; i < t->npartitions; i++)
		if (!strcmp(t->partitions[i].name, name)) {
			*force = t->partitions[i].force;
			return true;
		}
	*force = 0;
	return false;
}

/* ---- the checks ---- */

/* The settings of slurm.conf itself the plugin refuses at start-up. */
static void _check_settings(const struct slurm_text *t, struct findings *f)
{
	char *copy, *word, *save = NULL;

	if (!t->select_type.value ||
	    strcasecmp(t->select_type.value, SELECT_TYPE))
		printf("note: SelectType is %s, not " SELECT_TYPE
		       ": these are the checks it would make\n",
		       t->select_type.value ? t->select_type.value :
		       "not set");
	if (t->preempt_mode.value &&
	    strcasestr(t->preempt_mode.value, "GANG"))
		_error(f, "%s", COALLOC_RULE_PREEMPT_GANG);
	if (!t->select_type_parameters.value ||
	    !(copy = strdup(t->select_type_parameters.value)))
		return;
	for (word = strtok_r(copy, ",", &save); word;
	     word = strtok_r(NULL, ",", &save))
		if (!strncasecmp(word, "CR_", 3) &&
		    strcasecmp(word, COALLOC_RULE_SELECT_PARAM_OK))
			_error(f, "SelectTypeParameters=%s "
			       COALLOC_RULE_SELECT_PARAMS, word);
	free(copy);
}

/* A file beside slurm.conf. */
static char *_beside(const char *slurm_conf, const char *name)
{
	char *copy = strdup(slurm_conf), *path = NULL;

	if (copy && asprintf(&path, "%s/%s", dirname(copy), name) < 0)
		path = NULL;
	free(copy);
	return path;
}

static void _warn_fn(const char *msg, void *arg)
{
	_warning(arg, msg);
}

static void _check_coalloc_conf(const char *slurm_conf, const char *path,
				const struct slurm_text *t, struct nodes *ns,
				struct findings *f)
{
	struct coalloc_cluster cl = {
		.nnodes = ns->n, .node_name = _node_name,
		.node_index = _node_index, .partition = _partition,
		.hostlist_each = _slurm_hostlist_each, .arg = ns,
	};
	struct coalloc_conf conf;
	char err[COALLOC_CONF_ERR_LEN];
	int *node_site;
	char *stack;
	int rc;

	if (access(path, F_OK) && errno == ENOENT) {
		printf("note: no %s: every node forms one site, policy GS\n",
		       path);
		return;
	}
	if (coalloc_conf_load(path, &conf, err, sizeof(err))) {
		_error(f, "%s", err);
		return;
	}
	node_site = calloc(ns->n ? ns->n : 1, sizeof(*node_site));
	if (!node_site || coalloc_cluster_map(&conf, &cl, node_site, err,
					      sizeof(err)))
		_error(f, "%s", node_site ? err : "out of memory");
	free(node_site);
	coalloc_cluster_sharing(&conf, &cl, _warn_fn, f);
	stack = t->plugstack_config.value ? strdup(t->plugstack_config.value) :
		_beside(slurm_conf, "plugstack.conf");
	rc = stack ? coalloc_conf_check_plugstack(&conf, stack, err,
						  sizeof(err)) : -1;
	if (rc < 0)
		_error(f, "%s", stack ? err : "out of memory");
	else if (rc > 0)
		_warning(f, err);
	free(stack);
	coalloc_conf_free(&conf);
}

int status_check(const char *slurm_conf, const char *coalloc_conf)
{
	struct findings f = { 0 };
	struct slurm_text t;
	struct nodes ns = { 0 };
	char err[COALLOC_CONF_ERR_LEN];
	char *beside = NULL;

	if (!slurm_conf)
		slurm_conf = getenv("SLURM_CONF");
	if (!slurm_conf)
		slurm_conf = DEFAULT_SLURM_CONF;
	if (slurm_text_load(slurm_conf, &t, err, sizeof(err))) {
		_error(&f, "%s", err);
		goto out;
	}
	if (_nodes_load(&ns, &t, &f)) {
		_error(&f, "%s", "out of memory");
		goto out_text;
	}
	printf("slurm.conf: %s (%d nodes, %zu partitions)\n", slurm_conf,
	       ns.n, t.npartitions);
	_check_duplicates(&ns, &f);
	_check_settings(&t, &f);
	if (!coalloc_conf)
		coalloc_conf = beside = _beside(slurm_conf, "coalloc.conf");
	if (coalloc_conf)
		_check_coalloc_conf(slurm_conf, coalloc_conf, &t, &ns, &f);
	free(beside);
	_nodes_free(&ns);
out_text:
	slurm_text_free(&t);
out:
	printf("%d error(s), %d warning(s)\n", f.errors, f.warnings);
	return f.errors ? 1 : 0;
}
