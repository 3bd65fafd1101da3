/*
 * preload.c - slurmstepd, in each task before exec: the MPI shim in front
 * of the task's LD_PRELOAD (preload_value.h), read whatever its length,
 * unless the program links an MPI the shim cannot serve (elf_mpi.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cosched.h"
#include "cosched/elf_mpi.h"
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

/* The task's PATH into buf ("" when unset or too long: no search). */
static void _task_path(spank_t sp, char *buf, size_t len)
{
	if (spank_getenv(sp, "PATH", buf, (int)len) != ESPANK_SUCCESS)
		buf[0] = '\0';
}

/*
 * The program the task will exec, open (read-only, never blocking on a
 * FIFO): argv[0] as it is when it names a path, else the first
 * executable of that name in the task's PATH, as execvp looks.  -1: none.
 */
static int _open_program(spank_t sp, const char *prog)
{
	char path[8192], file[PATH_MAX];
	const char *dir;

	if (strchr(prog, '/'))
		return open(prog, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	_task_path(sp, path, sizeof(path));
	for (dir = path; *dir; ) {
		size_t n = strcspn(dir, ":");

		if (snprintf(file, sizeof(file), "%.*s%s%s", (int)n, dir,
			     n ? "/" : "", prog) < (int)sizeof(file) &&
		    !access(file, X_OK))
			return open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		dir += n + (dir[n] == ':');
	}
	return -1;
}

bool cosched_shim_serves_task(spank_t sp, uint32_t job)
{
	char **argv = NULL, lib[64] = "";
	enum cosched_mpi mpi = COSCHED_MPI_UNKNOWN;
	struct stat st;
	int argc = 0, fd;

	if (spank_get_item(sp, S_JOB_ARGV, &argc, &argv) != ESPANK_SUCCESS ||
	    argc < 1 || !argv || !argv[0])
		return true;
	fd = _open_program(sp, argv[0]);
	if (fd < 0)
		return true;	/* exec will say what is wrong with it */
	if (!fstat(fd, &st) && S_ISREG(st.st_mode))
		mpi = cosched_elf_mpi(fd, lib, sizeof(lib));
	close(fd);
	if (cosched_shim_serves(mpi))
		return true;
	slurm_info("cosched: job %u: %.200s links %s (MPICH): the MPI shim serves Open MPI programs; the tasks run without it",
		   job, argv[0], lib);
	return false;
}
