/*
 * guardian.c - a small process that outlives the agent to fail open.
 *
 * The agent forks it at start-up with the read end of a pipe whose write
 * end only the agent holds.  However the agent dies (SIGKILL, a crash, the
 * OOM killer), the kernel closes that end and the guardian's read returns
 * 0: it then restores every process the state file lists (priorities and
 * cgroups as they were before the agent touched them, membus steps
 * thawed) and exits, so no job stays demoted, boosted or frozen.  On a clean shutdown the agent has restored
 * everything and written an empty state first, so the guardian finds
 * nothing to do.  It ignores SIGTERM/SIGINT/SIGHUP: a signal to the whole
 * process group must not take it down together with the agent.
 *
 * The agent forks it after --detach, so it lives in the agent's cgroups,
 * not in the job step's that a cgroup proctrack kills at the step's end.
 * Should it die all the same (killed by hand, the OOM killer), the agent
 * sees its pidfd become readable and starts a new one at once; an agent
 * that cannot, stops (restoring everything) rather than go on unguarded.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent.h"
#include "state.h"

static int _restore(const struct state_entry *e, void *arg)
{
	int *restored = arg;

	bool ok = true;

	if (e->attached && boost_restore(&e->id, &e->saved))
		ok = false;
	if (state_thaw(e))
		ok = false;
	if (ok && (e->attached || e->freeze[0]))
		(*restored)++;
	return 0;
}

/* The guardian's life: wait for the agent's end, then restore. */
static void _guard(int fd, const char *state, const char *node)
{
	char byte;
	ssize_t n;
	int restored = 0, listed;
	sigset_t none;

	/* a guardian started again from the loop inherits its blocked set */
	sigemptyset(&none);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGTERM, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	(void)prctl(PR_SET_NAME, "coschedd-guard", 0, 0, 0);
	do {
		n = read(fd, &byte, 1);
	} while (n > 0 || (n < 0 && errno == EINTR));
	listed = state_for_each(state, _restore, &restored);
	if (listed > 0)
		agent_log("guardian: the agent of %s is gone; restored %d of %d process(es) listed in %s",
			  node, restored, listed, state);
	_exit(0);
}

int agent_guardian_start(struct agent *a, char *err, size_t err_len)
{
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC)) {
		snprintf(err, err_len, "pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(err, err_len, "fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		/* drop every descriptor but the pipe and the log: the node's
		 * lock in particular must die with the agent */
		for (int fd = 3; fd < 1024; fd++)
			if (fd != p[0] && fd != agent_log_fd())
				close(fd);
		_guard(p[0], a->conf.state, a->conf.node);
	}
	close(p[0]);
	a->guardian_fd = p[1];
	a->guardian_pid = pid;
	/* no pidfd (a kernel before 5.3): agent_guardian_check polls instead */
	a->guardian_pidfd = pidfd_open(pid, 0);
	return 0;
}

/* Forget a guardian that is gone: its pipe and pidfd. */
static void _forget(struct agent *a)
{
	close(a->guardian_fd);
	a->guardian_fd = -1;
	if (a->guardian_pidfd >= 0)
		close(a->guardian_pidfd);
	a->guardian_pidfd = -1;
}

int agent_guardian_check(struct agent *a)
{
	char err[AGENT_ERR_LEN], how[48];
	pid_t old = a->guardian_pid, got;
	int status;

	got = waitpid(old, &status, WNOHANG);
	if (got == 0 || (got < 0 && errno == EINTR))
		return 0;	/* still runs */
	if (got < 0)
		snprintf(how, sizeof(how), "is gone (%s)", strerror(errno));
	else if (WIFSIGNALED(status))
		snprintf(how, sizeof(how), "was killed by signal %d",
			 WTERMSIG(status));
	else
		snprintf(how, sizeof(how), "exited with status %d",
			 WEXITSTATUS(status));
	_forget(a);
	if (agent_guardian_start(a, err, sizeof(err))) {
		agent_log("guardian: pid %d %s and no new one starts: %s",
			  (int)old, how, err);
		return -1;
	}
	agent_log("guardian: pid %d %s; started a new guardian, pid %d",
		  (int)old, how, (int)a->guardian_pid);
	return 0;
}

void agent_guardian_stop(struct agent *a)
{
	if (a->guardian_fd < 0)
		return;
	_forget(a);
	while (waitpid(a->guardian_pid, NULL, 0) < 0 && errno == EINTR)
		;
}
