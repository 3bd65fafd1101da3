/*
 * state.c - StateSaveLocation/coalloc_state: what slurmctld's own job
 * records do not say and a restart must keep, the jobs' matrix rows, the
 * active row and the queues the policy had disabled.  A line-based text
 * file, written whole to a temporary name and renamed, so a crash leaves
 * the old file or the new one.  Without it (first start, unreadable, or
 * corrupt: lib/coalloc/statefile.h has the format and its checks) the
 * plugin rebuilds: running jobs first, every queue enabled.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "select_coalloc.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#define STATE_FILE "coalloc_state"

static atomic_bool state_dirty;
/* Nothing is saved before the file was read back: the status thread
 * starts before slurmctld's first select_p_node_init, and an empty
 * state written then replaced the rows a restart was to restore
 * (12-matrix on 26.05). */
static atomic_bool state_restored;
/* What the file holds since the last save (the status thread's alone). */
static char *saved_text;
static size_t saved_len;

void coalloc_state_changed(void)
{
	atomic_store(&state_dirty, true);
}

static void _write_state(FILE *fp, const void *arg);

static void _write_text(FILE *fp, const void *arg)
{
	fwrite(arg, 1, saved_len, fp);
}

/*
 * From 25.05 on, every STATUS_PERIOD: the state as text, written when it
 * differs from the file's.  Compared rather than trusted to a mark: an
 * engine pass may disable or enable a queue without a grant, and a
 * change left unmarked kept a stale file; slurmctld re-executes itself
 * at every reconfigure, and the stale queues held a starving job for
 * good (09-policies on 26.05).  A mark saves at once, unchanged or not.
 */
void coalloc_state_save_due(void)
{
	char *text = NULL, *path;
	size_t len = 0;
	FILE *mem;
	bool marked;

	if (!COALLOC_PLUGIN_SAVES_STATE || !atomic_load(&state_restored))
		return;
	marked = atomic_exchange(&state_dirty, false);
	if (!(mem = open_memstream(&text, &len))) {
		atomic_store(&state_dirty, true);
		return;
	}
	_write_state(mem, NULL);
	fclose(mem);
	if (!marked && saved_text && len == saved_len &&
	    !memcmp(text, saved_text, len)) {
		free(text);
		return;
	}
	free(saved_text);
	saved_text = text;
	saved_len = len;
	path = xstrdup_printf("%s/%s", slurm_conf.state_save_location,
			      STATE_FILE);
	if (coalloc_file_replace(path, _write_text, saved_text)) {
		free(saved_text);	/* again next time */
		saved_text = NULL;
	}
	xfree(path);
}


static void _write_state(FILE *fp, const void *arg)
{
	(void) arg;
	fprintf(fp, "%s\n", COALLOC_STATEFILE_HEADER);
	node_usage_save(fp);
	coalloc_queues_save(fp);
}

int coalloc_state_save(const char *dir)
{
	char *path = xstrdup_printf("%s/%s", dir, STATE_FILE);
	int rc = coalloc_file_replace(path, _write_state, NULL);

	xfree(path);
	return rc;
}

/* The whole file at path into a malloc'd buffer (*len bytes), or NULL. */
static char *_read(FILE *fp, size_t *len)
{
	size_t cap = 4096;
	char *buf = xmalloc(cap);

	*len = 0;
	for (;;) {
		*len += fread(buf + *len, 1, cap - *len, fp);
		if (ferror(fp)) {
			xfree(buf);
			return NULL;
		}
		if (feof(fp))
			return buf;
		cap *= 2;
		xrealloc(buf, cap);
	}
}

/*
 * The saved rows and queues, or nothing: a file that is not wholly ours
 * is logged and ignored (no job is lost, slurmctld's own records keep
 * them; only their rows and the disabled queues are rebuilt).
 */
int coalloc_state_restore(const char *dir)
{
	char *path = xstrdup_printf("%s/%s", dir, STATE_FILE);
	FILE *fp = fopen(path, "r");
	struct coalloc_statefile st = { .jobs = NULL };
	char err[256], *text;
	size_t len;

	if (!fp) {
		if (errno != ENOENT)
			error("%s: cannot read %s: %m; rebuilding from the job records",
			      plugin_type, path);
		xfree(path);
		atomic_store(&state_restored, true);
		return SLURM_SUCCESS;
	}
	text = _read(fp, &len);
	if (!text)
		error("%s: cannot read %s: %m; rebuilding from the job records",
		      plugin_type, path);
	else if (coalloc_statefile_parse(text, len, &st, err, sizeof(err)))
		error("%s: %s %s: state file rejected; rebuilding from the job records",
		      plugin_type, path, err);
	else {
		node_usage_restore(&st);
		coalloc_queues_restore(&st);
		info("%s: restored %zu job row(s) and %zu disabled queue(s) from %s",
		     plugin_type, st.njobs, st.nqueues, path);
	}
	coalloc_statefile_free(&st);
	xfree(text);
	fclose(fp);
	xfree(path);
	atomic_store(&state_restored, true);
	return SLURM_SUCCESS;
}
