/*
 * sites.c - coalloc.conf in slurmctld: parse it (lib/coalloc_conf), check
 * it against Slurm's node and partition tables, and keep the node -> site
 * map the placement code reads.
 *
 * At start-up a bad file stops slurmctld with the file, line and key; on
 * 'scontrol reconfigure' a bad file is rejected with the same message and
 * the running configuration stays, so no job is lost either way.  Without
 * a coalloc.conf every node forms one site and the policy is GS.
 *
 * Slurm 24.11 reconfigures by starting slurmctld again (exec), so the
 * running configuration is not in memory then: every file loaded is kept
 * as StateSaveLocation/coalloc.conf.running, and the new slurmctld of a
 * reconfigure falls back to it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <json-c/json.h>
#include <libgen.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "coalloc_conf/cluster.h"
#include "coalloc_conf/coalloc_conf.h"
#include "coalloc_conf/layout.h"
#include "num/text.h"
#include "select_coalloc.h"
#include "src/common/hostlist.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "num/errbuf.h"

struct sites {
	struct coalloc_conf conf;
	int *node_site;		/* site index per node index, -1: none */
	int node_count;
	bool implicit;		/* no coalloc.conf: one site of every node */
	/* names and node counts, counted once per load: placements read
	 * them for every job they test */
	struct coalloc_site_list list;
};

static pthread_mutex_t sites_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct sites *current;

static void _sites_free(struct sites *s)
{
	if (!s)
		return;
	coalloc_conf_free(&s->conf);
	xfree(s->node_site);
	xfree(s);
}

/* A file beside slurm.conf: coalloc.conf, or Slurm's default
 * plugstack.conf. */
static char *_beside_slurm_conf(const char *name)
{
	char *copy = xstrdup(slurm_conf.slurm_conf ? slurm_conf.slurm_conf :
			     "/etc/slurm/slurm.conf");
	char *path = xstrdup_printf("%s/%s", dirname(copy), name);

	xfree(copy);
	return path;
}

static char *_conf_path(void)
{
	return _beside_slurm_conf("coalloc.conf");
}

/*
 * GangPortOffset against the agents' gang_port_offset in this host's
 * plugstack.conf (PlugStackConfig, or beside slurm.conf, as Slurm finds
 * it): a difference is an error of the configuration; a stack that
 * cannot be read is said, and the configuration kept.
 */
static int _check_agents_port(const struct coalloc_conf *c, char *err,
			      size_t len)
{
	char *path = slurm_conf.plugstack ? xstrdup(slurm_conf.plugstack) :
		     _beside_slurm_conf("plugstack.conf");
	int rc = coalloc_conf_check_plugstack(c, path, err, len);

	if (rc > 0)
		error("%s: %s", plugin_type, err);
	xfree(path);
	return rc < 0 ? -1 : 0;
}

/* ---- Slurm's tables as lib/coalloc_conf/cluster.h reads them ---- */

static const char *_node_name(int index, void *arg)
{
	node_record_t *node = node_record_table_ptr[index];

	(void) arg;
	return node ? node->name : NULL;
}

static int _node_index(const char *name, void *arg)
{
	node_record_t *node = find_node_record((char *) name);

	(void) arg;
	return node ? (int) node->index : -1;
}

static int _match_part_name(void *x, void *key)
{
	part_record_t *part = x;

	return !xstrcmp(part->name, key);
}

static bool _partition(const char *name, unsigned *force, void *arg)
{
	part_record_t *part = part_list ?
		list_find_first(part_list, _match_part_name, (void *) name) :
		NULL;

	(void) arg;
	*force = part && (part->max_share & SHARED_FORCE) ?
		 part->max_share & ~SHARED_FORCE : 0;
	return part;
}

static int _hostlist_each(const char *list,
			  int (*fn)(const char *name, void *fn_arg),
			  void *fn_arg, void *arg)
{
	struct hostlist *hl = hostlist_create(list);
	char *host;
	int rc = 0;

	(void) arg;
	if (!hl)
		return -1;
	while (!rc && (host = hostlist_shift(hl))) {
		rc = fn(host, fn_arg);
		free(host);
	}
	hostlist_destroy(hl);
	return rc;
}

static const struct coalloc_cluster slurm_tables = {
	.node_name = _node_name,
	.node_index = _node_index,
	.partition = _partition,
	.hostlist_each = _hostlist_each,
};

static struct coalloc_cluster _cluster(void)
{
	struct coalloc_cluster cl = slurm_tables;

	cl.nnodes = node_record_count;
	return cl;
}

static void _warn(const char *msg, void *arg)
{
	(void) arg;
	error("%s: %s", plugin_type, msg);
}

static void _check_sharing(const struct coalloc_conf *c)
{
	struct coalloc_cluster cl = _cluster();

	coalloc_cluster_sharing(c, &cl, _warn, NULL);
}

static struct sites *_sites_alloc(void)
{
	struct sites *s = xmalloc(sizeof(*s));

	s->node_count = node_record_count;
	s->node_site = xcalloc(node_record_count ? node_record_count : 1,
			       sizeof(int));
	for (int i = 0; i < node_record_count; i++)
		s->node_site[i] = -1;
	return s;
}

/* No coalloc.conf: one site holding every node, policy GS. */
static struct sites *_implicit_sites(void)
{
	struct sites *s = _sites_alloc();
	char err[COALLOC_CONF_ERR_LEN];
	struct coalloc_cluster cl = _cluster();

	if (coalloc_conf_parse("Site=all Nodes=ALL\n", "(built-in)", &s->conf,
			       err, sizeof(err)) ||
	    coalloc_cluster_map(&s->conf, &cl, s->node_site, err, sizeof(err)))
		fatal("%s: built-in configuration: %s", plugin_type, err);
	s->implicit = true;
	return s;
}

/* 'text' (read from 'path') checked against Slurm's tables. */
static struct sites *_load_text(const char *text, const char *path,
				char *err, size_t len)
{
	struct sites *s = _sites_alloc();
	struct coalloc_cluster cl = _cluster();

	if (coalloc_conf_parse(text, path, &s->conf, err, len) ||
	    coalloc_cluster_map(&s->conf, &cl, s->node_site, err, len) ||
	    _check_agents_port(&s->conf, err, len))
		goto fail;
	return s;
fail:
	_sites_free(s);
	return NULL;
}

/* The file at 'path'; its text in *text (free()) when it was read. */
static struct sites *_load(const char *path, char **text, char *err,
			   size_t len)
{
	*text = NULL;
	if (access(path, F_OK) && errno == ENOENT)
		return _implicit_sites();
	if (!(*text = text_load(path, err, len)))
		return NULL;
	return _load_text(*text, path, err, len);
}

static char *_running_copy_path(void)
{
	return xstrdup_printf("%s/coalloc.conf.running",
			      slurm_conf.state_save_location);
}

static void _write_text(FILE *fp, const void *text)
{
	fputs(text, fp);
}

/* Keep the text of the configuration now running (NULL: none). */
static void _keep_running_copy(const char *text)
{
	char *path = _running_copy_path();

	if (text)
		coalloc_file_replace(path, _write_text, text);
	else if (unlink(path) && errno != ENOENT)
		error("%s: cannot remove %s: %m", plugin_type, path);
	xfree(path);
}

/* The configuration a reconfigure's new slurmctld (24.11) had before. */
static struct sites *_load_running_copy(const char *path)
{
	char err[COALLOC_CONF_ERR_LEN] = "";
	char *copy = _running_copy_path(), *text = text_load(copy, err,
							     sizeof(err));
	struct sites *s = text ? _load_text(text, path, err, sizeof(err)) :
			  NULL;

	if (!s)
		error("%s: the running configuration (%s) does not load either: %s",
		      plugin_type, copy, err);
	free(text);
	xfree(copy);
	return s;
}

static void _log_sites(const struct sites *s)
{
	const struct coalloc_conf *c = &s->conf;

	char slice[128];

	if (c->matrix.time_slice_ms)
		snprintf(slice, sizeof(slice), "%ums (node agents switch the rows, gang port = slurmd's + %u)",
			 c->matrix.time_slice_ms, c->matrix.gang_port_offset);
	else if (c->matrix.gang_guard)
		snprintf(slice, sizeof(slice), "%u (node agents guard the rows, gang port = slurmd's + %u)",
			 c->matrix.time_slice, c->matrix.gang_port_offset);
	else
		snprintf(slice, sizeof(slice), "%u", c->matrix.time_slice);
	info("%s: %s: %zu site%s, Policy=%s AgingTime=%u Matrix=%s MPL=%u QueueOrder=%s TimeSlice=%s PreemptPartition=%s PreemptHold=%u",
	     plugin_type, s->implicit ? "no coalloc.conf" : c->file, c->nsites,
	     c->nsites == 1 ? "" : "s", coalloc_policy_name(c->policy),
	     c->aging_time, coalloc_conf_matrix_name(c->matrix.mode), c->matrix.mpl,
	     coalloc_order_name(c->queue_order),
	     slice,
	     c->preempt_partition ? c->preempt_partition : "(none)",
	     c->preempt_partition ? c->preempt_hold : 0);
	_check_sharing(c);
	coalloc_check_partitions(c);
	for (size_t i = 0; i < c->nsites; i++)
		log_flag(SELECT_TYPE, "%s: site %s Nodes=%s LocalPartition=%s",
			 plugin_type, c->sites[i].name, c->sites[i].nodes,
			 c->sites[i].local_partition ?
			 c->sites[i].local_partition : "(none)");
}

static void _build_list(struct sites *s)
{
	struct coalloc_site_list *l = &s->list;

	memset(l, 0, sizeof(*l));
	l->count = s->conf.nsites;	/* the parser keeps it <= MAX_SITES */
	for (unsigned i = 0; i < l->count; i++)
		snprintf(l->name[i], sizeof(l->name[i]), "%s",
			 s->conf.sites[i].name);
	for (int i = 0; i < s->node_count; i++)
		if (s->node_site[i] >= 0 && (unsigned)s->node_site[i] < l->count)
			l->nodes[s->node_site[i]]++;
}

int coalloc_sites_load(bool at_startup)
{
	char err[COALLOC_CONF_ERR_LEN] = "";
	char *path = _conf_path(), *text;
	struct sites *s = _load(path, &text, err, sizeof(err));
	bool kept = !s && (!at_startup || coalloc_reconfigure_exec());

	if (kept) {
		error("%s: %s; keeping the running configuration",
		      plugin_type, err);
		if (at_startup)
			s = _load_running_copy(path);
	}
	xfree(path);
	if (!s && at_startup)
		fatal("%s: %s", plugin_type, err);
	if (!s) {
		free(text);
		return SLURM_ERROR;
	}
	if (!kept)
		_keep_running_copy(text);
	free(text);
	_build_list(s);
	_log_sites(s);
	slurm_mutex_lock(&sites_mutex);
	_sites_free(current);
	current = s;
	slurm_mutex_unlock(&sites_mutex);
	return kept ? SLURM_ERROR : SLURM_SUCCESS;
}

void coalloc_sites_fini(void)
{
	slurm_mutex_lock(&sites_mutex);
	_sites_free(current);
	current = NULL;
	slurm_mutex_unlock(&sites_mutex);
}

int coalloc_site_of_node(int node_inx)
{
	int site = -1;

	slurm_mutex_lock(&sites_mutex);
	if (current && node_inx >= 0 && node_inx < current->node_count)
		site = current->node_site[node_inx];
	slurm_mutex_unlock(&sites_mutex);
	return site;
}

int coalloc_site_count(void)
{
	int n;

	slurm_mutex_lock(&sites_mutex);
	n = current ? (int) current->conf.nsites : 0;
	slurm_mutex_unlock(&sites_mutex);
	return n;
}

/* The name of a site copied into buf (the configuration may be replaced
 * by a reconfigure meanwhile); "" when there is no such site. */
const char *coalloc_site_name_copy(int site, char *buf, size_t len)
{
	slurm_mutex_lock(&sites_mutex);
	snprintf(buf, len, "%s", current && site >= 0 &&
		 (size_t) site < current->conf.nsites ?
		 current->conf.sites[site].name : "");
	slurm_mutex_unlock(&sites_mutex);
	return buf;
}

/*
 * The site whose local queue a partition is, -1 when none.  (Under GS its
 * jobs still join the one global queue: see queues.c.)
 */
int coalloc_local_site_of_partition(const char *partition)
{
	int site = -1;

	if (!partition)
		return -1;
	slurm_mutex_lock(&sites_mutex);
	for (size_t i = 0; current && i < current->conf.nsites; i++) {
		const struct coalloc_conf_site *s = &current->conf.sites[i];

		if (s->local_partition && !strcmp(s->local_partition, partition))
			site = i;
	}
	slurm_mutex_unlock(&sites_mutex);
	return site;
}

enum coalloc_policy coalloc_sites_policy(void)
{
	enum coalloc_policy policy = COALLOC_CONF_DEFAULT_POLICY;

	slurm_mutex_lock(&sites_mutex);
	if (current)
		policy = current->conf.policy;
	slurm_mutex_unlock(&sites_mutex);
	return policy;
}

/* The engine's settings from coalloc.conf: aging and queue order (the
 * defaults without a file). */
void coalloc_sites_engine_settings(struct coalloc_config *cfg)
{
	cfg->aging_wait = COALLOC_CONF_DEFAULT_AGING;
	cfg->order = COALLOC_CONF_DEFAULT_ORDER;
	slurm_mutex_lock(&sites_mutex);
	if (current) {
		cfg->aging_wait = current->conf.aging_time;
		cfg->order = current->conf.queue_order;
	}
	slurm_mutex_unlock(&sites_mutex);
}

void coalloc_sites_matrix(struct coalloc_matrix_settings *out, bool *preempt)
{
	coalloc_matrix_settings_init(out);
	*preempt = false;
	slurm_mutex_lock(&sites_mutex);
	if (current) {
		*out = current->conf.matrix;
		*preempt = current->conf.preempt_partition != NULL;
	}
	slurm_mutex_unlock(&sites_mutex);
}

bool coalloc_is_preempt_partition(const char *partition)
{
	bool preempt = false;

	slurm_mutex_lock(&sites_mutex);
	if (current && partition && current->conf.preempt_partition)
		preempt = !strcmp(current->conf.preempt_partition, partition);
	slurm_mutex_unlock(&sites_mutex);
	return preempt;
}

unsigned coalloc_preempt_hold(void)
{
	unsigned hold = 0;

	slurm_mutex_lock(&sites_mutex);
	if (current && current->conf.preempt_partition)
		hold = current->conf.preempt_hold;
	slurm_mutex_unlock(&sites_mutex);
	return hold;
}

uint32_t coalloc_site_nodes(int site)
{
	uint32_t n = 0;

	slurm_mutex_lock(&sites_mutex);
	if (current && site >= 0 && (unsigned)site < current->list.count)
		n = current->list.nodes[site];
	slurm_mutex_unlock(&sites_mutex);
	return n;
}

void coalloc_sites_list(struct coalloc_site_list *out)
{
	slurm_mutex_lock(&sites_mutex);
	if (current)
		*out = current->list;
	else
		memset(out, 0, sizeof(*out));
	slurm_mutex_unlock(&sites_mutex);
}

bool coalloc_is_global_partition(const char *partition)
{
	bool global = false;

	slurm_mutex_lock(&sites_mutex);
	if (current && partition && current->conf.global_partition)
		global = !strcmp(current->conf.global_partition, partition);
	slurm_mutex_unlock(&sites_mutex);
	return global;
}

/* The job's layout ("site1:n[1-4];site2:n[5-6]"), xmalloc'd; NULL if none. */
/* The job's hostlist on each site ("" for none; xfree each and the
 * array).  Caller holds sites_mutex and current is set. */
static char **_site_hosts(job_record_t *job_ptr)
{
	size_t nsites = current->conf.nsites;
	char **hosts = xcalloc(nsites, sizeof(*hosts));

	for (size_t s = 0; s < nsites; s++) {
		struct hostlist *hl = hostlist_create(NULL);

		for (int i = 0; i < current->node_count; i++)
			if (current->node_site[i] == (int) s &&
			    bit_test(job_ptr->node_bitmap, i))
				hostlist_push_host(hl,
						   node_record_table_ptr[i]->name);
		if (hostlist_count(hl))
			hosts[s] = hostlist_ranged_string_xmalloc(hl);
		hostlist_destroy(hl);
	}
	return hosts;
}

static void _free_hosts(char **hosts)
{
	for (size_t s = 0; s < current->conf.nsites; s++)
		xfree(hosts[s]);
	xfree(hosts);
}

char *coalloc_job_layout(job_record_t *job_ptr)
{
	char buf[COALLOC_LAYOUT_MAX], **hosts;
	char *layout = NULL;

	if (!job_ptr->node_bitmap)
		return NULL;
	slurm_mutex_lock(&sites_mutex);
	if (current) {
		hosts = _site_hosts(job_ptr);
		if (!coalloc_layout_join(&current->conf, hosts, buf,
					 sizeof(buf)))
			layout = xstrdup(buf);
		_free_hosts(hosts);
	}
	slurm_mutex_unlock(&sites_mutex);
	return layout;
}

int coalloc_job_layout_env(job_record_t *job_ptr,
			   void (*set)(const char *name, const char *value,
				       void *arg),
			   void *arg)
{
	char **hosts;
	int n = -1;

	if (!job_ptr->node_bitmap)
		return -1;
	slurm_mutex_lock(&sites_mutex);
	if (current) {
		hosts = _site_hosts(job_ptr);
		n = coalloc_layout_env(&current->conf, hosts, set, arg);
		_free_hosts(hosts);
	}
	slurm_mutex_unlock(&sites_mutex);
	return n;
}

static json_object *_str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

void coalloc_sites_json(json_object *root)
{
	json_object *sites = json_object_new_array();

	slurm_mutex_lock(&sites_mutex);
	if (current) {
		const struct coalloc_conf *c = &current->conf;

		json_object_object_add(root, "config", current->implicit ?
				       NULL : json_object_new_string(c->file));
		json_object_object_add(root, "policy", json_object_new_string(
					       coalloc_policy_name(c->policy)));
		json_object_object_add(root, "aging_time",
				       json_object_new_int64(c->aging_time));
		json_object_object_add(root, "queue_order", json_object_new_string(
					       coalloc_order_name(c->queue_order)));
		json_object_object_add(root, "matrix", json_object_new_string(
					       coalloc_conf_matrix_name(c->matrix.mode)));
		json_object_object_add(root, "mpl", json_object_new_int(c->matrix.mpl));
		json_object_object_add(root, "global_partition",
				       _str_or_null(c->global_partition));
		json_object_object_add(root, "preempt_partition",
				       _str_or_null(c->preempt_partition));
		json_object_object_add(root, "time_slice",
				       json_object_new_int(c->matrix.time_slice));
		json_object_object_add(root, "time_slice_ms", c->matrix.time_slice_ms ?
				       json_object_new_int(c->matrix.time_slice_ms) : NULL);
		json_object_object_add(root, "gang_guard",
				       json_object_new_boolean(c->matrix.gang_guard));
		for (size_t i = 0; i < c->nsites; i++) {
			json_object *s = json_object_new_object();
			int total = 0;

			for (int n = 0; n < current->node_count; n++)
				total += current->node_site[n] == (int) i;
			json_object_object_add(s, "name",
					       json_object_new_string(c->sites[i].name));
			json_object_object_add(s, "nodes",
					       json_object_new_string(c->sites[i].nodes));
			json_object_object_add(s, "total", json_object_new_int(total));
			json_object_object_add(s, "local_partition",
					       _str_or_null(c->sites[i].local_partition));
			json_object_array_add(sites, s);
		}
	}
	slurm_mutex_unlock(&sites_mutex);
	json_object_object_add(root, "sites", sites);
}
