/*
 * client.h - talking to a node agent (coschedd) over its UNIX socket:
 * used by the cosched SPANK plugin in slurmstepd, by coschedctl and the
 * tests.  The transport only: one request line per connection, the
 * reply read until the agent closes.  What the lines say is in proto.h.
 *
 * No Slurm header (lib/cosched_proto).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHED_PROTO_CLIENT_H
#define COSCHED_PROTO_CLIENT_H

#include <stddef.h>

#define COSCHED_NODE_NAME_LEN 64

/* Where the agents' sockets, pid and state files are by default (the
 * plugin's run_dir=, coschedctl's --run-dir). */
#define COSCHED_RUN_DIR_DEFAULT "/run/coschedd"
#define COSCHED_REQUEST_LEN 512

/* Node names as slurmd -N takes them, safe in file names. */
int cosched_node_name_ok(const char *node);

/* RUN_DIR/NODE.sock into buf.  Returns 0, or -1 when it does not fit. */
int cosched_socket_path(const char *run_dir, const char *node, char *buf,
			size_t len);

/*
 * Send request (without newline) to the agent at path and read the reply
 * into reply (NUL-terminated, truncated to len - 1), within timeout_ms
 * overall: connecting (a full backlog of a stalled or flooded agent is
 * retried until then, never waited on), sending and reading the reply.
 * Returns 0, or -1 with errno set (ENOENT, ECONNREFUSED: no agent;
 * ETIMEDOUT: no whole answer in time).  Callers then run without the agent.
 */
int cosched_agent_request(const char *path, const char *request, char *reply,
		    size_t len, int timeout_ms);

/*
 * Start the agent argv[0] with argv as a daemon of its own (double fork,
 * new session, stdin/stdout/stderr on /dev/null, no other descriptor of
 * the caller), then wait up to timeout_ms overall for path to answer ping.  Another caller starting one at the
 * same time is fine: the agent takes a lock and the loser exits, while
 * both callers find the winner.  Returns 0 or -1 with a message in err.
 */
int cosched_agent_start(char *const argv[], const char *path, int timeout_ms,
			char *err, size_t err_len);

#endif /* COSCHED_PROTO_CLIENT_H */
