/*
 * state.h - the agent's state file: reading and writing it, shared by the
 * agent and its guardian (which must work when the agent is gone).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHEDD_STATE_H
#define COSCHEDD_STATE_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>

#include "boost.h"
#include "cosched/pb.h"
#include "cosched_opts/cosched_opts.h"
#include "proc.h"

/* One process of the file. */
struct state_entry {
	uint32_t job, step, uid, tick_us;
	uint64_t spin_ns;
	enum cosched_mode mode;
	struct cosched_pb_rule pb;
	struct proc_id id;
	int rank;
	bool attached;
	struct boost_saved saved;
	/* membus: how the step may have been frozen ("" not at all) */
	char freeze[16];		/* "cgroup" or "signal" */
	char freezer[1024];		/* the cgroup's directory */
};

/* Undo a membus freeze the entry records (thaw its cgroup, or SIGCONT
 * the process).  Returns 0, or -1 when that failed. */
int state_thaw(const struct state_entry *e);

/* The JSON object of saved. */
json_object *state_saved_json(const struct boost_saved *saved);

/* Write root to path atomically (temporary file, fsync, rename). */
int state_write(const char *path, json_object *root);

/*
 * Call fn for every well-formed process entry of the file at path
 * (malformed ones are skipped).  Returns the number of entries passed to
 * fn, 0 when the file does not exist, -1 when it cannot be parsed.
 */
int state_for_each(const char *path,
		   int (*fn)(const struct state_entry *e, void *arg),
		   void *arg);

#endif /* COSCHEDD_STATE_H */
