/*
 * test_state.c - the node agent's state file as the agent, its guardian
 * and a restarted agent use it: a private coschedd in a temporary run
 * directory that is a tiny tmpfs of its own (in a private mount
 * namespace), driven over its socket.
 *
 * Checked: with the run directory full (ENOSPC) a registration is
 * refused with a clear error, nothing is left boosted (cgroup, nice) and
 * the failure is logged once; once there is room it registers again.  A
 * state file that does not parse is kept aside (NODE.state.corrupt-TIME,
 * one log line with line and offset) and the process it still names is
 * restored, not adopted.  The processes a signal freeze stopped are
 * listed and continued, by a restarted agent and by the guardian, each
 * only if its start time matches the record (a recycled pid is left
 * alone).  A descendant orphaned while its step was stopped by signals
 * is continued by the guardian after SIGKILL of the agent.  Needs root.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent_harness.h"
#include "cosched_proto/client.h"
#include "host/proc.h"
#include "tap.h"

#define REPLY_LEN 65536
#define TMPFS_SIZE "256k"

static char coschedd[PATH_MAX];
static char run_dir[PATH_MAX], log_dir[PATH_MAX];
static char node[32], sock[PATH_MAX + 64], log_path[PATH_MAX + 64];
static char reply[REPLY_LEN];
static bool mounted;

static int request(const char *line)
{
	return harness_request(sock, line, reply, sizeof(reply));
}

/* Use node name `name` from now on (socket, log). */
static void use_node(const char *prefix)
{
	snprintf(node, sizeof(node), "%s%d", prefix, (int)getpid());
	cosched_socket_path(run_dir, node, sock, sizeof(sock));
	snprintf(log_path, sizeof(log_path), "%s/%s.log", log_dir, node);
}

/* coschedd for node with extra options (NULL-terminated), once it answers. */
static pid_t start_agent(const char *const *extra)
{
	char *argv[32] = { coschedd, "--node", node, "--run-dir", run_dir,
			   "--log", log_path, "--tick-us", "1000" };
	int argc = 9;

	for (; extra && *extra && argc < 31; extra++)
		argv[argc++] = (char *)*extra;
	argv[argc] = NULL;
	return harness_start_agent(argv, sock);
}

static void stop_agent(pid_t agent, int sig)
{
	if (agent <= 0)
		return;
	kill(agent, sig);
	waitpid(agent, NULL, 0);
}

static char state_of(pid_t pid)
{
	struct proc_brief b;

	return proc_brief(pid, &b) ? '?' : b.state;
}

static bool stopped(char state)
{
	return state == 'T' || state == 't';
}

/* Wait up to ms for pid to be (or not be) stopped. */
static bool wait_stopped(pid_t pid, bool want, int ms)
{
	for (int waited = 0; waited < ms; waited += 20) {
		if (stopped(state_of(pid)) == want)
			return true;
		harness_sleep_ms(20);
	}
	return stopped(state_of(pid)) == want;
}

static int nice_of(pid_t pid)
{
	errno = 0;
	return getpriority(PRIO_PROCESS, (id_t)pid);
}

static const char *state_text(void)
{
	static char buf[65536];
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s.state", run_dir, node);
	return tap_slurp(path, buf, sizeof(buf));
}

/* Whether the state file names pid. */
static bool state_lists(pid_t pid)
{
	for (const char *p = state_text(); *p; p++)
		if (!strncmp(p, "\"pid\":", 6)) {
			const char *v = p + 6;

			while (*v == ' ')
				v++;
			if (atoi(v) == (int)pid)
				return true;
		}
	return false;
}

/* Lines of the node's log containing what. */
static int log_count(const char *what, char *first, size_t len)
{
	char buf[65536];
	int n = 0;

	if (first)
		first[0] = '\0';
	for (char *line = (char *)tap_slurp(log_path, buf, sizeof(buf)), *end;
	     *line; line = end + 1) {
		end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line) - 1;
		else
			*end = '\0';
		if (strstr(line, what)) {
			if (first && !n)
				snprintf(first, len, "%s", line);
			n++;
		}
		if (!end[1])
			break;
	}
	return n;
}

static void write_state(const char *text)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s.state", run_dir, node);
	harness_write_file(path, text);
}

/* ---- ENOSPC ---- */

/* Fill the run directory's tmpfs; returns the errno that stopped it. */
static int fill_run_dir(const char *filler)
{
	char block[4096];
	int fd = open(filler, O_WRONLY | O_CREAT | O_TRUNC, 0600), err = 0;

	memset(block, 'x', sizeof(block));
	if (fd < 0)
		return errno;
	/* a short write fills the last page; the next one fails */
	while (write(fd, block, sizeof(block)) >= 0)
		;
	err = errno;
	close(fd);
	return err;
}

static void test_enospc(void)
{
	char line[256], filler[PATH_MAX + 16], first[1024];
	const char *const opts[] = { "--boost", "cgroup", NULL };
	char orig[512];
	pid_t agent, child;

	use_node("e");
	agent = start_agent(opts);
	ok(agent > 0, "enospc: the agent starts in a %s tmpfs", TMPFS_SIZE);
	child = harness_spinner();
	snprintf(orig, sizeof(orig), "%s", harness_cpu_cgroup(child));
	snprintf(filler, sizeof(filler), "%s/filler", run_dir);
	is_int(fill_run_dir(filler), ENOSPC, "enospc: the run directory is full");
	snprintf(line, sizeof(line),
		 "register job=61 step=0 uid=0 mode=pb pb=D pid=%d rank=0",
		 (int)child);
	request(line);
	ok(!strncmp(reply, "error:", 6) &&
	   strstr(reply, "cannot be recorded in the state file") &&
	   strstr(reply, "No space left on device") &&
	   strstr(reply, "uncoordinated"),
	   "enospc: the registration is refused, saying why (%s)", reply);
	harness_sleep_ms(300);	/* ticks that would boost it */
	is_str(harness_cpu_cgroup(child), orig,
	       "enospc: the process is not in the agent's cgroup");
	/* the child inherited ours: make check may itself run under nice */
	is_int(nice_of(child), nice_of(getpid()), "enospc: its nice is untouched");
	ok(!state_lists(child), "enospc: the state file does not list it");
	request(line);
	ok(!strncmp(reply, "error:", 6), "enospc: a second try is refused too");
	is_int(log_count("cannot write", first, sizeof(first)), 1,
	       "enospc: the failure is logged once (%s)", first);
	unlink(filler);
	request(line);
	ok(!strncmp(reply, "ok registered", 13),
	   "enospc: with room again it registers (%s)", reply);
	ok(strstr(harness_cpu_cgroup(child), "/coschedd/") && state_lists(child),
	   "enospc: now in the agent's cgroup and listed (%s)",
	   harness_cpu_cgroup(child));
	is_int(log_count("can be written again", NULL, 0), 1,
	       "enospc: the end of the episode is logged");
	stop_agent(agent, SIGTERM);
	is_str(harness_cpu_cgroup(child), orig, "enospc: SIGTERM puts it back");
	harness_reap(child);
}

/* ---- a corrupt state file ---- */

/* One entry of a state file for pid, as the agent writes them. */
static void entry_json(char *buf, size_t len, pid_t pid, uint64_t start,
		       const char *mode, const char *saved_kind,
		       const char *extra)
{
	snprintf(buf, len,
		 "    {\n"
		 "      \"job\":%d,\n      \"step\":0,\n      \"uid\":0,\n"
		 "      \"mode\":\"%s\",\n      \"pb\":\"D\",\n"
		 "      \"tick_us\":1000,\n      \"spin_ns\":0,\n"
		 "      \"pid\":%d,\n      \"start\":%llu,\n      \"rank\":0,\n"
		 "      \"attached\":%s,\n"
		 "      \"saved\":{ \"kind\":\"%s\", \"nice\":0, "
		 "\"cpu_cgroup\":\"\", \"our_cgroup\":\"\" }%s\n"
		 "    }",
		 (int)pid % 1000 + 100, mode, (int)pid,
		 (unsigned long long)start,
		 strcmp(saved_kind, "nice") ? "false" : "true", saved_kind,
		 extra ? extra : "");
}

static uint64_t start_of(pid_t pid)
{
	struct proc_id id = { 0 };

	proc_identify(pid, &id);
	return id.start_ticks;
}

/* The first NODE.state.corrupt-* of the run directory, into path. */
static bool find_aside(char *path, size_t len)
{
	char prefix[64];
	struct dirent *de;
	DIR *d = opendir(run_dir);
	bool found = false;

	snprintf(prefix, sizeof(prefix), "%s.state.corrupt-", node);
	while (d && (de = readdir(d)))
		if (!strncmp(de->d_name, prefix, strlen(prefix))) {
			snprintf(path, len, "%s/%s", run_dir, de->d_name);
			found = true;
			break;
		}
	if (d)
		closedir(d);
	return found;
}

static void test_corrupt(void)
{
	char entry[2048], text[4096], aside[PATH_MAX + 512] = "", kept[4096];
	char first[1024], want[64];
	pid_t agent, x = harness_spinner();
	int lines = 1;

	use_node("c");
	setpriority(PRIO_PROCESS, (id_t)x, 7);	/* as if demoted */
	entry_json(entry, sizeof(entry), x, start_of(x), "pb", "nice", NULL);
	/* truncated in the second entry, as by a full disk or a bad copy */
	snprintf(text, sizeof(text),
		 "{\n  \"node\":\"%s\",\n  \"agent_pid\":1,\n  \"procs\":[\n%s,\n"
		 "    {\n      \"job\":9,\n      \"st", node, entry);
	for (const char *p = text; *p; p++)
		lines += *p == '\n';
	write_state(text);
	agent = start_agent(NULL);
	ok(agent > 0, "corrupt: the agent starts over a truncated state file");
	is_int(nice_of(x), 0,
	       "corrupt: the process it still names is restored (nice 0)");
	ok(find_aside(aside, sizeof(aside)) &&
	   !strcmp(tap_slurp(aside, kept, sizeof(kept)), text),
	   "corrupt: the file is kept aside, unchanged (%s)", aside);
	snprintf(want, sizeof(want), "at line %d (offset %zu)", lines,
		 strlen(text));
	ok(log_count("is corrupt", first, sizeof(first)) == 1 &&
	   strstr(first, node) && strstr(first, want) &&
	   strstr(first, ".corrupt-"),
	   "corrupt: one log line names the file, %s and where it is kept (%s)",
	   want, first);
	ok(strstr(state_text(), "\"procs\"") && !state_lists(x),
	   "corrupt: a new, empty state file; the process is not re-adopted");
	harness_sleep_ms(200);
	is_int(nice_of(x), 0, "corrupt: and nothing boosts it");
	stop_agent(agent, SIGTERM);
	unlink(aside);
	harness_reap(x);
}

/* ---- what signals stopped: recorded, continued by start time ---- */

/* A state file of one signal-frozen membus step: m, stopped ids. */
static void write_stopped_state(pid_t m, pid_t a, uint64_t a_start, pid_t b,
				uint64_t b_start)
{
	char extra[256], entry[2048], text[4096];

	snprintf(extra, sizeof(extra),
		 ",\n      \"freeze\":\"signal\",\n      \"freezer\":\"\",\n"
		 "      \"stopped\":[ [%d, %llu], [%d, %llu] ]",
		 (int)a, (unsigned long long)a_start, (int)b,
		 (unsigned long long)b_start);
	entry_json(entry, sizeof(entry), m, start_of(m), "membus", "auto",
		   extra);
	snprintf(text, sizeof(text),
		 "{\n  \"node\":\"%s\",\n  \"agent_pid\":1,\n  \"procs\":[\n%s\n  ]\n}\n",
		 node, entry);
	write_state(text);
}

static void test_recorded_stops(void)
{
	pid_t agent, m = harness_spinner(), a = harness_spinner();
	pid_t b = harness_spinner();

	use_node("s");
	kill(a, SIGSTOP);
	kill(b, SIGSTOP);
	wait_stopped(a, true, 2000);
	wait_stopped(b, true, 2000);
	/* b's recorded start differs: the pid names another process now */
	write_stopped_state(m, a, start_of(a), b, start_of(b) + 7);
	agent = start_agent(NULL);
	ok(agent > 0, "stops: the agent starts over a state file with stopped processes");
	ok(wait_stopped(a, false, 3000),
	   "stops: a restarted agent continues a process recorded as stopped");
	ok(stopped(state_of(b)),
	   "stops: and leaves alone one whose start time differs from the record (%c)",
	   state_of(b));
	kill(a, SIGSTOP);
	wait_stopped(a, true, 2000);
	write_stopped_state(m, a, start_of(a), b, start_of(b) + 7);
	stop_agent(agent, SIGKILL);
	ok(wait_stopped(a, false, 5000),
	   "stops: after SIGKILL of the agent the guardian continues it");
	ok(stopped(state_of(b)),
	   "stops: the guardian too leaves the recycled pid alone (%c)",
	   state_of(b));
	harness_reap(m);
	harness_reap(a);
	harness_reap(b);
}

/* ---- an orphan of a signal-frozen step, after SIGKILL of the agent ---- */

struct tree {
	volatile pid_t child, grandchild;
};

/* A spinner with a spinning child with a spinning grandchild. */
static pid_t spin_tree(struct tree *t)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		pid_t child;

		alarm(120);
		child = fork();
		if (child == 0) {
			pid_t grandchild = fork();

			if (grandchild > 0)
				t->grandchild = grandchild;
			for (;;)
				;
		}
		t->child = child;
		for (;;)
			;
	}
	for (int i = 0; i < 200 && !(t->child > 0 && t->grandchild > 0); i++)
		harness_sleep_ms(10);
	return pid;
}

static void test_orphan_guardian(void)
{
	char self[96], port_text[16], line[512];
	const char *opts[] = { "--membus-quantum-ms", "300", "--cpus", "1",
			       "--membus-mem", "1G", "--membus-net", "1G",
			       "--freeze", "signal", NULL };
	struct tree *t = mmap(NULL, sizeof(*t), PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int port = harness_free_udp_port();
	pid_t agent, m, other, orphan;

	use_node("o");
	if (t == MAP_FAILED || port < 0) {
		skip(5, "no shared memory or UDP port");
		return;
	}
	snprintf(port_text, sizeof(port_text), "%d", port);
	agent = start_agent(opts);
	ok(agent > 0, "orphan: a membus agent freezing by signals starts");
	m = spin_tree(t);
	other = harness_spinner();
	snprintf(self, sizeof(self), "%s@127.0.0.1:%d", node, port);
	for (int job = 70; job <= 71; job++) {
		snprintf(line, sizeof(line),
			 "membus job=%d step=0 nnodes=1 self=%s coord=%s", job,
			 self, self);
		request(line);
		snprintf(line, sizeof(line),
			 "register job=%d step=0 uid=0 mode=membus pid=%d rank=0",
			 job, (int)(job == 70 ? m : other));
		request(line);
	}
	if (!ok(t->child > 0 && t->grandchild > 0 &&
		wait_stopped(t->grandchild, true, 10000),
		"orphan: the step with the tree is frozen, its grandchild too")) {
		skip(3, "no frozen tree");
		stop_agent(agent, SIGKILL);
		harness_reap(t->grandchild);
		harness_reap(m);
		harness_reap(other);
		return;
	}
	orphan = t->grandchild;
	kill(t->child, SIGKILL);	/* the grandchild comes to us */
	stop_agent(agent, SIGKILL);
	for (int i = 0; i < 100 && state_of(t->child) != 'Z' &&
			state_of(t->child) != '?'; i++)
		harness_sleep_ms(20);
	ok(state_of(t->child) == 'Z' || state_of(t->child) == '?',
	   "orphan: its parent is gone");
	ok(wait_stopped(orphan, false, 5000),
	   "orphan: after SIGKILL of the agent the orphan runs again");
	ok(wait_stopped(m, false, 5000) && !stopped(state_of(other)),
	   "orphan: and so do the steps' processes");
	harness_reap(orphan);
	harness_reap(m);
	harness_reap(other);
	munmap(t, sizeof(*t));
}

static int mount_run_dir(void)
{
	if (unshare(CLONE_NEWNS) ||
	    mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) ||
	    mount("coschedd-test", run_dir, "tmpfs", MS_NOSUID | MS_NODEV,
		  "size=" TMPFS_SIZE ",mode=0755"))
		return -1;
	mounted = true;
	return 0;
}

static void cleanup(void)
{
	char cmd[2 * PATH_MAX + 32];

	if (mounted && !umount2(run_dir, MNT_DETACH))
		mounted = false;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", run_dir, log_dir);
	(void)!system(cmd);
}

int main(int argc, char **argv)
{
	char run_tmpl[] = "/tmp/test_state.XXXXXX";
	char log_tmpl[] = "/tmp/test_state_log.XXXXXX";

	(void)argc;
	harness_need_coschedd(argv[0], coschedd, sizeof(coschedd));
	if (!mkdtemp(run_tmpl) || !mkdtemp(log_tmpl))
		return 1;
	snprintf(run_dir, sizeof(run_dir), "%s", run_tmpl);
	snprintf(log_dir, sizeof(log_dir), "%s", log_tmpl);
	if (mount_run_dir()) {
		printf("1..0 # SKIP cannot mount a tmpfs in a private mount namespace: %s\n",
		       strerror(errno));
		cleanup();
		return 0;
	}
	/* Orphans come back to us to be reaped. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);

	test_enospc();
	test_corrupt();
	test_recorded_stops();
	test_orphan_guardian();

	cleanup();
	ok(!mounted, "the run directory's tmpfs is unmounted");
	return done_testing();
}
