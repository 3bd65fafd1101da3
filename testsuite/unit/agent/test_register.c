/*
 * test_register.c - forged and replayed registrations at a real coschedd
 * (needs root).
 *
 * Checked: a process forged as root's, or as a uid the step does not
 * have, is refused; the same register twice is a harmless replay ("ok
 * ... already", listed once); a replay with other settings is refused
 * and changes nothing; one process in two steps is refused; and a pid
 * reused by a new process while the agent still holds the old one is
 * registered as the new process (its start time), not taken for a replay.
 *
 * The test runs in a PID and mount namespace of its own (with its own
 * /proc), so that it can hand a pid to a new process on purpose
 * (ns_last_pid) without racing the rest of the machine.  The agent runs
 * in there too, with a 10 s tick so that it does not prune the dead
 * process before the test registers its successor.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent_harness.h"
#include "cosched_proto/client.h"
#include "host/proc.h"
#include "tap.h"

#define REPLY_LEN 4096

static char coschedd[PATH_MAX];
static char run_dir[PATH_MAX], node[32], sock[PATH_MAX + 64];
static char state[PATH_MAX + 64];
static char reply[REPLY_LEN];

static int request(const char *line)
{
	return harness_request(sock, line, reply, sizeof(reply));
}

static int registerf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int registerf(const char *fmt, ...)
{
	char line[COSCHED_REQUEST_LEN + 1];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	return request(line);
}

/* The start time of pid as the agent reads it (agent/host/proc.c), 0: gone. */
static unsigned long long start_ticks(pid_t pid)
{
	struct proc_id id;

	return proc_identify(pid, &id) ? 0 : (unsigned long long)id.start_ticks;
}

/* How many state file entries name pid; their job and tick_us, start. */
static int state_entries(pid_t pid, long *job, long *tick, long long *start)
{
	json_object *root = json_object_from_file(state), *procs, *e, *v;
	int n = 0;

	if (!root)
		return -1;
	if (json_object_object_get_ex(root, "procs", &procs))
		for (size_t i = 0; i < json_object_array_length(procs); i++) {
			e = json_object_array_get_idx(procs, i);
			if (!json_object_object_get_ex(e, "pid", &v) ||
			    json_object_get_int(v) != pid)
				continue;
			n++;
			if (json_object_object_get_ex(e, "job", &v))
				*job = (long)json_object_get_int64(v);
			if (json_object_object_get_ex(e, "tick_us", &v))
				*tick = (long)json_object_get_int64(v);
			if (json_object_object_get_ex(e, "start", &v))
				*start = json_object_get_int64(v);
		}
	json_object_put(root);
	return n;
}

/* A child of ours that drops to nobody, then sleeps until killed. */
static pid_t nobody_sleeper(void)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		alarm(120);
		if (setgid(65534) || setuid(65534))
			_exit(3);
		for (;;)
			pause();
	}
	return pid;
}

/* Wait until pid's owner is uid (its setuid done), 5 s at most. */
static bool owned_by(pid_t pid, uid_t uid)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	for (int ms = 0; ms < 5000; ms += 20) {
		if (!stat(path, &st) && st.st_uid == uid)
			return true;
		harness_sleep_ms(20);
	}
	return false;
}

static void test_forged(pid_t child)
{
	pid_t nobody = nobody_sleeper();
	long job = 0, tick = 0;
	long long start = 0;

	ok(owned_by(nobody, 65534), "a child of ours runs as nobody");
	registerf("register job=60 step=0 uid=0 mode=pb tick_us=10000000 pid=%d rank=0",
		  (int)nobody);
	ok(strstr(reply, "does not belong to uid 0") != NULL,
	   "nobody's process forged as root's is refused (%s)", reply);
	registerf("register job=60 step=0 uid=0 mode=pb tick_us=10000000 pid=1 rank=0");
	ok(strstr(reply, "pid (>1)") != NULL, "pid 1 is refused (%s)", reply);
	registerf("register job=60 step=0 uid=0 mode=pb tick_us=10000000 pid=%d rank=0",
		  (int)child);
	ok(!strncmp(reply, "ok registered job=60 step=0", 27),
	   "root's process registers in job 60 (%s)", reply);
	registerf("register job=60 step=0 uid=65534 mode=pb tick_us=10000000 pid=%d rank=1",
		  (int)nobody);
	ok(strstr(reply, "job 60 step 0 belongs to uid 0") != NULL,
	   "another uid's process in root's step is refused (%s)", reply);
	registerf("register job=61 step=0 uid=0 mode=pb tick_us=10000000 pid=%d rank=0",
		  (int)child);
	ok(strstr(reply, "is registered with job 60 step 0") != NULL,
	   "the same process in a second step is refused (%s)", reply);
	is_int(state_entries(child, &job, &tick, &start), 1,
	       "the state file lists it once");
	is_int(job, 60, "  in job 60");
	harness_reap(nobody);
}

static void test_replay(pid_t child)
{
	long job = 0, tick = 0;
	long long start = 0;

	registerf("register job=60 step=0 uid=0 mode=pb tick_us=10000000 pid=%d rank=0",
		  (int)child);
	ok(!strncmp(reply, "ok registered job=60 step=0", 27) &&
	   strstr(reply, "already") != NULL, "a replay is harmless (%s)", reply);
	registerf("register job=60 step=0 uid=0 mode=pb tick_us=1000 pid=%d rank=0",
		  (int)child);
	ok(strstr(reply, "job 60 step 0 is registered with mode pb pb D tick_us 10000000") != NULL,
	   "a replay with another tick is refused (%s)", reply);
	registerf("register job=60 step=0 uid=0 mode=dcs tick_us=10000000 pid=%d rank=0",
		  (int)child);
	ok(strstr(reply, "is registered with mode pb") != NULL,
	   "a replay with another mode is refused (%s)", reply);
	is_int(state_entries(child, &job, &tick, &start), 1,
	       "the state file lists the process once");
	is_int(tick, 10000000, "  with the tick it came with");
	ok(start == (long long)start_ticks(child), "  and its start time");
}

/* Hand pid to a new sleeping child: pid, or -1 when the kernel did not. */
static pid_t respawn_as(pid_t pid)
{
	char last[32];
	pid_t got;

	snprintf(last, sizeof(last), "%d", (int)pid - 1);
	if (harness_write_file("/proc/sys/kernel/ns_last_pid", last))
		return -1;
	got = harness_sleeper();
	if (got != pid) {
		harness_reap(got);
		return -1;
	}
	return got;
}

static void test_reused_pid(void)
{
	pid_t old = harness_sleeper(), again;
	unsigned long long old_start = start_ticks(old);
	long job = 0, tick = 0;
	long long start = 0;

	registerf("register job=62 step=0 uid=0 mode=pb tick_us=10000000 pid=%d rank=0",
		  (int)old);
	ok(!strncmp(reply, "ok registered job=62 step=0", 27),
	   "a process registers (%s)", reply);
	harness_reap(old);
	/* a later start time: at least one clock tick later */
	harness_sleep_ms(30);
	again = respawn_as(old);
	if (!ok(again == old, "a new process gets the same pid %d", (int)old))
		return;
	ok(start_ticks(again) != old_start, "  with another start time");
	registerf("register job=62 step=0 uid=0 mode=pb tick_us=10000000 pid=%d rank=0",
		  (int)again);
	ok(!strncmp(reply, "ok registered job=62 step=0", 27) &&
	   !strstr(reply, "already"),
	   "it registers as a new process, not a replay (%s)", reply);
	is_int(state_entries(again, &job, &tick, &start), 1,
	       "the state file lists the pid once");
	ok(start == (long long)start_ticks(again),
	   "  with the new process's start time (%lld, new %llu, old %llu)",
	   start, start_ticks(again), old_start);
	harness_reap(again);
}

static int run(void)
{
	char *argv[] = { coschedd, "--node", node, "--run-dir", run_dir,
			 "--tick-us", "1000", NULL };
	pid_t agent, child;
	int status;

	agent = harness_start_agent(argv, sock);
	if (!ok(agent > 0, "the agent starts in the namespace"))
		return done_testing();
	child = harness_sleeper();
	test_forged(child);
	test_replay(child);
	test_reused_pid();
	request("end job=60 step=0");
	request("end job=62 step=0");
	ok(harness_stop_agent(agent, 10000, &status) && WIFEXITED(status) &&
	   !WEXITSTATUS(status), "the agent stops on SIGTERM");
	harness_reap(child);
	/* the guardian, ours since the agent died: reap everything */
	for (int ms = 0; ms < 5000 && waitpid(-1, NULL, WNOHANG) != -1;
	     ms += 20)
		harness_sleep_ms(20);
	return done_testing();
}

/* As init of the new PID namespace: a /proc of its own, then the tests. */
static void init_of_namespace(void)
{
	if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) ||
	    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  NULL)) {
		printf("1..0 # SKIP cannot mount /proc: %s\n", strerror(errno));
		_exit(0);
	}
	_exit(run());
}

/* Exit status of child pid, 1 when it did not exit. */
static int status_of(pid_t pid)
{
	int status;

	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/*
 * Run the tests in a new PID namespace.  A child of ours unshares, not
 * we: once the namespace's init has exited no process can be made in it,
 * and the sanitizers' leak check at our exit needs to make one.
 */
static int in_namespace(void)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (unshare(CLONE_NEWPID | CLONE_NEWNS)) {
			printf("1..0 # SKIP no PID namespace: %s\n",
			       strerror(errno));
			_exit(0);
		}
		pid = fork();
		if (pid == 0)
			init_of_namespace();
		_exit(status_of(pid));
	}
	return status_of(pid);
}

int main(int argc, char **argv)
{
	char tmpl[] = "/tmp/test_register.XXXXXX";

	(void)argc;
	harness_need_coschedd(argv[0], coschedd, sizeof(coschedd));
	if (harness_private_run_dir(tmpl, run_dir, sizeof(run_dir)))
		return 1;
	snprintf(node, sizeof(node), "r%d", (int)getpid());
	snprintf(state, sizeof(state), "%s/%s.state", run_dir, node);
	cosched_socket_path(run_dir, node, sock, sizeof(sock));
	return in_namespace();
}
