/*
 * file_replace.c - a file of StateSaveLocation written whole (the
 * plugin's state, the copy of coalloc.conf): a leaf used by state.c and
 * sites.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <unistd.h>

#include "select_coalloc.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

/*
 * Replace the file at path whole: written by write_fn to PATH.new, flushed
 * to disk and renamed, so a crash leaves the old file or the new one.
 */
int coalloc_file_replace(const char *path,
			 void (*write_fn)(FILE *fp, const void *arg),
			 const void *arg)
{
	char *tmp = xstrdup_printf("%s.new", path);
	FILE *fp = fopen(tmp, "w");
	int rc = SLURM_ERROR;

	if (!fp) {
		error("%s: cannot write %s: %m", plugin_type, tmp);
		goto fail;
	}
	write_fn(fp, arg);
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
	return rc;
}
