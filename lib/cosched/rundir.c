/*
 * rundir.c - opening the agent's run directory safely (rundir.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cosched/rundir.h"
#include "num/errbuf.h"

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#define OTHERS_WRITE (S_IWGRP | S_IWOTH)

/* Close fd, set errno, put "where why" in err: -1. */
static int _fail(int fd, int errno_, char *err, size_t len, const char *where,
		 const char *why)
{
	if (fd >= 0)
		close(fd);
	if (err)
		errbuf_set(err, len, "%s %s", where, why);
	errno = errno_;
	return -1;
}

/* run_dir up to and including name (a component of path, its copy). */
static const char *_upto(const char *run_dir, const char *path,
			 const char *name, char *buf, size_t len)
{
	size_t n = (size_t)(name - path) + strlen(name);

	snprintf(buf, len, "%.*s", (int)n, run_dir);
	return buf;
}

/* Why the directory on fd cannot be trusted, or NULL. */
static const char *_untrusted(int fd, bool last)
{
	struct stat st;

	if (fstat(fd, &st))
		return "cannot be examined";
	if (st.st_uid != 0 && st.st_uid != geteuid())
		return "is owned by another user";
	if (!(st.st_mode & OTHERS_WRITE))
		return NULL;
	if (last)
		return "is writable by group or others";
	return st.st_mode & S_ISVTX ? NULL :
	       "is writable by group or others (and not sticky)";
}

/* Why name in at could not be opened as a directory. */
static const char *_why_not(int at, const char *name, int errno_)
{
	struct stat st;

	if ((errno_ == ELOOP || errno_ == ENOTDIR) &&
	    !fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW))
		return S_ISLNK(st.st_mode) ?
		       "is a symbolic link (give the real path)" :
		       "is not a directory";
	return strerror(errno_);
}

/* name in at, created when missing and make; -1 with errno. */
static int _open_or_make(int at, const char *name, bool make)
{
	int fd = openat(at, name, DIR_FLAGS);

	if (fd >= 0 || errno != ENOENT || !make)
		return fd;
	if (mkdirat(at, name, COSCHED_RUN_DIR_MODE) && errno != EEXIST)
		return -1;
	fd = openat(at, name, DIR_FLAGS);
	/* the mode asked of mkdir went through the umask */
	if (fd >= 0 && fchmod(fd, COSCHED_RUN_DIR_MODE)) {
		int saved = errno;

		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

int cosched_run_dir_open(const char *run_dir, bool make, char *err,
			 size_t err_len)
{
	char path[PATH_MAX], shown[PATH_MAX], *save = NULL, *name, *next;
	const char *why;
	int fd;

	if (run_dir[0] != '/' ||
	    (size_t)snprintf(path, sizeof(path), "%s", run_dir) >= sizeof(path))
		return _fail(-1, EINVAL, err, err_len, run_dir,
			     "is not an absolute path that fits");
	name = strtok_r(path, "/", &save);
	if (!name)
		return _fail(-1, EPERM, err, err_len, run_dir,
			     "is the root directory");
	fd = open("/", DIR_FLAGS);
	if (fd < 0)
		return _fail(-1, errno, err, err_len, "/:", strerror(errno));
	if ((why = _untrusted(fd, false)))
		return _fail(fd, EPERM, err, err_len, "/", why);
	for (; name; name = next) {
		int child;

		next = strtok_r(NULL, "/", &save);
		_upto(run_dir, path, name, shown, sizeof(shown));
		if (!strcmp(name, "..") || !strcmp(name, "."))
			return _fail(fd, EPERM, err, err_len, shown,
				     "has a . or .. component");
		child = _open_or_make(fd, name, make && !next);
		if (child < 0) {
			int saved = errno;

			why = _why_not(fd, name, saved);
			return _fail(fd, saved == ELOOP ? EPERM : saved, err,
				     err_len, shown, why);
		}
		close(fd);
		fd = child;
		if ((why = _untrusted(fd, !next)))
			return _fail(fd, EPERM, err, err_len, shown, why);
	}
	return fd;
}
