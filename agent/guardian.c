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
 * Under boost=rt it also watches an agent that lives but no longer ticks
 * (stopped by a signal or a debugger, blocked on a slow disk, looping):
 * a real-time boost must not last for good.  The agent renews a lease in
 * a page shared with the guardian at every tick where a process is
 * boosted (two ticks and LEASE_SLACK_NS ahead); the guardian, at
 * SCHED_FIFO above the boosted processes so that they cannot keep it
 * from running, looks every WATCH_POLL_MS and, once the lease has run
 * out, restores every rt process the state file lists and counts the
 * pass; the agent, seeing the count change, applies its levels again.
 * The kernel's RT throttling remains the last backstop (boost_rt.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent.h"
#include "boost/boost_rt.h"
#include "state.h"

#define LEASE_SLACK_NS 100000000ull	/* a late tick is not a stall */
#define WATCH_POLL_MS 50

/* rt: shared by the agent and its guardian (MAP_SHARED, made before the
 * first guardian is forked, kept for the guardians after it). */
struct agent_rt_lease {
	_Atomic uint64_t until_ns;	/* renew by then; 0: none boosted */
	_Atomic uint64_t ended;		/* the guardian's passes */
};

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

/* Whether the agent is gone (its end of the pipe closed), waiting up to
 * ms (-1: until it is). */
static bool _agent_gone(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char byte;
	ssize_t n;
	int ready = poll(&p, 1, ms);

	if (ready < 0)
		return errno != EINTR;	/* as a failed read: restore */
	if (!ready)
		return false;
	n = read(fd, &byte, 1);
	return n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN);
}

struct rt_pass {
	int listed, ended;
};

static int _end_rt(const struct state_entry *e, void *arg)
{
	struct rt_pass *pass = arg;
	bool was_rr;

	if (!e->attached || e->saved.kind != BOOST_RT)
		return 0;
	pass->listed++;
	was_rr = boost_rt_running_rr(e->id.pid);
	if (!boost_restore(&e->id, &e->saved) && was_rr &&
	    proc_alive(&e->id))
		pass->ended++;
	return 0;
}

/* rt: the lease ran out (the agent is late): every rt process back. */
static void _watch(struct agent_rt_lease *lease, const char *state,
		   const char *node)
{
	uint64_t until = atomic_load(&lease->until_ns);
	struct rt_pass pass = { 0 };

	if (!until || agent_now_ns() < until)
		return;
	(void)state_for_each(state, _end_rt, &pass);
	/* a lease the agent renewed meanwhile stays */
	(void)atomic_compare_exchange_strong(&lease->until_ns, &until, 0);
	if (pass.listed)
		atomic_fetch_add(&lease->ended, 1);
	if (pass.ended)
		agent_log("guardian: the agent of %s did not renew its real-time boosts in time (stopped or stalled?): put %d process(es) back at their own policy",
			  node, pass.ended);
}

/* rt: above the boosted processes, or they could keep us from acting. */
static void _realtime_guard(void)
{
	struct sched_param param = { .sched_priority = BOOST_RT_PRIORITY + 1 };

	(void)sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &param);
}

/* The guardian's life: wait for the agent's end (rt: watching its
 * lease meanwhile), then restore. */
static void _guard(int fd, const char *state, const char *node,
		   struct agent_rt_lease *lease)
{
	int restored = 0, listed;
	sigset_t none;

	/* a guardian started again from the loop inherits its blocked set */
	sigemptyset(&none);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGTERM, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	(void)prctl(PR_SET_NAME, "coschedd-guard", 0, 0, 0);
	if (lease)
		_realtime_guard();
	while (!_agent_gone(fd, lease ? WATCH_POLL_MS : -1))
		if (lease)
			_watch(lease, state, node);
	listed = state_for_each(state, _restore, &restored);
	if (listed > 0)
		agent_log("guardian: the agent of %s is gone; restored %d of %d process(es) listed in %s",
			  node, restored, listed, state);
	_exit(0);
}

/* rt: the lease page, once (later guardians share it). */
static int _lease_map(struct agent *a, char *err, size_t err_len)
{
	void *page;

	if (a->lease || boost_kind(a->boost) != BOOST_RT)
		return 0;
	page = mmap(NULL, sizeof(*a->lease), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED) {
		snprintf(err, err_len, "mmap: %s", strerror(errno));
		return -1;
	}
	a->lease = page;
	return 0;
}

int agent_guardian_start(struct agent *a, char *err, size_t err_len)
{
	int p[2];
	pid_t pid;

	if (_lease_map(a, err, err_len))
		return -1;
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
		_guard(p[0], a->conf.state, a->conf.node, a->lease);
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
	if (a->guardian_fd >= 0) {
		_forget(a);
		while (waitpid(a->guardian_pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	if (a->lease)
		munmap(a->lease, sizeof(*a->lease));
	a->lease = NULL;
}

void agent_guardian_lease(struct agent *a, bool rt_boosted)
{
	uint64_t tick_ns = (uint64_t)(a->timer_us ? a->timer_us
						  : a->conf.tick_us) * 1000;

	if (!a->lease)
		return;
	atomic_store(&a->lease->until_ns,
		     rt_boosted ? agent_now_ns() + 2 * tick_ns + LEASE_SLACK_NS
				: 0);
}

bool agent_guardian_took_back(struct agent *a)
{
	uint64_t ended;

	if (!a->lease)
		return false;
	ended = atomic_load(&a->lease->ended);
	if (ended == a->lease_ended_seen)
		return false;
	a->lease_ended_seen = ended;
	agent_log("the guardian put the rt processes back while this agent was late: boosting again");
	return true;
}
