/*
 * cgroup.h - the cgroup helpers the node agent's mechanisms share:
 * boost.c drives the cpu controller, freeze.c the freezer.  One struct
 * cgv1 per controller and hierarchy finds the hierarchy once and says why
 * it cannot be used; the rest builds paths under its mount, creates and
 * removes our groups (CGV1_OUR_ROOT/<node>/<group>) and moves whole
 * processes between groups.
 *
 * v1 and v2.  A struct cgv1 made with CGV1_INIT is a v1 controller's own
 * hierarchy, found through libcgroup.  One made with CGV2_INIT is the
 * unified (v2) hierarchy: cgv2_set_root()'s directory, else
 * /sys/fs/cgroup when it is cgroup2, else the first cgroup2 mount of
 * /proc/self/mountinfo (a hybrid node's "unified").  The same calls work
 * on both; on v2 a group is created with the controller enabled in its
 * ancestors' cgroup.subtree_control (v2 has no cpu.weight otherwise) and
 * the process's group is the "0::" line of /proc/PID/cgroup.
 *
 * Group paths ("rel") are relative to the controller's mount and may
 * start with '/', as /proc/PID/cgroup spells them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHEDD_CGROUP_H
#define COSCHEDD_CGROUP_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define CGV1_OUR_ROOT "coschedd"	/* our groups: <it>/<node>/<group> */
#define CGV1_NODE_NAME_MAX 64
#define CGV1_MOUNT_LEN 128	/* "/sys/fs/cgroup/freezer" or the like */
#define CGV1_PROBLEM_LEN (CGV1_MOUNT_LEN + 128)

/* One controller's hierarchy; static, set up with CGV1_INIT. */
struct cgv1 {
	const char *controller;		/* "cpu", "freezer"; v2: NULL for
					 * core files only (cgroup.freeze) */
	bool unified;			/* the v2 hierarchy */
	const char *label;		/* "<label> unavailable: <problem>" */
	/* What is needed beyond a mount (mount is set); may fill problem. */
	void (*check)(struct cgv1 *cg);
	pthread_mutex_t lock;		/* the lookup runs once per process */
	bool looked;
	char mount[CGV1_MOUNT_LEN];
	char problem[CGV1_PROBLEM_LEN];	/* why it is not usable, or "" */
};

#define CGV1_INIT(ctl, what, checker) {					\
	.controller = (ctl), .label = (what), .check = (checker),	\
	.lock = PTHREAD_MUTEX_INITIALIZER }
#define CGV2_INIT(ctl, what, checker) {					\
	.controller = (ctl), .label = (what), .check = (checker),	\
	.unified = true, .lock = PTHREAD_MUTEX_INITIALIZER }

/*
 * Use dir as the v2 hierarchy (coschedd --cgroup2-root, tests: a cgroup2
 * mount of their own, or a directory tree that mimics one).  Call it
 * before the first cgv1_ready() of a v2 struct.  0, or -1 when dir is not
 * an absolute, clean path of a directory that fits.
 */
int cgv2_set_root(const char *dir);

/* Whether the v2 hierarchy is the node's own: the root was set, or
 * /sys/fs/cgroup is cgroup2 (not a hybrid node's side mount). */
bool cgv2_primary(void);

/*
 * Find the hierarchy (the first call does) and say whether it can be
 * used: 0, or -1 with "<label> unavailable: <problem>" in err (err may be
 * NULL).  The path functions below need a call that returned 0 first.
 */
int cgv1_ready(struct cgv1 *cg, char *err, size_t len);

/* mount/rel[/file] into buf.  0, or -1 when it does not fit. */
int cgv1_path(const struct cgv1 *cg, char *buf, size_t len, const char *rel,
	      const char *file);

/* The group of pid in this hierarchy (malloc'd, "/" or "/a/b"), or NULL;
 * rc (may be NULL) gets libcgroup's code for cgroup_strerror() (v2:
 * ECGOTHER). */
char *cgv1_current(const struct cgv1 *cg, pid_t pid, int *rc);

/*
 * Create group rel, parents too, with control file setting (NULL: none)
 * at value.  v2: the controller is enabled on the way (cgroup.subtree_
 * control of the root and of every ancestor of rel).  0, or -1 with a
 * message.
 */
int cgv1_create(const struct cgv1 *cg, const char *rel, const char *setting,
		uint64_t value, char *err, size_t len);

/*
 * Move a whole process (every thread) into group rel through
 * cgroup.procs: libcgroup's attach writes "tasks", which in v1 moves one
 * thread only.  Returns 0, or -1 with errno (ESRCH: it is gone).
 */
int cgv1_move(const struct cgv1 *cg, pid_t pid, const char *rel);

/* Move pid to group origin, or its deepest existing ancestor (origin may
 * have gone meanwhile, e.g. its step ended).  0; ESRCH counts as done. */
int cgv1_move_back(const struct cgv1 *cg, pid_t pid, const char *origin);

/* Remove group rel if it is empty.  0 when it is gone. */
int cgv1_remove_if_empty(const struct cgv1 *cg, const char *rel);

/*
 * Remove our group rel (CGV1_OUR_ROOT/<node>/<group>) if it is empty,
 * then its node directory if no group is left there.  0 when rel is gone.
 */
int cgv1_remove(const struct cgv1 *cg, const char *rel);

/*
 * Empty our group rel and remove it (cgv1_remove), in rounds: a process
 * forking while we move it can leave a child behind, and an exiting one
 * blocks rmdir for a moment.  Each process goes back (cgv1_move_back) to
 * the group origin(pid, arg) names.  0 when rel is gone, else -1.
 */
int cgv1_drain(const struct cgv1 *cg, const char *rel,
	       const char *(*origin)(pid_t pid, const void *arg),
	       const void *arg);

/* A node name as slurmd -N takes it (it becomes a directory name): 0, or
 * -1 with a message. */
int cgv1_check_node(const char *node, char *err, size_t len);

/*
 * Whether a group path from a state file is safe to act on as root: no
 * empty, "." or ".." component (so it stays under the mount), no
 * trailing '/'.  "/" itself is clean.
 */
bool cgv1_clean_path(const char *path);

/*
 * The length of the path component at P (up to '/' or the end) when it
 * is Slurm's name of a job's group, else 0: "job_<id>" (cgroup/v1, and
 * v2 before 26.05 or with CgroupJobIdPaths=yes), its id equal to JOB
 * unless JOB is 0; or from 26.05 on, under cgroup/v2 by default, the
 * job's SLUID ("s" and 13 characters of Crockford's base32 as Slurm
 * prints them, cgroup_v2.c).  A SLUID does not say which job: callers
 * match it only in the path of a process the job registered, where no
 * other job's group can appear above it.
 */
size_t cgv1_slurm_job_component(const char *p, uint32_t job);

#endif /* COSCHEDD_CGROUP_H */
