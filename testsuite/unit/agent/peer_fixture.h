/*
 * peer_fixture.h - what the tests of agents that talk UDP share
 * (test_membus_peers, test_gang_agent): the coschedd built beside the
 * test, a private munged (fixture.h), a run directory for the agents,
 * and munge-signing sockets on the loopback that play other hosts.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TEST_AGENT_PEER_FIXTURE_H
#define TEST_AGENT_PEER_FIXTURE_H

#include <limits.h>

#include "cosched_proto/peer.h"

struct peer_fixture {
	char coschedd[PATH_MAX];
	char run_dir[PATH_MAX];
	const char *munge_sock;
};

/* Set up for the test named name: 0, or 1 when it cannot run here (the
 * TAP skip line is printed: main returns 0). */
int peer_fixture_begin(const char *argv0, const char *name,
		       struct peer_fixture *f);
/* Stop munged, remove the run directory (kept with KEEP set). */
void peer_fixture_end(const struct peer_fixture *f);

/* A socket as NAME on a free port of 127.0.0.1, signing with f's munged;
 * a->text is NAME@127.0.0.1:PORT.  0, or -1. */
int peer_fixture_socket(const struct peer_fixture *f, const char *name,
			struct peer_ctx *c, struct peer_addr *a);

#endif
