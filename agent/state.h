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

#include "boost/boost.h"
#include "cosched/pb.h"
#include "host/proc.h"
#include "cosched/mode.h"

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
	bool gang;			/* a step in gang rows */
	/* membus, gang: how the step may have been frozen ("" not at all) */
	char freeze[16];		/* "cgroup", "cgroup2" or "signal" */
	char freezer[1024];		/* the cgroup's directory (v1 or v2) */
	/* signal: the processes the step's freezes stopped (on the step's
	 * first entry only); valid during the callback */
	const struct proc_id *stopped;
	size_t nstopped;
};

/* Why a state file did not parse whole: where, and what. */
struct state_problem {
	bool corrupt;
	size_t offset;			/* byte where parsing failed */
	unsigned line;			/* its line, from 1; 0: none */
	char what[128];
};

/* Undo a membus freeze the entry records (thaw its cgroup, or SIGCONT
 * the process and every process listed as stopped, each only if its
 * start time still matches).  Returns 0, or -1 when that failed. */
int state_thaw(const struct state_entry *e);

/* The JSON object of saved. */
json_object *state_saved_json(const struct boost_saved *saved);

/* The JSON array of the processes a signal freeze stopped. */
json_object *state_stopped_json(const struct proc_id *ids, size_t n);

/* Write root to path atomically (temporary file, fsync, rename, fsync of
 * the directory).  0, or -1 with errno (ENOSPC, say). */
int state_write(const char *path, json_object *root);

/*
 * Call fn for every well-formed process entry of the file at path.  A
 * file that does not parse whole (truncated, garbage, a malformed entry)
 * is described in *problem (may be NULL) and its entries are salvaged:
 * every complete, well-formed entry object found in its text is passed
 * to fn.  Returns the number of entries passed to fn, 0 when the file
 * does not exist, -1 when it cannot be read.
 */
int state_read(const char *path,
	       int (*fn)(const struct state_entry *e, void *arg), void *arg,
	       struct state_problem *problem);

/* As state_read(), for the guardian: -1 also when the file is corrupt
 * and nothing could be salvaged. */
int state_for_each(const char *path,
		   int (*fn)(const struct state_entry *e, void *arg),
		   void *arg);

/*
 * Keep a corrupt state file for the operator: rename path to
 * path.corrupt-<UTC time> (a free name), fsync the directory.  The new
 * name into aside.  0 or -1.
 */
int state_keep_aside(const char *path, char *aside, size_t len);

#endif /* COSCHEDD_STATE_H */
