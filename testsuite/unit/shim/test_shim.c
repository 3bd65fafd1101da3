/*
 * test_shim.c - launcher of the MPI shim tests (test_shim.sh, a TAP
 * script that runs ping under mpirun with libcosched_mpi.so preloaded).
 *
 * 'make valgrind' runs every unit test under valgrind, which would then
 * check bash and mpirun; this launcher is what it checks.  It execs bash
 * (valgrind does not follow exec by default) with the paths of the shim
 * and of ping of this build mode.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#if !defined(SHIM_SO_PATH) || !defined(SHIM_PING_PATH)
#error "build with -DSHIM_SO_PATH=\"...\" -DSHIM_PING_PATH=\"...\""
#endif

static int set_default(const char *name, const char *value)
{
	if (getenv(name) || !setenv(name, value, 1))
		return 0;
	perror("setenv");
	return -1;
}

int main(void)
{
	if (set_default("COSCHED_SHIM_SO", SHIM_SO_PATH) ||
	    set_default("COSCHED_SHIM_PING", SHIM_PING_PATH))
		return 1;
	execl("/bin/bash", "bash", "testsuite/unit/shim/test_shim.sh",
	      (char *)NULL);
	perror("exec /bin/bash testsuite/unit/shim/test_shim.sh");
	printf("1..0 # SKIP cannot run the script\n");
	return 1;
}
