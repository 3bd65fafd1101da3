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

#include "cgroup.h"
#include "freeze.h"
#include "num/errbuf.h"

#define OUR_ROOT CGV1_OUR_ROOT	/* our groups: OUR_ROOT/<node>/<job>.<step> */
#define FREEZE_WAIT_NS 100000000L	/* a freeze may take this long */
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



/* ------------------------------------------------------------ helpers */

static void _sleep_ns(long ns)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = ns };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int64_t _now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

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

/* ------------------------------------------------------------ id sets */

static bool _set_has(const struct id_set *s, const struct proc_id *id)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->ids[i].pid == id->pid &&
		    s->ids[i].start_ticks == id->start_ticks)
			return true;
	return false;
}

static int _set_add(struct id_set *s, const struct proc_id *id)
{
	if (s->n == s->cap) {
		size_t more = s->cap ? 2 * s->cap : 16;
		void *grown = realloc(s->ids, more * sizeof(*s->ids));

		if (!grown)
			return -1;
		s->ids = grown;
		s->cap = more;
	}
	s->ids[s->n++] = *id;
	return 0;
}

/* ------------------------------------------------------------ signals */

/* Whether id is stopped, or gone (nothing left to stop). */
static bool _stopped_or_gone(const struct proc_id *id)
{
	struct proc_brief b;

	if (proc_brief(id->pid, &b) || b.start_ticks != id->start_ticks ||
	    b.state == 'Z' || b.state == 'X' || b.state == 'x')
		return true;
	return b.state == 'T' || b.state == 't';
}

/* Wait until every process of s is stopped.  0, or -1 on timeout. */
static int _wait_stopped(const struct id_set *s)
{
	int64_t deadline = _now_ns() + FREEZE_WAIT_NS;
	size_t i = 0;

	for (;;) {
		while (i < s->n && _stopped_or_gone(&s->ids[i]))
			i++;
		if (i == s->n)
			return 0;
		if (_now_ns() > deadline)
			return -1;
		_sleep_ns(POLL_NS);
	}
}

/*
 * What a freeze stops: the live trees under the members and under what
 * the group holds (a process stays the step's once it was stopped with
 * it, even reparented, as it would stay in the step's cgroup).
 */
static int _signal_targets(const struct freeze_group *g,
			   struct proc_id **ids, size_t *n)
{
	size_t nroots = g->nmembers + g->held.n;
	struct proc_id *roots = malloc((nroots ? nroots : 1) * sizeof(*roots));
	int rc;

	if (!roots)
		return -1;
	for (size_t i = 0; i < g->nmembers; i++)
		roots[i] = g->members[i].id;
	if (g->held.n)
		memcpy(roots + g->nmembers, g->held.ids,
		       g->held.n * sizeof(*roots));
	rc = proc_tree(roots, nroots, ids, n);
	free(roots);
	return rc;
}

/*
 * Add the targets the group does not hold yet (never ourselves, should
 * the agent descend from a task), and have them persisted before any is
 * stopped.  0, or -1 (nothing added) when that failed.
 */
static int _hold(struct freeze_group *g, const struct proc_id *ids, size_t n)
{
	size_t before = g->held.n;
	pid_t self = getpid();

	for (size_t i = 0; i < n; i++) {
		if (ids[i].pid == self || _set_has(&g->held, &ids[i]))
			continue;
		if (_set_add(&g->held, &ids[i]))
			goto undo;
	}
	if (g->held.n == before || !g->persist || !g->persist(g->persist_arg))
		return 0;
undo:
	g->held.n = before;
	return -1;
}

/* SIGCONT to exactly what the group holds; forget the ones gone. */
static int _signal_thaw(struct freeze_group *g)
{
	size_t kept = 0;

	for (size_t i = 0; i < g->held.n; i++)
		if (!proc_signal(&g->held.ids[i], SIGCONT) ||
		    proc_alive(&g->held.ids[i]))
			g->held.ids[kept++] = g->held.ids[i];
	g->held.n = kept;
	return 0;
}

/*
 * One round: hold every target, then SIGSTOP those not in done, each
 * added to done.  Returns how many it stopped, or -1 when /proc was
 * unreadable or the hold could not be persisted.
 */
static int _signal_round(struct freeze_group *g, struct id_set *done)
{
	struct proc_id *ids;
	size_t n;
	int stopped = 0;

	if (_signal_targets(g, &ids, &n))
		return -1;
	if (_hold(g, ids, n)) {
		free(ids);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (ids[i].pid == getpid() || _set_has(done, &ids[i]) ||
		    proc_signal(&ids[i], SIGSTOP))
			continue;
		if (_set_add(done, &ids[i])) {
			stopped = -1;
			break;
		}
		stopped++;
	}
	free(ids);
	return stopped;
}

/*
 * Stop the group, in rounds until one finds nothing new (a process may
 * fork while a round runs; a stopped one cannot), then wait until all
 * are stopped.  On failure everything held is continued.  0 or -1.
 */
static int _signal_freeze(struct freeze_group *g)
{
	struct id_set done = { 0 };
	int rc = 0;

	for (int round = 0; round < SIGNAL_ROUNDS; round++) {
		int stopped = _signal_round(g, &done);

		if (stopped < 0)
			rc = -1;
		if (stopped <= 0)
			break;
	}
	if (!rc)
		rc = _wait_stopped(&done);
	free(done.ids);
	if (rc)
		_signal_thaw(g);
	return rc;
}

int freeze_continue_pid(const struct proc_id *id)
{
	return id ? proc_signal(id, SIGCONT) : -1;
}

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
static struct cgv1 _freezer = CGV1_INIT("freezer", "cgroup freezer",
					_freezer_check);

/* The unified hierarchy's freezing: core files, no controller. */
static struct cgv1 _freezer2 = CGV2_INIT(NULL, "cgroup2 freezer",
					 _freezer_check);

bool freeze_cgroup_usable(char *why, size_t len)
{
	return !cgv1_ready(&_freezer, why, len);
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
	if (cgv2_primary() && !cgv1_ready(&_freezer2, NULL, 0))
		return FREEZE_CGROUP2;
	if (!cgv1_ready(&_freezer, NULL, 0))
		return FREEZE_CGROUP;
	return cgv1_ready(&_freezer2, NULL, 0) ? FREEZE_SIGNAL : FREEZE_CGROUP2;
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
			 freeze_mechanism(kind), _freezer2.label,
			 _freezer2.problem, _freezer.label, _freezer.problem);
	else if (kind == FREEZE_SIGNAL)
		snprintf(buf, len, "%s (asked for)", freeze_mechanism(kind));
	else
		snprintf(buf, len, "%s in %s", freeze_mechanism(kind),
			 kind == FREEZE_CGROUP2 ? _freezer2.mount
						: _freezer.mount);
}

static struct cgv1 *_hierarchy(enum freeze_kind kind)
{
	return kind == FREEZE_CGROUP2 ? &_freezer2 : &_freezer;
}

static bool _is_cgroup(const struct freeze_group *g)
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
static int _state_write(const char *dir, bool unified, bool frozen)
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

static int _cgroup_thaw(struct freeze_group *g)
{
	return g->rel[0] ? _state_write(g->path, g->cg->unified, false) : 0;
}

/*
 * Freeze and wait until every task is frozen.  Also after a task joined
 * a frozen group, whose state then reads FREEZING until the task stops.
 */
static int _cgroup_freeze(struct freeze_group *g)
{
	int64_t deadline = _now_ns() + FREEZE_WAIT_NS;

	if (!g->rel[0])
		return 0;	/* nobody to freeze yet */
	if (_state_write(g->path, g->cg->unified, true))
		goto fail;
	while (!_state_frozen(g->path, g->cg->unified)) {
		if (_now_ns() > deadline)
			goto fail;
		_sleep_ns(POLL_NS);
	}
	return 0;
fail:
	_cgroup_thaw(g);
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

/*
 * Whether cgroup path cur lies in Slurm's cgroup of step job.step
 * (.../job_J/step_S, or step_S+C for a heterogeneous component, or a
 * task cgroup below it).  If so, the step's cgroup into dir (no leading
 * '/').
 */
static bool _slurm_step_cgroup(const char *cur, uint32_t job, uint32_t step,
			       char *dir, size_t len)
{
	char needle[64], name[16];
	const char *p = cur;

	_step_name(step, name, sizeof(name));
	snprintf(needle, sizeof(needle), "/job_%" PRIu32 "/step_%s", job, name);
	while ((p = strstr(p, needle))) {
		const char *end = p + strlen(needle);

		if (end[0] == '+' && isdigit((unsigned char)end[1]))
			for (end++; isdigit((unsigned char)*end); end++)
				;
		if (*end == '\0' || *end == '/') {
			while (*cur == '/')
				cur++;
			return (size_t)snprintf(dir, len, "%.*s",
						(int)(end - cur), cur) < len;
		}
		p++;
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
static int _member_add(struct freeze_group *g, const struct proc_id *id,
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
	if (_member_add(g, id, origin)) {
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

static int _cgroup_add(struct freeze_group *g, const struct proc_id *id)
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
		rc = _member_add(g, id, NULL);	/* already in it */
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
	if (g->frozen && _cgroup_freeze(g)) {
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

static void _cgroup_destroy(struct freeze_group *g)
{
	if (!g->rel[0])
		return;
	/* Slurm's cgroup: only undo our own freeze (Slurm suspends too). */
	if (g->ours || g->frozen)
		_cgroup_thaw(g);
	if (!g->ours)
		return;
	_cgroup_return_members(g);
	/* Then whatever is left (children forked inside ours, say). */
	cgv1_drain(g->cg, g->rel, _origin_for, g);
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
	    cgv1_ready(_hierarchy(want), err, len))
		return NULL;
	g = calloc(1, sizeof(*g));
	if (!g) {
		errbuf_set(err, len, "out of memory");
		return NULL;
	}
	g->kind = freeze_resolve(want);
	g->cg = _hierarchy(g->kind);
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
	if (_is_cgroup(g))
		return _cgroup_add(g, id);
	if (_member_add(g, id, NULL))
		return -1;
	/* Stopping the whole group again is harmless for those stopped. */
	if (g->frozen && _signal_freeze(g)) {
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
	rc = _is_cgroup(g) ? _cgroup_freeze(g) : _signal_freeze(g);
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
	return _is_cgroup(g) ? _cgroup_thaw(g) : _signal_thaw(g);
}

void freeze_group_destroy(struct freeze_group *g)
{
	if (!g)
		return;
	if (_is_cgroup(g))
		_cgroup_destroy(g);
	else if (g->frozen)
		_signal_thaw(g);
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
	return _state_write(dir, fs.f_type == CGROUP2_SUPER_MAGIC, false);
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
	return _sweep(&_freezer, node) +
	       (freeze_resolve(FREEZE_AUTO) == FREEZE_CGROUP2 ?
		_sweep(&_freezer2, node) : 0);
}
