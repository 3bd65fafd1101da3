/*
 * policy.h - the co-allocation queue policies of Bucur and Epema,
 * "Priorities among Multiple Queues for Processor Co-Allocation in
 * Multicluster Systems", section 2.5.
 *
 * Naming: COALLOC_POLICY_GS is the *global-scheduler* policy (one global
 * queue).  It has nothing to do with gang scheduling, which lives in
 * matrix.h under the name "gang" (COALLOC_MATRIX_GANG).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_POLICY_H
#define COALLOC_POLICY_H

#include <stdbool.h>
#include <stddef.h>

enum coalloc_policy {
	COALLOC_POLICY_GS,	/* one global queue for every job */
	COALLOC_POLICY_LS_OR,	/* local queues only, fixed enable order */
	COALLOC_POLICY_LS_RD,	/* ... fixed order from a random start */
	COALLOC_POLICY_LS_RO,	/* ... in release order of the departing job */
	COALLOC_POLICY_LS_DO,	/* ... in the order the queues were disabled */
	COALLOC_POLICY_GP,	/* global priority: locals only if global empty */
	COALLOC_POLICY_LP_LF,	/* local priority, locals enabled first */
	COALLOC_POLICY_LP_GF,	/* local priority, global enabled first */
	COALLOC_POLICY_LP_RD,	/* local priority, random of the two */
	COALLOC_POLICY_EQ_LF,	/* equal, locals first */
	COALLOC_POLICY_EQ_GF,	/* equal, global first */
	COALLOC_POLICY_EQ_RD,	/* equal, random of the two */
	COALLOC_POLICY_LQ,	/* the longest side: global iff longer than all */
	COALLOC_POLICY_COUNT
};

/* The six families of section 2.5; the variants differ in enable order. */
enum coalloc_family {
	COALLOC_FAMILY_GS,
	COALLOC_FAMILY_LS,
	COALLOC_FAMILY_GP,
	COALLOC_FAMILY_LP,
	COALLOC_FAMILY_EQ,
	COALLOC_FAMILY_LQ,
};

/*
 * The variants of a family differ in the order in which the queues are
 * enabled after a departure (section 2.5): the engine reads it here.
 */
enum coalloc_enable_order {
	COALLOC_ENABLE_FIXED,		/* the initial order, every time */
	COALLOC_ENABLE_RANDOM_START,	/* LS-RD: the locals from a random one */
	COALLOC_ENABLE_RELEASE,		/* LS-RO: the departing job's sites
					 * first, larger components first */
	COALLOC_ENABLE_DISABLED,	/* LS-DO: in the order they were
					 * disabled, then the others */
	COALLOC_ENABLE_RANDOM_SIDE,	/* LP-RD, EQ-RD: global or locals
					 * first, at random */
};

/* One policy: a row of policy.c's table. */
struct coalloc_policy_desc {
	const char *name;			/* "LS-RO" */
	enum coalloc_family family;
	enum coalloc_enable_order enable;
	bool global_first;	/* with both kinds of queue: the global one
				 * before the locals in the initial order */
};

/* The row of a policy; NULL for a value out of range. */
const struct coalloc_policy_desc *coalloc_policy_desc(enum coalloc_policy policy);

/* Sentinel queue index of the global queue (local queues are 0..C-1). */
#define COALLOC_QUEUE_GLOBAL (-1)

/* "GS", "LS-OR", ...; NULL for a value out of range. */
const char *coalloc_policy_name(enum coalloc_policy policy);

/* Parse a name exactly as coalloc_policy_name() prints it (case-insensitive;
 * '_' accepted for '-').  Returns 0, or -EINVAL for an unknown name. */
int coalloc_policy_parse(const char *name, enum coalloc_policy *policy);

/* Every name, for messages: "GS, LS-OR, ..., EQ-RD or LQ" into buf. */
const char *coalloc_policy_list(char *buf, size_t len);

enum coalloc_family coalloc_policy_family(enum coalloc_policy policy);

/* Whether the policy has a global queue / local queues at all. */
bool coalloc_policy_has_global(enum coalloc_policy policy);
bool coalloc_policy_has_local(enum coalloc_policy policy);

/*
 * The queue a job belongs in under a policy: GS puts every job in the
 * global queue, LS every job in the local queue of its origin site, the
 * others single-component jobs locally and multi-component ones globally.
 */
int coalloc_policy_queue_for(enum coalloc_policy policy, unsigned ncomp,
			     unsigned origin_site);

#endif /* COALLOC_POLICY_H */
