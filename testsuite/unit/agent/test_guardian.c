/*
 * test_guardian.c - the agent's guardian survives the job step that
 * started the agent, and the agent keeps one running.
 *
 * A private coschedd --detach is started inside a freezer group shaped
 * like Slurm's (.../slurm_gPID/uid_0/job_1/step_0), as slurmstepd starts
 * it under proctrack/cgroup.  Checked: its guardian lives outside that
 * group; killing every process of the group (what proctrack/cgroup does
 * at the step's end) leaves agent and guardian alive; SIGKILL of the
 * guardian makes the agent start a new one (a log line, a new pid), which
 * restores a registered process when the agent is then killed.  A second
 * agent, in a pids group that allows no new process, cannot replace its
 * killed guardian: it stops, restoring its registered process, rather
 * than run unguarded.  Needs root and writable cgroup v1 freezer, pids
 * and cpu hierarchies.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent_harness.h"
#include "cosched_proto/client.h"
#include "tap.h"

#define CG "/sys/fs/cgroup"
#define WAIT_MS 5000	/* generous: a loaded 2-core machine */

static char coschedd[PATH_MAX], run_dir[PATH_MAX];
static char reply[4096];

static int join_group(const char *dir, pid_t pid)
{
	char path[PATH_MAX + 64], text[24];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(text, sizeof(text), "%d", (int)pid);
	return harness_write_file(path, text);
}

static bool alive(pid_t pid)
{
	char state = harness_proc_state(pid);

	return state != 'Z' && state != 'X' && state != '?';
}

/* A guardian of agent other than not, waited for. */
static pid_t wait_guardian(pid_t agent, pid_t not)
{
	for (int ms = 0; ms < WAIT_MS; ms += 20) {
		pid_t g = harness_guardian_of(agent);

		if (g > 0 && g != not)
			return g;
		harness_sleep_ms(20);
	}
	return 0;
}

static int request(const char *node, const char *line)
{
	char sock[PATH_MAX + 64];

	reply[0] = '\0';
	if (cosched_socket_path(run_dir, node, sock, sizeof(sock)))
		return -1;
	return harness_request(sock, line, reply, sizeof(reply));
}

struct agent_setup {
	const char *group;	/* the cgroup it starts in, or NULL */
	bool no_leak_check;
};

static int prepare_agent(void *arg)
{
	const struct agent_setup *setup = arg;

	if (setup->group && join_group(setup->group, getpid()))
		return -1;
	if (setup->no_leak_check)
		setenv("LSAN_OPTIONS", "detect_leaks=0", 1);
	return 0;
}

/*
 * coschedd for node, first moved into group (if any); once it answers.
 * no_leak_check: LeakSanitizer's exit check (a DEBUG build) needs a task
 * that the pids group of test_no_fork refuses.
 */
static pid_t start_agent(const char *node, const char *group, bool detach,
			 bool no_leak_check)
{
	char *argv[] = { coschedd, "--node", (char *)node, "--run-dir", run_dir,
			 "--tick-us", "1000", detach ? "--detach" : NULL, NULL };
	struct agent_setup setup = { group, no_leak_check };
	char sock[PATH_MAX + 64];

	if (cosched_socket_path(run_dir, node, sock, sizeof(sock)))
		return -1;
	return harness_start_agent_prepared(argv, sock, prepare_agent, &setup);
}

/* Register pid as a PB process of job.0; true when the agent took it. */
static bool register_pb(const char *node, int job, pid_t pid)
{
	char line[256];

	snprintf(line, sizeof(line),
		 "register job=%d step=0 uid=0 mode=pb pb=D tick_us=1000 spin_ns=0 pid=%d rank=0",
		 job, (int)pid);
	return !request(node, line) && !strncmp(reply, "ok registered", 13);
}

/* pid's cpu group becomes want (or stops being it) within WAIT_MS. */
static bool cpu_group_is(pid_t pid, const char *want, bool is)
{
	for (int ms = 0; ms < WAIT_MS; ms += 20) {
		if (!strcmp(harness_cgroup(pid, "cpu"), want) == is)
			return true;
		harness_sleep_ms(20);
	}
	return false;
}

/* SIGKILL to every process of a group: proctrack/cgroup at a step's end. */
static void kill_group(const char *dir)
{
	char path[PATH_MAX + 64];
	FILE *f;
	int pid;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	f = fopen(path, "r");
	while (f && fscanf(f, "%d", &pid) == 1)
		kill(pid, SIGKILL);
	if (f)
		fclose(f);
}

/* Remove a cgroup directory and the empty groups below it. */
static void remove_groups(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char sub[PATH_MAX + 300];
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name);
		if (!lstat(sub, &st) && S_ISDIR(st.st_mode))
			remove_groups(sub);
	}
	if (d)
		closedir(d);
	for (int ms = 0; rmdir(dir) && errno == EBUSY && ms < WAIT_MS; ms += 20)
		harness_sleep_ms(20);	/* killed members leave it a moment later */
}

/*
 * The agent in a Slurm-shaped step group: the guardian outlives the step,
 * is replaced when killed, and the replacement restores.
 */
static void test_replaced(const char *node)
{
	char slurm[PATH_MAX], step[PATH_MAX + 32], step_group[PATH_MAX + 32];
	const char *base = harness_cgroup(getpid(), "freezer");
	char orig_cpu[512];
	pid_t agent, first, second, child;

	snprintf(slurm, sizeof(slurm), CG "/freezer%s/slurm_%s",
		 strcmp(base, "/") ? base : "", node);
	snprintf(step, sizeof(step), "%s/uid_0/job_1/step_0", slurm);
	snprintf(step_group, sizeof(step_group), "%s", step + strlen(CG "/freezer"));
	for (char *sep = step + strlen(slurm); sep; sep = strchr(sep + 1, '/')) {
		*sep = '\0';
		(void)mkdir(step, 0755);	/* mkdir -p */
		*sep = '/';
	}
	(void)mkdir(step, 0755);
	agent = start_agent(node, step, true, false);
	ok(agent > 0, "an agent started inside a Slurm step's freezer group answers");
	first = wait_guardian(agent, 0);
	ok(first > 0, "it has a guardian (pid %d)", (int)first);
	ok(strncmp(harness_cgroup(first, "freezer"), step_group, strlen(step_group)) &&
	   !strstr(harness_cgroup(first, "freezer"), "/slurm_"),
	   "the guardian is out of the step's group (%s)", harness_cgroup(first, "freezer"));

	kill_group(step);	/* the step ends */
	sleep(1);
	ok(alive(agent) && !request(node, "ping"), "the agent survives the step's end");
	ok(first > 0 && alive(first), "and so does its guardian");

	if (first > 0 && alive(first))
		kill(first, SIGKILL);
	second = wait_guardian(agent, first);
	ok(second > 0, "SIGKILL of the guardian: the agent starts a new one (pid %d)",
	   (int)second);
	ok(harness_log_has(run_dir, node, "started a new guardian"),
	   "and says so in its log");
	ok(second > 0 && strncmp(harness_cgroup(second, "freezer"), step_group,
				 strlen(step_group)),
	   "the new guardian is out of the step's group too (%s)",
	   second > 0 ? harness_cgroup(second, "freezer") : "-");

	child = harness_spinner();
	snprintf(orig_cpu, sizeof(orig_cpu), "%s", harness_cgroup(child, "cpu"));
	ok(register_pb(node, 42, child) && cpu_group_is(child, orig_cpu, false),
	   "the agent still takes a process (%s)", harness_cgroup(child, "cpu"));
	kill(agent, SIGKILL);
	waitpid(agent, NULL, 0);
	ok(cpu_group_is(child, orig_cpu, true),
	   "SIGKILL of the agent: the new guardian restores the process (%s)",
	   harness_cgroup(child, "cpu"));
	harness_reap(child);
	/* not our children: wait, never signal a pid that may be reused */
	for (int ms = 0; ms < WAIT_MS && second > 0 && alive(second); ms += 20)
		harness_sleep_ms(20);
	remove_groups(slurm);
	ok(access(slurm, F_OK) != 0, "the step's groups are removed");
}

/* An agent that cannot fork a new guardian stops and restores. */
static void test_no_fork(const char *node)
{
	char pids[PATH_MAX], orig_cpu[512], text[24];
	pid_t agent, guard, child;
	int status = -1;

	snprintf(pids, sizeof(pids), CG "/pids/coschedd_test_%s", node);
	(void)mkdir(pids, 0755);
	agent = start_agent(node, pids, false, true);
	ok(agent > 0, "an agent in a pids group starts");
	guard = wait_guardian(agent, 0);
	child = harness_spinner();
	snprintf(orig_cpu, sizeof(orig_cpu), "%s", harness_cgroup(child, "cpu"));
	ok(guard > 0 && register_pb(node, 43, child), "it registers a process");
	/* the agent alone: no room for another process in its group */
	snprintf(text, sizeof(text), "1");
	snprintf(pids + strlen(pids), sizeof(pids) - strlen(pids), "/pids.max");
	ok(!harness_write_file(pids, text), "its group now allows no new process");
	kill(guard, SIGKILL);
	for (int ms = 0; ms < WAIT_MS && agent > 0; ms += 20) {
		if (waitpid(agent, &status, WNOHANG) == agent)
			agent = 0;	/* reaped */
		harness_sleep_ms(20);
	}
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "SIGKILL of its guardian: the agent stops, as it cannot start another");
	ok(harness_log_has(run_dir, node, "no new one starts"), "it logs why");
	ok(cpu_group_is(child, orig_cpu, true), "after restoring its process (%s)",
	   harness_cgroup(child, "cpu"));
	harness_reap(child);
	harness_reap(agent);
	*strrchr(pids, '/') = '\0';
	remove_groups(pids);
}

static void remove_agent_groups(const char *node)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), CG "/cpu/coschedd/%s", node);
	remove_groups(dir);
	snprintf(dir, sizeof(dir), CG "/freezer/coschedd/%s", node);
	remove_groups(dir);
}

int main(int argc, char **argv)
{
	char tmpl[] = "/tmp/test_guardian.XXXXXX", cmd[PATH_MAX + 32];
	char node1[32], node2[32];

	(void)argc;
	harness_need_coschedd(argv[0], coschedd, sizeof(coschedd));
	if (access(CG "/freezer/cgroup.procs", W_OK) ||
	    access(CG "/pids/cgroup.procs", W_OK) ||
	    access(CG "/cpu/cgroup.procs", W_OK)) {
		printf("1..0 # SKIP no writable cgroup v1 freezer, pids and cpu\n");
		return 0;
	}
	if (!mkdtemp(tmpl))
		return 1;
	chmod(tmpl, 0755);
	snprintf(run_dir, sizeof(run_dir), "%s", tmpl);
	snprintf(node1, sizeof(node1), "g%d", (int)getpid());
	snprintf(node2, sizeof(node2), "h%d", (int)getpid());

	test_replaced(node1);
	test_no_fork(node2);

	remove_agent_groups(node1);
	remove_agent_groups(node2);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", run_dir);
	(void)!system(cmd);
	return done_testing();
}
