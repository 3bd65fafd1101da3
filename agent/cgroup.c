/*
 * cgroup.c - the cgroup v1 helpers of the node agent (cgroup.h): finding
 * a controller's hierarchy, paths under its mount, creating, emptying and
 * removing our groups, moving whole processes.
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
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libcgroup.h>

#include "cgroup.h"
#include "cosched_opts/cosched_opts.h"

#define DRAIN_ROUNDS 20		/* cgv1_drain: rounds of move-out and rmdir */
#define DRAIN_PAUSE_NS 2000000L	/* between rounds: tasks mid-fork or exit */

/* ------------------------------------------------------------ lookup */

static void _find(struct cgv1 *cg)
{
	char *mount = NULL;
	int rc = cgroup_init();

	if (rc) {
		cosched_set_err(cg->problem, sizeof(cg->problem),
				"libcgroup: %s", cgroup_strerror(rc));
		return;
	}
	rc = cgroup_get_subsys_mount_point(cg->controller, &mount);
	if (rc || !mount) {
		cosched_set_err(cg->problem, sizeof(cg->problem),
				"no cgroup %s controller mounted (%s)",
				cg->controller, cgroup_strerror(rc));
		goto out;
	}
	if ((size_t)snprintf(cg->mount, sizeof(cg->mount), "%s", mount) >=
	    sizeof(cg->mount)) {
		cosched_set_err(cg->problem, sizeof(cg->problem),
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
		_find(cg);
		cg->looked = true;
	}
	pthread_mutex_unlock(&cg->lock);
	if (!cg->problem[0])
		return 0;
	cosched_set_err(err, len, "%s unavailable: %s", cg->label, cg->problem);
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

char *cgv1_current(const struct cgv1 *cg, pid_t pid, int *rc)
{
	char *current = NULL;
	int got = cgroup_get_current_controller_path(pid, cg->controller,
						     &current);

	if (rc)
		*rc = got;
	if (got) {
		free(current);
		return NULL;
	}
	return current;
}

/* ------------------------------------------------------------ groups */

int cgv1_create(const struct cgv1 *cg, const char *rel, const char *setting,
		uint64_t value, char *err, size_t len)
{
	struct cgroup *group = cgroup_new_cgroup(rel);
	struct cgroup_controller *ctl =
		group ? cgroup_add_controller(group, cg->controller) : NULL;
	int rc = -1;

	if (!ctl) {
		cosched_set_err(err, len, "cannot describe cgroup %s", rel);
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
		cosched_set_err(err, len, "cannot create cgroup %s/%s: %s",
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
	char path[PATH_MAX], text[32];
	int fd, n, saved_errno;
	ssize_t done;

	if (cgv1_path(cg, path, sizeof(path), rel, "cgroup.procs")) {
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
	cosched_set_err(err, len,
			"bad node name '%s': want 1-%d of A-Z a-z 0-9 _ . -",
			node ? node : "(null)", CGV1_NODE_NAME_MAX);
	return -1;
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
