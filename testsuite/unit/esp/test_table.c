/*
 * test_table.c - launcher of the esp-driver table tests (test_table.sh, a
 * TAP script), so that 'make valgrind' checks this, not bash.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifndef ESP_DRIVER_PATH
#error "build with -DESP_DRIVER_PATH=\"path/to/esp-driver\""
#endif

int main(void)
{
	if (!getenv("ESP_DRIVER") &&
	    setenv("ESP_DRIVER", ESP_DRIVER_PATH, 1)) {
		perror("setenv");
		return 1;
	}
	execl("/bin/bash", "bash", "testsuite/unit/esp/test_table.sh",
	      (char *)NULL);
	perror("exec /bin/bash testsuite/unit/esp/test_table.sh");
	printf("1..0 # SKIP cannot run the script\n");
	return 0;
}
