/*
 * boost.c - how the node agent changes a process's share of the CPU: the
 * cgroup v1 cpu.shares mechanism (through libcgroup) and the nice one.
 *
 * Hot path.  boost_set() may run every millisecond.  For the cgroup
 * mechanism it keeps, per attached process, two open files: the process's
 * /proc/PID/stat (proc_open(), to re-check its identity) and its group's
 * cpu.shares.  Measured on the 2-core test VM (10000 calls each): opening,
 * writing and closing cpu.shares costs about 10 us, a write to a kept fd
 * 1.7 us; opening and reading /proc/PID/stat 11 us, a read of a kept fd
 * 4.6 us.  test_boost prints the whole boost_set: 7-13 us of CPU with the
 * kept files, 22-26 us the plain way.  The files live in a small cache in
 * struct boost (LRU, a miss costs the opens again); as boost_restore()
 * has no struct boost, the files of a restored process stay open until
 * evicted or boost_close(), and a cached cpu.shares of a group that was
 * removed fails to write (ENODEV), which reopens it.  (A pidfd would make
 * the identity check cheaper still, but valgrind 3.19 lacks pidfd_open.)
 *
 * Weights.  Our groups are siblings under OUR_ROOT/<node>, so cpu.shares
 * weigh the attached processes against each other; the subtree as a whole
 * competes with the rest of the root group with the default 1024.
 *
 * Moving a process.  cgroup_attach_task_pid() writes one tid to "tasks",
 * which in v1 moves that thread only; we write the pid to cgroup.procs
 * instead, which moves every thread at once.
 *
 * Restore moves everything in our group (the process, its threads and
 * any children it forked meanwhile) back to the saved cpu cgroup, then
 * removes our group.  It needs only struct boost_saved, so the guardian
 * and a restarted agent can run it from the state file.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libcgroup.h>

#include "boost.h"
#include "cosched_opts/cosched_opts.h"

#define OUR_ROOT "coschedd"	/* our groups: OUR_ROOT/<node>/<job>.<pid> */
#define NODE_NAME_MAX 64
#define SHARES_DEFAULT 1024.0	/* level 0: what a new group has anyway */
#define SHARES_MIN 2
#define SHARES_MAX 262144
#define SHARES_STEP 1.25	/* one nice step is about 1.25x weight */
#define LEVEL_LIMIT 100		/* beyond, both mechanisms are clamped */
#define NICE_MIN (-20)
#define NICE_MAX 19
#define HANDLE_SLOTS 64		/* attached processes with files kept open */
#define REMOVE_TRIES 20		/* restore: rounds of move-out and rmdir */
#define REMOVE_PAUSE_NS 2000000	/* between rounds: tasks mid-fork or exit */
#define CPU_MOUNT_LEN 128	/* "/sys/fs/cgroup/cpu" or the like */
#define AUTOGROUP_FILE "/proc/sys/kernel/sched_autogroup_enabled"

/* The open files of one process attached by the cgroup mechanism. */
struct shares_handle {
	uint64_t last_use;	/* 0: slot free */
	struct proc_id id;
	char cgroup[BOOST_CGROUP_LEN];
	int stat_fd;
	int shares_fd;
};

struct boost {
	enum boost_kind kind;
	char node[NODE_NAME_MAX + 1];
	char describe[768];
	uint64_t use_clock;
	struct shares_handle handles[HANDLE_SLOTS];
};

/* The cpu hierarchy, found once per process (restore may come first). */
static pthread_once_t _cgroup_once = PTHREAD_ONCE_INIT;
static char _cpu_mount[CPU_MOUNT_LEN];
static char _cgroup_problem[CPU_MOUNT_LEN + 128]; /* why not usable, or "" */


/* ------------------------------------------------------------ names */

const char *boost_kind_name(enum boost_kind kind)
{
	switch (kind) {
	case BOOST_AUTO:
		return "auto";
	case BOOST_CGROUP:
		return "cgroup";
	case BOOST_NICE:
		return "nice";
	}
	return "unknown";
}

int boost_kind_parse(const char *text, enum boost_kind *kind)
{
	static const enum boost_kind kinds[] = { BOOST_AUTO, BOOST_CGROUP,
						 BOOST_NICE };

	for (size_t i = 0; text && i < sizeof(kinds) / sizeof(*kinds); i++) {
		if (!strcmp(text, boost_kind_name(kinds[i]))) {
			*kind = kinds[i];
			return 0;
		}
	}
	return -1;
}

enum boost_kind boost_kind(const struct boost *b)
{
	return b->kind;
}

const char *boost_describe(const struct boost *b)
{
	return b->describe;
}

/* Node names as slurmd -N takes them; they become a directory name. */
static bool _valid_node(const char *node)
{
	size_t len = node ? strlen(node) : 0;

	if (!len || len > NODE_NAME_MAX || !strcmp(node, ".") ||
	    !strcmp(node, ".."))
		return false;
	return strspn(node, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuv"
			    "wxyz0123456789_.-") == len;
}

/*
 * Whether a cgroup path from a state file is safe to act on as root:
 * no empty, "." or ".." component, so it stays under the mount.
 */
static bool _clean_path(const char *path)
{
	const char *p = path;

	if (*p == '/')
		p++;
	if (!*p)
		return path[0] == '/';	/* "/" itself */
	while (*p) {
		size_t len = strcspn(p, "/");

		if (!len || (len == 1 && p[0] == '.') ||
		    (len == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		p += len;
		if (*p == '/' && !*++p)
			return false;	/* trailing slash */
	}
	return true;
}

static bool _valid_saved_cgroup(const struct boost_saved *saved)
{
	size_t root_len = strlen(OUR_ROOT "/");

	return memchr(saved->cpu_cgroup, '\0', BOOST_CGROUP_LEN) &&
	       memchr(saved->our_cgroup, '\0', BOOST_CGROUP_LEN) &&
	       saved->cpu_cgroup[0] == '/' && _clean_path(saved->cpu_cgroup) &&
	       !strncmp(saved->our_cgroup, OUR_ROOT "/", root_len) &&
	       strchr(saved->our_cgroup + root_len, '/') &&
	       _clean_path(saved->our_cgroup);
}

/* ------------------------------------------------------------ cgroup fs */

static void _cgroup_find(void)
{
	char *mount = NULL;
	char path[CPU_MOUNT_LEN + 16];
	int rc = cgroup_init();

	if (rc) {
		snprintf(_cgroup_problem, sizeof(_cgroup_problem),
			 "libcgroup: %s", cgroup_strerror(rc));
		return;
	}
	rc = cgroup_get_subsys_mount_point("cpu", &mount);
	if (rc || !mount) {
		snprintf(_cgroup_problem, sizeof(_cgroup_problem),
			 "no cgroup cpu controller mounted (%s)",
			 cgroup_strerror(rc));
		goto out;
	}
	if ((size_t)snprintf(_cpu_mount, sizeof(_cpu_mount), "%s", mount) >=
	    sizeof(_cpu_mount)) {
		snprintf(_cgroup_problem, sizeof(_cgroup_problem),
			 "cpu mount point path too long");
		goto out;
	}
	snprintf(path, sizeof(path), "%s/cpu.shares", _cpu_mount);
	/* cgroup v2 has cpu.weight instead, which this does not drive. */
	if (access(path, F_OK))
		snprintf(_cgroup_problem, sizeof(_cgroup_problem),
			 "%s is not a cgroup v1 cpu hierarchy (no cpu.shares)",
			 _cpu_mount);
	else if (access(_cpu_mount, W_OK))
		snprintf(_cgroup_problem, sizeof(_cgroup_problem),
			 "%s is not writable: %s", _cpu_mount,
			 strerror(errno));
out:
	free(mount);
}

/* 0 when the cpu hierarchy can be used, else -1 with the reason. */
static int _cgroup_ready(char *err, size_t len)
{
	pthread_once(&_cgroup_once, _cgroup_find);
	if (!_cgroup_problem[0])
		return 0;
	cosched_set_err(err, len, "cgroup mechanism unavailable: %s", _cgroup_problem);
	return -1;
}

/* mount/rel[/file] into buf; rel may start with '/'.  0 or -1. */
static int _cg_path(char *buf, size_t len, const char *rel, const char *file)
{
	int n;

	while (*rel == '/')
		rel++;
	n = snprintf(buf, len, "%s%s%s%s%s", _cpu_mount, *rel ? "/" : "", rel,
		     file ? "/" : "", file ? file : "");
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static bool _cg_exists(const char *rel)
{
	char path[PATH_MAX];
	struct stat st;

	return !_cg_path(path, sizeof(path), rel, NULL) && !stat(path, &st) &&
	       S_ISDIR(st.st_mode);
}

/*
 * Move a whole process (every thread) into group rel by writing its pid
 * to cgroup.procs.  Returns 0, or -1 with errno (ESRCH: it is gone).
 */
static int _cg_move(pid_t pid, const char *rel)
{
	char path[PATH_MAX], text[32];
	int fd, n, saved_errno;
	ssize_t done;

	if (_cg_path(path, sizeof(path), rel, "cgroup.procs")) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = snprintf(text, sizeof(text), "%d\n", (int)pid);
	done = write(fd, text, (size_t)n);
	saved_errno = errno;
	close(fd);
	errno = saved_errno;
	return done == n ? 0 : -1;
}

/* Create group rel in the cpu hierarchy (parents too), shares at 1024. */
static int _cg_create(const char *rel, char *err, size_t len)
{
	struct cgroup *cg = cgroup_new_cgroup(rel);
	struct cgroup_controller *cpu = cg ? cgroup_add_controller(cg, "cpu")
					   : NULL;
	int rc = -1;

	if (!cpu) {
		cosched_set_err(err, len, "cannot describe cgroup %s", rel);
		goto out;
	}
	rc = cgroup_add_value_uint64(cpu, "cpu.shares",
				     (uint64_t)SHARES_DEFAULT);
	if (!rc)
		rc = cgroup_create_cgroup(cg, 0);
	/*
	 * Once more on failure: a restore of this node (the guardian's) may
	 * have removed the node directory between libcgroup's mkdirs.
	 */
	if (rc)
		rc = cgroup_create_cgroup(cg, 0);
	if (rc) {
		cosched_set_err(err, len, "cannot create cgroup %s/%s: %s", _cpu_mount,
		     rel, cgroup_strerror(rc));
		rc = -1;
	}
out:
	cgroup_free(&cg);
	return rc;
}

/*
 * Remove group rel if it is empty.  libcgroup's CGFLAG_DELETE_EMPTY_ONLY
 * returns success for a group that still has tasks (it just leaves it),
 * so whether it is gone is checked on the file system.  0 when gone.
 */
static int _cg_remove_if_empty(const char *rel)
{
	struct cgroup *cg;

	if (!_cg_exists(rel))
		return 0;
	cg = cgroup_new_cgroup(rel);
	if (cg && cgroup_add_controller(cg, "cpu"))
		cgroup_delete_cgroup_ext(cg, CGFLAG_DELETE_EMPTY_ONLY);
	cgroup_free(&cg);
	return _cg_exists(rel) ? -1 : 0;
}

/*
 * Remove our node directory once no group is left in it.  OUR_ROOT stays:
 * the agents of all the nodes one host emulates (slurmd -N) share it, and
 * removing it would race with another agent creating its groups.
 */
static void _cgroup_remove_node_dir(const char *our)
{
	char node_dir[BOOST_CGROUP_LEN];
	char *slash;

	snprintf(node_dir, sizeof(node_dir), "%s", our);
	slash = strrchr(node_dir, '/');
	if (!slash || slash == node_dir + strlen(OUR_ROOT))
		return;	/* not OUR_ROOT/<node>/<group> */
	*slash = '\0';
	_cg_remove_if_empty(node_dir);	/* busy: others of this node remain */
}

/*
 * Move every process in group from to group to.  Returns how many were
 * listed (0: from is empty), or -1 when one could not be moved.
 */
static int _cg_move_all(const char *from, const char *to)
{
	char path[PATH_MAX];
	FILE *procs;
	int pid, listed = 0, rc = 0;

	if (_cg_path(path, sizeof(path), from, "cgroup.procs"))
		return -1;
	procs = fopen(path, "re");
	if (!procs)
		return errno == ENOENT ? 0 : -1;
	while (fscanf(procs, "%d", &pid) == 1) {
		listed++;
		/* ESRCH: it exited meanwhile, nothing left to move. */
		if (_cg_move(pid, to) && errno != ESRCH)
			rc = -1;
	}
	fclose(procs);
	return rc ? -1 : listed;
}

/* The deepest existing group on the way up from rel ("/" at worst). */
static void _cg_existing_ancestor(const char *rel, char *buf, size_t len)
{
	char *slash;

	snprintf(buf, len, "%s", rel);
	while (!_cg_exists(buf) && (slash = strrchr(buf, '/'))) {
		if (slash == buf)
			slash[1] = '\0';
		else
			*slash = '\0';
		if (!strcmp(buf, "/"))
			break;
	}
}

static void _sleep_ns(long ns)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = ns };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* ------------------------------------------------------------ levels */

static int _clamp_level(int level)
{
	return level > LEVEL_LIMIT ? LEVEL_LIMIT
	       : level < -LEVEL_LIMIT ? -LEVEL_LIMIT : level;
}

/* round(1024 * 1.25^level) in [2, 262144]. */
static uint64_t _level_shares(int level)
{
	double shares = SHARES_DEFAULT;
	int steps = _clamp_level(level);

	for (; steps > 0 && shares <= SHARES_MAX; steps--)
		shares *= SHARES_STEP;
	for (; steps < 0 && shares >= SHARES_MIN; steps++)
		shares /= SHARES_STEP;
	if (shares > SHARES_MAX)
		return SHARES_MAX;
	if (shares < SHARES_MIN)
		return SHARES_MIN;
	return (uint64_t)(shares + 0.5);
}

static int _level_nice(int own, int level)
{
	int nice = own - _clamp_level(level);

	return nice < NICE_MIN ? NICE_MIN : nice > NICE_MAX ? NICE_MAX : nice;
}

/* ------------------------------------------------------------ nice */

struct nice_walk {
	int nice;
	int failed_errno;	/* first error that is not a thread exiting */
};

static int _set_thread_nice(pid_t tid, void *arg)
{
	struct nice_walk *w = arg;

	if (setpriority(PRIO_PROCESS, (id_t)tid, w->nice) && errno != ESRCH &&
	    !w->failed_errno)
		w->failed_errno = errno;
	return 0;
}

/*
 * Every thread of id to nice.  Threads created later inherit the nice of
 * the thread that creates them, so a walk per change is enough.
 */
static int _nice_apply(const struct proc_id *id, int nice)
{
	struct nice_walk w = { .nice = nice };

	if (!proc_alive(id))
		return -1;
	if (proc_for_each_thread(id->pid, _set_thread_nice, &w) < 0 ||
	    w.failed_errno) {
		errno = w.failed_errno ? w.failed_errno : ESRCH;
		return -1;
	}
	return 0;
}

static int _nice_restore(const struct proc_id *id,
			 const struct boost_saved *saved)
{
	if (saved->nice < NICE_MIN || saved->nice > NICE_MAX)
		return -1;
	if (!proc_alive(id))
		return 0;	/* gone: nothing of it is left to put back */
	if (!_nice_apply(id, saved->nice))
		return 0;
	/* It may have exited during the walk: that is done too. */
	return proc_alive(id) ? -1 : 0;
}

/* ------------------------------------------------------------ handles */

static void _handle_drop(struct shares_handle *h)
{
	if (h->stat_fd >= 0)
		close(h->stat_fd);
	if (h->shares_fd >= 0)
		close(h->shares_fd);
	memset(h, 0, sizeof(*h));
	h->stat_fd = h->shares_fd = -1;
}

static struct shares_handle *_handle_find(struct boost *b,
					  const struct proc_id *id,
					  const char *cgroup)
{
	for (int i = 0; i < HANDLE_SLOTS; i++) {
		struct shares_handle *h = &b->handles[i];

		if (h->last_use && h->id.pid == id->pid &&
		    h->id.start_ticks == id->start_ticks &&
		    !strcmp(h->cgroup, cgroup))
			return h;
	}
	return NULL;
}

/* A free slot, else the least recently used one (its files closed). */
static struct shares_handle *_handle_slot(struct boost *b)
{
	struct shares_handle *lru = &b->handles[0];

	for (int i = 0; i < HANDLE_SLOTS; i++) {
		struct shares_handle *h = &b->handles[i];

		if (!h->last_use)
			return h;
		if (h->last_use < lru->last_use)
			lru = h;
	}
	_handle_drop(lru);
	return lru;
}

/* The open files for id in group cgroup; NULL when id is gone. */
static struct shares_handle *_handle_get(struct boost *b,
					 const struct proc_id *id,
					 const char *cgroup)
{
	struct shares_handle *h = _handle_find(b, id, cgroup);
	char path[PATH_MAX];

	if (!h) {
		h = _handle_slot(b);
		if (_cg_path(path, sizeof(path), cgroup, "cpu.shares"))
			return NULL;
		h->stat_fd = proc_open(id);
		if (h->stat_fd < 0)
			return NULL;
		h->shares_fd = open(path, O_WRONLY | O_CLOEXEC);
		if (h->shares_fd < 0) {
			_handle_drop(h);
			return NULL;
		}
		h->id = *id;
		snprintf(h->cgroup, sizeof(h->cgroup), "%s", cgroup);
	}
	h->last_use = ++b->use_clock;
	return h;
}

/* ------------------------------------------------------------ cgroup */

static int _cgroup_attach(struct boost *b, const struct proc_id *id,
			  unsigned job_id, struct boost_saved *saved,
			  char *err, size_t len)
{
	char *current = NULL;
	int rc;

	rc = cgroup_get_current_controller_path(id->pid, "cpu", &current);
	if (rc || !current) {
		cosched_set_err(err, len, "cannot read the cpu cgroup of process %d: %s",
		     (int)id->pid, cgroup_strerror(rc));
		goto fail;
	}
	/* A process already in ours has lost its original: refuse. */
	if (!strncmp(current, "/" OUR_ROOT "/", strlen(OUR_ROOT) + 2)) {
		cosched_set_err(err, len,
		     "process %d is already in cgroup %s (restore it first)",
		     (int)id->pid, current);
		goto fail;
	}
	if ((size_t)snprintf(saved->cpu_cgroup, BOOST_CGROUP_LEN, "%s",
			     current) >= BOOST_CGROUP_LEN ||
	    (size_t)snprintf(saved->our_cgroup, BOOST_CGROUP_LEN,
			     OUR_ROOT "/%s/%u.%d", b->node, job_id,
			     (int)id->pid) >= BOOST_CGROUP_LEN) {
		cosched_set_err(err, len, "cgroup path of process %d too long",
		     (int)id->pid);
		goto fail;
	}
	if (_cg_create(saved->our_cgroup, err, len))
		goto fail;
	/*
	 * The pid was checked just before; a process that exits and has its
	 * pid reused in between is beyond what the agent can rule out here.
	 */
	if (_cg_move(id->pid, saved->our_cgroup)) {
		cosched_set_err(err, len,
		     "cannot move process %d into %s/%s: %s%s", (int)id->pid,
		     _cpu_mount, saved->our_cgroup, strerror(errno),
		     errno == EINVAL ? " (real-time threads?)" : "");
		if (!_cg_remove_if_empty(saved->our_cgroup))
			_cgroup_remove_node_dir(saved->our_cgroup);
		goto fail;
	}
	free(current);
	return 0;
fail:
	free(current);
	return -1;
}

static int _cgroup_set(struct boost *b, const struct proc_id *id,
		       const struct boost_saved *saved, int level)
{
	char text[32];
	int n = snprintf(text, sizeof(text), "%llu\n",
			 (unsigned long long)_level_shares(level));

	/* saved may come from a state file: only ever write under ours. */
	if (!_handle_find(b, id, saved->our_cgroup) &&
	    !_valid_saved_cgroup(saved))
		return -1;

	for (int attempt = 0; attempt < 2; attempt++) {
		struct shares_handle *h =
			_handle_get(b, id, saved->our_cgroup);

		if (!h)
			return -1;
		if (!proc_alive_fd(h->stat_fd)) {
			_handle_drop(h);
			return -1;
		}
		if (pwrite(h->shares_fd, text, (size_t)n, 0) == n)
			return 0;
		/* Our group was removed (and maybe made again): reopen. */
		_handle_drop(h);
	}
	return -1;
}

static int _cgroup_restore(const struct proc_id *id,
			   const struct boost_saved *saved)
{
	char dest[BOOST_CGROUP_LEN];

	(void)id;	/* whatever is in our group goes back, id or not */
	if (!_valid_saved_cgroup(saved) || _cgroup_ready(NULL, 0))
		return -1;
	/* Its original group may have gone meanwhile (a step ended). */
	_cg_existing_ancestor(saved->cpu_cgroup, dest, sizeof(dest));
	/*
	 * Rounds, because a process forking while we move it can leave a
	 * child behind, and an exiting one blocks rmdir for a moment.
	 */
	for (int round = 0; round < REMOVE_TRIES; round++) {
		int moved = _cg_move_all(saved->our_cgroup, dest);

		if (moved == 0 && !_cg_remove_if_empty(saved->our_cgroup)) {
			_cgroup_remove_node_dir(saved->our_cgroup);
			return 0;
		}
		if (moved <= 0)	/* a move failed, or rmdir found it busy */
			_sleep_ns(REMOVE_PAUSE_NS);
	}
	return -1;
}

/* ------------------------------------------------------------ public */

static bool _autogroup_enabled(void)
{
	FILE *f = fopen(AUTOGROUP_FILE, "re");
	int on = 0;

	if (f) {
		if (fscanf(f, "%d", &on) != 1)
			on = 0;
		fclose(f);
	}
	return on == 1;
}

static void _describe(struct boost *b, bool auto_chosen)
{
	if (b->kind == BOOST_CGROUP) {
		snprintf(b->describe, sizeof(b->describe),
			 "cgroup: cgroup v1 cpu.shares = 1024 * 1.25^level "
			 "(2..262144) of %s/" OUR_ROOT "/%s/<job>.<pid>; "
			 "weighs attached processes against each other",
			 _cpu_mount, b->node);
		return;
	}
	snprintf(b->describe, sizeof(b->describe),
		 "nice: setpriority on every thread, nice = own nice - level "
		 "(-20..19)%s%s%s%s",
		 _autogroup_enabled()
			 ? "; kernel.sched_autogroup_enabled=1: nice only "
			   "weighs between processes of one session, so "
			   "boosts between jobs may have little effect"
			 : "",
		 geteuid() ? "; not root: levels > 0 need CAP_SYS_NICE" : "",
		 auto_chosen && _cgroup_problem[0] ? "; cgroup unavailable: "
						    : "",
		 auto_chosen ? _cgroup_problem : "");
}

struct boost *boost_open(enum boost_kind want, const char *node, char *err,
			 size_t err_len)
{
	struct boost *b;

	if (!_valid_node(node)) {
		cosched_set_err(err, err_len,
		     "bad node name '%s': want 1-%d of A-Z a-z 0-9 _ . -",
		     node ? node : "(null)", NODE_NAME_MAX);
		return NULL;
	}
	if (want != BOOST_AUTO && want != BOOST_CGROUP && want != BOOST_NICE) {
		cosched_set_err(err, err_len, "unknown boost mechanism %d", (int)want);
		return NULL;
	}
	if (want == BOOST_CGROUP && _cgroup_ready(err, err_len))
		return NULL;
	b = calloc(1, sizeof(*b));
	if (!b) {
		cosched_set_err(err, err_len, "out of memory");
		return NULL;
	}
	for (int i = 0; i < HANDLE_SLOTS; i++)
		b->handles[i].stat_fd = b->handles[i].shares_fd = -1;
	b->kind = want;
	if (want == BOOST_AUTO)
		b->kind = _cgroup_ready(NULL, 0) ? BOOST_NICE : BOOST_CGROUP;
	snprintf(b->node, sizeof(b->node), "%s", node);
	_describe(b, want == BOOST_AUTO);
	return b;
}

int boost_attach(struct boost *b, const struct proc_id *id, unsigned job_id,
		 struct boost_saved *saved, char *err, size_t err_len)
{
	int nice;

	if (!b || !id || !saved) {
		cosched_set_err(err, err_len, "boost_attach: missing argument");
		return -1;
	}
	if (!proc_alive(id)) {
		cosched_set_err(err, err_len, "process %d is gone", (int)id->pid);
		return -1;
	}
	errno = 0;
	nice = getpriority(PRIO_PROCESS, (id_t)id->pid);
	if (nice == -1 && errno) {
		cosched_set_err(err, err_len, "cannot read the nice of process %d: %s",
		     (int)id->pid, strerror(errno));
		return -1;
	}
	memset(saved, 0, sizeof(*saved));
	saved->kind = b->kind;
	saved->nice = nice;
	if (b->kind == BOOST_CGROUP)
		return _cgroup_attach(b, id, job_id, saved, err, err_len);
	return 0;
}

int boost_set(struct boost *b, const struct proc_id *id,
	      const struct boost_saved *saved, int level)
{
	if (!b || !id || !saved || saved->kind != b->kind)
		return -1;
	if (b->kind == BOOST_CGROUP)
		return _cgroup_set(b, id, saved, level);
	return _nice_apply(id, _level_nice(saved->nice, level));
}

int boost_restore(const struct proc_id *id, const struct boost_saved *saved)
{
	if (!id || !saved)
		return -1;
	switch (saved->kind) {
	case BOOST_CGROUP:
		return _cgroup_restore(id, saved);
	case BOOST_NICE:
		return _nice_restore(id, saved);
	case BOOST_AUTO:
		break;
	}
	return -1;
}

void boost_close(struct boost *b)
{
	if (!b)
		return;
	for (int i = 0; i < HANDLE_SLOTS; i++)
		_handle_drop(&b->handles[i]);
	free(b);
}
