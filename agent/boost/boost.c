/*
 * boost.c - how the node agent changes a process's share of the CPU: the
 * cgroup v1 cpu.shares mechanism (through libcgroup), the cgroup v2
 * cpu.weight one, the nice one and the rt one (SCHED_RR; its kernel side
 * in boost_rt.c, its nice for demotions and children the nice code's).
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
 * Moving a process, creating and removing groups: agent/host/cgroup.c, shared
 * with the freezer of freeze.c.
 *
 * Where cgroup2's groups live.  v2 has one hierarchy for every
 * controller, and on a Slurm node it is the one Slurm tracks and limits
 * the step in (.../job_J/step_S/user/task_T: proctrack finds the step's
 * processes there, task/cgroup's cpuset and memory limits apply there).
 * Moving a step's process into a group of ours would hide it from Slurm
 * and lift its limits, so a process in a Slurm job's cgroup is weighed in
 * place: the cpu.weight of its own group, which must hold no process
 * but it and its descendants (Slurm's task group of one rank; a shared
 * group is refused, as two restores could leave each other's weight
 * behind), and whose parent has cpu in cgroup.subtree_control (Slurm's
 * cgroup/v2 enables the controllers it finds; we do not touch Slurm's
 * groups).  Such a weight competes with the other tasks of the step only,
 * as v2 shares the CPU between jobs by the jobs' groups first.  Any other
 * process (no cgroup proctrack) is moved into a leaf of ours,
 * <root>/coschedd/<node>/<job>.<pid>, as on v1: the intermediate groups
 * are ours and hold no process, so cpu can be enabled for their children
 * without breaking v2's rule that a group with enabled controllers has
 * processes only in its leaves.
 *
 * Restore moves everything in our group (the process, its threads and
 * any children it forked meanwhile) back to the saved cpu cgroup, then
 * removes our group.  Under nice a child forked while boosted inherits
 * the boosted nice and sits in no group of ours: saved->nice_set records
 * every nice boost_set() gave (persisted through the agent's hook before
 * a new one is given), and restore puts back the threads of the job's
 * descendants whose nice is one of them.  It needs only struct
 * boost_saved, so the guardian and a restarted agent can run it from the
 * state file.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <libcgroup.h>

#include "boost.h"
#include "boost_rt.h"
#include "host/cgroup.h"
#include "cosched_proto/boost_names.h"
#include "num/errbuf.h"

#define OUR_ROOT CGV1_OUR_ROOT	/* our groups: OUR_ROOT/<node>/<job>.<pid> */
#define SHARES_DEFAULT 1024.0	/* level 0: what a new group has anyway */
#define SHARES_MIN 2
#define SHARES_MAX 262144
#define SHARES_STEP 1.25	/* one nice step is about 1.25x weight */
/* cgroup v2: cpu.weight 100 is the kernel's weight of 1024 shares */
#define WEIGHT_DEFAULT 100
#define WEIGHT_MIN 1
#define WEIGHT_MAX 10000
#define LEVEL_LIMIT 100		/* beyond, both mechanisms are clamped */
#define NICE_MIN (-20)
#define NICE_MAX 19
#define HANDLE_SLOTS 64		/* attached processes with files kept open */
#define AUTOGROUP_FILE "/proc/sys/kernel/sched_autogroup_enabled"

/* The open files of one process attached by the cgroup mechanism. */
struct shares_handle {
	uint64_t last_use;	/* 0: slot free */
	struct proc_id id;
	char cgroup[BOOST_CGROUP_LEN];
	int stat_fd;
	int shares_fd;		/* cpu.shares, or cpu.weight for cgroup2 */
};

struct boost {
	enum boost_kind kind;
	int (*persist)(void *arg);	/* before a new nice value is given */
	void *persist_arg;
	char node[CGV1_NODE_NAME_MAX + 1];
	char describe[1280];
	uint64_t use_clock;
	struct shares_handle handles[HANDLE_SLOTS];
};


/* ------------------------------------------------------------ names */

/* The names live in lib/cosched_proto/boost_names.h, in enum order. */
const char *boost_kind_name(enum boost_kind kind)
{
	const char *name = cosched_boost_name((unsigned)kind);

	return name ? name : "unknown";
}

int boost_kind_parse(const char *text, enum boost_kind *kind)
{
	int i = cosched_boost_index(text);

	if (i < 0)
		return -1;
	*kind = (enum boost_kind)i;
	return 0;
}

enum boost_kind boost_kind(const struct boost *b)
{
	return b->kind;
}

const char *boost_describe(const struct boost *b)
{
	return b->describe;
}

const char *boost_mechanism(const struct boost *b)
{
	switch (b->kind) {
	case BOOST_CGROUP:
		return "cgroup-v1 cpu.shares";
	case BOOST_CGROUP2:
		return "cgroup-v2 cpu.weight";
	case BOOST_RT:
		return "SCHED_RR";
	case BOOST_NICE:
	case BOOST_AUTO:
		break;
	}
	return "nice";
}

/* Whether a cgroup path lies in a Slurm job's group (a "job_<digits>"
 * or, from 26.05, a SLUID component): its processes are weighed in
 * place on v2. */
static bool _in_slurm_job(const char *path)
{
	for (const char *p = path; (p = strchr(p, '/')); )
		if (cgv1_slurm_job_component(++p, 0))
			return true;
	return false;
}

/* A cgroup2 in-place record from a state file: a Slurm job's group. */
static bool _valid_in_place(const struct boost_saved *saved)
{
	return memchr(saved->cpu_cgroup, '\0', BOOST_CGROUP_LEN) &&
	       saved->cpu_cgroup[0] == '/' && !saved->our_cgroup[0] &&
	       cgv1_clean_path(saved->cpu_cgroup) &&
	       _in_slurm_job(saved->cpu_cgroup) &&
	       saved->weight >= WEIGHT_MIN && saved->weight <= WEIGHT_MAX;
}

/* The group whose weight boost_set() writes. */
static const char *_weighed_group(const struct boost_saved *saved)
{
	return saved->weight ? saved->cpu_cgroup : saved->our_cgroup;
}

static bool _valid_saved_cgroup(const struct boost_saved *saved)
{
	size_t root_len = strlen(OUR_ROOT "/");

	return memchr(saved->cpu_cgroup, '\0', BOOST_CGROUP_LEN) &&
	       memchr(saved->our_cgroup, '\0', BOOST_CGROUP_LEN) &&
	       saved->cpu_cgroup[0] == '/' &&
	       cgv1_clean_path(saved->cpu_cgroup) &&
	       !strncmp(saved->our_cgroup, OUR_ROOT "/", root_len) &&
	       strchr(saved->our_cgroup + root_len, '/') &&
	       cgv1_clean_path(saved->our_cgroup);
}

/* ------------------------------------------------------------ cgroup fs */

/* A v1 cpu hierarchy we may write to. */
static void _cpu_check(struct cgv1 *cg)
{
	char path[CGV1_MOUNT_LEN + 16];

	snprintf(path, sizeof(path), "%s/cpu.shares", cg->mount);
	/* cgroup v2 has cpu.weight instead, which this does not drive. */
	if (access(path, F_OK))
		errbuf_set(cg->problem, sizeof(cg->problem),
				"%s is not a cgroup v1 cpu hierarchy "
				"(no cpu.shares)",
				cg->mount);
	else if (access(cg->mount, W_OK))
		errbuf_set(cg->problem, sizeof(cg->problem),
				"%s is not writable: %s", cg->mount,
				strerror(errno));
}

/* The cpu hierarchy, found once per process (restore may come first). */
static struct cgv1 _cpu = CGV1_INIT("cpu", "cgroup mechanism", _cpu_check);

/* A v2 hierarchy with the cpu controller (not bound to v1). */
static void _cpu2_check(struct cgv1 *cg)
{
	char path[CGV1_MOUNT_LEN + 32], list[256] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.controllers", cg->mount);
	f = fopen(path, "re");
	if (f) {
		if (!fgets(list, sizeof(list), f))
			list[0] = '\0';
		fclose(f);
	}
	list[strcspn(list, "\n")] = '\0';
	for (char *save = NULL, *w = strtok_r(list, " ", &save); w;
	     w = strtok_r(NULL, " ", &save))
		if (!strcmp(w, "cpu"))
			return;
	errbuf_set(cg->problem, sizeof(cg->problem),
			"no cpu controller in %s (bound to a v1 hierarchy?)",
			path);
}

static struct cgv1 _cpu2 = CGV2_INIT("cpu", "cgroup2 mechanism",
				     _cpu2_check);

static struct cgv1 *_hierarchy(enum boost_kind kind)
{
	return kind == BOOST_CGROUP2 ? &_cpu2 : &_cpu;
}

static bool _is_cgroup_kind(enum boost_kind kind)
{
	return kind == BOOST_CGROUP || kind == BOOST_CGROUP2;
}

/* Where a process left in our group goes back to: the saved group. */
static const char *_saved_origin(pid_t pid, const void *saved_cpu_cgroup)
{
	(void)pid;
	return saved_cpu_cgroup;
}

/* ------------------------------------------------------------ levels */

/*
 * cgroup v2's cpu.weight for v1's cpu.shares, as the kernel weighs them:
 * both become the scheduler weight weight * 1024 / 100 = shares, so
 * round(shares * 100 / 1024), clamped to 1..10000.  Proportional, so
 * ratios between weights are those between the shares (level 0: 100).
 */
static uint64_t _shares_to_weight(uint64_t shares)
{
	uint64_t weight = (shares * WEIGHT_DEFAULT + 512) / 1024;

	return weight < WEIGHT_MIN ? WEIGHT_MIN
	       : weight > WEIGHT_MAX ? WEIGHT_MAX : weight;
}

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

static uint64_t _nice_bit(int nice)
{
	return nice < NICE_MIN || nice > NICE_MAX ? 0
						 : 1ULL << (nice - NICE_MIN);
}

/* Threads of a descendant whose nice came from us go back to saved. */
struct inherited_walk {
	const struct boost_saved *saved;
	int failed_errno;
};

static int _restore_inherited_thread(pid_t tid, void *arg)
{
	struct inherited_walk *w = arg;
	int nice;

	errno = 0;
	nice = getpriority(PRIO_PROCESS, (id_t)tid);
	if ((nice == -1 && errno) || nice == w->saved->nice ||
	    !(w->saved->nice_set & _nice_bit(nice)))
		return 0;
	if (setpriority(PRIO_PROCESS, (id_t)tid, w->saved->nice) &&
	    errno != ESRCH && !w->failed_errno)
		w->failed_errno = errno;
	return 0;
}

/*
 * The live descendants of id (forked while it was boosted, say) that
 * belong to the job's uid: their threads whose nice is one we gave go
 * back to saved->nice.  A descendant reparented away is not found.
 */
static int _nice_restore_descendants(const struct proc_id *id,
				     const struct boost_saved *saved)
{
	struct inherited_walk w = { .saved = saved };
	struct proc_id *tree;
	size_t n;

	if (!saved->nice_set)
		return 0;	/* we never changed it: nothing inherited */
	if (proc_tree(id, 1, &tree, &n))
		return -1;
	for (size_t i = 0; i < n; i++) {
		uid_t uid;

		if (tree[i].pid == id->pid || proc_owner(&tree[i], &uid) ||
		    uid != (uid_t)saved->uid)
			continue;
		(void)proc_for_each_thread(tree[i].pid,
					   _restore_inherited_thread, &w);
	}
	free(tree);
	return w.failed_errno ? -1 : 0;
}

/* Every thread back at saved's nice, and for rt at its policy too. */
static int _own_apply(const struct proc_id *id,
		      const struct boost_saved *saved)
{
	if (saved->kind == BOOST_RT)
		return boost_rt_apply(id, saved, false, saved->nice);
	return _nice_apply(id, saved->nice);
}

/* nice and rt (saved may come from a state file: checked first). */
static int _nice_restore(const struct proc_id *id,
			 const struct boost_saved *saved)
{
	int rc;

	if (saved->nice < NICE_MIN || saved->nice > NICE_MAX ||
	    (saved->kind == BOOST_RT && !boost_rt_saved_ok(saved)))
		return -1;
	if (!proc_alive(id))
		return 0;	/* gone: nothing of it is left to put back */
	rc = _nice_restore_descendants(id, saved);
	if (!_own_apply(id, saved))
		return rc;
	/* It may have exited during the walk: that is done too. */
	return proc_alive(id) ? -1 : rc;
}

/*
 * Record nice in saved->nice_set, persisted before any thread gets it
 * (a child forked from then on inherits it).  0, or -1: not recorded.
 */
static int _nice_note(struct boost *b, struct boost_saved *saved, int nice)
{
	uint64_t bit = _nice_bit(nice);

	if (nice == saved->nice || (saved->nice_set & bit))
		return 0;
	saved->nice_set |= bit;
	if (b->persist && b->persist(b->persist_arg)) {
		saved->nice_set &= ~bit;
		return -1;
	}
	return 0;
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
		if (cgv1_path(_hierarchy(b->kind), path, sizeof(path), cgroup,
			      b->kind == BOOST_CGROUP2 ? "cpu.weight"
						       : "cpu.shares"))
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

/* The first number in mount/rel/file: 0, or -1. */
static int _read_number(const struct cgv1 *cg, const char *rel,
			const char *file, unsigned long long *value)
{
	char path[PATH_MAX];
	FILE *f;
	int rc = -1;

	if (cgv1_path(cg, path, sizeof(path), rel, file) ||
	    !(f = fopen(path, "re")))
		return -1;
	if (fscanf(f, "%llu", value) == 1)
		rc = 0;
	fclose(f);
	return rc;
}

/* Whether group rel holds no process but id and its descendants. */
static bool _group_is_its_own(const struct cgv1 *cg, const char *rel,
			      const struct proc_id *id)
{
	char path[PATH_MAX];
	bool own = true;
	FILE *procs;
	int pid;

	if (cgv1_path(cg, path, sizeof(path), rel, "cgroup.procs") ||
	    !(procs = fopen(path, "re")))
		return false;
	while (own && fscanf(procs, "%d", &pid) == 1)
		own = pid == id->pid ||
		      proc_descends_from((pid_t)pid, id->pid) == 1;
	fclose(procs);
	return own;
}

/* cgroup2, a process of a Slurm job: its own group's weight, in place
 * (boost.c's comment says why). */
static int _attach_in_place(const struct proc_id *id, const char *current,
			    struct boost_saved *saved, char *err, size_t len)
{
	unsigned long long weight;

	if (_read_number(&_cpu2, current, "cpu.weight", &weight)) {
		errbuf_set(err, len,
				"no cpu.weight in %s%s (cpu not in its parent's cgroup.subtree_control)",
				_cpu2.mount, current);
		return -1;
	}
	if (weight < WEIGHT_MIN || weight > WEIGHT_MAX ||
	    !_group_is_its_own(&_cpu2, current, id)) {
		errbuf_set(err, len,
				"process %d shares Slurm's cgroup %s with other processes: not weighed",
				(int)id->pid, current);
		return -1;
	}
	if ((size_t)snprintf(saved->cpu_cgroup, BOOST_CGROUP_LEN, "%s",
			     current) >= BOOST_CGROUP_LEN) {
		errbuf_set(err, len, "cgroup path of process %d too long",
				(int)id->pid);
		return -1;
	}
	saved->weight = (uint32_t)weight;
	return 0;
}

static int _cgroup_attach(struct boost *b, const struct proc_id *id,
			  unsigned job_id, struct boost_saved *saved,
			  char *err, size_t len)
{
	struct cgv1 *cg = _hierarchy(b->kind);
	int rc;
	char *current = cgv1_current(cg, id->pid, &rc);

	if (!current) {
		errbuf_set(err, len,
				"cannot read the cpu cgroup of process %d: %s",
				(int)id->pid, cgroup_strerror(rc));
		goto fail;
	}
	/* A process already in ours has lost its original: refuse. */
	if (!strncmp(current, "/" OUR_ROOT "/", strlen(OUR_ROOT) + 2)) {
		errbuf_set(err, len,
				"process %d is already in cgroup %s "
				"(restore it first)",
				(int)id->pid, current);
		goto fail;
	}
	if (b->kind == BOOST_CGROUP2 && _in_slurm_job(current)) {
		rc = _attach_in_place(id, current, saved, err, len);
		free(current);
		return rc;
	}
	if ((size_t)snprintf(saved->cpu_cgroup, BOOST_CGROUP_LEN, "%s",
			     current) >= BOOST_CGROUP_LEN ||
	    (size_t)snprintf(saved->our_cgroup, BOOST_CGROUP_LEN,
			     OUR_ROOT "/%s/%u.%d", b->node, job_id,
			     (int)id->pid) >= BOOST_CGROUP_LEN) {
		errbuf_set(err, len, "cgroup path of process %d too long",
				(int)id->pid);
		goto fail;
	}
	if (cgv1_create(cg, saved->our_cgroup,
			b->kind == BOOST_CGROUP2 ? "cpu.weight" : "cpu.shares",
			b->kind == BOOST_CGROUP2 ? WEIGHT_DEFAULT
						 : (uint64_t)SHARES_DEFAULT,
			err, len))
		goto fail;
	/*
	 * The pid was checked just before; a process that exits and has its
	 * pid reused in between is beyond what the agent can rule out here.
	 */
	if (cgv1_move(cg, id->pid, saved->our_cgroup)) {
		errbuf_set(err, len,
				"cannot move process %d into %s/%s: %s%s",
				(int)id->pid, cg->mount, saved->our_cgroup,
				strerror(errno),
				errno == EINVAL ? " (real-time threads?)" : "");
		cgv1_remove(cg, saved->our_cgroup);
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
	uint64_t shares = _level_shares(level);
	const char *group = _weighed_group(saved);
	int n = snprintf(text, sizeof(text), "%llu\n",
			 (unsigned long long)(b->kind == BOOST_CGROUP2 ?
					      _shares_to_weight(shares) :
					      shares));

	/* saved may come from a state file: only ever write under ours,
	 * or a Slurm job's group it was attached in. */
	if (!_handle_find(b, id, group) &&
	    !(saved->weight ? _valid_in_place(saved)
			    : _valid_saved_cgroup(saved)))
		return -1;

	for (int attempt = 0; attempt < 2; attempt++) {
		struct shares_handle *h = _handle_get(b, id, group);

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

/* cgroup2 in place: the weight its group had; a group gone (the step
 * ended) needs nothing. */
static int _restore_in_place(const struct boost_saved *saved)
{
	char path[PATH_MAX], text[32];
	int fd, n = snprintf(text, sizeof(text), "%u\n", saved->weight);
	ssize_t done;

	if (!_valid_in_place(saved) || cgv1_ready(&_cpu2, NULL, 0) ||
	    cgv1_path(&_cpu2, path, sizeof(path), saved->cpu_cgroup,
		      "cpu.weight"))
		return -1;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	done = write(fd, text, (size_t)n);
	close(fd);
	return done == n ? 0 : -1;
}

static int _cgroup_restore(const struct proc_id *id,
			   const struct boost_saved *saved)
{
	struct cgv1 *cg = _hierarchy(saved->kind);

	(void)id;	/* whatever is in our group goes back, id or not */
	if (saved->kind == BOOST_CGROUP2 && saved->weight)
		return _restore_in_place(saved);
	if (!_valid_saved_cgroup(saved) || cgv1_ready(cg, NULL, 0))
		return -1;
	return cgv1_drain(cg, saved->our_cgroup, _saved_origin,
			  saved->cpu_cgroup);
}

/* ------------------------------------------------------------ rt */

/*
 * The nice a child forked while the process is real-time starts with
 * (the kernel's SCHED_RESET_ON_FORK gives it 0), to be noted like a nice
 * we gave; saved->nice (nothing to note) when the process's own reset
 * flag would have given its children 0 anyway.
 */
static int _rt_child_nice(const struct boost_saved *saved)
{
	return saved->reset_on_fork && saved->nice < 0 ? saved->nice : 0;
}

/* level > 0: SCHED_RR; else its own policy at the level's nice. */
static int _rt_set(struct boost *b, const struct proc_id *id,
		   struct boost_saved *saved, int level)
{
	int nice = _level_nice(saved->nice, level < 0 ? level : 0);

	if (_nice_note(b, saved, level > 0 ? _rt_child_nice(saved) : nice))
		return -1;
	return boost_rt_apply(id, saved, level > 0, nice);
}

/*
 * Save the policy.  With CONFIG_RT_GROUP_SCHED a v1 cpu group without
 * RT time (cpu.rt_runtime_us 0, a child group's default) refuses
 * SCHED_RR to its processes: refused here with the reason, rather than
 * failing at every boost.
 */
static int _rt_attach(const struct proc_id *id, struct boost_saved *saved,
		      char *err, size_t len)
{
	unsigned long long runtime;
	char *group;
	bool no_rt_time;
	int rc;

	if (boost_rt_save(id, saved, err, len))
		return -1;
	if (cgv1_ready(&_cpu, NULL, 0) ||
	    !(group = cgv1_current(&_cpu, id->pid, &rc)))
		return 0;	/* no v1 cpu hierarchy: no such limit */
	no_rt_time = !_read_number(&_cpu, group, "cpu.rt_runtime_us",
				   &runtime) && runtime == 0;
	if (no_rt_time)
		errbuf_set(err, len,
			   "process %d: its cpu cgroup %s has cpu.rt_runtime_us 0, so boost=rt cannot make it SCHED_RR",
			   (int)id->pid, group);
	free(group);
	return no_rt_time ? -1 : 0;
}

/* ------------------------------------------------------------ public */

bool boost_autogroup_enabled(void)
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

static void _describe_rt(struct boost *b)
{
	long long runtime = -1, period = 0;

	(void)boost_rt_throttle(&runtime, &period);
	snprintf(b->describe, sizeof(b->describe),
		 "rt: level > 0: SCHED_RR %d with SCHED_RESET_ON_FORK on every "
		 "thread, renewed or ended at every tick; level < 0: nice = own "
		 "nice - level; the kernel's RT throttling gives boosted "
		 "processes at most %lld of every %lld us of a CPU, and the "
		 "guardian ends boosts the agent stops renewing",
		 BOOST_RT_PRIORITY, runtime, period);
}

static void _describe(struct boost *b, bool auto_chosen)
{
	if (b->kind == BOOST_RT) {
		_describe_rt(b);
		return;
	}
	if (b->kind == BOOST_CGROUP) {
		snprintf(b->describe, sizeof(b->describe),
			 "cgroup: cgroup v1 cpu.shares = 1024 * 1.25^level "
			 "(2..262144) of %s/" OUR_ROOT "/%s/<job>.<pid>; "
			 "weighs attached processes against each other",
			 _cpu.mount, b->node);
		return;
	}
	if (b->kind == BOOST_CGROUP2) {
		snprintf(b->describe, sizeof(b->describe),
			 "cgroup2: cgroup v2 cpu.weight = (1024 * 1.25^level) "
			 "* 100 / 1024 (1..10000) of a Slurm job's process's "
			 "own group, in place, else of %s/" OUR_ROOT
			 "/%s/<job>.<pid>",
			 _cpu2.mount, b->node);
		return;
	}
	snprintf(b->describe, sizeof(b->describe),
		 "nice: setpriority on every thread, nice = own nice - level "
		 "(-20..19)%s%s%s%s%s%s",
		 boost_autogroup_enabled()
			 ? "; kernel.sched_autogroup_enabled=1: nice only "
			   "weighs between processes of one session, so "
			   "boosts between jobs may have little effect"
			 : "",
		 geteuid() ? "; not root: levels > 0 need CAP_SYS_NICE" : "",
		 auto_chosen && _cpu2.problem[0] ? "; cgroup2 unavailable: " : "",
		 auto_chosen ? _cpu2.problem : "",
		 auto_chosen && _cpu.problem[0] ? "; cgroup unavailable: " : "",
		 auto_chosen ? _cpu.problem : "");
}

/*
 * BOOST_AUTO: v2 where it is the node's main hierarchy, else v1, else a
 * v2 mounted beside v1 (a hybrid node whose cpu controller is on v2),
 * else nice.
 */
static enum boost_kind _auto_kind(void)
{
	bool v2 = !cgv1_ready(&_cpu2, NULL, 0);

	if (v2 && cgv2_primary())
		return BOOST_CGROUP2;
	if (!cgv1_ready(&_cpu, NULL, 0))
		return BOOST_CGROUP;
	return v2 ? BOOST_CGROUP2 : BOOST_NICE;
}

struct boost *boost_open(enum boost_kind want, const char *node, char *err,
			 size_t err_len)
{
	struct boost *b;

	if (cgv1_check_node(node, err, err_len))
		return NULL;
	if (want != BOOST_AUTO && want != BOOST_CGROUP && want != BOOST_NICE &&
	    want != BOOST_CGROUP2 && want != BOOST_RT) {
		errbuf_set(err, err_len, "unknown boost mechanism %d",
				(int)want);
		return NULL;
	}
	if (_is_cgroup_kind(want) &&
	    cgv1_ready(_hierarchy(want), err, err_len))
		return NULL;
	if (want == BOOST_RT && boost_rt_check(err, err_len))
		return NULL;
	b = calloc(1, sizeof(*b));
	if (!b) {
		errbuf_set(err, err_len, "out of memory");
		return NULL;
	}
	for (int i = 0; i < HANDLE_SLOTS; i++)
		b->handles[i].stat_fd = b->handles[i].shares_fd = -1;
	b->kind = want;
	if (want == BOOST_AUTO)
		b->kind = _auto_kind();
	snprintf(b->node, sizeof(b->node), "%s", node);
	_describe(b, want == BOOST_AUTO);
	return b;
}

int boost_attach(struct boost *b, const struct proc_id *id, unsigned job_id,
		 struct boost_saved *saved, char *err, size_t err_len)
{
	uid_t owner;
	int nice;

	if (!b || !id || !saved) {
		errbuf_set(err, err_len, "boost_attach: missing argument");
		return -1;
	}
	if (!proc_alive(id)) {
		errbuf_set(err, err_len, "process %d is gone",
				(int)id->pid);
		return -1;
	}
	errno = 0;
	nice = getpriority(PRIO_PROCESS, (id_t)id->pid);
	if (nice == -1 && errno) {
		errbuf_set(err, err_len,
				"cannot read the nice of process %d: %s",
				(int)id->pid, strerror(errno));
		return -1;
	}
	memset(saved, 0, sizeof(*saved));
	if (proc_owner(id, &owner)) {
		errbuf_set(err, err_len, "process %d is gone",
				(int)id->pid);
		return -1;
	}
	saved->kind = b->kind;
	saved->nice = nice;
	saved->uid = (uint32_t)owner;
	if (_is_cgroup_kind(b->kind))
		return _cgroup_attach(b, id, job_id, saved, err, err_len);
	if (b->kind == BOOST_RT)
		return _rt_attach(id, saved, err, err_len);
	return 0;
}

int boost_set(struct boost *b, const struct proc_id *id,
	      struct boost_saved *saved, int level)
{
	int nice;

	if (!b || !id || !saved || saved->kind != b->kind)
		return -1;
	if (_is_cgroup_kind(b->kind))
		return _cgroup_set(b, id, saved, level);
	if (b->kind == BOOST_RT)
		return _rt_set(b, id, saved, level);
	nice = _level_nice(saved->nice, level);
	if (_nice_note(b, saved, nice))
		return -1;
	return _nice_apply(id, nice);
}

void boost_on_new_nice(struct boost *b, int (*persist)(void *arg), void *arg)
{
	b->persist = persist;
	b->persist_arg = arg;
}

int boost_restore(const struct proc_id *id, const struct boost_saved *saved)
{
	if (!id || !saved)
		return -1;
	switch (saved->kind) {
	case BOOST_CGROUP:
	case BOOST_CGROUP2:
		return _cgroup_restore(id, saved);
	case BOOST_NICE:
	case BOOST_RT:
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
