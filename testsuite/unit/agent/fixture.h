/*
 * fixture.h - a private munged for the agent's tests (fixture.c),
 * started as root under a fresh /tmp directory with its own key, so the
 * tests sign and check credentials without the host's munged.  The
 * coschedd built beside a test: agent_harness.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TEST_AGENT_FIXTURE_H
#define TEST_AGENT_FIXTURE_H

/* Start it; its socket's path, or NULL (not root, no /usr/sbin/munged). */
const char *test_munged_start(void);
/* Stop it and remove its directory (harmless when it never started). */
void test_munged_stop(void);

#endif
