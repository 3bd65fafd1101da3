/*
 * proc.h - what the node agent reads of a process in /proc, and the
 * checks that prove a process belongs to a job before anything touches it.
 *
 * A pid alone proves nothing (pids are reused): a process is identified by
 * pid and start time (field 22 of /proc/PID/stat), and every action first
 * checks that the pair still matches.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHEDD_PROC_H
#define COSCHEDD_PROC_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct proc_id {
	pid_t pid;
	uint64_t start_ticks;	/* start time, clock ticks after boot */
};

struct proc_sample {
	char state;		/* R, S, D, T, Z, ... */
	int cpu;		/* CPU it last ran on */
	uint64_t cpu_ns;	/* utime + stime, all threads */
	uint64_t age_ns;	/* time since it started */
	uint64_t ctx_switches;	/* voluntary + involuntary, main thread */
};

/* Fill id for pid.  Returns 0, or -1 when the process does not exist. */
int proc_identify(pid_t pid, struct proc_id *id);

/* Whether id still names the same live process (not a zombie). */
bool proc_alive(const struct proc_id *id);

/*
 * For hot paths: an open handle on id's /proc/PID/stat, checked through
 * the handle itself to name id.  Reads through it fail once that process
 * is reaped, even if its pid is reused, so proc_alive_fd() re-checks id
 * for the price of a read (no path lookup).  Returns the fd (the caller
 * closes it) or -1 when id is not alive.
 */
int proc_open(const struct proc_id *id);

/* Whether the process behind fd from proc_open() is alive (not a zombie). */
bool proc_alive_fd(int fd);

/*
 * Whether pid is ancestor or a descendant of it, following parent pids in
 * /proc (at most 64 steps).  Returns 1, 0, or -1 when pid is gone.
 */
int proc_descends_from(pid_t pid, pid_t ancestor);

/* What one read of /proc/PID/stat says of a process's place. */
struct proc_brief {
	char state;		/* R, S, D, T, Z, ... */
	pid_t ppid;
	uint64_t start_ticks;
};

/* Returns 0, or -1 when pid is gone (or its stat unreadable). */
int proc_brief(pid_t pid, struct proc_brief *brief);

/* Real uid of a process.  Returns 0 or -1. */
int proc_uid(pid_t pid, uid_t *uid);

/*
 * The same checks for an identified process: a pid may be reused between
 * any two reads, so each reads by pid and then re-checks that id is still
 * alive under its start time.  A pid holds one process from fork to reap,
 * so a process that is id both before and after the read was id during
 * it.  proc_owner: 0, or -1 when id is gone (or unreadable).
 * proc_id_descends_from: as proc_descends_from(), -1 when id is gone.
 */
int proc_owner(const struct proc_id *id, uid_t *uid);
int proc_id_descends_from(const struct proc_id *id, pid_t ancestor);

/*
 * Send sig to id and nothing else.  Through a pidfd (pidfd_open, then the
 * start time checked: the pidfd then names id for good), or where there
 * is none (an old kernel, valgrind) by kill() right after the check.
 * Returns 0, or -1 when id is gone or the signal failed.
 */
int proc_signal(const struct proc_id *id, int sig);

/*
 * The live processes of the trees under roots (the live roots themselves
 * included, a root matched by pid and start time), read from one scan of
 * /proc, as a malloc'ed array the caller frees.  Returns 0, or -1 when
 * /proc is unreadable (or out of memory).
 */
int proc_tree(const struct proc_id *roots, size_t n, struct proc_id **ids,
	      size_t *nids);

/* A sample of a live process.  Returns 0, or -1 when id is stale. */
int proc_sample(const struct proc_id *id, struct proc_sample *sample);

/*
 * /proc/PID/fd entries read per scan (proc_socket_inodes, _rx_bytes,
 * arrivals.c): a job's process may hold as many descriptors as its
 * RLIMIT_NOFILE allows (up to fs.nr_open, a million by default), each
 * entry a readlink; sockets past the first PROC_FD_SCAN_MAX are not seen.
 */
#define PROC_FD_SCAN_MAX 1024

/*
 * Bytes waiting, unread, in the receive queues of the process's TCP
 * sockets (matched by inode from /proc/PID/fd against /proc/net/tcp and
 * tcp6 of its network namespace): the agent's view of messages from other
 * hosts.  Returns 0 and sets *bytes, or -1 when unreadable.
 */
int proc_socket_rx_bytes(pid_t pid, uint64_t *bytes);

/*
 * The inodes of pid's sockets (the "socket:[INODE]" links among the
 * first PROC_FD_SCAN_MAX entries of /proc/PID/fd), sorted ascending, in a malloc'ed array the caller frees
 * (NULL when there are none).  Returns 0, or -1 when unreadable.
 */
int proc_socket_inodes(pid_t pid, uint64_t **inodes, size_t *n);

/*
 * Call fn(fd, inode, arg) for every socket among the first max_entries
 * entries of /proc/PID/fd (0: all), fd its number in pid; fn returning
 * nonzero stops the walk (< 0: an error).  Returns 0, or -1 when the
 * directory is unreadable or fn failed.
 */
int proc_for_each_socket(pid_t pid, size_t max_entries,
			 int (*fn)(int fd, uint64_t inode, void *arg),
			 void *arg);

/*
 * A pidfd (pidfd_open(2), close-on-exec) that names id for good: opened,
 * then id's start time checked.  Returns it, or -1 when id is gone or the
 * kernel has no pidfds.
 */
int proc_pidfd(const struct proc_id *id);

/*
 * Call fn(tid, arg) for every thread of pid; fn returning nonzero stops
 * the walk.  Returns the number of threads visited (the one that stopped
 * it included), or -1 when the task list cannot be read.
 */
int proc_for_each_thread(pid_t pid, int (*fn)(pid_t tid, void *arg),
			 void *arg);

/*
 * The tasks running or runnable (state R) on the node now, the caller
 * among them while it reads: the "running/total" field of /proc/loadavg.
 * Returns 0, or -1 when unreadable (the caller keeps its last value).
 */
int proc_running(uint32_t *running);

/* That field of a /proc/loadavg text.  Returns 0, or -1 when malformed. */
int proc_loadavg_running(const char *text, uint32_t *running);

#endif /* COSCHEDD_PROC_H */
