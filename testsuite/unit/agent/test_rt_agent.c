/*
 * test_rt_agent.c - coschedd --boost rt on every path that must put a
 * boosted process back at its own policy, and the node's safety while
 * one is real-time.
 *
 * A private agent boosts a PB spinner pinned to one CPU, with an
 * ordinary spinner on the same CPU.  Checked: the agent refuses rt where
 * sched_rt_runtime_us reads -1 (a mount namespace of its own); it and
 * its guardian run at SCHED_FIFO 2, above the boosted process; the
 * spinner becomes SCHED_RR and the ordinary one still runs; an agent
 * stopped by SIGSTOP (a stall) has its boost ended by the guardian, and
 * boosts again once continued; SIGKILL of the agent: the guardian
 * restores; a restarted agent re-adopts from the state file; the end of
 * the job and SIGTERM of the agent restore.  Every check reads the
 * kernel (sched_getscheduler).  Needs root and RT throttling on.
 * About 6 s.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent_harness.h"
#include "cosched_proto/client.h"
#include "kids.h"
#include "tap.h"

#define JOB 51
#define WAIT_MS 3000
#define SHARE_WINDOW_MS 2000
#define MIN_SHARE 0.0025	/* see test_boost_rt.c */
#define MAX_RT_SHARE 0.96
#define STALL_LIMIT_MS 1000	/* lease (2 ticks + 100 ms) + the poll */
#define RT_CPU_LIMIT_US 20000000
#define RR_BOOSTED (SCHED_RR | SCHED_RESET_ON_FORK)

static char coschedd[PATH_MAX], run_dir[PATH_MAX], sock[PATH_MAX + 64];
static char node[32], reply[4096];
static int cpu;

static double now_ms(void)
{
	return (double)harness_now_ns() / 1e6;
}

static int request(const char *line)
{
	return harness_request(sock, line, reply, sizeof(reply));
}

static bool register_pb(pid_t pid)
{
	char line[256];

	snprintf(line, sizeof(line),
		 "register job=%d step=0 uid=0 mode=pb pb=D tick_us=1000 spin_ns=0 pid=%d rank=0",
		 JOB, (int)pid);
	return !request(line) && !strncmp(reply, "ok registered", 13);
}

/* A spinner pinned to cpu; rt: with RLIMIT_RTTIME, as it will be RR. */
static pid_t pinned_spinner(bool rt)
{
	pid_t parent = getpid(), pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct rlimit lim = { RT_CPU_LIMIT_US, RT_CPU_LIMIT_US };
		cpu_set_t set;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		alarm(60);
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) ||
		    (rt && setrlimit(RLIMIT_RTTIME, &lim)))
			_exit(1);
		for (volatile unsigned long n = 0;; n++)
			;
	}
	return harness_keep(pid);
}

/* pid's policy (with SCHED_RESET_ON_FORK) becomes want within ms;
 * the time it took into *took_ms (may be NULL). */
static bool policy_becomes(pid_t pid, int want, int ms, double *took_ms)
{
	double t0 = now_ms();

	for (;;) {
		if (sched_getscheduler(pid) == want) {
			if (took_ms)
				*took_ms = now_ms() - t0;
			return true;
		}
		if (now_ms() - t0 > ms)
			return false;
		harness_sleep_ms(5);
	}
}

static int rt_priority(pid_t pid)
{
	struct sched_param p;

	return sched_getparam(pid, &p) ? -1 : p.sched_priority;
}

static bool log_has_within(const char *text, int ms)
{
	for (int waited = 0; waited < ms; waited += 20) {
		if (harness_log_has(run_dir, node, text))
			return true;
		harness_sleep_ms(20);
	}
	return false;
}

static pid_t start_agent(void)
{
	char *argv[] = { coschedd, "--node", node, "--run-dir", run_dir,
			 "--tick-us", "1000", "--boost", "rt", NULL };

	return harness_start_agent(argv, sock);
}

/* ------------------------------------------------------------ refusal */

/* In the child: sched_rt_runtime_us reads -1 (a mount namespace). */
static int throttling_off(void)
{
	char file[PATH_MAX + 32];
	int fd;

	snprintf(file, sizeof(file), "%s/rt_runtime_off", run_dir);
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, "-1\n", 3) != 3)
		return -1;
	close(fd);
	return unshare(CLONE_NEWNS) ||
	       mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) ||
	       mount(file, "/proc/sys/kernel/sched_rt_runtime_us", "none",
		     MS_BIND, NULL) ? -1 : 0;
}

static void test_refused(void)
{
	char log[PATH_MAX + 64];
	int status = -1;
	pid_t pid;

	snprintf(log, sizeof(log), "%s/%s.log", run_dir, node);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (throttling_off())
			_exit(126);
		execl(coschedd, coschedd, "--node", node, "--run-dir",
		      run_dir, "--boost", "rt", "--log", log, (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 1,
	   "--boost rt where sched_rt_runtime_us is -1: the agent stops (status %d)",
	   WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	ok(harness_log_has(run_dir, node,
			   "error: boost=rt: kernel.sched_rt_runtime_us is -1"),
	   "and logs why, naming the setting");
}

/* ------------------------------------------------------------ boosted */

static void test_boosted(pid_t agent, pid_t spinner, pid_t plain)
{
	unsigned long long p0, r0;
	double share, rt_share;

	ok(sched_getscheduler(agent) == (SCHED_FIFO | SCHED_RESET_ON_FORK) &&
	   rt_priority(agent) == 2,
	   "the agent runs at SCHED_FIFO 2, above the boosted processes");
	ok(sched_getscheduler(harness_guardian_of(agent)) ==
	   (SCHED_FIFO | SCHED_RESET_ON_FORK) &&
	   rt_priority(harness_guardian_of(agent)) == 2,
	   "so does its guardian (pid %d)", (int)harness_guardian_of(agent));
	ok(register_pb(spinner) && policy_becomes(spinner, RR_BOOSTED,
						  WAIT_MS, NULL) &&
	   rt_priority(spinner) == 1,
	   "a PB spinner pinned to CPU %d becomes SCHED_RR 1 (reset on fork)",
	   cpu);
	p0 = kids_cpu_ns(plain);
	r0 = kids_cpu_ns(spinner);
	harness_sleep_ms(SHARE_WINDOW_MS);
	share = (double)(kids_cpu_ns(plain) - p0) / (SHARE_WINDOW_MS * 1e6);
	rt_share = (double)(kids_cpu_ns(spinner) - r0) / (SHARE_WINDOW_MS * 1e6);
	diag("over %d ms the boosted spinner got %.1f %% of CPU %d, the SCHED_OTHER one %.2f %%",
	     SHARE_WINDOW_MS, rt_share * 100, cpu, share * 100);
	ok(share >= MIN_SHARE && rt_share <= MAX_RT_SHARE,
	   "an ordinary spinner on that CPU still runs (%.2f %%; the RT one %.1f %%)",
	   share * 100, rt_share * 100);
	ok(sched_getscheduler(spinner) == RR_BOOSTED,
	   "the spinner was boosted all along (PB keeps choosing it)");
}

/* SIGSTOP: a stalled agent's boost is ended by the guardian. */
static void test_stalled(pid_t agent, pid_t spinner)
{
	double took = -1;
	bool back;

	kill(agent, SIGSTOP);
	back = policy_becomes(spinner, SCHED_OTHER, STALL_LIMIT_MS, &took);
	ok(back,
	   "agent stopped (SIGSTOP): the guardian puts the spinner back at SCHED_OTHER in %.0f ms (at most %d)",
	   took, STALL_LIMIT_MS);
	ok(log_has_within("did not renew its real-time boosts in time", 1000),
	   "the guardian logs it");
	kill(agent, SIGCONT);
	ok(policy_becomes(spinner, RR_BOOSTED, WAIT_MS, NULL) &&
	   log_has_within("boosting again", 1000),
	   "SIGCONT: the agent boosts it again and says so");
}

/* Restart from the state file, end of the job, SIGTERM. */
static void test_restarts(pid_t spinner)
{
	pid_t agent;
	int status;

	agent = start_agent();
	ok(agent > 0 && policy_becomes(spinner, RR_BOOSTED, WAIT_MS, NULL),
	   "a restarted agent re-adopts it from the state file and boosts it");
	snprintf(reply, sizeof(reply), "?");
	ok(!request("end job=51 step=0") &&
	   sched_getscheduler(spinner) == SCHED_OTHER,
	   "end of the job: SCHED_OTHER at once (%s)", reply);
	ok(register_pb(spinner) &&
	   policy_becomes(spinner, RR_BOOSTED, WAIT_MS, NULL),
	   "registered again: boosted again");
	ok(harness_stop_agent(agent, WAIT_MS, &status) && WIFEXITED(status) &&
	   WEXITSTATUS(status) == 0 && sched_getscheduler(spinner) == SCHED_OTHER,
	   "SIGTERM: the agent exits 0 and the spinner is SCHED_OTHER");
}

static bool throttling_on(void)
{
	FILE *f = fopen("/proc/sys/kernel/sched_rt_runtime_us", "r");
	long long runtime = -1;

	if (f) {
		if (fscanf(f, "%lld", &runtime) != 1)
			runtime = -1;
		fclose(f);
	}
	return runtime >= 0;
}

int main(int argc, char **argv)
{
	char tmpl[] = "/tmp/test_rt_agent.XXXXXX";
	pid_t agent, spinner, plain;

	(void)argc;
	harness_need_coschedd(argv[0], coschedd, sizeof(coschedd));
	if (!throttling_on()) {
		printf("1..0 # SKIP kernel.sched_rt_runtime_us is -1 (or unreadable): an RT spinner would hold a CPU\n");
		return 0;
	}
	if (harness_private_run_dir(tmpl, run_dir, sizeof(run_dir)))
		harness_bail_out("no run directory");
	snprintf(node, sizeof(node), "rt%d", (int)getpid());
	if (cosched_socket_path(run_dir, node, sock, sizeof(sock)))
		harness_bail_out("socket path too long");
	cpu = kids_last_cpu();
	plan(15);

	test_refused();
	agent = start_agent();
	if (agent <= 0)
		harness_bail_out("coschedd --boost rt does not start");
	spinner = pinned_spinner(true);
	plain = pinned_spinner(false);
	test_boosted(agent, spinner, plain);
	test_stalled(agent, spinner);
	kill(agent, SIGKILL);
	waitpid(agent, NULL, 0);
	ok(policy_becomes(spinner, SCHED_OTHER, WAIT_MS, NULL) &&
	   rt_priority(spinner) == 0,
	   "SIGKILL of the agent: its guardian puts the spinner back at SCHED_OTHER 0, without the reset flag");
	harness_sleep_ms(100);	/* the guardian exits after its pass */
	test_restarts(spinner);
	harness_reap(plain);
	harness_reap(spinner);
	return done_testing();
}
