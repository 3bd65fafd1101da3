/*
 * freeze.c - how the node agent stops and resumes whole job steps (the
 * MemBUS mode's quanta): the cgroup v1 freezer through libcgroup (the
 * helpers of cgroup.c, shared with boost.c), cgroup v2's cgroup.freeze,
 * or SIGSTOP/SIGCONT where neither can be used.
 *
 * cgroup v2.  The same groups as v1, in the one unified hierarchy:
 * cgroup.freeze 1/0 instead of freezer.state, and the group is frozen
 * once cgroup.events reads "frozen 1".  On a Slurm v2 node a step is
 * .../job_J/step_S with slurmstepd in step_S/slurm and the tasks under
 * step_S/user; freezing step_S would stop slurmstepd too, so the group
 * frozen is step_S/user (what Slurm's own suspend freezes), and it is
 * never moved out of (Slurm tracks and limits the step there).  Elsewhere
 * our own group coschedd/<node>/<job>.<step> is used: cgroup.freeze is
 * a core file, so no controller needs enabling and v2's rule on
 * processes in inner groups is not involved.
 *
 * Which cgroup.  A group's freezer cgroup is chosen at its first
 * freeze_group_add(), from the freezer line of that process's
 * /proc/PID/cgroup.  When Slurm's proctrack/cgroup already keeps the step
 * in its own cgroup (.../job_J/step_S, possibly with task cgroups below)
 * that cgroup is used as it is: Slurm finds a step's processes by that
 * exact path, so moving them would hide them from Slurm, and the cgroup is
 * Slurm's to remove.  Otherwise the agent creates
 * coschedd/<node>/<job>.<step> and moves each added process there with
 * its live descendants that shared its cgroup (children forked later
 * inherit it), remembering where each one came from.
 *
 * Freezing.  Writing FROZEN to freezer.state only starts freezing; the
 * state reads FROZEN once every task has stopped.  A task in an
 * uninterruptible sleep can keep it FREEZING for long, so a freeze waits
 * FREEZE_WAIT_NS at most and otherwise thaws and reports failure: a
 * quantum boundary must not block the agent.  The signal mechanism waits
 * the same way until every process reads as stopped (T).
 *
 * Signals reach descendants.  Every freeze reads the process table of
 * /proc once per round (proc_tree) and stops the group's processes, all
 * processes whose parent chain leads to one of them, and every process an
 * earlier freeze stopped, each re-checked by pid and start time just
 * before (proc_signal).  A second round catches a child forked while the
 * first one ran.  Each process is recorded in the group's held set, and
 * the set persisted (the agent's state file, through the persist hook),
 * BEFORE it is stopped: a thaw, the guardian and a restarted agent then
 * continue exactly those, including a descendant whose parent exited
 * while it was stopped (reparented, no tree walk from the step finds it).
 * If the set cannot be persisted the freeze fails and thaws.
 *
 * Destroy thaws, moves the processes back to their original cgroups (a
 * process we did not move, such as a child forked inside ours, goes where
 * the group member it descends from came from), and removes our cgroup.
 *
 * freeze_thaw_path() needs no state of this file: the guardian and a
 * restarted agent thaw from a path in the state file alone.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/magic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include <libcgroup.h>

#include "host/cgroup.h"
#include "freeze.h"
#include "freeze_internal.h"
#include "num/errbuf.h"

const char *freeze_kind_name(enum freeze_kind kind)
{
	switch (kind) {
	case FREEZE_AUTO:
		return "auto";
	case FREEZE_CGROUP:
		return "cgroup";
	case FREEZE_SIGNAL:
		return "signal";
	case FREEZE_CGROUP2:
		return "cgroup2";
	}
	return "unknown";
}

/* ------------------------------------------------------------ public */

struct freeze_group *freeze_group_create(const char *node, uint32_t job,
					 uint32_t step, enum freeze_kind want,
					 char *err, size_t len)
{
	struct freeze_group *g;

	if (cgv1_check_node(node, err, len))
		return NULL;
	if (want != FREEZE_AUTO && want != FREEZE_CGROUP &&
	    want != FREEZE_SIGNAL && want != FREEZE_CGROUP2) {
		errbuf_set(err, len, "unknown freeze mechanism %d",
				(int)want);
		return NULL;
	}
	if ((want == FREEZE_CGROUP || want == FREEZE_CGROUP2) &&
	    cgv1_ready(frz_hierarchy(want), err, len))
		return NULL;
	g = calloc(1, sizeof(*g));
	if (!g) {
		errbuf_set(err, len, "out of memory");
		return NULL;
	}
	g->kind = freeze_resolve(want);
	g->cg = frz_hierarchy(g->kind);
	snprintf(g->node, sizeof(g->node), "%s", node);
	g->job = job;
	g->step = step;
	return g;
}

enum freeze_kind freeze_group_kind(const struct freeze_group *g)
{
	return g->kind;
}

const char *freeze_group_path(const struct freeze_group *g)
{
	return g->path;
}

bool freeze_group_frozen(const struct freeze_group *g)
{
	return g->frozen;
}

void freeze_group_set_persist(struct freeze_group *g, int (*persist)(void *),
			      void *arg)
{
	g->persist = persist;
	g->persist_arg = arg;
}

const struct proc_id *freeze_group_held(const struct freeze_group *g,
					size_t *n)
{
	*n = g->held.n;
	return g->held.ids;
}

int freeze_group_add(struct freeze_group *g, const struct proc_id *id)
{
	if (!g || !id || !proc_alive(id))
		return -1;
	if (frz_is_cgroup(g))
		return frz_cgroup_add(g, id);
	if (frz_member_add(g, id, NULL))
		return -1;
	/* Stopping the whole group again is harmless for those stopped. */
	if (g->frozen && frz_signal_freeze(g)) {
		g->frozen = false;
		return -1;
	}
	return 0;
}

int freeze_group_freeze(struct freeze_group *g)
{
	int rc;

	if (!g)
		return -1;
	if (g->frozen)
		return 0;
	rc = frz_is_cgroup(g) ? frz_cgroup_freeze(g) : frz_signal_freeze(g);
	g->frozen = !rc;
	return rc;
}

int freeze_group_thaw(struct freeze_group *g)
{
	if (!g)
		return -1;
	if (!g->frozen)
		return 0;
	g->frozen = false;
	return frz_is_cgroup(g) ? frz_cgroup_thaw(g) : frz_signal_thaw(g);
}

void freeze_group_destroy(struct freeze_group *g)
{
	if (!g)
		return;
	if (frz_is_cgroup(g))
		frz_cgroup_destroy(g);
	else if (g->frozen)
		frz_signal_thaw(g);
	for (size_t i = 0; i < g->nmembers; i++)
		free(g->members[i].origin);
	free(g->members);
	free(g->held.ids);
	free(g);
}

int freeze_thaw_path(const char *dir)
{
	struct statfs fs;

	/* The path may come from a state file: only a cgroup's directory,
	 * thawed as its file system (v1 or v2) says. */
	if (!dir || dir[0] != '/' || !cgv1_clean_path(dir) || statfs(dir, &fs) ||
	    (fs.f_type != CGROUP_SUPER_MAGIC && fs.f_type != CGROUP2_SUPER_MAGIC))
		return -1;
	return frz_state_write(dir, fs.f_type == CGROUP2_SUPER_MAGIC, false);
}

/* freeze_sweep in one hierarchy. */
static int _sweep(struct cgv1 *cg, const char *node)
{
	char rel[PATH_MAX], dir[PATH_MAX];
	struct dirent *e;
	int removed = 0;
	DIR *d;

	if (cgv1_ready(cg, NULL, 0))
		return 0;
	snprintf(rel, sizeof(rel), "%s/%s", CGV1_OUR_ROOT, node);
	if (cgv1_path(cg, dir, sizeof(dir), rel, NULL) ||
	    !(d = opendir(dir)))
		return 0;
	while ((e = readdir(d))) {
		char group[PATH_MAX];

		if (e->d_type != DT_DIR || e->d_name[0] == '.')
			continue;
		if (snprintf(group, sizeof(group), "%s/%s", rel, e->d_name) >=
		    (int)sizeof(group))
			continue;
		if (!cgv1_remove(cg, group))
			removed++;
	}
	closedir(d);
	return removed;
}

int freeze_sweep(const char *node)
{
	if (cgv1_check_node(node, NULL, 0))
		return 0;
	/* v2 only where it would be used: probing it makes a group */
	return _sweep(&frz_freezer, node) +
	       (freeze_resolve(FREEZE_AUTO) == FREEZE_CGROUP2 ?
		_sweep(&frz_freezer2, node) : 0);
}
