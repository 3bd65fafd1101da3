/*
 * cgroup.c - the cgroup helpers of the node agent (cgroup.h): finding
 * a controller's hierarchy (v1 through libcgroup, or the unified v2 one),
 * paths under its mount, creating, emptying and removing our groups,
 * moving whole processes.
 *
 * v2 without libcgroup.  Its v2 support differs between versions, and
 * what v2 needs is a few plain file operations: mkdir, rmdir, a write to
 * cgroup.subtree_control, the "0::" line of /proc/PID/cgroup.
 *
 * Removing.  libcgroup's CGFLAG_DELETE_EMPTY_ONLY reports success for a
 * group that still has tasks (it just leaves it), so whether a group is
 * gone is checked on the file system.  CGV1_OUR_ROOT itself always stays:
 * the agents of all the nodes one host emulates (slurmd -N) share it, and
 * removing it would race with another agent creating its groups.
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
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include <libcgroup.h>

#include "cgroup.h"
#include "num/errbuf.h"

#define DRAIN_ROUNDS 20		/* cgv1_drain: rounds of move-out and rmdir */
#define DRAIN_PAUSE_NS 2000000L	/* between rounds: tasks mid-fork or exit */
#define UNIFIED_MAIN "/sys/fs/cgroup"	/* a pure v2 node mounts it here */

/* ------------------------------------------------------------ v2 root */

static char _v2_root[CGV1_MOUNT_LEN];	/* cgv2_set_root(), or "" */

int cgv2_set_root(const char *dir)
{
	struct stat st;

	if (!dir || dir[0] != '/' || !cgv1_clean_path(dir) ||
	    strlen(dir) >= sizeof(_v2_root) || stat(dir, &st) ||
	    !S_ISDIR(st.st_mode))
		return -1;
	snprintf(_v2_root, sizeof(_v2_root), "%s", dir);
	return 0;
}

static bool _is_cgroup2(const char *dir)
{
	struct statfs fs;

	return !statfs(dir, &fs) && fs.f_type == CGROUP2_SUPER_MAGIC;
}

bool cgv2_primary(void)
{
	return _v2_root[0] || _is_cgroup2(UNIFIED_MAIN);
}

/* The mount point of the first cgroup2 file system in mountinfo. */
static int _mountinfo_cgroup2(char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[1024], point[512];
	int rc = -1;

	if (!f)
		return -1;
	while (rc && fgets(line, sizeof(line), f)) {
		const char *dash = strstr(line, " - ");

		/* fields: id parent dev root point ... - type source opts;
		 * a point with an escaped character (\040) is skipped */
		if (dash && !strncmp(dash + 3, "cgroup2 ", 8) &&
		    sscanf(line, "%*s %*s %*s %*s %511s", point) == 1 &&
		    !strchr(point, '\\') &&
		    (size_t)snprintf(buf, len, "%s", point) < len)
			rc = 0;
	}
	fclose(f);
	return rc;
}

static void _find_unified(struct cgv1 *cg)
{
	const char *why = NULL;

	if (_v2_root[0])
		snprintf(cg->mount, sizeof(cg->mount), "%s", _v2_root);
	else if (_is_cgroup2(UNIFIED_MAIN))
		snprintf(cg->mount, sizeof(cg->mount), UNIFIED_MAIN);
	else if (_mountinfo_cgroup2(cg->mount, sizeof(cg->mount)))
		why = "no cgroup2 file system mounted";
	if (!why && access(cg->mount, W_OK))
		why = strerror(errno);
	if (why) {
		errbuf_set(cg->problem, sizeof(cg->problem),
				"cgroup v2: %s%s%s", cg->mount[0] ? cg->mount : "",
				cg->mount[0] ? ": " : "", why);
		return;
	}
	if (cg->check)
		cg->check(cg);
}

/* ------------------------------------------------------------ lookup */

static void _find(struct cgv1 *cg)
{
	char *mount = NULL;
	int rc = cgroup_init();

	if (rc) {
		errbuf_set(cg->problem, sizeof(cg->problem),
				"libcgroup: %s", cgroup_strerror(rc));
		return;
	}
	rc = cgroup_get_subsys_mount_point(cg->controller, &mount);
	if (rc || !mount) {
		errbuf_set(cg->problem, sizeof(cg->problem),
				"no cgroup %s controller mounted (%s)",
				cg->controller, cgroup_strerror(rc));
		goto out;
	}
	if ((size_t)snprintf(cg->mount, sizeof(cg->mount), "%s", mount) >=
	    sizeof(cg->mount)) {
		errbuf_set(cg->problem, sizeof(cg->problem),
				"%s mount point path too long", cg->controller);
		goto out;
	}
	if (cg->check)
		cg->check(cg);
out:
	free(mount);
}

int cgv1_ready(struct cgv1 *cg, char *err, size_t len)
{
	pthread_mutex_lock(&cg->lock);
	if (!cg->looked) {
		if (cg->unified)
			_find_unified(cg);
		else
			_find(cg);
		cg->looked = true;
	}
	pthread_mutex_unlock(&cg->lock);
	if (!cg->problem[0])
		return 0;
	errbuf_set(err, len, "%s unavailable: %s", cg->label, cg->problem);
	return -1;
}

/* ------------------------------------------------------------ paths */

int cgv1_path(const struct cgv1 *cg, char *buf, size_t len, const char *rel,
	      const char *file)
{
	int n;

	while (*rel == '/')
		rel++;
	n = snprintf(buf, len, "%s%s%s%s%s", cg->mount, *rel ? "/" : "", rel,
		     file ? "/" : "", file ? file : "");
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static bool _exists(const struct cgv1 *cg, const char *rel)
{
	char path[PATH_MAX];
	struct stat st;

	return !cgv1_path(cg, path, sizeof(path), rel, NULL) &&
	       !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* The deepest existing group on the way up from rel ("/" at worst). */
static void _existing_ancestor(const struct cgv1 *cg, const char *rel,
			       char *buf, size_t len)
{
	char *slash;

	snprintf(buf, len, "%s", rel);
	while (!_exists(cg, buf) && (slash = strrchr(buf, '/'))) {
		if (slash == buf)
			slash[1] = '\0';
		else
			*slash = '\0';
		if (!strcmp(buf, "/"))
			break;
	}
}

/* v2: the path of the "0::" line of /proc/PID/cgroup (malloc'd). */
static char *_unified_current(pid_t pid)
{
	char path[32], line[4096];
	char *current = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	while (!current && fgets(line, sizeof(line), f)) {
		size_t len = strcspn(line, "\n");

		/* a line longer than the buffer is not the one we trust */
		if (!strncmp(line, "0::/", 4) && line[len] == '\n') {
			line[len] = '\0';
			current = strdup(line + 3);
		}
	}
	fclose(f);
	return current;
}

char *cgv1_current(const struct cgv1 *cg, pid_t pid, int *rc)
{
	char *current = NULL;
	int got;

	if (cg->unified) {
		current = _unified_current(pid);
		if (rc)
			*rc = current ? 0 : ECGOTHER;
		return current;
	}
	got = cgroup_get_current_controller_path(pid, cg->controller, &current);

	if (rc)
		*rc = got;
	if (got) {
		free(current);
		return NULL;
	}
	return current;
}

/* ------------------------------------------------------------ groups */

/* Write text to mount/rel/file.  0, or -1 with errno. */
static int _write_file(const struct cgv1 *cg, const char *rel,
		       const char *file, const char *text)
{
	char path[PATH_MAX];
	size_t n = strlen(text);
	int fd, saved_errno;
	ssize_t done;

	if (cgv1_path(cg, path, sizeof(path), rel, file)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	done = write(fd, text, n);
	saved_errno = errno;
	close(fd);
	errno = saved_errno;
	return done == (ssize_t)n ? 0 : -1;
}

/*
 * v2: enable the controller for the children of rel's root and of every
 * group on the way to rel (not rel itself: it is a leaf that holds
 * processes, and v2 forbids both in one group).  The groups on the way
 * are ours and hold no process.
 */
static int _unified_enable(const struct cgv1 *cg, const char *rel, char *err,
			   size_t len)
{
	char on[64], upto[PATH_MAX];
	const char *p = rel;

	if (!cg->controller)
		return 0;
	snprintf(on, sizeof(on), "+%s", cg->controller);
	while (*p == '/')
		p++;
	for (;;) {
		const char *slash = strchr(p, '/');

		snprintf(upto, sizeof(upto), "%.*s", (int)(p - rel), rel);
		if (_write_file(cg, upto, "cgroup.subtree_control", on)) {
			errbuf_set(err, len,
					"cannot enable %s in %s/%s/cgroup.subtree_control: %s",
					cg->controller, cg->mount, upto,
					strerror(errno));
			return -1;
		}
		if (!slash)
			return 0;
		p = slash + 1;
	}
}

/* v2: mkdir -p of rel, the controller enabled on the way, setting set. */
static int _unified_create(const struct cgv1 *cg, const char *rel,
			   const char *setting, uint64_t value, char *err,
			   size_t len)
{
	char path[PATH_MAX], text[32];

	if (cgv1_path(cg, path, sizeof(path), rel, NULL)) {
		errbuf_set(err, len, "cgroup path %s too long", rel);
		return -1;
	}
	for (char *slash = path + strlen(cg->mount) + 1;
	     (slash = strchr(slash, '/')); slash++) {
		*slash = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			goto fail;
		*slash = '/';
	}
	if (_unified_enable(cg, rel, err, len))
		return -1;
	if (mkdir(path, 0755) && errno != EEXIST)
		goto fail;
	snprintf(text, sizeof(text), "%llu", (unsigned long long)value);
	if (setting && _write_file(cg, rel, setting, text)) {
		errbuf_set(err, len, "cannot set %s/%s/%s: %s", cg->mount,
				rel, setting, strerror(errno));
		return -1;
	}
	return 0;
fail:
	errbuf_set(err, len, "cannot create cgroup %s: %s", path,
			strerror(errno));
	return -1;
}

int cgv1_create(const struct cgv1 *cg, const char *rel, const char *setting,
		uint64_t value, char *err, size_t len)
{
	struct cgroup *group;
	struct cgroup_controller *ctl;
	int rc = -1;

	if (cg->unified) {
		/* Once more: the guardian may remove the node directory
		 * between our mkdirs (see below). */
		return _unified_create(cg, rel, setting, value, NULL, 0) ?
			_unified_create(cg, rel, setting, value, err, len) : 0;
	}
	group = cgroup_new_cgroup(rel);
	ctl = group ? cgroup_add_controller(group, cg->controller) : NULL;
	if (!ctl) {
		errbuf_set(err, len, "cannot describe cgroup %s", rel);
		goto out;
	}
	rc = setting ? cgroup_add_value_uint64(ctl, setting, value) : 0;
	if (!rc)
		rc = cgroup_create_cgroup(group, 0);
	/*
	 * Once more on failure: a removal of this node's last group (the
	 * guardian's, or another step's) may have removed the node
	 * directory between libcgroup's mkdirs.
	 */
	if (rc)
		rc = cgroup_create_cgroup(group, 0);
	if (rc) {
		errbuf_set(err, len, "cannot create cgroup %s/%s: %s",
				cg->mount, rel, cgroup_strerror(rc));
		rc = -1;
	}
out:
	cgroup_free(&group);
	return rc;
}

int cgv1_remove_if_empty(const struct cgv1 *cg, const char *rel)
{
	struct cgroup *group;

	if (!_exists(cg, rel))
		return 0;
	if (cg->unified) {
		char path[PATH_MAX];

		/* rmdir removes only a group with no process and no child */
		if (!cgv1_path(cg, path, sizeof(path), rel, NULL))
			(void)rmdir(path);
		return _exists(cg, rel) ? -1 : 0;
	}
	group = cgroup_new_cgroup(rel);
	if (group && cgroup_add_controller(group, cg->controller))
		cgroup_delete_cgroup_ext(group, CGFLAG_DELETE_EMPTY_ONLY);
	cgroup_free(&group);
	return _exists(cg, rel) ? -1 : 0;
}

int cgv1_remove(const struct cgv1 *cg, const char *rel)
{
	char node_dir[PATH_MAX];
	char *slash;

	if (cgv1_remove_if_empty(cg, rel))
		return -1;
	snprintf(node_dir, sizeof(node_dir), "%s", rel);
	slash = strrchr(node_dir, '/');
	if (!slash || slash == node_dir + strlen(CGV1_OUR_ROOT))
		return 0;	/* not CGV1_OUR_ROOT/<node>/<group> */
	*slash = '\0';
	cgv1_remove_if_empty(cg, node_dir); /* busy: others of this node */
	return 0;
}

/* ------------------------------------------------------------ moves */

int cgv1_move(const struct cgv1 *cg, pid_t pid, const char *rel)
{
	char text[32];

	snprintf(text, sizeof(text), "%d\n", (int)pid);
	return _write_file(cg, rel, "cgroup.procs", text);
}

int cgv1_move_back(const struct cgv1 *cg, pid_t pid, const char *origin)
{
	char dest[PATH_MAX];

	_existing_ancestor(cg, origin, dest, sizeof(dest));
	/* ESRCH: it exited meanwhile, nothing left to move. */
	if (cgv1_move(cg, pid, dest) && errno != ESRCH)
		return -1;
	return 0;
}

/*
 * Move every process in group rel back where origin says.  Returns how
 * many were listed (0: rel is empty), or -1 when one could not be moved.
 */
static int _move_all_back(const struct cgv1 *cg, const char *rel,
			  const char *(*origin)(pid_t pid, const void *arg),
			  const void *arg)
{
	char path[PATH_MAX];
	FILE *procs;
	int pid, listed = 0, rc = 0;

	if (cgv1_path(cg, path, sizeof(path), rel, "cgroup.procs"))
		return -1;
	procs = fopen(path, "re");
	if (!procs)
		return errno == ENOENT ? 0 : -1;
	while (fscanf(procs, "%d", &pid) == 1) {
		listed++;
		if (cgv1_move_back(cg, (pid_t)pid, origin((pid_t)pid, arg)))
			rc = -1;
	}
	fclose(procs);
	return rc ? -1 : listed;
}

int cgv1_drain(const struct cgv1 *cg, const char *rel,
	       const char *(*origin)(pid_t pid, const void *arg),
	       const void *arg)
{
	for (int round = 0; round < DRAIN_ROUNDS; round++) {
		int listed = _move_all_back(cg, rel, origin, arg);
		struct timespec pause = { .tv_nsec = DRAIN_PAUSE_NS };

		if (listed == 0 && !cgv1_remove(cg, rel))
			return 0;
		if (listed > 0)
			continue;	/* moved some: look again at once */
		/* A move failed, or rmdir found it busy. */
		while (nanosleep(&pause, &pause) && errno == EINTR)
			;
	}
	return -1;
}

/* ------------------------------------------------------------ names */

int cgv1_check_node(const char *node, char *err, size_t len)
{
	size_t n = node ? strlen(node) : 0;

	if (n && n <= CGV1_NODE_NAME_MAX && strcmp(node, ".") &&
	    strcmp(node, "..") &&
	    strspn(node, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuv"
			 "wxyz0123456789_.-") == n)
		return 0;
	errbuf_set(err, len,
			"bad node name '%s': want 1-%d of A-Z a-z 0-9 _ . -",
			node ? node : "(null)", CGV1_NODE_NAME_MAX);
	return -1;
}

#define SLUID_DIGITS 13

static size_t _job_id_component(const char *p, uint32_t job)
{
	size_t digits;
	char *end;
	unsigned long id;

	if (strncmp(p, "job_", 4))
		return 0;
	digits = strspn(p + 4, "0123456789");
	if (!digits || (p[4 + digits] && p[4 + digits] != '/'))
		return 0;
	errno = 0;
	id = strtoul(p + 4, &end, 10);
	if (errno || (job && id != job))
		return 0;
	return 4 + digits;
}

static size_t _sluid_component(const char *p)
{
	/* Crockford's base32 as Slurm's print_sluid() writes it */
	static const char cb32[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

	if (p[0] != 's' || strspn(p + 1, cb32) != SLUID_DIGITS ||
	    (p[1 + SLUID_DIGITS] && p[1 + SLUID_DIGITS] != '/'))
		return 0;
	return 1 + SLUID_DIGITS;
}

size_t cgv1_slurm_job_component(const char *p, uint32_t job)
{
	size_t len = _job_id_component(p, job);

	return len ? len : _sluid_component(p);
}

bool cgv1_clean_path(const char *path)
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
