/*
 * preload.c - slurmstepd, in each task before exec: the MPI shim in front
 * of the task's LD_PRELOAD (preload_value.h), read whatever its length.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdint.h>
#include <stdlib.h>

#include "cosched.h"
#include "preload_value.h"

/*
 * The task's LD_PRELOAD ("" when unset) into a malloc'd string:
 * spank_getenv wants a buffer, so it grows until the value fits.  NULL
 * when longer than COSCHED_PRELOAD_MAX or out of memory.
 */
static char *_task_preload(spank_t sp)
{
	for (size_t len = 4096; len <= COSCHED_PRELOAD_MAX; len *= 2) {
		char *buf = malloc(len);
		spank_err_t e;

		if (!buf)
			return NULL;
		e = spank_getenv(sp, "LD_PRELOAD", buf, (int)len);
		if (e == ESPANK_ENV_NOEXIST)
			buf[0] = '\0';
		if (e == ESPANK_SUCCESS || e == ESPANK_ENV_NOEXIST)
			return buf;
		free(buf);
		if (e != ESPANK_NOSPACE)
			return NULL;
	}
	return NULL;
}

int cosched_preload_shim(spank_t sp, const char *shim, uint32_t job)
{
	char *user = _task_preload(sp), *value = NULL;
	int rc = -1;

	if (user && !cosched_preload_value(user, shim, &value))
		rc = (!value || spank_setenv(sp, "LD_PRELOAD", value, 1) ==
				ESPANK_SUCCESS) ? 0 : -1;
	if (rc)
		slurm_error("cosched: job %u: cannot put the MPI shim in LD_PRELOAD (longer than %d bytes?): the user's LD_PRELOAD is left as it was, the tasks run without the shim",
			    job, COSCHED_PRELOAD_MAX);
	free(user);
	free(value);
	return rc;
}
