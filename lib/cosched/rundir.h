/*
 * rundir.h - opening the agent's run directory (RUN_DIR of pages.h: its
 * socket, pid file, state file and the shim's pages), the one rule for
 * the agent and slurmstepd.
 *
 * Root creates files there that users then trust, and reads back what
 * it wrote: a directory another user may write to, or one reached
 * through a link another user made, would let that user swap them.  So
 * the path is walked from "/" one component at a time, each opened
 * relative to its parent with O_DIRECTORY | O_NOFOLLOW and checked on
 * the descriptor: no component may be a symbolic link (give the real
 * path), each must be owned by root or the caller's effective uid, the
 * ones above may be writable by group or others only when sticky (/tmp:
 * nobody else can rename what root made there), and RUN_DIR itself by
 * nobody else, sticky or not.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_COSCHED_RUNDIR_H
#define COALLOC_COSCHED_RUNDIR_H

#include <stdbool.h>
#include <stddef.h>

/* The mode RUN_DIR is created with: the shim's users pass through it. */
#define COSCHED_RUN_DIR_MODE 0755

/*
 * A descriptor of run_dir (O_DIRECTORY, close-on-exec) once every
 * component passed the checks above; make: its last component is created
 * COSCHED_RUN_DIR_MODE when missing.  Files in it are then to be opened
 * relative to the descriptor with O_NOFOLLOW.  -1 with errno (EPERM for
 * a refusal) and a message naming the component in err (err may be
 * NULL).
 */
int cosched_run_dir_open(const char *run_dir, bool make, char *err,
			 size_t err_len);

#endif /* COALLOC_COSCHED_RUNDIR_H */
