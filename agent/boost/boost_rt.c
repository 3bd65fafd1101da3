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
 * off (-1), and where the scheduler feature RT_RUNTIME_SHARE is on: with
 * it a CPU whose RT threads ran out of runtime borrows the unused runtime
 * of the other CPUs, so that one boosted thread can hold its CPU for
 * good.  It was on by default before Linux 5.10 (default off since, and
 * in some stable kernels by backport).  Its state is in the feature file
 * of debugfs; where that cannot be read, the kernel release decides
 * (before 5.10: refused, mount debugfs to show NO_RT_RUNTIME_SHARE).  SCHED_RESET_ON_FORK on every boosted thread means a child or
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
#include <sys/utsname.h>

#include "boost_rt.h"
#include "num/errbuf.h"

#define RT_RUNTIME_FILE "/proc/sys/kernel/sched_rt_runtime_us"
#define RT_PERIOD_FILE "/proc/sys/kernel/sched_rt_period_us"
#define RT_SHARE_FEATURE "RT_RUNTIME_SHARE"
/* The first release where RT_RUNTIME_SHARE is off by default. */
#define RT_SHARE_OFF_MAJOR 5
#define RT_SHARE_OFF_MINOR 10
#define FEATURES_LEN 4096

/* Where debugfs shows the scheduler features: Linux 5.13+, then older. */
const char *const boost_rt_features_files[] = {
	"/sys/kernel/debug/sched/features",
	"/sys/kernel/debug/sched_features",
	NULL
};

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

/* Whether the space-separated features list names word itself. */
static bool _has_word(const char *list, const char *word)
{
	size_t len = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += len) {
		bool starts = p == list || p[-1] == ' ' || p[-1] == '\n';
		char end = p[len];

		if (starts && (end == ' ' || end == '\n' || end == '\0'))
			return true;
	}
	return false;
}

/* A release "MAJOR.MINOR..." at least 5.10; false when unparsable. */
static bool _release_shares_off(const char *release)
{
	unsigned major, minor;

	if (!release || sscanf(release, "%u.%u", &major, &minor) != 2)
		return false;
	return major > RT_SHARE_OFF_MAJOR ||
	       (major == RT_SHARE_OFF_MAJOR && minor >= RT_SHARE_OFF_MINOR);
}

int boost_rt_share_verdict(const char *release, const char *features,
			   char *err, size_t err_len)
{
	if (features) {
		if (!_has_word(features, RT_SHARE_FEATURE))
			return 0;	/* NO_RT_RUNTIME_SHARE, or gone */
		errbuf_set(err, err_len,
			   "boost=rt: the scheduler feature RT_RUNTIME_SHARE is on: a CPU borrows RT runtime from the others, so a boosted process could hold its CPU for good; use another boost or turn it off (echo NO_RT_RUNTIME_SHARE > /sys/kernel/debug/sched/features, or sched_features on kernels before 5.13)");
		return -1;
	}
	if (_release_shares_off(release))
		return 0;
	errbuf_set(err, err_len,
		   "boost=rt: kernel %s is not known to be %d.%d or later, before which RT_RUNTIME_SHARE is on by default (a boosted process could hold its CPU for good), and the scheduler features are unreadable; mount debugfs so that the agent can see NO_RT_RUNTIME_SHARE, or use another boost",
		   release ? release : "(unknown)", RT_SHARE_OFF_MAJOR,
		   RT_SHARE_OFF_MINOR);
	return -1;
}

/* The first readable features file of files into buf; NULL if none. */
static const char *_read_features(const char *const *files, char *buf,
				  size_t len)
{
	for (; *files; files++) {
		FILE *f = fopen(*files, "re");
		size_t n;

		if (!f)
			continue;
		n = fread(buf, 1, len - 1, f);
		fclose(f);
		buf[n] = '\0';
		return buf;
	}
	return NULL;
}

int boost_rt_share_check(const char *const *features_files, char *err,
			 size_t err_len)
{
	char buf[FEATURES_LEN];
	struct utsname u;

	return boost_rt_share_verdict(uname(&u) ? NULL : u.release,
				      _read_features(features_files, buf,
						     sizeof(buf)),
				      err, err_len);
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
	if (boost_rt_share_check(boost_rt_features_files, err, err_len))
		return -1;
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
