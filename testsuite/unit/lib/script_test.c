/*
 * script_test.c - the one launcher of the unit tests written as bash TAP
 * scripts: BUILD/tests/DIR/NAME.t execs bash on testsuite/unit/DIR/NAME.sh
 * (prove runs from the repository root) with COALLOC_BUILD=BUILD, so the
 * script runs the programs of its own build mode (build/release,
 * build/debug).
 *
 * 'make valgrind' runs every unit test under valgrind, which would then
 * check bash and mpirun; this launcher is what it checks (valgrind does
 * not follow exec by default).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *_last(const char *s, const char *part)
{
	const char *found = NULL;

	for (const char *p = s; (p = strstr(p, part)); p++)
		found = p;
	return found;
}

int main(int argc, char **argv)
{
	const char *self = argc > 0 ? argv[0] : "", *tests, *dot;
	char build[PATH_MAX], script[PATH_MAX];

	tests = _last(self, "/tests/");
	dot = _last(self, ".t");
	if (!tests || !dot || dot[2] || dot < tests ||
	    (size_t)(tests - self) >= sizeof(build)) {
		printf("1..0 # SKIP %s is not BUILD/tests/DIR/NAME.t\n", self);
		return 1;
	}
	snprintf(build, sizeof(build), "%.*s", (int)(tests - self), self);
	snprintf(script, sizeof(script), "testsuite/unit/%.*s.sh",
		 (int)(dot - tests - 7), tests + 7);
	if (setenv("COALLOC_BUILD", build, 1)) {
		perror("setenv");
		return 1;
	}
	execl("/bin/bash", "bash", script, (char *)NULL);
	perror(script);
	printf("1..0 # SKIP cannot run %s\n", script);
	return 1;
}
