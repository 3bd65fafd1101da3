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
#include <string.h>
#include <unistd.h>

#include "select_coalloc.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#define STATE_FILE "coalloc_state"

static atomic_bool state_dirty;

void coalloc_state_changed(void)
{
	atomic_store(&state_dirty, true);
}

void coalloc_state_save_due(void)
{
	if (!COALLOC_PLUGIN_SAVES_STATE || !atomic_exchange(&state_dirty, false))
		return;
	if (coalloc_state_save(slurm_conf.state_save_location))
		atomic_store(&state_dirty, true);	/* again next time */
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
	return SLURM_SUCCESS;
}
