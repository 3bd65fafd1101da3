/*
 * pages.h - where the MPI shim's pages (shm.h) live and how each party
 * opens them, in one place for slurmstepd (the SPANK plugin), the node
 * agent and the shim.
 *
 *   RUN_DIR/pages            root's, mode 0711: nobody else creates here
 *   RUN_DIR/pages/JOB.STEP   the step's directory: the job's user, 0700
 *   RUN_DIR/pages/JOB.STEP/RANK   a process's page: the user, 0600
 *   RUN_DIR/pages/JOB.STEP/RANK.wake   its wake socket (AF_UNIX datagram)
 *
 * RUN_DIR is the agent's run directory (root's, not writable by others,
 * as for its socket and state file).  slurmstepd makes the step's
 * directory before the tasks start and removes it when the step ends;
 * the shim learns it from COSCHED_PAGE_DIR.  Since no other user can
 * create or enter it, nobody can squat a page name, and a page found
 * there is the job's own.  What the job's user puts there is still
 * hostile to root: the agent opens a page without following links and
 * without blocking (a FIFO), checks what it opened, and reads it with
 * pread (a file truncated later gives a short read, never SIGBUS).  The
 * wake socket, where same-host senders send one byte to wake a receiver
 * asleep in SB, is reachable by the job's user alone for the same reason:
 * what arrives there is at worst a spurious wake of the user's own rank.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_COSCHED_PAGES_H
#define COALLOC_COSCHED_PAGES_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define COSCHED_PAGES_SUBDIR "pages"
#define COSCHED_PAGE_DIR_ENV "COSCHED_PAGE_DIR"

/* "RUN_DIR/pages/JOB.STEP" into buf: 0, or -1 when it does not fit. */
int cosched_page_dir_path(const char *run_dir, uint32_t job, uint32_t step,
			  char *buf, size_t len);

/* The file name of rank's page in its step's directory: 0, or -1. */
int cosched_page_name(int rank, char *buf, size_t len);

/* The name of rank's wake socket in its step's directory: 0, or -1. */
int cosched_wake_name(int rank, char *buf, size_t len);

/*
 * slurmstepd (root): make the step's directory for uid, or take the one
 * another slurmstepd of the step on this host made; a leftover of
 * another user is replaced.  0, or -1 with the reason in err.
 */
int cosched_pages_create(const char *run_dir, uint32_t job, uint32_t step,
			 uid_t uid, char *err, size_t len);

/* Remove the step's directory and whatever it holds: 0, or -1 (err). */
int cosched_pages_remove(const char *run_dir, uint32_t job, uint32_t step,
			 char *err, size_t len);

/*
 * The agent: the step's directory, O_DIRECTORY, after checking that
 * RUN_DIR/pages is ours and the step's directory uid's; -1 otherwise
 * (EXDEV, asking nothing of it, when a file system is mounted over it).
 */
int cosched_pages_open(const char *run_dir, uint32_t job, uint32_t step,
		       uid_t uid);

/*
 * Open the page name relative to dir_fd (AT_FDCWD: a path) with access
 * (O_RDONLY or O_RDWR), never blocking, following no link, close-on-exec,
 * and, relative to a directory, never into another mount (a FUSE file
 * system of the user's mounted over the page: EXDEV);
 * kept only when it is a regular file of uid with one link and exactly
 * the size of struct cosched_shm.  The fd, or -1.
 */
int cosched_page_open(int dir_fd, const char *name, int access, uid_t uid);

#endif /* COALLOC_COSCHED_PAGES_H */
