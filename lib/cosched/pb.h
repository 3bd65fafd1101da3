/*
 * pb.h - the Periodic Boost heuristics A-E and the fair-share variants
 * A'-E' of Zhang et al., section 4.9: which process of a node to boost.
 *
 * A process of a node is in one of four states when the mechanism looks:
 *   S1  computing or sending, no pending (unconsumed) message
 *   S2  computing or sending, at least one pending message
 *   S3  in a receive whose awaited message has arrived, not yet consumed
 *   S4  in a receive whose awaited message has not arrived (never boosted)
 * A heuristic is a priority order over groups of states:
 *   A: S3 -> {S2,S1}   B: S3 -> S2 -> S1   C: {S3,S2,S1}
 *   D: {S3,S2} -> S1   E: S2 -> S3 -> S1
 * Group by group, processes are scanned round-robin starting with the
 * current process (distance 0); the first one whose state is in the group
 * wins.  In a primed (fair-share) variant, among all processes in the
 * first non-empty group the one with the smallest CPU share (CPU time over
 * time since it started) wins; ties go to the nearest in round-robin order.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_COSCHED_PB_H
#define COALLOC_COSCHED_PB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cosched_pstate {
	COSCHED_S1 = 1,
	COSCHED_S2,
	COSCHED_S3,
	COSCHED_S4,
};
#define COSCHED_NSTATES 4	/* S1..S4, index state - 1 */

/* What the mechanism knows of one process when it looks. */
struct cosched_proc_view {
	bool in_recv;		/* inside a receive or wait call */
	bool awaited_arrived;	/* the message that receive waits for is here */
	uint32_t pending;	/* arrived, unconsumed messages */
	bool running;		/* on the CPU now (best estimate) */
	double cpu_share;	/* CPU time / time since start, 0..1 */
	bool candidate;		/* may be boosted at all (mode takes part) */
};

enum cosched_pb_heuristic {
	COSCHED_PB_A,
	COSCHED_PB_B,
	COSCHED_PB_C,
	COSCHED_PB_D,
	COSCHED_PB_E,
};

/* A heuristic as the user writes it: "D" or "D'" (fair-share). */
struct cosched_pb_rule {
	enum cosched_pb_heuristic heuristic;
	bool fair;
};

/* The result of a pick. */
struct cosched_pb_choice {
	int index;			/* the process to boost, -1 for none */
	enum cosched_pstate state;	/* its state (when index >= 0) */
	size_t distance;		/* round-robin positions from start */
};

/* The state of a process (S4 for an in-receive process still waiting). */
enum cosched_pstate cosched_pb_state(const struct cosched_proc_view *p);

/*
 * Parse "A".."E", optionally followed by "'" (case-insensitive).
 * Returns 0 or -1 with a message in err (ERRBUF_LEN is enough).
 */
int cosched_pb_parse(const char *text, struct cosched_pb_rule *rule,
		     char *err, size_t err_len);

/* "A".."E" or "A'".."E'" (static storage). */
const char *cosched_pb_name(const struct cosched_pb_rule *rule);

/*
 * Pick the process to boost among procs[0..n), scanning from index start
 * (the current process; taken modulo n).  Processes with !candidate or in
 * S4 are never chosen.  exclude (-1 for none) is skipped too: SY uses it
 * for the process that yields.  Returns choice->index (-1 when nothing is
 * eligible).
 */
int cosched_pb_pick(const struct cosched_proc_view *procs, size_t n,
		    size_t start, const struct cosched_pb_rule *rule,
		    int exclude, struct cosched_pb_choice *choice);

#endif /* COALLOC_COSCHED_PB_H */
