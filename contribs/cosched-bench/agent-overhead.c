/*
 * agent-overhead.c - the node agent's own CPU use at a 1 ms tick, per
 * mode, without a cluster: one or more coschedd builds side by side, each
 * a private agent in a temporary run directory, with MPL jobs of
 * cosched-bench (two ranks each, under mpirun, the MPI shim preloaded as
 * slurmstepd would) registered with it, everything pinned to one CPU like
 * a node of 'make bench-cosched'.  For each run, mode and agent (in that
 * order, so the agents see the same machine load) it prints the growth
 * of the agent's CPU time over a wall window, in percent of one CPU.
 *
 *   agent-overhead --agent new=build/release/sbin/coschedd \
 *       --agent old=/tmp/old/sbin/coschedd --bench build/release/bin/cosched-bench \
 *       --shim build/release/lib/libcosched_mpi.so [--modes none,sb,sy,dcs,pb,ecm,edm]
 *       [--mpl 2] [--runs 3] [--seconds 10] [--cpu 1] [--tick-us 1000]
 *
 * Every mode but none (which the agent refuses: it runs idle beside the
 * jobs) needs the shim.  Needs root (the agent refuses otherwise) and
 * mpirun.  Leaves nothing
 * behind: it stops the jobs and the agents it started and removes its
 * run directories.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cosched_proto/client.h"
#include "cosched/mode.h"
#include "cosched/pages.h"
#include "cosched/shim_env.h"
#include "cosched/shm.h"
#include "num/num.h"
#include "version/version.h"

#define MAX_AGENTS 4
#define MAX_MPL 8
#define RANKS 2
#define WARMUP_S 2
#define NODE "aoh"
#define FLOOR "floor"	/* --agent NAME=floor: the bare wake-up loop */

struct agent_build {
	const char *name;
	const char *path;
};

struct opts {
	struct agent_build agents[MAX_AGENTS];
	int nagents;
	const char *bench, *shim;
	char modes[256];
	int mpl, runs, seconds, cpu;
	unsigned tick_us;
};

/* What one measurement started, stopped whatever happens. */
struct trial {
	char run_dir[64];
	char sock[256];
	pid_t agent;
	pid_t jobs[MAX_MPL];
	pid_t ranks[MAX_MPL * RANKS];	/* in groups of their own */
	uint32_t job_base;
};

static __attribute__((noreturn)) void _usage(void)
{
	fprintf(stderr,
		"usage: agent-overhead --agent NAME=COSCHEDD|floor [--agent ...] --bench COSCHED-BENCH\n"
		"         --shim LIBCOSCHED_MPI [--modes LIST] [--mpl N] [--runs N]\n"
		"         [--seconds S] [--cpu N] [--tick-us US]\n"
		"       agent-overhead --version\n");
	exit(2);
}

static double _now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static volatile sig_atomic_t stopping;	/* SIGTERM, SIGINT: clean up, end */

static void _on_signal(int sig)
{
	(void)sig;
	stopping = 1;
}

static void _sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (!stopping && nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * The CPU time of pid (single-threaded, as the agent is), in seconds;
 * < 0 when unreadable.  /proc/PID/schedstat counts nanoseconds, where
 * utime and stime count clock ticks (10 ms: 0.1 % of a 10 s window).
 */
static double _cpu_s(pid_t pid)
{
	char path[64], buf[128];
	unsigned long long ns;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (sscanf(buf, "%llu", &ns) != 1)
		return -1;
	return (double)ns / 1e9;
}

static int _pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static pid_t _start_agent(const struct opts *o, const char *path,
			  struct trial *t)
{
	char tick[16], log[128], reply[256];
	pid_t pid;

	snprintf(tick, sizeof(tick), "%u", o->tick_us);
	snprintf(log, sizeof(log), "%s/agent.log", t->run_dir);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char *argv[] = { (char *)path, "--node", NODE, "--run-dir",
				 t->run_dir, "--tick-us", tick, "--log", log,
				 NULL };

		(void)_pin(o->cpu);
		execv(path, argv);
		_exit(127);
	}
	for (int i = 0; pid > 0 && i < 100; i++) {
		if (!cosched_agent_request(t->sock, "ping", reply,
					   sizeof(reply), 1000))
			return pid;
		_sleep_ms(50);
	}
	fprintf(stderr, "agent-overhead: %s did not answer\n", path);
	return -1;
}

/*
 * The floor: what waking every tick costs by itself, as the agent wakes
 * (SCHED_FIFO 1, a timerfd in poll), doing nothing else.
 */
static pid_t _start_floor(const struct opts *o)
{
	struct sched_param param = { .sched_priority = 1 };
	struct itimerspec its = { 0 };
	pid_t pid;
	int fd;

	fflush(stdout);
	pid = fork();
	if (pid != 0)
		return pid;
	(void)_pin(o->cpu);
	(void)sched_setscheduler(0, SCHED_FIFO, &param);
	fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	its.it_interval.tv_sec = o->tick_us / 1000000;
	its.it_interval.tv_nsec = (long)(o->tick_us % 1000000) * 1000;
	its.it_value = its.it_interval;
	if (fd < 0 || timerfd_settime(fd, 0, &its, NULL))
		_exit(1);
	alarm(600);	/* never outlive a broken run */
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		uint64_t expirations;

		if (poll(&pfd, 1, 1000) > 0 &&
		    read(fd, &expirations, sizeof(expirations)) < 0)
			_exit(1);
	}
}

static void _setenv_u32(const char *name, uint32_t v)
{
	char text[16];

	snprintf(text, sizeof(text), "%u", v);
	setenv(name, text, 1);
}

/* One job of two ranks, in a process group of its own. */
static pid_t _start_job(const struct opts *o, const struct trial *t,
			uint32_t job, enum cosched_mode mode)
{
	struct cosched_mode_parts parts;
	char dir[256];
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid != 0)
		return pid;
	setpgid(0, 0);
	(void)_pin(o->cpu);
	(void)cosched_mode_split(mode, &parts);
	if (cosched_mode_needs_shim(mode) &&
	    !cosched_page_dir_path(t->run_dir, job, 0, dir, sizeof(dir))) {
		setenv("LD_PRELOAD", o->shim, 1);
		setenv(COSCHED_PAGE_DIR_ENV, dir, 1);
		setenv(COSCHED_ENV_WAIT, cosched_wait_name(parts.wait), 1);
		_setenv_u32("SLURM_JOB_ID", job);
		setenv("SLURM_STEP_ID", "0", 1);
		if (parts.wait == COSCHED_WAIT_SY)
			setenv("OMPI_MCA_mpi_yield_when_idle", "1", 1);
	}
	/* Open MPI's session directory: this job's, never another mpirun's
	 * (two starting at once race for the same one) */
	snprintf(dir, sizeof(dir), "%s/mpi%u", t->run_dir, job);
	if (mkdir(dir, 0700))
		_exit(127);
	setenv("TMPDIR", dir, 1);
	if (!freopen("/dev/null", "w", stdout))
		_exit(127);
	execlp("mpirun", "mpirun", "--allow-run-as-root", "--oversubscribe",
	       "--bind-to", "none", "-n", "2", o->bench, "--type", "J5",
	       "--pattern", "nn", "--skew", "20", "--seconds", "600", NULL);
	_exit(127);
}

/* The pid of rank's process, from its page. */
static pid_t _rank_pid_from_page(const struct trial *t, uint32_t job,
				 int rank)
{
	char dir[256], path[300];
	struct cosched_shm page;
	ssize_t n = -1;
	int fd;

	if (cosched_page_dir_path(t->run_dir, job, 0, dir, sizeof(dir)))
		return -1;
	snprintf(path, sizeof(path), "%s/%d", dir, rank);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0) {
		n = pread(fd, &page, sizeof(page), 0);
		close(fd);
	}
	if (n != (ssize_t)sizeof(page) || page.magic != COSCHED_SHM_MAGIC)
		return -1;
	return page.pid;
}

static int _register(const struct trial *t, uint32_t job, const char *mode,
		     pid_t pid, int rank)
{
	char line[COSCHED_REQUEST_LEN], reply[512];

	snprintf(line, sizeof(line),
		 "register job=%u step=0 uid=0 mode=%s pb=A tick_us=%u spin_ns=0 pid=%d rank=%d",
		 job, mode, 1000u, (int)pid, rank);
	if (cosched_agent_request(t->sock, line, reply, sizeof(reply), 3000) ||
	    strncmp(reply, "ok registered", 13)) {
		fprintf(stderr, "agent-overhead: %s: %s\n", line, reply);
		return -1;
	}
	return 0;
}

/* Wait for the ranks of job (30 s at most) and register them. */
static int _register_job(struct trial *t, int i, enum cosched_mode mode)
{
	uint32_t job = t->job_base + (uint32_t)i;
	pid_t *pids = &t->ranks[i * RANKS];

	for (int tries = 0; tries < 300; tries++) {
		int found = 0;

		for (int r = 0; r < RANKS; r++)
			found += (pids[r] = _rank_pid_from_page(t, job, r)) > 0;
		if (found == RANKS)
			break;
		_sleep_ms(100);
	}
	for (int r = 0; r < RANKS; r++)
		if (pids[r] <= 0 ||
		    _register(t, job, cosched_mode_name(mode), pids[r], r))
			return -1;
	return 0;
}

static void _stop(pid_t pid, bool group)
{
	int status;

	if (pid <= 0)
		return;
	kill(group ? -pid : pid, SIGTERM);
	for (int i = 0; i < 100; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			goto reaped;
		_sleep_ms(50);
	}
	kill(group ? -pid : pid, SIGKILL);
	waitpid(pid, &status, 0);
reaped:
	if (group)
		kill(-pid, SIGKILL);	/* whatever else mpirun left behind */
}

static void _cleanup(const struct opts *o, struct trial *t)
{
	char err[256], cmd[128];

	for (int i = 0; i < o->mpl; i++)
		_stop(t->jobs[i], true);
	/* mpirun stops its ranks; any it left (they have process groups of
	 * their own) go now */
	for (int i = 0; i < o->mpl * RANKS; i++)
		if (t->ranks[i] > 0)
			kill(t->ranks[i], SIGKILL);
	_stop(t->agent, false);
	for (int i = 0; i < o->mpl; i++)
		(void)cosched_pages_remove(t->run_dir, t->job_base + (uint32_t)i,
					   0, err, sizeof(err));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->run_dir);
	if (system(cmd))
		fprintf(stderr, "agent-overhead: could not remove %s\n", t->run_dir);
}

/* One measurement: the agent's CPU percent into *cpu_out; -1 on failure. */
static double _measure(const struct opts *o, const struct agent_build *b,
		       enum cosched_mode mode, uint32_t job_base,
		       double *cpu_out)
{
	struct trial t = { .job_base = job_base };
	bool floor;
	char err[256];
	double c0, c1, w0, w1;
	int rc = -1;

	snprintf(t.run_dir, sizeof(t.run_dir), "/tmp/aoh.XXXXXX");
	if (!mkdtemp(t.run_dir) || chmod(t.run_dir, 0755))
		return -1;
	if (cosched_socket_path(t.run_dir, NODE, t.sock, sizeof(t.sock)))
		goto out;
	floor = !strcmp(b->path, FLOOR);
	t.agent = floor ? _start_floor(o) : _start_agent(o, b->path, &t);
	if (t.agent < 0)
		goto out;
	for (int i = 0; i < o->mpl; i++) {
		uint32_t job = job_base + (uint32_t)i;

		if (cosched_pages_create(t.run_dir, job, 0, 0, err, sizeof(err))) {
			fprintf(stderr, "agent-overhead: %s\n", err);
			goto out;
		}
		t.jobs[i] = _start_job(o, &t, job, mode);
	}
	/* none: the agent refuses such steps; it runs idle beside the jobs */
	for (int i = 0; !floor && mode != COSCHED_MODE_NONE && i < o->mpl; i++)
		if (_register_job(&t, i, mode))
			goto out;
	_sleep_ms(WARMUP_S * 1000);
	w0 = _now_s();
	c0 = _cpu_s(t.agent);
	_sleep_ms(o->seconds * 1000);
	c1 = _cpu_s(t.agent);
	w1 = _now_s();
	if (c0 >= 0 && c1 >= 0 && !stopping) {
		*cpu_out = 100.0 * (c1 - c0) / (w1 - w0);
		rc = 0;
	}
out:
	_cleanup(o, &t);
	return rc;
}

/* A whole number of 0..max by lib/num's rule, or the usage. */
static int _number(const char *val, int64_t max)
{
	int64_t v;

	if (num_parse_signed(val, 0, max, &v))
		_usage();
	return (int)v;
}

static void _parse(int argc, char **argv, struct opts *o)
{
	*o = (struct opts){ .mpl = 2, .runs = 3, .seconds = 10, .cpu = 1,
			    .tick_us = 1000 };
	snprintf(o->modes, sizeof(o->modes), "none,sb,sy,dcs,pb,ecm,edm");
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		char *eq;

		if (!val)
			_usage();
		i++;
		if (!strcmp(arg, "--agent") && o->nagents < MAX_AGENTS &&
		    (eq = strchr(val, '='))) {
			*eq = '\0';
			o->agents[o->nagents++] = (struct agent_build){ val, eq + 1 };
		} else if (!strcmp(arg, "--bench")) {
			o->bench = val;
		} else if (!strcmp(arg, "--shim")) {
			o->shim = val;
		} else if (!strcmp(arg, "--modes")) {
			snprintf(o->modes, sizeof(o->modes), "%s", val);
		} else if (!strcmp(arg, "--mpl")) {
			o->mpl = _number(val, MAX_MPL);
		} else if (!strcmp(arg, "--runs")) {
			o->runs = _number(val, 1000);
		} else if (!strcmp(arg, "--seconds")) {
			o->seconds = _number(val, 86400);
		} else if (!strcmp(arg, "--cpu")) {
			o->cpu = _number(val, 4095);
		} else if (!strcmp(arg, "--tick-us")) {
			o->tick_us = (unsigned)_number(val, 10000000);
		} else {
			_usage();
		}
	}
	if (!o->nagents || !o->bench || !o->shim || o->mpl < 1 ||
	    o->mpl > MAX_MPL || o->runs < 1 || o->seconds < 1)
		_usage();
}

int main(int argc, char **argv)
{
	struct opts o;
	uint32_t job = 9000;

	if (coalloc_version_wanted(argc, argv))
		return coalloc_version_print("agent-overhead");

	_parse(argc, argv, &o);
	if (geteuid()) {
		fprintf(stderr, "agent-overhead: needs root\n");
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	signal(SIGTERM, _on_signal);
	signal(SIGINT, _on_signal);
	printf("run mode agent cpu_percent\n");
	for (int run = 1; run <= o.runs && !stopping; run++) {
		char modes[256], *save = NULL;

		snprintf(modes, sizeof(modes), "%s", o.modes);
		for (char *m = strtok_r(modes, ",", &save); m;
		     m = strtok_r(NULL, ",", &save)) {
			enum cosched_mode mode;

			if (cosched_parse_mode(m, &mode, NULL, 0)) {
				fprintf(stderr, "agent-overhead: mode '%s'?\n", m);
				return 2;
			}
			for (int a = 0; a < o.nagents && !stopping; a++) {
				double cpu = -1;

				if (_measure(&o, &o.agents[a], mode, job, &cpu))
					fprintf(stderr, "agent-overhead: %s %s failed\n",
						m, o.agents[a].name);
				job += (uint32_t)o.mpl;
				printf("%d %s %s %.3f\n", run, m, o.agents[a].name, cpu);
				fflush(stdout);
			}
		}
	}
	return 0;
}
