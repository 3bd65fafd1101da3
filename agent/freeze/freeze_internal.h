/*
 * freeze_internal.h - what the files of the agent's freezing share (a
 * group's state, its process sets, the helpers): freeze.c (the interface
 * in freeze.h, and the choice of mechanism), freeze_signal.c (SIGSTOP and
 * SIGCONT) and freeze_cgroup.c (the cgroup v1 freezer and cgroup v2's
 * cgroup.freeze).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHED_AGENT_FREEZE_INTERNAL_H
#define COSCHED_AGENT_FREEZE_INTERNAL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host/cgroup.h"
#include "freeze.h"
#include "host/proc.h"

#define OUR_ROOT CGV1_OUR_ROOT	/* our groups: OUR_ROOT/<node>/<job>.<step> */
#define POLL_NS 1000000L	/* between looks at freezer.state or /proc */
#define SIGNAL_ROUNDS 4		/* /proc scans per freeze, at most */
#define MOVE_ROUNDS 4		/* descendant moves per add, at most */
#define STATE_LEN 16		/* "FREEZING\n" and the like */
#define EVENTS_LEN 256		/* cgroup.events: a few "key value" lines */
/* Slurm's step ids with names (slurm.h), as its cgroup paths spell them. */
#define SLURM_INTERACTIVE_STEP_ID 0xfffffffaU
#define SLURM_BATCH_SCRIPT_ID 0xfffffffbU
#define SLURM_EXTERN_CONT_ID 0xfffffffcU

/* A process of the group. */
struct member {
	struct proc_id id;
	char *origin;	/* its freezer cgroup before we moved it, or NULL */
};

/* A set of processes, each by pid and start time. */
struct id_set {
	struct proc_id *ids;
	size_t n;
	size_t cap;
};

struct freeze_group {
	enum freeze_kind kind;
	struct cgv1 *cg;	/* the hierarchy of FREEZE_CGROUP(2) */
	char node[CGV1_NODE_NAME_MAX + 1];
	uint32_t job;
	uint32_t step;
	bool frozen;
	bool ours;		/* we created rel (else it is Slurm's) */
	char rel[PATH_MAX];	/* its freezer cgroup, "" until the first add */
	char path[PATH_MAX];	/* its directory: mount/rel */
	struct member *members;
	size_t nmembers;
	size_t cap;
	/* signals: every process a freeze stopped or was about to stop,
	 * recorded (and persisted) before it is stopped; a thaw continues
	 * exactly these, orphans included */
	struct id_set held;
	int (*persist)(void *arg);	/* NULL: nothing to persist */
	void *persist_arg;
};

/* ---- freeze_util.c ---- */

void frz_sleep_ns(long ns);
int64_t frz_now_ns(void);
bool frz_set_has(const struct id_set *s, const struct proc_id *id);
int frz_set_add(struct id_set *s, const struct proc_id *id);

/* ---- freeze_signal.c ---- */

int frz_signal_thaw(struct freeze_group *g);
int frz_signal_freeze(struct freeze_group *g);

/* ---- freeze_cgroup.c ---- */

extern struct cgv1 frz_freezer;
extern struct cgv1 frz_freezer2;
struct cgv1 *frz_hierarchy(enum freeze_kind kind);
bool frz_is_cgroup(const struct freeze_group *g);
int frz_state_write(const char *dir, bool unified, bool frozen);
int frz_cgroup_thaw(struct freeze_group *g);
int frz_cgroup_freeze(struct freeze_group *g);
int frz_member_add(struct freeze_group *g, const struct proc_id *id,
		   const char *origin);
int frz_cgroup_add(struct freeze_group *g, const struct proc_id *id);
void frz_cgroup_destroy(struct freeze_group *g);

#endif /* COSCHED_AGENT_FREEZE_INTERNAL_H */
