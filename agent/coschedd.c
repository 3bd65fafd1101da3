/*
 * coschedd.c - the node agent of dynamic coscheduling: main.
 *
 * One agent per Slurm node (keyed by node name: with slurmd -N several
 * run on one host).  Started on demand by the cosched SPANK plugin in
 * slurmstepd, or by a service manager; it runs in the foreground (the
 * plugin detaches it).  A flat sequence of start-up steps, torn down in
 * reverse; see coschedd(8).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "cosched/rundir.h"
#include "version/version.h"

#define IDLE_POLL_MS 1000

/*
 * Only one agent per node: the loser of a start-up race just leaves.  The
 * pid file is opened in the checked run directory (run_fd), without
 * following a link.
 */
static int _lock(const struct agent_conf *conf, int run_fd, int *fd_out)
{
	const char *name = strrchr(conf->lock, '/') + 1;	/* RUN_DIR/NODE.pid */
	char pid[24];
	int fd = openat(run_fd, name,
			O_RDWR | O_CREAT | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0644);

	if (fd < 0) {
		fprintf(stderr, "coschedd: cannot open %s: %s\n", conf->lock,
			strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		close(fd);
		return 1;
	}
	snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	if (ftruncate(fd, 0) || write(fd, pid, strlen(pid)) < 0) {
		close(fd);
		return -1;
	}
	*fd_out = fd;
	return 0;
}

/*
 * The agent acts at millisecond ticks on a CPU its jobs keep busy: like
 * the paper's kernel thread it must run when its tick comes, so it asks
 * for the lowest real-time priority (a tick takes microseconds; the
 * kernel's RT throttling still bounds it), else for nice -20.  Children
 * (the guardian) do not inherit it.  Under boost=rt it runs above the
 * processes it boosts (BOOST_RT_PRIORITY), or a boosted process on its
 * CPU would hold off the tick that ends the boost for a whole RR slice.
 */
static const char *_realtime(const struct boost *b)
{
	static char got[32];
	struct sched_param param = { .sched_priority = 1 };

	if (boost_kind(b) == BOOST_RT)
		param.sched_priority = BOOST_RT_PRIORITY + 1;
	snprintf(got, sizeof(got), "SCHED_FIFO %d", param.sched_priority);
	if (!sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &param))
		return got;
	if (!setpriority(PRIO_PROCESS, 0, -20))
		return "nice -20 (SCHED_FIFO refused)";
	return "normal priority (SCHED_FIFO and nice -20 refused)";
}

/*
 * Started by slurmstepd, the agent is born in the job step's cgroups; a
 * cgroup-based proctrack would kill it with the step.  --detach moves it,
 * in every hierarchy where its group lies under Slurm's ("/slurm..."), up
 * to the group above Slurm's, as a service manager would have placed it;
 * groups outside Slurm's (a container's) are left alone.  Returns how
 * many hierarchies it moved in.
 */
static const char *_mount_of(const char *controllers)
{
	static char dir[256];

	if (!*controllers) {	/* the v2 hierarchy */
		return access("/sys/fs/cgroup/unified", F_OK) ?
		       "/sys/fs/cgroup" : "/sys/fs/cgroup/unified";
	}
	if (!strncmp(controllers, "name=", 5))
		controllers += 5;
	snprintf(dir, sizeof(dir), "/sys/fs/cgroup/%s", controllers);
	return dir;
}

static int _detach_cgroups(void)
{
	char line[512], path[1024], pid[24];
	FILE *f = fopen("/proc/self/cgroup", "r");
	int moved = 0;

	if (!f)
		return 0;
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	while (fgets(line, sizeof(line), f)) {
		char *ctrl = strchr(line, ':'), *group, *slurm;
		int fd;

		if (!ctrl || !(group = strchr(ctrl + 1, ':')))
			continue;
		*group++ = '\0';
		group[strcspn(group, "\n")] = '\0';
		slurm = strstr(group, "/slurm");
		if (!slurm)
			continue;
		*slurm = '\0';
		snprintf(path, sizeof(path), "%s%s/cgroup.procs",
			 _mount_of(ctrl + 1), group);
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (write(fd, pid, strlen(pid)) > 0)
			moved++;
		close(fd);
	}
	fclose(f);
	return moved;
}

static int _signals(void)
{
	sigset_t set;

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -1;
	return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

static void _arm(struct agent *a, uint32_t us)
{
	struct itimerspec its = { 0 };

	if (us == a->timer_us)
		return;
	its.it_interval.tv_sec = us / 1000000;
	its.it_interval.tv_nsec = (long)(us % 1000000) * 1000;
	its.it_value = its.it_interval;
	(void)timerfd_settime(a->timer_fd, 0, &its, NULL);
	a->timer_us = us;
	a->last_tick_ns = 0;
}

static bool _idle_too_long(const struct agent *a)
{
	uint64_t idle = agent_now_ns() - a->last_job_ns;

	return a->conf.idle_exit && !a->steps &&
	       idle >= (uint64_t)a->conf.idle_exit * 1000000000ull;
}

/* The fds poll watches: the fixed ones, then the clients' connections. */
enum { FD_LISTEN, FD_TIMER, FD_SIGNAL, FD_MB_TIMER, FD_MB_PEER,
       FD_GANG_TIMER, FD_GANG_PEER, FD_GUARDIAN, FD_ARRIVALS, FD_CONN };

static void _loop(struct agent *a, int sig_fd)
{
	while (!a->stop) {
		/* membus's timer and socket come with its first step */
		struct pollfd fds[FD_CONN + AGENT_CONN_MAX] = {
			[FD_LISTEN] = { .fd = agent_listen_pollfd(a), .events = POLLIN },
			[FD_TIMER] = { .fd = a->timer_fd, .events = POLLIN },
			[FD_SIGNAL] = { .fd = sig_fd, .events = POLLIN },
			[FD_MB_TIMER] = { .fd = agent_membus_timer_fd(a), .events = POLLIN },
			[FD_MB_PEER] = { .fd = agent_membus_peer_fd(a), .events = POLLIN },
			[FD_GANG_TIMER] = { .fd = agent_gang_timer_fd(a), .events = POLLIN },
			[FD_GANG_PEER] = { .fd = agent_gang_peer_fd(a), .events = POLLIN },
			[FD_GUARDIAN] = { .fd = a->guardian_pidfd, .events = POLLIN },
			[FD_ARRIVALS] = { .fd = arrivals_fd(a->arr), .events = POLLIN },
		};
		size_t nconn = agent_conn_pollfds(a, fds + FD_CONN);
		uint64_t expirations;
		bool tick;
		int polled;

		arrivals_poll_begin(a->arr);
		polled = poll(fds, FD_CONN + nconn,
			      agent_conn_timeout_ms(a, IDLE_POLL_MS));
		if (polled < 0 && errno != EINTR)
			break;
		arrivals_poll_end(a->arr, polled > 0 && fds[FD_ARRIVALS].revents);
		/* an arrival for a reacting step: decide now, not next tick */
		tick = fds[FD_ARRIVALS].fd >= 0 && fds[FD_ARRIVALS].revents &&
		       arrivals_wake(a->arr);
		if (fds[FD_SIGNAL].revents) {
			agent_log("signal: stopping");
			break;
		}
		/* never unguarded: no new guardian, we stop and restore */
		if ((fds[FD_GUARDIAN].fd < 0 || fds[FD_GUARDIAN].revents) &&
		    agent_guardian_check(a)) {
			agent_log("stopping: without a guardian nothing would restore the jobs if we died");
			break;
		}
		/* peers first: a decision must be in before our switch */
		if (fds[FD_MB_PEER].fd >= 0 && fds[FD_MB_PEER].revents)
			agent_membus_peer(a);
		if (fds[FD_MB_TIMER].fd >= 0 && fds[FD_MB_TIMER].revents)
			agent_membus_timer(a);
		/* a table before the switch it may change */
		if (fds[FD_GANG_PEER].fd >= 0 && fds[FD_GANG_PEER].revents)
			agent_gang_peer(a);
		if (fds[FD_GANG_TIMER].fd >= 0 && fds[FD_GANG_TIMER].revents)
			agent_gang_timer(a);
		/* before accepting: a polled fd still names its connection */
		agent_conn_serve(a, fds + FD_CONN, nconn);
		if (fds[FD_LISTEN].revents)
			agent_accept(a);
		if (fds[FD_TIMER].revents &&
		    read(a->timer_fd, &expirations, sizeof(expirations)) > 0)
			tick = true;
		if (tick)
			agent_tick(a);
		_arm(a, agent_wanted_tick_us(a));
		agent_log_flush_suppressed(false);
		if (_idle_too_long(a)) {
			agent_log("no jobs for %u s: exiting", a->conf.idle_exit);
			break;
		}
	}
	agent_log_flush_suppressed(true);
}

int main(int argc, char **argv)
{
	char err[AGENT_ERR_LEN];
	struct agent a = { .listen_fd = -1, .timer_fd = -1, .guardian_fd = -1,
			   .guardian_pidfd = -1, .last_boosted = -1 };
	int lock_fd = -1, sig_fd = -1, run_fd, rc = 1, locked;

	if (coalloc_version_wanted(argc, argv))
		return coalloc_version_print("coschedd");

	switch (agent_conf_parse(argc, argv, &a.conf, err, sizeof(err))) {
	case 0:
		break;
	case 1:
		agent_usage(stdout);
		return 0;
	default:
		fprintf(stderr, "coschedd: %s\n", err);
		return 2;
	}
	if (geteuid() != 0) {
		fprintf(stderr, "coschedd: must run as root (it changes other users' priorities)\n");
		return 1;
	}
	/* root's files go there and users trust them: see rundir.h */
	run_fd = cosched_run_dir_open(a.conf.run_dir, true, err, sizeof(err));
	if (run_fd < 0) {
		fprintf(stderr, "coschedd: --run-dir %s: refused: %s\n",
			a.conf.run_dir, err);
		return 1;
	}
	locked = _lock(&a.conf, run_fd, &lock_fd);
	close(run_fd);
	if (locked)
		return locked > 0 ? 0 : 1;	/* > 0: another agent serves */
	if (agent_log_open(a.conf.log, a.conf.node))
		fprintf(stderr, "coschedd: cannot open log %s, using stderr\n",
			a.conf.log);
	a.started_ns = a.last_job_ns = agent_now_ns();
	a.boost = boost_open(a.conf.boost, a.conf.node, err, sizeof(err));
	if (!a.boost)
		goto fail;
	agent_log("started: boosts by %s", boost_describe(a.boost));
	freeze_describe(a.conf.freeze, err, sizeof(err));
	agent_log("membus steps freeze by %s", err);
	agent_log("runs at %s", _realtime(a.boost));
	if (a.conf.detach)
		agent_log("--detach: left Slurm's cgroups in %d hierarchies",
			  _detach_cgroups());
	/* after --detach: it must not stay in the step's cgroups, where a
	 * cgroup proctrack kills it at the step's end */
	if (agent_guardian_start(&a, err, sizeof(err)))
		goto fail_boost;
	a.arr = arrivals_open();	/* before recovery: it watches too */
	(void)agent_state_recover(&a);
	if (freeze_sweep(a.conf.node) > 0)
		agent_log("removed the empty freezer groups a previous agent left");
	/* before anyone may ask us: a user cannot take the port first */
	agent_gang_open(&a);
	if (agent_listen(&a, err, sizeof(err)))
		goto fail_guardian;
	sig_fd = _signals();
	a.timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (sig_fd < 0 || a.timer_fd < 0) {
		snprintf(err, sizeof(err), "signalfd/timerfd: %s", strerror(errno));
		goto fail_listen;
	}
	_loop(&a, sig_fd);
	rc = 0;
	err[0] = '\0';
fail_listen:
	if (a.timer_fd >= 0)
		close(a.timer_fd);
	if (sig_fd >= 0)
		close(sig_fd);
	agent_unlisten(&a);
fail_guardian:
	agent_release_all(&a);	/* restores everything, empties the state */
	agent_guardian_stop(&a);
fail_boost:
	agent_steps_free(&a);
	arrivals_close(a.arr);	/* after every process let go of its watch */
	agent_membus_close(&a);
	agent_gang_close(&a);
	boost_close(a.boost);
fail:
	if (err[0])
		agent_log("error: %s", err);
	agent_log("stopped");
	agent_log_close();
	close(lock_fd);
	return rc;
}
