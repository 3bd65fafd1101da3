/*
 * test_run.c - launcher of the cosched-bench runs under mpirun
 * (test_run.sh, a TAP script).
 *
 * The runs are a bash script, but 'make valgrind' runs every unit test
 * under valgrind, which would then check bash and mpirun.  This launcher
 * is what valgrind checks; it execs bash, and valgrind does not follow
 * exec by default.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifndef COSCHED_BENCH_PATH
#error "build with -DCOSCHED_BENCH_PATH=\"path/to/cosched-bench\""
#endif

int main(void)
{
	if (!getenv("COSCHED_BENCH") &&
	    setenv("COSCHED_BENCH", COSCHED_BENCH_PATH, 1)) {
		perror("setenv");
		return 1;
	}
	execl("/bin/bash", "bash", "testsuite/unit/cosched_bench/test_run.sh",
	      (char *)NULL);
	perror("exec /bin/bash testsuite/unit/cosched_bench/test_run.sh");
	printf("1..0 # SKIP cannot run the script\n");
	return 1;
}
