/*
 * agent_harness.h - what the tests that run the real coschedd share
 * (test_coschedd, test_guardian, test_membus_peers, test_pages,
 * test_state, test_rt_agent): finding the built agent, starting it and
 * talking to it over its socket, its log and its guardian, busy children
 * to register, a process's cgroups, a free UDP port for membus, and the
 * small waits and file writes around them.  (A private munged is in
 * fixture.h.)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef AGENT_HARNESS_H
#define AGENT_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * A private run directory from tmpl ("/tmp/NAME.XXXXXX", mkdtemp, mode
 * 0755 so that nobody else may write in it) into buf.  It is removed at
 * exit, after the children given to harness_keep() were killed and
 * reaped, whatever happens.  Returns 0 or -1.
 */
int harness_private_run_dir(char *tmpl, char *buf, size_t len);

/* Remember pid (a child of ours) for the exit; returns pid. */
pid_t harness_keep(pid_t pid);

/* "Bail out! ..." (TAP) and exit 1. */
void harness_bail_out(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/* CLOCK_MONOTONIC in ns (the agent's clock). */
uint64_t harness_now_ns(void);

/* Sleep ms milliseconds (the polling step of the waits in these tests). */
void harness_sleep_ms(int ms);

/*
 * The coschedd built beside the test (BUILD/sbin/coschedd, the test being
 * BUILD/tests/agent/X.t), from the test's argv[0], into buf.  Skips the
 * whole test (a TAP plan of 0, exit 0) unless we are root (the agent
 * refuses otherwise) and that coschedd is there.
 */
void harness_need_coschedd(const char *argv0, char *buf, size_t len);

/* Send line to the agent at sock, waiting timeout_ms at most; the reply,
 * without its last newline, lands in reply.  Returns the client's result
 * (0: answered). */
int harness_request_within(const char *sock, const char *line, char *reply,
			   size_t len, int timeout_ms);

/* harness_request_within 3 s. */
int harness_request(const char *sock, const char *line, char *reply,
		    size_t len);

/* Start coschedd as argv (argv[0] its path) and wait until it answers
 * ping at sock, 5 s at most.  Returns its pid, or -1 (then it is killed
 * and reaped).  Without --log in argv it logs to RUN_DIR/NODE.log, as
 * the plugin's agents do (the tests read that file). */
pid_t harness_start_agent(char *const argv[], const char *sock);

/* The same, running prepare(arg) in the child before exec (it exits 126
 * when prepare fails): to put the agent into a cgroup, set its
 * environment. */
pid_t harness_start_agent_prepared(char *const argv[], const char *sock,
				   int (*prepare)(void *arg), void *arg);

/* The same with argv as given: no --log added (test_syslog). */
pid_t harness_start_agent_as_given(char *const argv[], const char *sock,
				   int (*prepare)(void *arg), void *arg);

/* The log of the agent of node under run_dir (RUN_DIR/NODE.log, where
 * harness_start_agent has it log) has a line containing text. */
bool harness_log_has(const char *run_dir, const char *node, const char *text);

/* The running (not a zombie) child of agent named coschedd-guard, its
 * guardian, or 0. */
pid_t harness_guardian_of(pid_t agent);

/* SIGTERM to the agent, a child of ours, and wait ms for it to exit:
 * true with its wait status in *status; false (then it is killed and
 * reaped) when it did not exit in time. */
bool harness_stop_agent(pid_t agent, int ms, int *status);

/* A child spinning on a CPU (ends itself after 120 s). */
pid_t harness_spinner(void);

/* A child sleeping until killed (ends itself after 120 s). */
pid_t harness_sleeper(void);
/* A process that cannot stop until its child goes (a vfork parent waits
 * uninterruptibly: ps says D, and SIGSTOP waits): kill *child to let it.
 * Reap it with harness_reap. */
pid_t harness_slow_to_stop(pid_t *child);
/* The state letter of pid in /proc/PID/stat (R, S, D, T, Z, ...), '?'
 * when it cannot be read (gone). */
char harness_proc_state(pid_t pid);
/* Whether pid is in uninterruptible sleep (D) within ms.  Not so under
 * valgrind, which runs vfork as fork: tests of a slow stop skip then. */
bool harness_in_d(pid_t pid, int ms);

/* SIGKILL (and SIGCONT, should it be stopped) to a child of ours, then
 * reap it.  Nothing for pid <= 0 (never a process group). */
void harness_reap(pid_t pid);

/* The group of pid in the cgroup v1 hierarchy of controller ctrl ("cpu",
 * "freezer") as /proc shows it; "?" when unreadable or not there.  A
 * static buffer, overwritten by the next call. */
const char *harness_cgroup(pid_t pid, const char *ctrl);

/* harness_cgroup(pid, "cpu"). */
const char *harness_cpu_cgroup(pid_t pid);

/* A free UDP port on loopback (bound, read, released), or -1. */
int harness_free_udp_port(void);

/* A shim page (cosched/shm.h) as the shim fills it at creation, size
 * bytes long, at path (created, never followed); 0 or -1. */
int harness_write_page(const char *path, pid_t pid, int rank, uint32_t job,
		       uint32_t step, size_t size);

/* Write text to path (created or truncated); 0 or -1. */
int harness_write_file(const char *path, const char *text);

/* mkdir -p path (mode 0755); 0 or -1. */
int harness_mkdir_p(const char *path);

/* Whether the connected socket fd sees its peer close within ms: EOF,
 * or a reset (a socket closed with unread data in it sends RST). */
bool harness_closed_within(int fd, int ms);

/* utime + stime of pid in clock ticks (all its threads), 0 when gone. */
uint64_t harness_cpu_ticks(pid_t pid);

/* The agent's tick count ("ticks" of status json), -1 when unanswered. */
int64_t harness_agent_ticks(const char *sock);

/* The agent at sock answers ping within 2 s, every 250 ms for ms, and
 * ticks meanwhile (how many in *ticks_gained): it is not stalled. */
bool harness_responsive_for(const char *sock, int ms, int64_t *ticks_gained);

#define HARNESS_FUSERMOUNT "/usr/bin/fusermount3"

/* The stallfs built beside the test into stallfs; skips the whole test
 * (a TAP plan of 0) where /dev/fuse, fusermount3 or /etc/fuse.conf is
 * missing. */
void harness_need_fuse(const char *argv0, char *stallfs, size_t len);

/*
 * Put this process into a mount namespace of its own where users can
 * mount FUSE file systems as on a stock Debian node: /dev/fuse 0666 (udev
 * makes it so; some containers have it 0600), a node of that mode made
 * under dir and bound over it; with allow_other, an /etc/fuse.conf
 * saying user_allow_other bound over the host's (which stays untouched).
 * Returns 0 or -1 (errno).
 */
int harness_fuse_namespace(const char *dir, bool allow_other);

#endif /* AGENT_HARNESS_H */
