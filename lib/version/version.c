/*
 * version.c - the suite's version (see version.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "version/version.h"

#ifndef COALLOC_VERSION
#error "COALLOC_VERSION comes from the top-level VERSION file (lib/version/module.mk)"
#endif

const char *coalloc_version(void)
{
	return COALLOC_VERSION;
}

bool coalloc_version_wanted(int argc, char *const argv[])
{
	for (int i = 1; i < argc && argv[i]; i++) {
		if (!strcmp(argv[i], "--"))
			return false;
		if (!strcmp(argv[i], "--version"))
			return true;
	}
	return false;
}

int coalloc_version_print(const char *prog)
{
	printf("%s (" COALLOC_SUITE ") %s\n", prog, coalloc_version());
	fflush(stdout);
	return 0;
}
