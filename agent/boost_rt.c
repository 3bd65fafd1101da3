/*
 * boost_rt.c - the kernel side of the rt boost mechanism (boost_rt.h).
 *
 * Why SCHED_RR at the lowest priority.  The dynamic coscheduling paper
 * boosts a process to the head of the highest queue, so that it preempts
 * at once; CFS weights only raise its share over time.  Any real-time
 * policy preempts every SCHED_OTHER thread at once; round robin rather
 * than FIFO, so that boosted processes sharing a CPU take turns (the
 * kernel's sched_rr_timeslice_ms), and priority 1, so that every other
 * real-time thread of the node (the agent and its guardian at 2 among
 * them) still preempts them.
 *
 * Why it cannot hold a CPU for good.  A boost lasts until the agent's
 * next tick, which renews or ends it; an agent that stops ticking is
 * covered by the guardian (guardian.c: its lease on the boosts, and the
 * restore at the agent's death), and, should both fail, by the kernel's
 * RT throttling: real-time threads get at most sched_rt_runtime_us of
 * every sched_rt_period_us on a CPU (950 ms of 1 s by default), the rest
 * goes to the others.  So boost_open() refuses rt when the throttling is
 * off (-1).  SCHED_RESET_ON_FORK on every boosted thread means a child or
 * thread it creates starts at SCHED_OTHER (nice 0, the kernel's reset),
 * and the process cannot take the flag off without CAP_SYS_NICE.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "boost_rt.h"
#include "num/errbuf.h"

#define RT_RUNTIME_FILE "/proc/sys/kernel/sched_rt_runtime_us"
#define RT_PERIOD_FILE "/proc/sys/kernel/sched_rt_period_us"

static int _read_ll(const char *path, long long *v)
{
	FILE *f = fopen(path, "re");
	int rc = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%lld", v) == 1)
		rc = 0;
	fclose(f);
	return rc;
}

int boost_rt_throttle(long long *runtime_us, long long *period_us)
{
	return _read_ll(RT_RUNTIME_FILE, runtime_us) ||
	       _read_ll(RT_PERIOD_FILE, period_us) ? -1 : 0;
}

static bool _normal_policy(int policy)
{
	return policy == SCHED_OTHER || policy == SCHED_BATCH ||
	       policy == SCHED_IDLE;
}

/* SCHED_RR on this thread and back: what the kernel allows us. */
static int _probe(char *err, size_t len)
{
	struct sched_param own, rr = { .sched_priority = BOOST_RT_PRIORITY };
	int policy = sched_getscheduler(0);	/* with its RESET_ON_FORK */

	if (policy < 0 || sched_getparam(0, &own)) {
		errbuf_set(err, len, "boost=rt: cannot read own policy: %s",
			   strerror(errno));
		return -1;
	}
	if (sched_setscheduler(0, SCHED_RR | SCHED_RESET_ON_FORK, &rr)) {
		errbuf_set(err, len,
			   "boost=rt: the agent cannot set SCHED_RR: %s (it needs CAP_SYS_NICE, and with CONFIG_RT_GROUP_SCHED RT time in its cpu cgroup)",
			   strerror(errno));
		return -1;
	}
	if (sched_setscheduler(0, policy, &own)) {
		errbuf_set(err, len,
			   "boost=rt: cannot put back own policy: %s",
			   strerror(errno));
		return -1;
	}
	return 0;
}

int boost_rt_check(char *err, size_t err_len)
{
	long long runtime, period;

	if (boost_rt_throttle(&runtime, &period)) {
		errbuf_set(err, err_len,
			   "boost=rt: cannot read %s: the kernel's RT throttling is unknown",
			   RT_RUNTIME_FILE);
		return -1;
	}
	if (runtime < 0) {
		errbuf_set(err, err_len,
			   "boost=rt: kernel.sched_rt_runtime_us is -1 (RT throttling off): a boosted process could hold a CPU for good; use another boost or set it (default 950000)");
		return -1;
	}
	return _probe(err, err_len);
}

/* A thread that is real-time already: attach refuses the process. */
static int _thread_is_rt(pid_t tid, void *arg)
{
	int policy = sched_getscheduler(tid);

	if (policy < 0)
		return 0;	/* exiting: not ours to judge */
	policy &= ~SCHED_RESET_ON_FORK;
	if (_normal_policy(policy))
		return 0;
	*(pid_t *)arg = tid;
	return 1;
}

int boost_rt_save(const struct proc_id *id, struct boost_saved *saved,
		  char *err, size_t err_len)
{
	struct sched_param param;
	pid_t rt_tid = 0;
	int policy = sched_getscheduler(id->pid);

	if (policy < 0 || sched_getparam(id->pid, &param) ||
	    proc_for_each_thread(id->pid, _thread_is_rt, &rt_tid) < 0) {
		errbuf_set(err, err_len, "process %d is gone", (int)id->pid);
		return -1;
	}
	if (rt_tid) {
		errbuf_set(err, err_len,
			   "process %d has a real-time thread (%d): boost=rt would lower it",
			   (int)id->pid, (int)rt_tid);
		return -1;
	}
	saved->policy = policy & ~SCHED_RESET_ON_FORK;
	saved->rt_priority = param.sched_priority;
	saved->reset_on_fork = (policy & SCHED_RESET_ON_FORK) != 0;
	return 0;
}

bool boost_rt_saved_ok(const struct boost_saved *saved)
{
	return _normal_policy(saved->policy) && saved->rt_priority == 0;
}

struct rt_walk {
	const struct boost_saved *saved;
	bool rt;
	int nice;
	int failed_errno;	/* first error that is not a thread exiting */
};

static int _set_thread(pid_t tid, void *arg)
{
	struct rt_walk *w = arg;
	struct sched_param param = {
		.sched_priority = w->rt ? BOOST_RT_PRIORITY
				       : w->saved->rt_priority };
	int policy = w->rt ? SCHED_RR | SCHED_RESET_ON_FORK
			   : w->saved->policy | (w->saved->reset_on_fork ?
						 SCHED_RESET_ON_FORK : 0);

	/* sched_setscheduler keeps the nice; a restore sets it after */
	if ((sched_setscheduler(tid, policy, &param) ||
	     (!w->rt && setpriority(PRIO_PROCESS, (id_t)tid, w->nice))) &&
	    errno != ESRCH && !w->failed_errno)
		w->failed_errno = errno;
	return 0;
}

/*
 * Threads created meanwhile start at SCHED_OTHER (the boosted thread's
 * SCHED_RESET_ON_FORK) or at the policy of their creator: one walk per
 * change is enough, as for nice.
 */
int boost_rt_apply(const struct proc_id *id, const struct boost_saved *saved,
		   bool rt, int nice)
{
	struct rt_walk w = { .saved = saved, .rt = rt, .nice = nice };

	if (!boost_rt_saved_ok(saved)) {
		errno = EINVAL;
		return -1;
	}
	if (!proc_alive(id)) {
		errno = ESRCH;
		return -1;
	}
	if (proc_for_each_thread(id->pid, _set_thread, &w) < 0 ||
	    w.failed_errno) {
		errno = w.failed_errno ? w.failed_errno : ESRCH;
		return -1;
	}
	return 0;
}

bool boost_rt_running_rr(pid_t pid)
{
	int policy = sched_getscheduler(pid);

	return policy >= 0 && (policy & ~SCHED_RESET_ON_FORK) == SCHED_RR;
}
