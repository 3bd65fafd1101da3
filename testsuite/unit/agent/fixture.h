/*
 * fixture.h - what the agent's tests that run real daemons share
 * (fixture.c): the coschedd built beside the test, and a private munged,
 * started as root under a fresh /tmp directory with its own key, so the
 * tests sign and check credentials without the host's munged.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TEST_AGENT_FIXTURE_H
#define TEST_AGENT_FIXTURE_H

#include <stddef.h>

/* The coschedd of this build, ../../../sbin/coschedd from the test at
 * argv0, into buf.  Returns 0, or -1 when it is not there. */
int test_coschedd_path(const char *argv0, char *buf, size_t len);

/* Start it; its socket's path, or NULL (not root, no /usr/sbin/munged). */
const char *test_munged_start(void);
/* Stop it and remove its directory (harmless when it never started). */
void test_munged_stop(void);

#endif
