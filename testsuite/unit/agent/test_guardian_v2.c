/*
 * test_guardian_v2.c - the guardian's promise on a cgroup v2 hierarchy:
 * when the agent dies, nothing is left frozen or demoted.
 *
 * An agent killed mid-quantum: a private coschedd runs two MemBUS steps
 * on one CPU, freezing through cgroup.freeze on a cgroup2 mount the test
 * makes (a private mount namespace the agent inherits; --cgroup2-root).
 * Once a step's group reads "frozen 1" the agent gets SIGKILL: its
 * guardian must thaw it from the state file, and both steps run again.
 *
 * A weight left behind: an agent boosting by cgroup2 (cpu.weight, v2's
 * cpu controller being bound to v1 here, against a directory tree that
 * mimics cgroupfs) attaches a process of a Slurm-shaped v2 task group in
 * place.  The agent is stopped, the group's weight set as a boost would
 * have left it, and the agent killed: the guardian puts the weight back.
 *
 * Both agents name their mechanisms in `status` (text and JSON).  Needs
 * root; skipped when the cgroup2 mount fails.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
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
#include "tap.h"

#define WAIT_MS 10000	/* generous: a loaded 2-core machine */

static char coschedd[PATH_MAX], tmp_dir[64], run_dir[96], mnt[96],
	    mimic[96], node[32], sock[PATH_MAX + 64];
static char reply[16384];
static bool mounted;

static int request(const char *line)
{
	reply[0] = '\0';
	return harness_request(sock, line, reply, sizeof(reply));
}

static void use_node(const char *prefix)
{
	snprintf(node, sizeof(node), "%s%d", prefix, (int)getpid());
	cosched_socket_path(run_dir, node, sock, sizeof(sock));
}

static pid_t start_agent(const char *const *extra)
{
	char *argv[32] = { coschedd, "--node", node, "--run-dir", run_dir,
			   "--tick-us", "1000" };
	int argc = 7;

	for (; *extra && argc < 31; extra++)
		argv[argc++] = (char *)*extra;
	argv[argc] = NULL;
	return harness_start_agent(argv, sock);
}

static void kill_agent(pid_t agent)
{
	if (agent <= 0)
		return;
	kill(agent, SIGKILL);
	waitpid(agent, NULL, 0);
}

/* CPU ticks pid has used (utime + stime), or -1. */
static long long cpu_ticks(pid_t pid)
{
	char path[32], buf[1024], *p;
	long long ut, st;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	p = strrchr(tap_slurp(path, buf, sizeof(buf)), ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lld %lld",
			 &ut, &st) != 2)
		return -1;
	return ut + st;
}

/* Whether pid uses CPU time within WAIT_MS (it runs, not frozen). */
static bool runs(pid_t pid)
{
	long long before = cpu_ticks(pid);

	for (int ms = 0; ms < WAIT_MS; ms += 20) {
		if (cpu_ticks(pid) > before)
			return true;
		harness_sleep_ms(20);
	}
	return false;
}

/* Whether dir's cgroup.events says "frozen 1" (want) within ms. */
static bool frozen_within(const char *dir, bool want, int ms)
{
	char path[PATH_MAX], text[256];

	snprintf(path, sizeof(path), "%s/cgroup.events", dir);
	for (int waited = 0; waited <= ms; waited += 10) {
		if ((strstr(tap_slurp(path, text, sizeof(text)), "frozen 1") !=
		     NULL) == want)
			return true;
		harness_sleep_ms(10);
	}
	return false;
}

/* ------------------------------------------------------------ freeze */

#define TESTS_FREEZE 7

static void test_killed_mid_quantum(void)
{
	const char *opts[] = { "--membus-quantum-ms", "300", "--cpus", "1",
			       "--membus-mem", "1G", "--membus-net", "1G",
			       "--freeze", "auto", "--cgroup2-root", mnt, NULL };
	char line[512], self[96], groups[2][PATH_MAX], state[PATH_MAX],
	     text[8192];
	pid_t agent, kids[2] = { 0, 0 };
	int port = harness_free_udp_port(), frozen = -1;

	use_node("v");
	agent = port > 0 ? start_agent(opts) : -1;
	if (!ok(agent > 0, "freeze: a membus agent with --cgroup2-root starts")) {
		skip(TESTS_FREEZE - 1, "no agent");
		return;
	}
	ok(!request("status json") &&
	   strstr(reply, "\"freeze\":\"cgroup-v2 cgroup.freeze\""),
	   "freeze: status --json names cgroup-v2 cgroup.freeze (auto, v2 being the node's main hierarchy)");
	ok(!request("status") &&
	   strstr(reply, "freeze cgroup-v2 cgroup.freeze"),
	   "freeze: and so does the text status");
	snprintf(self, sizeof(self), "%s@127.0.0.1:%d", node, port);
	for (int i = 0; i < 2; i++) {
		kids[i] = harness_spinner();
		snprintf(line, sizeof(line),
			 "membus job=%d step=0 nnodes=1 self=%s coord=%s",
			 80 + i, self, self);
		request(line);
		snprintf(line, sizeof(line),
			 "register job=%d step=0 uid=0 mode=membus pid=%d rank=0",
			 80 + i, (int)kids[i]);
		request(line);
		snprintf(groups[i], sizeof(groups[i]), "%s/coschedd/%s/%d.0",
			 mnt, node, 80 + i);
	}
	/* one CPU, two steps: each quantum one of them is frozen */
	for (int ms = 0; frozen < 0 && ms < WAIT_MS; ms += 10) {
		for (int i = 0; i < 2 && frozen < 0; i++)
			if (frozen_within(groups[i], true, 0))
				frozen = i;
		harness_sleep_ms(10);
	}
	if (!ok(frozen >= 0, "freeze: a step's v2 group reads frozen 1")) {
		skip(TESTS_FREEZE - 4, "nothing frozen");
		kill_agent(agent);
		harness_reap(kids[0]);
		harness_reap(kids[1]);
		return;
	}
	snprintf(state, sizeof(state), "%s/%s.state", run_dir, node);
	/* JSON writes '/' as "\/" */
	snprintf(line, sizeof(line), "coschedd\\/%s\\/%d.0\"", node,
		 80 + frozen);
	ok(strstr(tap_slurp(state, text, sizeof(text)),
		  "\"freeze\":\"cgroup2\"") && strstr(text, line),
	   "freeze: the state file records cgroup2 and the group's directory");
	kill_agent(agent);	/* mid-quantum */
	ok(frozen_within(groups[0], false, WAIT_MS) &&
	   frozen_within(groups[1], false, WAIT_MS),
	   "freeze: after SIGKILL of the agent its guardian thaws the groups");
	ok(runs(kids[0]) && runs(kids[1]), "freeze: both steps run again");
	harness_reap(kids[0]);
	harness_reap(kids[1]);
}

/* ------------------------------------------------------------ weights */

#define TESTS_WEIGHT 6

static void mimic_file(const char *rel, const char *file, const char *text)
{
	char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s", mimic, rel, file);
	f = fopen(path, "we");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_weight_restored(void)
{
	const char *opts[] = { "--boost", "cgroup2", "--cgroup2-root", mimic,
			       NULL };
	char task[128], dir[PATH_MAX], path[PATH_MAX + 32], text[256],
	     state[PATH_MAX];
	static char file[8192];
	pid_t agent, kid = harness_spinner();

	use_node("w");
	snprintf(task, sizeof(task), "coschedtest_%d/job_9/step_0/user/task_0",
		 (int)getpid());
	snprintf(dir, sizeof(dir), "%s/%s", mnt, task);
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(text, sizeof(text), "%d", (int)kid);
	if (harness_mkdir_p(dir) || harness_write_file(path, text)) {
		skip(TESTS_WEIGHT, "no Slurm-shaped v2 group");
		harness_reap(kid);
		return;
	}
	/* the mimic: the task group's files as the kernel would show them */
	snprintf(dir, sizeof(dir), "%s/%s", mimic, task);
	harness_mkdir_p(dir);
	mimic_file("", "cgroup.controllers", "cpuset cpu io memory pids\n");
	mimic_file(task, "cpu.weight", "100\n");
	snprintf(text, sizeof(text), "%d\n", (int)kid);
	mimic_file(task, "cgroup.procs", text);
	agent = start_agent(opts);
	if (!ok(agent > 0, "weight: an agent boosting by cgroup2 starts")) {
		skip(TESTS_WEIGHT - 1, "no agent");
		harness_reap(kid);
		return;
	}
	ok(!request("status json") &&
	   strstr(reply, "\"boost\":\"cgroup-v2 cpu.weight\""),
	   "weight: status --json names cgroup-v2 cpu.weight");
	snprintf(text, sizeof(text),
		 "register job=9 step=0 uid=0 mode=pb pb=D tick_us=1000 spin_ns=0 pid=%d rank=0",
		 (int)kid);
	ok(!request(text) && !strncmp(reply, "ok registered", 13),
	   "weight: a process of the Slurm job registers (%s)", reply);
	snprintf(state, sizeof(state), "%s/%s.state", run_dir, node);
	ok(strstr(tap_slurp(state, file, sizeof(file)), "\"weight\":100"),
	   "weight: the state file records the weight its group had");
	/* stopped, so that it writes nothing more: as a boost left it */
	kill(agent, SIGSTOP);
	mimic_file(task, "cpu.weight", "9999\n");
	kill_agent(agent);
	snprintf(path, sizeof(path), "%s/cpu.weight", dir);
	for (int ms = 0; ms < WAIT_MS &&
			 strtol(tap_slurp(path, text, sizeof(text)), NULL, 10) != 100;
	     ms += 20)
		harness_sleep_ms(20);
	is_int(strtol(tap_slurp(path, text, sizeof(text)), NULL, 10), 100,
	       "weight: after SIGKILL the guardian puts the task group's weight back");
	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)kid);
	ok(strstr(tap_slurp(path, file, sizeof(file)), task) && runs(kid),
	   "weight: the process runs on, never moved out of Slurm's group");
	harness_reap(kid);
}

/* ------------------------------------------------------------ setup */

static int setup(void)
{
	snprintf(tmp_dir, sizeof(tmp_dir), "/tmp/test_guardian_v2.XXXXXX");
	if (!mkdtemp(tmp_dir))
		return -1;
	chmod(tmp_dir, 0755);
	snprintf(run_dir, sizeof(run_dir), "%s/run", tmp_dir);
	snprintf(mnt, sizeof(mnt), "%s/v2", tmp_dir);
	snprintf(mimic, sizeof(mimic), "%s/mimic", tmp_dir);
	if (mkdir(run_dir, 0755) || mkdir(mnt, 0755) || mkdir(mimic, 0755) ||
	    unshare(CLONE_NEWNS) ||
	    mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) ||
	    mount("none", mnt, "cgroup2", 0, NULL))
		return -1;
	mounted = true;
	return 0;
}

static void cleanup(void)
{
	char cmd[PATH_MAX + 128];

	if (mounted) {
		/* deepest first; the agents' "coschedd" stays if another
		 * agent's groups are in it */
		snprintf(cmd, sizeof(cmd),
			 "cd '%s' && find coschedtest_%d coschedd/v%d coschedd/w%d -depth -type d -exec rmdir {} + 2>/dev/null; rmdir coschedd 2>/dev/null",
			 mnt, (int)getpid(), (int)getpid(), (int)getpid());
		(void)!system(cmd);
		umount2(mnt, MNT_DETACH);
	}
	if (tmp_dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp_dir);
		(void)!system(cmd);
	}
}

int main(int argc, char **argv)
{
	(void)argc;
	harness_need_coschedd(argv[0], coschedd, sizeof(coschedd));
	if (setup()) {
		printf("1..0 # SKIP cannot mount cgroup2 in a private mount namespace: %s\n",
		       strerror(errno));
		cleanup();
		return 0;
	}
	plan(TESTS_FREEZE + TESTS_WEIGHT);
	test_killed_mid_quantum();
	test_weight_restored();
	cleanup();
	return done_testing();
}
