/*
 * test_sim_cli.c - launcher of the coalloc-sim command line tests
 * (test_sim_cli.sh, a TAP script).
 *
 * The tests are a bash script, but 'make valgrind' runs every unit test
 * under valgrind, which would then check bash itself (and find bash's own
 * leaks).  This launcher is what valgrind checks; it execs bash, and
 * valgrind does not follow exec by default.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifndef COALLOC_SIM_PATH
#error "build with -DCOALLOC_SIM_PATH=\"path/to/coalloc-sim\""
#endif

int main(void)
{
	if (!getenv("COALLOC_SIM") &&
	    setenv("COALLOC_SIM", COALLOC_SIM_PATH, 1)) {
		perror("setenv");
		return 1;
	}
	execl("/bin/bash", "bash", "testsuite/unit/coalloc/test_sim_cli.sh",
	      (char *)NULL);
	perror("exec /bin/bash testsuite/unit/coalloc/test_sim_cli.sh");
	printf("1..0 # SKIP cannot run the script\n");
	return 1;
}
