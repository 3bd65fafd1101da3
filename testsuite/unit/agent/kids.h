/*
 * kids.h - the children of the tests that drive the agent's mechanisms
 * in-process (test_proc, test_boost, test_boost_rt): forked with a ready
 * pipe, dying with the test, reaped one by one or all at once; the
 * bodies and threads they run; the "guardian" child that restores boosts
 * from struct boost_saved alone, as the agent's guardian does; and what
 * the tests read back from the kernel (a process's CPU time, the CPU to
 * pin to).  test_rt_agent, which runs the real coschedd
 * (agent_harness.h), takes the readings from here too.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TEST_AGENT_KIDS_H
#define TEST_AGENT_KIDS_H

#include <sys/types.h>

#include "boost/boost.h"	/* struct proc_id, struct boost_saved */

/* Sleep ms milliseconds, all of them (resumed after a signal). */
void kids_sleep_ms(long ms);

/* ------------------------------------------------------------ children */

/* From now on every child also ends itself after seconds (alarm), so
 * that one holding a CPU (real-time) cannot outlive a broken run; 0, the
 * default: it lives until killed. */
void kids_set_lifetime(unsigned seconds);

/*
 * In a child: die with parent (PR_SET_PDEATHSIG, and the check that
 * closes the race of a parent dying before it was set; a child left
 * behind would hold the test's stdout open and hang prove), and arm the
 * lifetime of kids_set_lifetime.
 */
void kids_die_with(pid_t parent);

/* In a child of kids_spawn: tell the test it is set up, noting its pid
 * (kids_ready) or note, and close fd.  Exits 1 when it cannot. */
void kids_ready(int fd);
void kids_ready_note(int fd, int note);

/*
 * Fork a child that runs body(fd) (kids_die_with the test; it holds no
 * guardian pipe) and wait until it is ready: its pid, with what it noted
 * in *note (may be NULL).  -1 when fork failed or the child ended before
 * it was ready (then it is reaped).  Remembered for kids_reap_all.
 */
pid_t kids_spawn(void (*body)(int fd), int *note);

/* SIGKILL to a child without reaping it (it stays a zombie); nothing for
 * pid <= 0 (never a process group). */
void kids_kill(pid_t pid);

/* SIGKILL to a child, then reap it; nothing for pid <= 0. */
void kids_reap(pid_t pid);

/* kids_reap every child of kids_spawn still there (fit for atexit). */
void kids_reap_all(void);

/* A pid that is certainly not in use: a child already reaped. */
pid_t kids_dead_pid(void);

/* A body: ready, then asleep until killed. */
void kids_body_sleep(int fd);

/* Spin on a CPU for ever. */
void kids_spin(void) __attribute__((noreturn));

/* Threads (pthread_create) that spin, or sleep, for ever. */
void *kids_thread_spin(void *arg);
void *kids_thread_sleep(void *arg);

/* ------------------------------------------------------------ guardian */

typedef int (*kids_restore_fn)(const struct proc_id *id,
			       const struct boost_saved *saved);

/*
 * Fork the guardian before anything touched libcgroup or opened a boost
 * (the first thing a test does): a child that runs restore (boost_restore;
 * passed in, so that tests without agent/boost/boost.c link this file) for
 * every request, from what it is sent alone, as the agent's guardian or
 * a restarted agent does after reading the state file.
 */
void kids_guardian_start(kids_restore_fn restore);

/* What the guardian's restore of (id, saved) returned; -99 when it did
 * not answer. */
int kids_guardian_restore(const struct proc_id *id,
			  const struct boost_saved *saved);

/* End the guardian (EOF on its pipe; SIGKILL after 5 s) and reap it. */
void kids_guardian_stop(void);

/* ------------------------------------------------------------ readings */

/* The CPU time of pid in ns (/proc/PID/schedstat), 0 if unreadable. */
unsigned long long kids_cpu_ns(pid_t pid);

/* The last CPU the test may run on (0 when unknown): where the tests of
 * RT safety pin their spinners. */
int kids_last_cpu(void);

#endif
