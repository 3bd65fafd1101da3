/*
 * state.c - StateSaveLocation/coalloc_state: what slurmctld's own job
 * records do not say and a restart must keep, the jobs' matrix rows, the
 * active row and the queues the policy had disabled.  A line-based text
 * file, written whole to a temporary name and renamed, so a crash leaves
 * the old file or the new one.  Without it (first start, or unreadable)
 * the plugin rebuilds: running jobs first, every queue enabled.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "select_coalloc.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#define STATE_FILE "coalloc_state"
#define STATE_HEADER "# select/coalloc state 1"

int coalloc_state_save(const char *dir)
{
	char *path = xstrdup_printf("%s/%s", dir, STATE_FILE);
	char *tmp = xstrdup_printf("%s.new", path);
	FILE *fp = fopen(tmp, "w");
	int rc = SLURM_ERROR;

	if (!fp) {
		error("%s: cannot write %s: %m", plugin_type, tmp);
		goto fail;
	}
	fprintf(fp, "%s\n", STATE_HEADER);
	node_usage_save(fp);
	coalloc_queues_save(fp);
	if (fflush(fp) || fsync(fileno(fp))) {
		error("%s: cannot write %s: %m", plugin_type, tmp);
		fclose(fp);
		goto fail;
	}
	if (fclose(fp) || rename(tmp, path)) {
		error("%s: cannot write %s: %m", plugin_type, path);
		goto fail;
	}
	rc = SLURM_SUCCESS;
fail:
	xfree(tmp);
	xfree(path);
	return rc;
}

int coalloc_state_restore(const char *dir)
{
	char *path = xstrdup_printf("%s/%s", dir, STATE_FILE);
	FILE *fp = fopen(path, "r");
	char line[256];
	int n = 0, bad = 0;

	if (!fp) {
		if (errno != ENOENT)
			error("%s: cannot read %s: %m; rebuilding from the job records",
			      plugin_type, path);
		xfree(path);
		return SLURM_SUCCESS;
	}
	if (!fgets(line, sizeof(line), fp) ||
	    strncmp(line, STATE_HEADER, strlen(STATE_HEADER))) {
		error("%s: %s is not a state file of this version; rebuilding from the job records",
		      plugin_type, path);
		goto done;
	}
	while (fgets(line, sizeof(line), fp)) {
		n++;
		if (!node_usage_restore_line(line) &&
		    !coalloc_queues_restore_line(line))
			bad++;
	}
	if (bad)
		error("%s: %s: %d unreadable line(s) ignored", plugin_type,
		      path, bad);
	info("%s: restored %d line(s) of state from %s", plugin_type, n - bad,
	     path);
done:
	fclose(fp);
	xfree(path);
	return SLURM_SUCCESS;
}
