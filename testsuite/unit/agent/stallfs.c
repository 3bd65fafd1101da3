/*
 * stallfs.c - a hostile FUSE file system for test_arrivals_fuse: one
 * empty regular file "f" whose operations, once it has been opened,
 * are left unanswered as a user's program may leave them.
 *
 *   stallfs MOUNTPOINT getattr|flush|open READY_FD [allow_other]
 *
 * getattr: GETATTR of f never answered (its attributes expire at once,
 * so every stat asks); flush: FLUSH of f never answered (every close()
 * of a descriptor of it waits); open: OPEN and OPENDIR of anything never
 * answered, the root being a directory or a regular file as the mount
 * point is (test_pages_fuse mounts over a step's page directory and
 * over a page).  Mounted the way an ordinary user
 * mounts (through the setuid fusermount3 when not root); "k" is written
 * to READY_FD once mounted.  Ends by a signal, or after 120 s: its death
 * aborts the connection and with it every request left waiting.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define FUSE_USE_VERSION 34
#include <errno.h>
#include <fuse_lowlevel.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FILE_INO 2
#define FILE_NAME "f"

static bool stall_getattr, stall_flush, stall_open;
static mode_t root_type = S_IFDIR;	/* the mount point's */
static bool opened;		/* f was opened: the stalls begin */

static void _attr(fuse_ino_t ino, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = ino;
	st->st_uid = getuid();
	st->st_gid = getgid();
	st->st_mode = ino == FUSE_ROOT_ID ? root_type | 0755 : S_IFREG | 0644;
	st->st_nlink = ino == FUSE_ROOT_ID && root_type == S_IFDIR ? 2 : 1;
}

static void _lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e;

	if (parent != FUSE_ROOT_ID || strcmp(name, FILE_NAME)) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	memset(&e, 0, sizeof(e));
	e.ino = FILE_INO;
	e.attr_timeout = 0;	/* every stat asks us */
	e.entry_timeout = 3600;
	_attr(FILE_INO, &e.attr);
	fuse_reply_entry(req, &e);
}

static void _getattr(fuse_req_t req, fuse_ino_t ino,
		     struct fuse_file_info *fi)
{
	struct stat st;

	(void)fi;
	if (ino == FILE_INO && opened && stall_getattr)
		return;		/* never answered */
	_attr(ino, &st);
	fuse_reply_attr(req, &st, 0);
}

static void _open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	if (stall_open)
		return;		/* never answered */
	if (ino == FUSE_ROOT_ID && root_type == S_IFREG) {
		fuse_reply_open(req, fi);
		return;
	}
	if (ino != FILE_INO) {
		fuse_reply_err(req, EISDIR);
		return;
	}
	opened = true;
	fuse_reply_open(req, fi);
}

static void _opendir(fuse_req_t req, fuse_ino_t ino,
		     struct fuse_file_info *fi)
{
	(void)ino;
	if (stall_open)
		return;		/* never answered */
	fuse_reply_open(req, fi);
}

static void _flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino;
	(void)fi;
	if (opened && stall_flush)
		return;		/* never answered */
	fuse_reply_err(req, 0);
}

static void _release(fuse_req_t req, fuse_ino_t ino,
		     struct fuse_file_info *fi)
{
	(void)ino;
	(void)fi;
	fuse_reply_err(req, 0);
}

static const struct fuse_lowlevel_ops ops = {
	.lookup = _lookup,
	.getattr = _getattr,
	.open = _open,
	.opendir = _opendir,
	.flush = _flush,
	.release = _release,
};

int main(int argc, char **argv)
{
	char *fargv[] = { argv[0], "-o", "allow_other", NULL };
	struct fuse_args args = FUSE_ARGS_INIT(1, fargv);
	struct fuse_session *se;
	struct stat mp;
	int ready;

	if (argc < 4 || (strcmp(argv[2], "getattr") && strcmp(argv[2], "flush") &&
			 strcmp(argv[2], "open")) || stat(argv[1], &mp)) {
		fprintf(stderr, "usage: stallfs MOUNTPOINT getattr|flush|open READY_FD [allow_other]\n");
		return 2;
	}
	stall_getattr = !strcmp(argv[2], "getattr");
	stall_flush = !strcmp(argv[2], "flush");
	stall_open = !strcmp(argv[2], "open");
	root_type = mp.st_mode & S_IFMT;
	ready = atoi(argv[3]);
	if (argc > 4 && !strcmp(argv[4], "allow_other"))
		args.argc = 3;
	alarm(120);	/* never outlive a broken test */
	se = fuse_session_new(&args, &ops, sizeof(ops), NULL);
	if (!se || fuse_session_mount(se, argv[1]))
		return 1;
	if (write(ready, "k", 1) != 1)
		return 1;
	close(ready);
	return fuse_session_loop(se) ? 1 : 0;
}
