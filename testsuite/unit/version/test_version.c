/*
 * test_version.c - the suite's version string and --version
 * (lib/version/version.h): the string is the VERSION file's, --version is
 * found wherever it stands before "--", and only there, and every program
 * the suite installs, and every script of its benchmarks and harness,
 * answers it with its own name and that version.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "version/version.h"
#include "tap.h"

static char version_line[64];

static void test_string(void)
{
	FILE *f = fopen(VERSION_FILE, "r");

	if (f) {
		if (!fgets(version_line, sizeof(version_line), f))
			version_line[0] = '\0';
		fclose(f);
	}
	version_line[strcspn(version_line, "\n")] = '\0';
	ok(version_line[0] && !strcmp(coalloc_version(), version_line),
	   "the version is VERSION's: '%s' ('%s')", coalloc_version(),
	   version_line);
}

static void test_wanted(void)
{
	char *alone[] = { "prog", "--version", NULL };
	char *among[] = { "prog", "--seconds", "3", "--version", NULL };
	char *after_dashes[] = { "prog", "--", "--version", NULL };
	char *prefix[] = { "prog", "--versions", NULL };
	char *none[] = { "prog", "--help", NULL };

	ok(coalloc_version_wanted(2, alone), "--version alone");
	ok(coalloc_version_wanted(4, among), "--version among other options");
	ok(!coalloc_version_wanted(3, after_dashes), "not after --");
	ok(!coalloc_version_wanted(2, prefix), "not --versions");
	ok(!coalloc_version_wanted(2, none), "not --help");
	ok(!coalloc_version_wanted(1, none), "not with no arguments");
}

/* "PROG --version" answers "NAME (coalloc) VERSION", NAME its file's. */
static void test_program(const char *path)
{
	char cmd[4096], got[256] = "", want[256], copy[4096];
	FILE *p;
	int st;

	snprintf(copy, sizeof(copy), "%s", path);
	snprintf(want, sizeof(want), "%s (" COALLOC_SUITE ") %s",
		 basename(copy), version_line);
	snprintf(cmd, sizeof(cmd), "'%s' --version 2>&1", path);
	p = popen(cmd, "r");
	if (p && !fgets(got, sizeof(got), p))
		got[0] = '\0';
	st = p ? pclose(p) : -1;
	got[strcspn(got, "\n")] = '\0';
	ok(st == 0 && !strcmp(got, want), "%s --version: '%s' (exit %d)",
	   want, got, st);
}

static void test_programs(void)
{
	char list[] = VERSION_PROGRAMS;
	int n = 0;

	for (char *save, *prog = strtok_r(list, " ", &save); prog;
	     prog = strtok_r(NULL, " ", &save), n++)
		test_program(prog);
	ok(n >= 14, "every program checked (%d)", n);
}

int main(void)
{
	/* planned after the run: the program list is the build's */
	/* esp, a script, runs the esp-driver of this build */
	if (setenv("ESP_BIN", VERSION_BIN_DIR, 1)) {
		printf("Bail out! setenv: %s\n", strerror(errno));
		return 1;
	}
	test_string();
	test_wanted();
	test_programs();
	return done_testing();
}
