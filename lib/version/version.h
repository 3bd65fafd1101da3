/*
 * version.h - the suite's version, one string for every program and
 * plugin, from the top-level VERSION file (the Makefile passes it to
 * version.c alone, so that a new version rebuilds one object).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_VERSION_H
#define COALLOC_VERSION_H

#include <stdbool.h>

#define COALLOC_SUITE "coalloc"

/* "0.9.0" */
const char *coalloc_version(void);

/* Whether the command line asks for --version: an argument of exactly
 * that, before any "--".  Every program looks first, so that --version
 * works whatever else is given, as with GNU tools. */
bool coalloc_version_wanted(int argc, char *const argv[]);

/* Prints "PROG (coalloc) VERSION" on stdout; returns 0, the exit status. */
int coalloc_version_print(const char *prog);

#endif
