/*
 * status.c - the status file coalloc-status(1) reads:
 * StateSaveLocation/coalloc_status.json, rewritten (atomically) by a
 * thread of the plugin within two seconds of any change.
 *
 * A thread, so that neither the scheduler nor the RPC handlers wait for
 * disk; it exists only inside slurmctld.  It builds the status under
 * slurmctld's node and config read locks (a reconfiguration rebuilds the
 * node table and re-reads StateSaveLocation under their write locks), and
 * takes the plugin's own locks inside them: the order of every slurmctld
 * call into the plugin, which comes with slurmctld's locks held.  The
 * file is written after all of them are released, and the thread holds
 * none of its own while it waits for slurmctld's.
 *
 * The last status also goes, as one line of compact JSON, to Slurm's
 * clients on any host: slurm_load_ctl_conf() returns it among the select
 * plugin's key-value pairs (before 25.05) or node_features/coalloc's
 * (from 25.05 on: CoallocStatus; scontrol show config prints it), which
 * slurmctld asks for under its own read locks, so the string is kept
 * ready here.  Past REMOTE_STATUS_MAX the per-node table is left
 * out of it (sites keep their busy counts).
 *
 * slurmctld serves that list to any user and does not tell the plugin
 * who asks (_fill_ctld_conf() calls select_g_get_info_from_plugin()
 * without the request), so under PrivateData=jobs (or all) the public
 * form carries no job id at all: its nodes and cells say only "busy"
 * (lib/coalloc_status).  The full table then stays in the file, which
 * only SlurmUser (and root) may read: coalloc-status --file on
 * slurmctld's host, as one of them.
 *
 * The same thread gives waiting jobs their pending reason back after
 * slurmctld replaced it (coalloc_queues_restore_reasons): under the job
 * write lock, so right after the scheduling pass that replaced it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "coalloc_conf/coalloc_conf.h"
#include "coalloc_status/status_json.h"
#include "json_text/json_text.h"
#include "select_coalloc.h"
#include "src/common/node_conf.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"
#include "version/version.h"

/* Weak, as in timeslice.c: Slurm's commands load us too, without them. */
#pragma weak lock_slurmctld
#pragma weak unlock_slurmctld

#define STATUS_PERIOD 2	/* seconds between checks for changes */
#define REMOTE_STATUS_MAX (64 * 1024)	/* bytes, before nodes are left out */

static void *_writer_main(void *arg);
/* kicked: reasons are due (coalloc_status_reasons_due) */
static struct coalloc_worker writer =
	COALLOC_WORKER("coalloc_status", _writer_main);
static pthread_mutex_t status_mutex = PTHREAD_MUTEX_INITIALIZER;
static bool dirty;		/* the status changed since the last file */
static char *remote_status;	/* the public form of the last status */
static bool remote_private;	/* ... built without job ids */

/* PrivateData=jobs, or all (every bit): job ids only for those who may
 * see the job.  Read under slurmctld's config read lock. */
static bool _jobs_private(void)
{
	return slurm_conf.private_data & PRIVATE_DATA_JOBS;
}

void coalloc_status_changed(void)
{
	slurm_mutex_lock(&status_mutex);
	dirty = true;
	slurm_mutex_unlock(&status_mutex);
}

/* Called under slurmctld's job write lock: only wakes the thread. */
void coalloc_status_reasons_due(void)
{
	coalloc_worker_kick(&writer);
}

/* Timed while the lock is held: how long slurmctld's RPCs wait for us. */
static void _restore_reasons(void)
{
	slurmctld_lock_t lock = { .job = WRITE_LOCK };
	struct coalloc_timer_start t0;

	lock_slurmctld(lock);
	t0 = coalloc_timer_start();
	coalloc_queues_restore_reasons();
	coalloc_timer_add(COALLOC_TIMER_REASONS, &t0);
	unlock_slurmctld(lock);
}

/* Jobs that left the queue unseen (Slurm 24.11 tells the select plugin
 * nothing when a pending job is cancelled) leave the engine too.  A
 * slice of the job table at a time, each under a lock of its own: the
 * RPCs waiting for the write lock go between them. */
static void _sync_queues(void)
{
	slurmctld_lock_t lock = { .job = READ_LOCK };
	bool done;

	do {
		struct coalloc_timer_start t0;

		lock_slurmctld(lock);
		t0 = coalloc_timer_start();
		done = coalloc_queues_sync_slice();
		coalloc_timer_add(COALLOC_TIMER_QUEUE_SYNC, &t0);
		unlock_slurmctld(lock);
	} while (!done);
}

/* One node's column: per row the job id (0: free) and whether it is a
 * replica; *held is set when a job holds the node in some row. */
static json_object *_cells_json(int node_inx, bool *held)
{
	json_object *cells = json_object_new_array();

	for (int r = 0; r < node_usage_rows(); r++) {
		bool replica = false;
		uint32_t id = node_usage_cell(r, node_inx, &replica);

		*held = *held || id;
		json_object_array_add(cells, coalloc_status_cell(id, replica));
	}
	return cells;
}

/* The node table; busy[s] counts site s's nodes with a job in any row. */
static json_object *_nodes_json(int *busy, int nsites)
{
	json_object *nodes = json_object_new_array();
	node_record_t *node;

	node_usage_lock();
	for (int i = 0; (node = next_node(&i)); i++) {
		int s = coalloc_site_of_node(i);
		bool held = false;
		char site[128];
		json_object *cells = _cells_json(i, &held);

		coalloc_site_name_copy(s, site, sizeof(site));
		json_object_array_add(nodes, coalloc_status_node(
			node->name, site, node_usage_holder(i), cells));
		if (held && s >= 0 && s < nsites)
			busy[s]++;
	}
	node_usage_unlock();
	return nodes;
}

/* The matrix's shape: rows (the priority row included) and which runs. */
static void _matrix_json(json_object *root)
{
	node_usage_lock();
	json_object_object_add(root, "rows",
			       json_object_new_int(node_usage_rows()));
	json_object_object_add(root, "first_row",
			       json_object_new_int(node_usage_first_row()));
	json_object_object_add(root, "active_row", node_usage_local() ? NULL :
			       json_object_new_int(node_usage_active_row()));
	/* false: the row never changes here (one row, Matrix=local) or the
	 * agents switch rows by the clock (a TimeSliceMs gang) */
	json_object_object_add(root, "ctld_rotates", json_object_new_boolean(
				       node_usage_time_sliced()));
	node_usage_unlock();
}

/* What the gang tables to the node agents cost: passes, tables, fails. */
static void _gang_tables_json(json_object *root)
{
	struct coalloc_gang_counts c;
	json_object *o = json_object_new_object();

	coalloc_gang_tables_counts(&c);
	json_object_object_add(o, "passes", json_object_new_int64((int64_t)c.passes));
	json_object_object_add(o, "sent", json_object_new_int64((int64_t)c.sent));
	json_object_object_add(o, "failed", json_object_new_int64((int64_t)c.failed));
	json_object_object_add(root, "gang_tables", o);
}

/* Each site's busy nodes (a job in any row), counted with the nodes. */
static void _sites_busy(json_object *root, const int *busy, int nsites)
{
	json_object *sites;

	if (!json_object_object_get_ex(root, "sites", &sites))
		return;
	for (int i = 0; i < nsites && (size_t) i < json_object_array_length(sites); i++)
		json_object_object_add(json_object_array_get_idx(sites, i), "busy",
				       json_object_new_int(busy[i]));
}

static json_object *_status_json(void)
{
	json_object *root = json_object_new_object();
	int nsites = coalloc_site_count();
	int *busy = xcalloc(nsites ? nsites : 1, sizeof(*busy));

	json_object_object_add(root, "version", json_object_new_int(1));
	json_object_object_add(root, "suite_version",
			       json_object_new_string(coalloc_version()));
	json_object_object_add(root, "slurm_version",
			       json_object_new_string(SLURM_VERSION_STRING));
	json_object_object_add(root, "generated",
			       json_object_new_int64(time(NULL)));
	coalloc_sites_json(root);	/* policy, matrix, sites */
	coalloc_queues_json(root);	/* queues */
	json_object_object_add(root, "nodes", _nodes_json(busy, nsites));
	_sites_busy(root, busy, nsites);
	xfree(busy);
	_matrix_json(root);
	_gang_tables_json(root);
	json_object_object_add(root, COALLOC_STATUS_TIMERS, coalloc_timers_json());
	return root;
}

/* The status, the file's path and whether job ids are private, built
 * under slurmctld's read locks. */
static json_object *_snapshot(char **path, bool *private_jobs)
{
	slurmctld_lock_t lock = { .conf = READ_LOCK, .node = READ_LOCK };
	json_object *root;

	lock_slurmctld(lock);
	root = _status_json();
	*path = xstrdup_printf("%s/%s", slurm_conf.state_save_location,
			       COALLOC_STATUS_FILE);
	*private_jobs = _jobs_private();
	unlock_slurmctld(lock);
	return root;
}

/* The status as slurm_load_ctl_conf() will return it (root changes). */
static void _keep_remote(json_object *root, bool private_jobs)
{
	char *text = coalloc_status_public(root, private_jobs, REMOTE_STATUS_MAX);
	char *copy = text ? xstrdup(text) : NULL;

	free(text);
	slurm_mutex_lock(&status_mutex);
	xfree(remote_status);
	remote_status = copy;
	remote_private = private_jobs;
	slurm_mutex_unlock(&status_mutex);
}

/*
 * The sites, "name=nodes,...": what the SPANK plugin checks a --coalloc
 * request against at submit, on any host (lib/coalloc/shape.h).
 */
static config_key_pair_t *_sites_pair(void)
{
	config_key_pair_t *pair = xmalloc(sizeof(*pair));
	struct coalloc_site_list sites;
	char text[COALLOC_SITE_LIST_TEXT_LEN];

	coalloc_sites_list(&sites);
	if (coalloc_site_list_format(&sites, text, sizeof(text)))
		text[0] = '\0';
	pair->name = xstrdup(COALLOC_SITES_KEY);
	pair->value = xstrdup(text);
	return pair;
}

/* The timers as they are now (the status has them as of its writing). */
static config_key_pair_t *_timers_pair(void)
{
	config_key_pair_t *pair = xmalloc(sizeof(*pair));
	json_object *timers = coalloc_timers_json();

	pair->name = xstrdup(COALLOC_TIMERS_KEY);
	pair->value = xstrdup(json_object_to_json_string_ext(
				      timers, JSON_C_TO_STRING_PLAIN));
	json_object_put(timers);
	return pair;
}

/*
 * Exported (select_coalloc.map): from 25.05 on node_features/coalloc
 * finds it with dlsym() and shows these pairs as its own (Slurm no
 * longer asks a select plugin for any); before, slurmctld asks us
 * (entry_select_data.c).  Called under slurmctld's config read lock.
 */
void coalloc_ctld_key_pairs(list_t *pairs)
{
	config_key_pair_t *pair = xmalloc(sizeof(*pair));

	pair->name = xstrdup(COALLOC_STATUS_KEY);
	slurm_mutex_lock(&status_mutex);
	/* PrivateData=jobs set by a reconfiguration after the last status
	 * was kept: nothing until the next one (within STATUS_PERIOD) rather
	 * than its job ids */
	if (remote_status && (remote_private || !_jobs_private()))
		pair->value = xstrdup(remote_status);
	else
		pair->value = xstrdup("null");
	slurm_mutex_unlock(&status_mutex);
	list_append(pairs, pair);
	list_append(pairs, _sites_pair());
	list_append(pairs, _timers_pair());
}

/*
 * The full status, for coalloc-status --file on this host.  Under
 * PrivateData=jobs only SlurmUser (and root) may read it: it holds the
 * job ids the public form leaves out.  A new file each time (a leftover
 * .new would keep its mode), renamed over the last.
 */
static int _write_file(const char *path, json_object *root, bool private_jobs)
{
	int flags = JSON_TEXT_FLAGS;
	char *tmp = xstrdup_printf("%s.new", path);
	int fd, rc = -1;

	(void) unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  private_jobs ? 0600 : 0644);
	if (fd >= 0) {
		rc = json_object_to_fd(fd, root, flags);
		if (close(fd))
			rc = -1;
		if (!rc)
			rc = rename(tmp, path);
	}
	xfree(tmp);
	return rc;
}

static void _write_status(void)
{
	char *path = NULL;
	bool private_jobs = false;
	json_object *root = _snapshot(&path, &private_jobs);

	if (_write_file(path, root, private_jobs))
		error("%s: cannot write %s: %m", plugin_type, path);
	_keep_remote(root, private_jobs);
	json_object_put(root);
	xfree(path);
}

/* One step of the thread, timed (timers.c). */
static void _timed(void (*step)(void), enum coalloc_timer timer)
{
	struct coalloc_timer_start t0 = coalloc_timer_start();

	step();
	coalloc_timer_add(timer, &t0);
}

/* Whether the status changed since the last file; clears it. */
static bool _take_dirty(void)
{
	bool was;

	slurm_mutex_lock(&status_mutex);
	was = dirty;
	dirty = false;
	slurm_mutex_unlock(&status_mutex);
	return was;
}

/* Reasons at once when due; the queues' sync and the status file every
 * STATUS_PERIOD. */
static void *_writer_main(void *arg)
{
	struct coalloc_worker *w = arg;
	time_t next_write = 0;

	slurm_mutex_lock(&w->mutex);
	while (!w->stopping) {
		struct timespec until = { .tv_sec = next_write };
		bool reasons, tick;

		if (time(NULL) < next_write && !coalloc_worker_wait(w, &until))
			break;
		reasons = coalloc_worker_take_kick(w);
		tick = time(NULL) >= next_write;
		if (tick)
			next_write = time(NULL) + STATUS_PERIOD;
		slurm_mutex_unlock(&w->mutex);
		if (reasons)
			_restore_reasons();
		if (tick) {	/* may mark the status dirty */
			_sync_queues();
			coalloc_state_save_due();
		}
		if (tick && _take_dirty())
			_timed(_write_status, COALLOC_TIMER_STATUS);
		slurm_mutex_lock(&w->mutex);
	}
	slurm_mutex_unlock(&w->mutex);
	return NULL;
}

void coalloc_status_start(void)
{
	if (!lock_slurmctld || !unlock_slurmctld) {
		error("%s: slurmctld's lock functions are missing: no status file",
		      plugin_type);
		return;
	}
	/* the first file after the first rebuild marks it changed:
	 * slurmctld builds its tables and we restore the rows under its
	 * config write lock, which _snapshot() then waits for */
	if (!coalloc_worker_running(&writer))
		(void) _take_dirty();
	coalloc_worker_start(&writer);
}

void coalloc_status_stop(void)
{
	coalloc_worker_stop(&writer);
}
