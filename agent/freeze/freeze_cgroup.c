/*
 * freeze_cgroup.c - freezing a step in a freezer cgroup: the cgroup v1
 * freezer (freezer.state, through libcgroup) or cgroup v2's
 * cgroup.freeze, the processes moved in and back (freeze.c says how).
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

/* ------------------------------------------------------------ cgroup fs */

/*
 * A child of the mount we can make and remove, with the freezing file
 * (freezer.state, cgroup.freeze) writable; else missing says what.
 */
static void _probe(struct cgv1 *cg, const char *file, const char *missing)
{
	char probe[CGV1_MOUNT_LEN + 64], state[sizeof(probe) + 16];

	snprintf(probe, sizeof(probe), "%s/" OUR_ROOT "-probe.%d", cg->mount,
		 (int)getpid());
	if (mkdir(probe, 0755) && errno != EEXIST) {
		errbuf_set(cg->problem, sizeof(cg->problem),
				"cannot create a group in %s: %s", cg->mount,
				strerror(errno));
		return;
	}
	snprintf(state, sizeof(state), "%s/%s", probe, file);
	if (access(state, W_OK))
		errbuf_set(cg->problem, sizeof(cg->problem), "%s %s",
				cg->mount, missing);
	if (rmdir(probe) && !cg->problem[0])
		errbuf_set(cg->problem, sizeof(cg->problem),
				"cannot remove a group in %s: %s", cg->mount,
				strerror(errno));
}

/* The hierarchy's file system is v1's (not v2's unified one) or v2's,
 * as cg says, and a group of ours there has its freezing file. */
static void _freezer_check(struct cgv1 *cg)
{
	struct statfs fs;
	long magic = cg->unified ? CGROUP2_SUPER_MAGIC : CGROUP_SUPER_MAGIC;

	if (statfs(cg->mount, &fs) || fs.f_type != magic)
		errbuf_set(cg->problem, sizeof(cg->problem),
				"%s is not a cgroup %s hierarchy", cg->mount,
				cg->unified ? "v2" : "v1");
	else if (cg->unified)
		_probe(cg, "cgroup.freeze",
		       "has no cgroup.freeze (a kernel before 5.2?)");
	else
		_probe(cg, "freezer.state",
		       "is not a cgroup v1 freezer (no freezer.state)");
}

/* The freezer hierarchy, found once per process. */
struct cgv1 frz_freezer = CGV1_INIT("freezer", "cgroup freezer",
				    _freezer_check);

/* The unified hierarchy's freezing: core files, no controller. */
struct cgv1 frz_freezer2 = CGV2_INIT(NULL, "cgroup2 freezer",
				     _freezer_check);

bool freeze_cgroup_usable(char *why, size_t len)
{
	return !cgv1_ready(&frz_freezer, why, len);
}

/*
 * FREEZE_AUTO: v2 where it is the node's main hierarchy, else the v1
 * freezer, else a v2 mounted beside v1 (a hybrid node), else signals.
 */
enum freeze_kind freeze_resolve(enum freeze_kind want)
{
	/* v2 is probed (a group made and removed) only where it may win */
	if (want != FREEZE_AUTO)
		return want;
	if (cgv2_primary() && !cgv1_ready(&frz_freezer2, NULL, 0))
		return FREEZE_CGROUP2;
	if (!cgv1_ready(&frz_freezer, NULL, 0))
		return FREEZE_CGROUP;
	return cgv1_ready(&frz_freezer2, NULL, 0) ? FREEZE_SIGNAL :
						     FREEZE_CGROUP2;
}

const char *freeze_mechanism(enum freeze_kind kind)
{
	switch (freeze_resolve(kind)) {
	case FREEZE_CGROUP:
		return "cgroup-v1 freezer.state";
	case FREEZE_CGROUP2:
		return "cgroup-v2 cgroup.freeze";
	case FREEZE_AUTO:
	case FREEZE_SIGNAL:
		break;
	}
	return "signal";
}

void freeze_describe(enum freeze_kind want, char *buf, size_t len)
{
	enum freeze_kind kind = freeze_resolve(want);

	if (kind == FREEZE_SIGNAL && want == FREEZE_AUTO)
		snprintf(buf, len, "%s (%s unavailable: %s; %s unavailable: %s)",
			 freeze_mechanism(kind), frz_freezer2.label,
			 frz_freezer2.problem, frz_freezer.label,
			 frz_freezer.problem);
	else if (kind == FREEZE_SIGNAL)
		snprintf(buf, len, "%s (asked for)", freeze_mechanism(kind));
	else
		snprintf(buf, len, "%s in %s", freeze_mechanism(kind),
			 kind == FREEZE_CGROUP2 ? frz_freezer2.mount
						: frz_freezer.mount);
}

struct cgv1 *frz_hierarchy(enum freeze_kind kind)
{
	return kind == FREEZE_CGROUP2 ? &frz_freezer2 : &frz_freezer;
}

bool frz_is_cgroup(const struct freeze_group *g)
{
	return g->kind == FREEZE_CGROUP || g->kind == FREEZE_CGROUP2;
}

/* Whether cgroup path cur (as /proc shows it) is rel or below it. */
static bool _cg_within(const char *cur, const char *rel)
{
	size_t len = strlen(rel);

	while (*cur == '/')
		cur++;
	return !strncmp(cur, rel, len) && (cur[len] == '\0' || cur[len] == '/');
}

/* Write text to dir/file.  0 or -1. */
static int _file_write(const char *dir, const char *file, const char *text)
{
	char path[PATH_MAX];
	size_t len = strlen(text);
	ssize_t done;
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, file) >=
	    sizeof(path))
		return -1;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	done = write(fd, text, len);
	close(fd);
	return done == (ssize_t)len ? 0 : -1;
}

/* Freeze (or thaw) the group at dir of hierarchy v1 or v2.  0 or -1. */
int frz_state_write(const char *dir, bool unified, bool frozen)
{
	if (unified)
		return _file_write(dir, "cgroup.freeze", frozen ? "1" : "0");
	return _file_write(dir, "freezer.state", frozen ? "FROZEN" : "THAWED");
}

/* The start of dir/file into text (NUL-terminated).  0 or -1. */
static int _file_read(const char *dir, const char *file, char *text,
		      size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, text, len - 1);
	close(fd);
	if (n <= 0)
		return -1;
	text[n] = '\0';
	return 0;
}

/*
 * Whether the group at dir is frozen through: v1 freezer.state reads
 * FROZEN (reading it also updates the state), v2 cgroup.events has a
 * line "frozen 1".
 */
static bool _state_frozen(const char *dir, bool unified)
{
	char text[EVENTS_LEN];

	if (unified)
		return !_file_read(dir, "cgroup.events", text, sizeof(text)) &&
		       (!strncmp(text, "frozen 1\n", 9) ||
			strstr(text, "\nfrozen 1\n"));
	return !_file_read(dir, "freezer.state", text, STATE_LEN) &&
	       !strncmp(text, "FROZEN", 6);
}

/* ------------------------------------------------------------ cgroup */

int frz_cgroup_thaw(struct freeze_group *g)
{
	return g->rel[0] ? frz_state_write(g->path, g->cg->unified, false) : 0;
}

/*
 * Freeze and wait until every task is frozen.  Also after a task joined
 * a frozen group, whose state then reads FREEZING until the task stops.
 */
int frz_cgroup_freeze(struct freeze_group *g)
{
	int64_t deadline = frz_now_ns() + FREEZE_WAIT_NS;

	if (!g->rel[0])
		return 0;	/* nobody to freeze yet */
	if (frz_state_write(g->path, g->cg->unified, true))
		goto fail;
	while (!_state_frozen(g->path, g->cg->unified)) {
		if (frz_now_ns() > deadline) {
			frz_cgroup_thaw(g);
			return FREEZE_SLOW;
		}
		frz_sleep_ns(POLL_NS);
	}
	return 0;
fail:
	frz_cgroup_thaw(g);
	return -1;
}

/* Slurm's name of a step in cgroup paths: 0, batch, extern, ... */
static void _step_name(uint32_t step, char *buf, size_t len)
{
	if (step == SLURM_BATCH_SCRIPT_ID)
		snprintf(buf, len, "batch");
	else if (step == SLURM_EXTERN_CONT_ID)
		snprintf(buf, len, "extern");
	else if (step == SLURM_INTERACTIVE_STEP_ID)
		snprintf(buf, len, "interactive");
	else
		snprintf(buf, len, "%" PRIu32, step);
}

/* Whether the component before the '/' at P (within CUR) names job's
 * group: job_J, or a SLUID (cgv1_slurm_job_component). */
static bool _after_job_component(const char *cur, const char *p, uint32_t job)
{
	const char *c = p;

	while (c > cur && c[-1] != '/')
		c--;
	return c > cur && c < p &&
	       cgv1_slurm_job_component(c, job) == (size_t)(p - c);
}

/*
 * Whether cgroup path cur lies in Slurm's cgroup of step job.step
 * (.../job_J/step_S, or from 26.05 .../SLUID/step_S; step_S+C for a
 * heterogeneous component; or a task cgroup below it), the outermost
 * such group.  If so, the step's cgroup into dir (no leading '/').
 */
static bool _slurm_step_cgroup(const char *cur, uint32_t job, uint32_t step,
			       char *dir, size_t len)
{
	char needle[32], name[16];
	const char *p = cur;

	_step_name(step, name, sizeof(name));
	snprintf(needle, sizeof(needle), "/step_%s", name);
	for (; (p = strstr(p, needle)); p++) {
		const char *end = p + strlen(needle);

		if (!_after_job_component(cur, p, job))
			continue;
		if (end[0] == '+' && isdigit((unsigned char)end[1]))
			for (end++; isdigit((unsigned char)*end); end++)
				;
		if (*end == '\0' || *end == '/') {
			while (*cur == '/')
				cur++;
			return (size_t)snprintf(dir, len, "%.*s",
						(int)(end - cur), cur) < len;
		}
	}
	return false;
}

/*
 * v2: Slurm's step group g->rel keeps slurmstepd in step_S/slurm and the
 * tasks under step_S/user; the tasks' group is the one to freeze.  A
 * step without "user" (another layout) is frozen whole.  0, or -1 when
 * the path does not fit.
 */
static int _slurm_v2_user(struct freeze_group *g)
{
	char user[PATH_MAX];
	struct stat st;
	size_t len = strlen(g->rel);

	if (len + sizeof("/user") > sizeof(g->rel) ||
	    cgv1_path(g->cg, user, sizeof(user), g->rel, "user"))
		return -1;
	if (!stat(user, &st) && S_ISDIR(st.st_mode))
		memcpy(g->rel + len, "/user", sizeof("/user"));
	return 0;
}

/* Choose the group's cgroup from the first process's, creating ours. */
static int _cgroup_decide(struct freeze_group *g, const char *cur)
{
	char err[256];
	int n;

	if (_slurm_step_cgroup(cur, g->job, g->step, g->rel, sizeof(g->rel))) {
		g->ours = false;
		if (g->cg->unified && _slurm_v2_user(g))
			goto fail;
	} else {
		n = snprintf(g->rel, sizeof(g->rel),
			     OUR_ROOT "/%s/%" PRIu32 ".%" PRIu32, g->node,
			     g->job, g->step);
		if (n < 0 || (size_t)n >= sizeof(g->rel) ||
		    cgv1_create(g->cg, g->rel, NULL, 0, err, sizeof(err)))
			goto fail;
		g->ours = true;
	}
	if (cgv1_path(g->cg, g->path, sizeof(g->path), g->rel, NULL))
		goto fail;
	return 0;
fail:
	g->rel[0] = g->path[0] = '\0';
	return -1;
}

static bool _member_known(const struct freeze_group *g,
			  const struct proc_id *id)
{
	for (size_t i = 0; i < g->nmembers; i++)
		if (g->members[i].id.pid == id->pid &&
		    g->members[i].id.start_ticks == id->start_ticks)
			return true;
	return false;
}

/* Record id (once: an origin recorded first is kept). */
int frz_member_add(struct freeze_group *g, const struct proc_id *id,
		   const char *origin)
{
	struct member *m;

	if (_member_known(g, id))
		return 0;
	if (g->nmembers == g->cap) {
		size_t more = g->cap ? 2 * g->cap : 8;
		void *grown = realloc(g->members, more * sizeof(*g->members));

		if (!grown)
			return -1;
		g->members = grown;
		g->cap = more;
	}
	m = &g->members[g->nmembers];
	m->id = *id;
	m->origin = NULL;
	if (origin && !(m->origin = strdup(origin)))
		return -1;
	g->nmembers++;
	return 0;
}

/*
 * Move id into our group and record it with origin.  0, or -1 when it
 * could not be moved (it may have exited).
 */
static int _cgroup_move_in(struct freeze_group *g, const struct proc_id *id,
			   const char *origin)
{
	if (!proc_alive(id) || cgv1_move(g->cg, id->pid, g->rel))
		return -1;
	if (frz_member_add(g, id, origin)) {
		/* Cannot remember where it came from: undo. */
		cgv1_move(g->cg, id->pid, origin);
		return -1;
	}
	return 0;
}

/*
 * The live descendants of id that still share its original cgroup
 * follow it, in rounds (a fork racing with a move leaves the child in
 * the old group).  Returns 0, or -1 when one could not be moved.
 */
static int _cgroup_move_descendants(struct freeze_group *g,
				    const struct proc_id *id,
				    const char *origin)
{
	int rc = 0;

	for (int round = 0; round < MOVE_ROUNDS; round++) {
		struct proc_id *tree;
		size_t n;
		int moved = 0;

		if (proc_tree(id, 1, &tree, &n))
			return -1;
		for (size_t i = 0; i < n; i++) {
			char *cur;

			if (tree[i].pid == id->pid)
				continue;
			cur = cgv1_current(g->cg, tree[i].pid, NULL);
			if (cur && !strcmp(cur, origin)) {
				if (_cgroup_move_in(g, &tree[i], origin) &&
				    proc_alive(&tree[i]))
					rc = -1;
				moved++;
			}
			free(cur);
		}
		free(tree);
		if (!moved)
			break;
	}
	return rc;
}

int frz_cgroup_add(struct freeze_group *g, const struct proc_id *id)
{
	char *cur = cgv1_current(g->cg, id->pid, NULL);
	char slurm_dir[PATH_MAX];
	bool decided_now = false;
	int rc = -1;

	if (!cur)
		goto out;
	if (!g->rel[0]) {
		if (_cgroup_decide(g, cur))
			goto out;
		decided_now = true;
	}
	if (_cg_within(cur, g->rel)) {
		rc = frz_member_add(g, id, NULL);	/* already in it */
		goto frozen;
	}
	/*
	 * Never into Slurm's cgroup (not ours to fill), nor out of it (Slurm
	 * would lose the process), nor out of another group of ours (its
	 * origin would be lost).
	 */
	if (!g->ours ||
	    _slurm_step_cgroup(cur, g->job, g->step, slurm_dir,
			       sizeof(slurm_dir)) ||
	    _cg_within(cur, OUR_ROOT))
		goto out;
	if (_cgroup_move_in(g, id, cur))
		goto out;
	rc = _cgroup_move_descendants(g, id, cur);
frozen:
	/* A task moved into a frozen group freezes; wait until it has. */
	if (g->frozen && frz_cgroup_freeze(g)) {
		g->frozen = false;
		rc = -1;
	}
out:
	/* A first process that could not join leaves no group behind. */
	if (decided_now && !g->nmembers) {
		if (g->ours)
			cgv1_remove_if_empty(g->cg, g->rel);
		g->rel[0] = g->path[0] = '\0';
	}
	free(cur);
	return rc;
}

/*
 * Where a process left in our group goes: the origin of the member it
 * descends from, else that of the first member moved, else the root.
 */
static const char *_origin_for(pid_t pid, const void *group)
{
	const struct freeze_group *g = group;
	const char *fallback = NULL;

	for (size_t i = 0; i < g->nmembers; i++) {
		const struct member *m = &g->members[i];

		if (!m->origin)
			continue;
		if (proc_alive(&m->id) &&
		    proc_descends_from(pid, m->id.pid) == 1)
			return m->origin;
		if (!fallback)
			fallback = m->origin;
	}
	return fallback ? fallback : "/";
}

/* The members we moved, back where each came from (if still in ours). */
static void _cgroup_return_members(struct freeze_group *g)
{
	for (size_t i = 0; i < g->nmembers; i++) {
		struct member *m = &g->members[i];
		char *cur;

		if (!m->origin || !proc_alive(&m->id))
			continue;
		cur = cgv1_current(g->cg, m->id.pid, NULL);
		if (cur && _cg_within(cur, g->rel))
			cgv1_move_back(g->cg, m->id.pid, m->origin);
		free(cur);
	}
}

void frz_cgroup_destroy(struct freeze_group *g)
{
	if (!g->rel[0])
		return;
	/* Slurm's cgroup: only undo our own freeze (Slurm suspends too). */
	if (g->ours || g->frozen)
		frz_cgroup_thaw(g);
	if (!g->ours)
		return;
	_cgroup_return_members(g);
	/* Then whatever is left (children forked inside ours, say). */
	cgv1_drain(g->cg, g->rel, _origin_for, g);
}
