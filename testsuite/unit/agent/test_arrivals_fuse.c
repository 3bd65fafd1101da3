/*
 * test_arrivals_fuse.c - a job's owner with a FUSE file system of its
 * own cannot stall the root agent through remote-arrival detection
 * (agent/arrivals.c, agent/closer.c; doc/security.md).
 *
 * The attack (issue 29): a task of a watched step has a TCP connection
 * at descriptor N, which the agent watches; it opens a file F of its own
 * FUSE mount (stallfs: operations left unanswered), keeps the socket
 * alive through dup(N), puts F under N with dup2, and its peer sends
 * FIN.  The agent wakes on EPOLLRDHUP and takes descriptor N again, now
 * F.  Checked, on a real mount made by an unprivileged user through
 * fusermount3, with the real coschedd:
 *
 *   getattr  F's GETATTR is never answered: the agent asks nothing of F's
 *            file system (before the fix its fstat() sat in FUSE,
 *            unkillable): it answers ping within 2 s all along, keeps
 *            ticking, keeps switching two membus steps of root's on one
 *            CPU (each frozen and thawed on time: both progress), and
 *            stops on SIGTERM.
 *   flush    F's FLUSH is never answered, so closing the agent's
 *            duplicate blocks: that is logged, the agent keeps
 *            answering, and another user's process, watched after, still
 *            has its close reach its peer (before the fix its duplicates
 *            queued behind the stuck close in one closer thread).
 *
 * A GETATTR reaches the user's program only on a mount with allow_other
 * (otherwise the kernel refuses root's stat itself), which a user gets
 * where fuse.conf says user_allow_other: the getattr case mounts in a
 * private mount namespace whose /etc/fuse.conf says so (a bind mount,
 * the host's file untouched).  Skips where /dev/fuse or fusermount3 is
 * missing.  Needs root.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <json-c/json.h>
#include <limits.h>
#include <libgen.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent_harness.h"
#include "cosched_proto/client.h"
#include "tap.h"

#define REPLY_LEN 65536
#define FUSE_UID 65534		/* nobody: the hostile user */
#define OTHER_UID 65533		/* an unrelated user */
#define WAIT_MS 5000

static char coschedd[PATH_MAX], stallfs[PATH_MAX];
static char run_dir[256], node[32], sock[PATH_MAX + 64];
static char reply[REPLY_LEN];
static pid_t agent;
static int listener = -1;
static struct sockaddr_in listen_addr;

/* A job process of a user: its command pipe and our end of its socket. */
struct task {
	pid_t pid;		/* also its process group (stallfs in it) */
	int cmd, ack;
	int peer;
};

static int request(const char *line)
{
	return harness_request(sock, line, reply, sizeof(reply));
}

/* ---------------------------------------- two membus steps on one CPU */

#define MB_JOB 930000000u
static pid_t mb_pids[2];

/* Root's two membus steps of one process each, announced with this
 * agent as their coordinator: with P = 1 they take turns by quanta. */
static bool membus_pair_start(void)
{
	static const char *const hint[2] = { "800000000", "50000000" };
	char line[512], self[96];
	int port = harness_free_udp_port();
	bool all = port > 0;

	snprintf(self, sizeof(self), "%s@127.0.0.1:%d", node, port);
	for (unsigned i = 0; i < 2 && all; i++) {
		mb_pids[i] = harness_keep(harness_spinner());
		snprintf(line, sizeof(line), "membus job=%u step=0 nnodes=1 self=%s coord=%s",
			 MB_JOB + i, self, self);
		all &= !request(line) && !strncmp(reply, "ok membus", 9);
		snprintf(line, sizeof(line), "register job=%u step=0 uid=0 mode=membus pid=%d rank=0 bw_mem=%s",
			 MB_JOB + i, (int)mb_pids[i], hint[i]);
		all &= !request(line) && !strncmp(reply, "ok registered", 13);
	}
	return all;
}

/* Both membus steps ran during the last 1.5 s (15 quanta). */
static bool membus_both_progress(void)
{
	uint64_t before[2];

	for (unsigned i = 0; i < 2; i++)
		before[i] = harness_cpu_ticks(mb_pids[i]);
	harness_sleep_ms(1500);
	return harness_cpu_ticks(mb_pids[0]) > before[0] &&
	       harness_cpu_ticks(mb_pids[1]) > before[1];
}

static void membus_pair_end(void)
{
	char line[128];

	for (unsigned i = 0; i < 2; i++) {
		harness_reap(mb_pids[i]);
		snprintf(line, sizeof(line), "end job=%u step=0", MB_JOB + i);
		(void)request(line);
	}
}

/* ------------------------------------------------------ the job side */

static void _become(uid_t uid)
{
	if (setgroups(0, NULL) || setgid(uid) || setuid(uid))
		_exit(11);
}

static int _connect(void)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || connect(fd, (struct sockaddr *)&listen_addr,
			      sizeof(listen_addr)))
		_exit(12);
	return fd;
}

/* In a mount namespace of its own (so that the binds and the mount stay
 * private): stallfs mounted at mnt by uid, as uid.  /dev/fuse is 0666 on
 * a stock Debian node (udev), 0600 in some containers: a node of our own
 * with that mode is bound over it. */
static void _mount_stallfs(const char *mnt, const char *mode,
			   bool allow_other)
{
	char fd_text[16];
	int ready[2];
	pid_t fs;
	char k;

	if (harness_fuse_namespace(run_dir, allow_other) || pipe(ready))
		_exit(13);
	fs = fork();
	if (fs < 0)
		_exit(14);
	if (!fs) {
		close(ready[0]);
		_become(FUSE_UID);
		snprintf(fd_text, sizeof(fd_text), "%d", ready[1]);
		execl(stallfs, stallfs, mnt, mode, fd_text,
		      allow_other ? "allow_other" : NULL, (char *)NULL);
		_exit(15);
	}
	close(ready[1]);
	if (read(ready[0], &k, 1) != 1)
		_exit(16);	/* not mounted */
	close(ready[0]);
}

/*
 * The task: with mode, stallfs mounted at mnt first; then, as uid, a TCP
 * connection to our listener at some descriptor N, and commands on cmd,
 * each answered on ack: 's' swap F under N (the socket kept by a dup),
 * 'c' close N, 'n' one more connection.
 */
static void _task_main(int cmd, int ack, uid_t uid, const char *mode,
		       const char *mnt, bool allow_other)
{
	char path[PATH_MAX], c;
	int n, keep, f;

	setpgid(0, 0);
	alarm(120);	/* never outlive a broken test */
	for (int fd = 3; fd < 1024; fd++)	/* none of the test's sockets */
		if (fd != cmd && fd != ack)
			close(fd);
	if (mode)
		_mount_stallfs(mnt, mode, allow_other);
	_become(uid);
	n = _connect();
	(void)!write(ack, "k", 1);
	while (read(cmd, &c, 1) == 1) {
		if (c == 's') {
			snprintf(path, sizeof(path), "%s/f", mnt);
			f = open(path, O_RDONLY | O_CLOEXEC);
			keep = dup(n);
			if (f < 0 || keep < 0 || dup2(f, n) != n)
				_exit(17);
			/* f stays open: closing it would FLUSH */
		} else if (c == 'c') {
			close(n);
		} else if (c == 'n') {
			(void)_connect();
		}
		(void)!write(ack, "k", 1);
	}
	_exit(0);
}

static bool command(struct task *t, char c)
{
	char k;

	return write(t->cmd, &c, 1) == 1 && read(t->ack, &k, 1) == 1;
}

/* The next connection to our listener (10 s at most), or -1. */
static int accept_one(void)
{
	struct pollfd p = { .fd = listener, .events = POLLIN };

	return poll(&p, 1, 10000) == 1 ?
	       accept4(listener, NULL, NULL, SOCK_CLOEXEC) : -1;
}

static void spawn(struct task *t, uid_t uid, const char *mode,
		  const char *mnt, bool allow_other)
{
	int cmd[2], ack[2];
	char k;

	if (pipe2(cmd, O_CLOEXEC) || pipe2(ack, O_CLOEXEC))
		harness_bail_out("pipes: %s", strerror(errno));
	t->pid = fork();
	if (t->pid < 0)
		harness_bail_out("fork: %s", strerror(errno));
	if (!t->pid) {
		_task_main(cmd[0], ack[1], uid, mode, mnt, allow_other);
	}
	setpgid(t->pid, t->pid);
	close(cmd[0]);
	close(ack[1]);
	t->cmd = cmd[1];
	t->ack = ack[0];
	t->peer = accept_one();
	if (t->peer < 0 || read(t->ack, &k, 1) != 1)
		harness_bail_out("task %d did not start", (int)t->pid);
}

/* Kill the task and its stallfs: the dead file system answers every
 * request left waiting (ENOTCONN), wherever it waits. */
static void release(struct task *t)
{
	kill(-t->pid, SIGKILL);
	while (waitpid(t->pid, NULL, 0) < 0 && errno == EINTR)
		;
	close(t->peer);
	close(t->cmd);
	close(t->ack);
}

static bool register_task(const struct task *t, uint32_t j, uid_t uid)
{
	char line[256];

	snprintf(line, sizeof(line),
		 "register job=%u step=0 uid=%u mode=dcs tick_us=1000 spin_ns=0 pid=%d rank=0",
		 j, (unsigned)uid, (int)t->pid);
	return !request(line) && !strncmp(reply, "ok registered", 13);
}

/* ---------------------------------------------------------- the agent */

/* A number in the status: KEY of the first process of step j; -1 when
 * absent. */
static int64_t status_of(uint32_t j, const char *key)
{
	json_object *o = NULL, *v = NULL, *jobs, *s, *procs;
	int64_t n = -1;

	if (!request("status json"))
		o = json_tokener_parse(reply);
	if (o && json_object_object_get_ex(o, "jobs", &jobs)) {
		for (size_t i = 0; i < json_object_array_length(jobs); i++) {
			s = json_object_array_get_idx(jobs, i);
			if (json_object_object_get_ex(s, "job", &v) &&
			    json_object_get_int64(v) == j &&
			    json_object_object_get_ex(s, "procs", &procs) &&
			    json_object_array_length(procs))
				break;
			v = NULL;
		}
		if (v)
			json_object_object_get_ex(
				json_object_array_get_idx(procs, 0), key, &v);
	}
	if (v)
		n = json_object_get_int64(v);
	json_object_put(o);
	return n;
}

static bool becomes(uint32_t j, const char *key, int64_t want)
{
	for (int waited = 0; waited < WAIT_MS; waited += 20) {
		if (status_of(j, key) == want)
			return true;
		harness_sleep_ms(20);
	}
	return false;
}

static bool log_shows(const char *text)
{
	for (int waited = 0; waited < WAIT_MS; waited += 50) {
		if (harness_log_has(run_dir, node, text))
			return true;
		harness_sleep_ms(50);
	}
	return false;
}


/* A watched task swaps F under its socket and the peer sends FIN. */
static bool attack(struct task *t, uint32_t j)
{
	return register_task(t, j, FUSE_UID) &&
	       becomes(j, "sockets_watched", 1) && command(t, 's') &&
	       !shutdown(t->peer, SHUT_WR);
}

/* ----------------------------------------------------------- the tests */

static char mnt_getattr[300], mnt_flush[300];

static void test_getattr(uint32_t j)
{
	struct task t;
	int64_t ticks = 0;
	bool alive;

	spawn(&t, FUSE_UID, "getattr", mnt_getattr, true);
	ok(attack(&t, j), "getattr: the task's socket is watched, F swapped in under it, FIN sent");
	alive = harness_responsive_for(sock, 3000, &ticks);
	ok(alive, "getattr: the agent answers ping within 2 s for 3 s and keeps ticking (%lld ticks)",
	   (long long)ticks);
	ok(becomes(j, "sockets_watched", 0),
	   "getattr: the socket that went away is no longer watched");
	if (mb_pids[0] > 0)
		ok(membus_both_progress(),
		   "getattr: two membus steps on one CPU are still frozen and thawed by quanta: both progress");
	else
		skip(1, "no writable cgroup v1 freezer: no membus steps");
	release(&t);
}

static void test_flush(uint32_t j)
{
	struct task t, other;
	int64_t ticks = 0;
	int extra = -1;
	bool alive;

	spawn(&t, FUSE_UID, "flush", mnt_flush, false);
	ok(attack(&t, j), "flush: the task's socket is watched, F swapped in under it, FIN sent");
	alive = harness_responsive_for(sock, 1000, &ticks);
	ok(alive, "flush: the agent answers ping and keeps ticking (%lld ticks)",
	   (long long)ticks);
	ok(command(&t, 'n') && (extra = accept_one()) >= 0 &&
	   becomes(j, "sockets_unwatched", 1),
	   "flush: a new socket of that user's is not taken while its close hangs");
	ok(log_shows("has not returned"),
	   "flush: the agent logs that a close of that user's has not returned");
	spawn(&other, OTHER_UID, NULL, NULL, false);
	ok(register_task(&other, j + 1, OTHER_UID) &&
	   becomes(j + 1, "sockets_watched", 1),
	   "another user's process is watched meanwhile");
	ok(command(&other, 'c') && harness_closed_within(other.peer, 1500),
	   "its close reaches its peer within 1.5 s (not queued behind the stuck close)");
	release(&other);
	release(&t);
	close(extra);
}

static void test_stop(void)
{
	int status = 0;

	ok(harness_stop_agent(agent, 5000, &status) && WIFEXITED(status) &&
	   WEXITSTATUS(status) == 0, "SIGTERM stops the agent within 5 s");
}

/* ---------------------------------------------------------- set-up */

static void start(void)
{
	char *argv[] = { coschedd, "--node", node, "--run-dir", run_dir,
			 "--tick-us", "1000", "--membus-quantum-ms", "100",
			 "--cpus", "1", "--membus-mem", "1G", "--membus-net", "1G",
			 NULL };
	socklen_t len = sizeof(listen_addr);

	listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	listen_addr = (struct sockaddr_in){ .sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	if (listener < 0 ||
	    bind(listener, (struct sockaddr *)&listen_addr, sizeof(listen_addr)) ||
	    listen(listener, 16) ||
	    getsockname(listener, (struct sockaddr *)&listen_addr, &len))
		harness_bail_out("listener: %s", strerror(errno));
	agent = harness_keep(harness_start_agent(argv, sock));
	if (agent < 0)
		harness_bail_out("no agent");
}

/* The mount points, owned by the hostile user, under the private run
 * directory. */
static void prepare_mounts(void)
{
	char *dirs[] = { mnt_getattr, mnt_flush };

	snprintf(mnt_getattr, sizeof(mnt_getattr), "%s/mnt-getattr", run_dir);
	snprintf(mnt_flush, sizeof(mnt_flush), "%s/mnt-flush", run_dir);
	for (size_t i = 0; i < 2; i++)
		if (mkdir(dirs[i], 0755) || chown(dirs[i], FUSE_UID, FUSE_UID))
			harness_bail_out("%s: %s", dirs[i], strerror(errno));
}

int main(int argc, char **argv)
{
	char tmpl[] = "/tmp/test_arrivals_fuse.XXXXXX";
	uint32_t job;

	(void)argc;
	harness_need_coschedd(argv[0], coschedd, sizeof(coschedd));
	harness_need_fuse(argv[0], stallfs, sizeof(stallfs));
	if (harness_private_run_dir(tmpl, run_dir, sizeof(run_dir)))
		return 1;
	snprintf(node, sizeof(node), "f%d", (int)getpid());
	cosched_socket_path(run_dir, node, sock, sizeof(sock));
	job = 920000000u + (uint32_t)getpid() % 1000000u * 10u;
	prepare_mounts();
	start();
	if (!access("/sys/fs/cgroup/freezer", W_OK))
		ok(membus_pair_start(), "two membus steps of root's take turns on one CPU");
	test_getattr(job);
	if (mb_pids[0] > 0)
		membus_pair_end();
	test_flush(job + 2);
	test_stop();
	return done_testing();
}
