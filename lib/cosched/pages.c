/*
 * pages.c - the step's page directory and the opening of a page (see
 * pages.h for the layout and who does what).
 *
 * RUN_DIR is opened by the rule of rundir.h; below it every directory is
 * opened relative to its parent, with O_NOFOLLOW, and checked on the
 * descriptor: a symbolic link or a directory of the wrong owner is
 * refused, never followed or trusted.  Below RUN_DIR/pages no open
 * leaves the mount it starts on (_open_below).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE	/* renameat2 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cosched/pages.h"
#include "cosched/rundir.h"
#include "cosched/shm.h"
#include "num/errbuf.h"

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#define PAGES_MODE 0711		/* users pass through to their own */
#define STEP_MODE 0700
#define STEP_NAME_LEN 32
/*
 * Removing what the job's user left: subdirectories this deep, entries
 * this many in all, so that a user adding files as fast as we remove them
 * cannot hold slurmstepd.
 */
#define REMOVE_DEPTH 8
#define REMOVE_BUDGET 100000

int cosched_page_dir_path(const char *run_dir, uint32_t job, uint32_t step,
			  char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/" COSCHED_PAGES_SUBDIR "/%u.%u", run_dir,
			 job, step);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* "RANK" followed by suffix, the names in a step's directory. */
static int _rank_name(int rank, const char *suffix, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%d%s", rank, suffix);

	return rank < 0 || n < 0 || (size_t)n >= len ? -1 : 0;
}

int cosched_page_name(int rank, char *buf, size_t len)
{
	return _rank_name(rank, "", buf, len);
}

int cosched_wake_name(int rank, char *buf, size_t len)
{
	return _rank_name(rank, ".wake", buf, len);
}

static void _step_name(uint32_t job, uint32_t step, char *buf)
{
	snprintf(buf, STEP_NAME_LEN, "%u.%u", job, step);
}

/* fd is a directory of owner with none of the mode bits forbidden. */
static bool _dir_is(int fd, uid_t owner, mode_t forbidden)
{
	struct stat st;

	return !fstat(fd, &st) && S_ISDIR(st.st_mode) && st.st_uid == owner &&
	       !(st.st_mode & forbidden);
}

/*
 * openat(at, name, flags), refused (EXDEV) where the walk would cross
 * into another mount.  A step's directory and its pages belong to the
 * job's user, who may mount a FUSE file system of their own over either
 * (fusermount3 takes a mount point its user may write to); where
 * fuse.conf allows allow_other, root's OPENDIR, OPEN or GETATTR there
 * would wait on the user's program for ever.  openat2's RESOLVE_NO_XDEV
 * stops the walk before that file system is asked anything.  Kernels
 * before 5.6 lack openat2: plain openat there, without that guard.
 */
static int _open_below(int at, const char *name, int flags)
{
#ifdef SYS_openat2
	struct open_how how = { .flags = (uint64_t)flags,
				.resolve = RESOLVE_NO_XDEV };
	int fd = (int)syscall(SYS_openat2, at, name, &how, sizeof(how));

	if (fd >= 0 || errno != ENOSYS)
		return fd;
#endif
	return openat(at, name, flags);
}

/* RUN_DIR/pages: ours, and nobody else may write there. */
static int _open_ours(int at, const char *name, int flags)
{
	int fd = openat(at, name, flags);

	if (fd >= 0 && !_dir_is(fd, geteuid(), S_IWGRP | S_IWOTH)) {
		close(fd);
		errno = EPERM;
		return -1;
	}
	return fd;
}

static int _open_run_dir(const char *run_dir)
{
	return cosched_run_dir_open(run_dir, false, NULL, 0);
}

/* RUN_DIR/pages, made when make is set. */
static int _open_pages(const char *run_dir, bool make)
{
	int run = _open_run_dir(run_dir), pages, saved;

	if (run < 0)
		return -1;
	if (make && mkdirat(run, COSCHED_PAGES_SUBDIR, PAGES_MODE) &&
	    errno != EEXIST) {
		saved = errno;
		close(run);
		errno = saved;
		return -1;
	}
	pages = _open_ours(run, COSCHED_PAGES_SUBDIR, DIR_FLAGS);
	saved = errno;
	close(run);
	/* the mode asked of mkdir went through slurmstepd's umask */
	if (make && pages >= 0 && fchmod(pages, PAGES_MODE)) {
		saved = errno;
		close(pages);
		pages = -1;
	}
	errno = saved;
	return pages;
}

static int _remove_in(int parent, const char *name, int depth, int *budget);

/* Remove every entry of the directory fd; 0 when all went. */
static int _empty(int fd, int depth, int *budget)
{
	int list = _open_below(fd, ".", DIR_FLAGS), rc = 0;
	struct dirent *e;
	DIR *dir;

	if (list < 0)
		return -1;
	dir = fdopendir(list);
	if (!dir) {
		close(list);
		return -1;
	}
	while ((e = readdir(dir))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (--*budget < 0 || _remove_in(fd, e->d_name, depth, budget)) {
			rc = -1;
			if (*budget < 0)
				break;
		}
	}
	closedir(dir);
	return rc;
}

/*
 * Remove parent/name, a file or a tree, without following any link.  A
 * directory is first made root's, so that its user can no longer add to
 * it through its path.
 */
static int _remove_in(int parent, const char *name, int depth, int *budget)
{
	int fd, rc;

	if (!unlinkat(parent, name, 0) || errno == ENOENT)
		return 0;
	if (errno != EISDIR || depth <= 0)
		return -1;
	fd = _open_below(parent, name, DIR_FLAGS);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	rc = fchown(fd, geteuid(), (gid_t)-1) ? -1 : _empty(fd, depth - 1, budget);
	close(fd);
	if (unlinkat(parent, name, AT_REMOVEDIR) && errno != ENOENT)
		rc = -1;
	return rc;
}

static int _remove_tree(int parent, const char *name)
{
	int budget = REMOVE_BUDGET;

	return _remove_in(parent, name, REMOVE_DEPTH, &budget);
}

/*
 * A new directory for uid under pages/name, made under a temporary name
 * and renamed into place only complete, never over an existing one: a
 * second slurmstepd of the step on this host never sees it half made.
 */
static int _make_step_dir(int pages, const char *name, uid_t uid)
{
	char tmp[STEP_NAME_LEN + 32];
	int fd, saved;

	snprintf(tmp, sizeof(tmp), "%s.new.%d", name, (int)getpid());
	(void)_remove_tree(pages, tmp);	/* our own leftover */
	if (mkdirat(pages, tmp, STEP_MODE))
		return -1;
	fd = _open_below(pages, tmp, DIR_FLAGS);
	if (fd >= 0 && !fchown(fd, uid, (gid_t)-1) && !fchmod(fd, STEP_MODE) &&
	    !renameat2(pages, tmp, pages, name, RENAME_NOREPLACE)) {
		close(fd);
		return 0;
	}
	saved = errno;
	if (fd >= 0)
		close(fd);
	(void)_remove_tree(pages, tmp);
	errno = saved;
	return -1;
}

/* pages/name is a directory of uid (made by us or a sibling slurmstepd). */
static bool _step_dir_is(int pages, const char *name, uid_t uid)
{
	int fd = _open_below(pages, name, DIR_FLAGS);
	bool is = fd >= 0 && _dir_is(fd, uid, 0);

	if (fd >= 0)
		close(fd);
	return is;
}

int cosched_pages_create(const char *run_dir, uint32_t job, uint32_t step,
			 uid_t uid, char *err, size_t len)
{
	char name[STEP_NAME_LEN];
	int pages, rc = -1;

	if (mkdir(run_dir, 0755) && errno != EEXIST) {
		errbuf_set(err, len, "mkdir %s: %s", run_dir,
				strerror(errno));
		return -1;
	}
	pages = _open_pages(run_dir, true);
	if (pages < 0) {
		errbuf_set(err, len, "%s or its " COSCHED_PAGES_SUBDIR ": %s (both must be directories of uid %u that no one else may write to)",
				run_dir, strerror(errno), (unsigned)geteuid());
		return -1;
	}
	_step_name(job, step, name);
	/* at most twice: a leftover of another user is removed once */
	for (int attempt = 0; attempt < 2 && rc; attempt++) {
		if (!_make_step_dir(pages, name, uid))
			rc = 0;
		else if (errno != EEXIST && errno != ENOTEMPTY)
			break;
		else if (_step_dir_is(pages, name, uid))
			rc = 0;
		else
			(void)_remove_tree(pages, name);
	}
	if (rc)
		errbuf_set(err, len, "%s/" COSCHED_PAGES_SUBDIR "/%s: %s",
				run_dir, name, strerror(errno));
	close(pages);
	return rc;
}

int cosched_pages_remove(const char *run_dir, uint32_t job, uint32_t step,
			 char *err, size_t len)
{
	char name[STEP_NAME_LEN];
	int pages = _open_pages(run_dir, false), rc;

	if (pages < 0) {
		if (errno == ENOENT)
			return 0;
		errbuf_set(err, len, "%s/" COSCHED_PAGES_SUBDIR ": %s",
				run_dir, strerror(errno));
		return -1;
	}
	_step_name(job, step, name);
	rc = _remove_tree(pages, name);
	if (rc)
		errbuf_set(err, len, "cannot remove all of %s/" COSCHED_PAGES_SUBDIR "/%s: %s",
				run_dir, name, strerror(errno));
	close(pages);
	return rc;
}

int cosched_pages_open(const char *run_dir, uint32_t job, uint32_t step,
		       uid_t uid)
{
	char name[STEP_NAME_LEN];
	int pages = _open_pages(run_dir, false), fd;

	if (pages < 0)
		return -1;
	_step_name(job, step, name);
	fd = _open_below(pages, name, DIR_FLAGS);
	close(pages);
	if (fd >= 0 && !_dir_is(fd, uid, 0)) {
		close(fd);
		errno = EPERM;
		return -1;
	}
	return fd;
}

int cosched_page_open(int dir_fd, const char *name, int access, uid_t uid)
{
	const int flags = access | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
			  O_CLOEXEC;
	struct stat st;
	/* a path (the shim's, as the user) crosses mounts to reach RUN_DIR */
	int fd = dir_fd == AT_FDCWD ? openat(dir_fd, name, flags)
				    : _open_below(dir_fd, name, flags);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != uid ||
	    st.st_nlink != 1 ||
	    st.st_size != (off_t)sizeof(struct cosched_shm)) {
		close(fd);
		errno = EPERM;
		return -1;
	}
	return fd;
}
