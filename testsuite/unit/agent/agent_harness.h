/*
 * agent_harness.h - what the tests that run the real coschedd share: a
 * request over its socket, a spinning child, a process's cpu cgroup, a
 * free UDP port for membus.  (test_coschedd.c still has its own copies,
 * to move here.)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef AGENT_HARNESS_H
#define AGENT_HARNESS_H

#include <stddef.h>
#include <sys/types.h>

/* Send line to the agent at sock; the reply, without its last newline,
 * lands in reply.  Returns the client's result (0: answered). */
int harness_request(const char *sock, const char *line, char *reply,
		    size_t len);

/*
 * The coschedd built beside a test (BUILD/sbin/coschedd, the test being
 * BUILD/tests/agent/X.t), from the test's argv[0], into buf.  Returns 0,
 * or -1 when it is missing (skip then).
 */
int harness_coschedd_path(const char *argv0, char *buf, size_t len);

/* Start coschedd as argv (argv[0] its path) and wait until it answers
 * ping at sock, 5 s at most.  Returns its pid, or -1. */
pid_t harness_start_agent(char *const argv[], const char *sock);

/* A child spinning on a CPU (ends itself after 120 s). */
pid_t harness_spinner(void);

/* The cpu cgroup of pid as /proc shows it ("?" when unreadable); a
 * static buffer. */
const char *harness_cpu_cgroup(pid_t pid);

/* A free UDP port on loopback, or -1. */
int harness_free_udp_port(void);

#endif /* AGENT_HARNESS_H */
