/*
 * test_netbench.c - launcher of the netbench runs under mpirun
 * (test_netbench.sh, a TAP script).
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

#ifndef NETBENCH_PATH
#error "build with -DNETBENCH_PATH=\"path/to/netbench\""
#endif

#define SCRIPT "testsuite/unit/membus_bench/test_netbench.sh"

int main(void)
{
	if (!getenv("NETBENCH") && setenv("NETBENCH", NETBENCH_PATH, 1)) {
		perror("setenv");
		return 1;
	}
	execl("/bin/bash", "bash", SCRIPT, (char *)NULL);
	perror("exec /bin/bash " SCRIPT);
	printf("1..0 # SKIP cannot run the script\n");
	return 1;
}
