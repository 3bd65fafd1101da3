/*
 * test_syslog.c - where coschedd logs (coschedd(8), --log): to syslog
 * with "--log syslog" and, without --log, when its stderr is no terminal
 * (as a service manager starts it, like Slurm's daemons without a log
 * file); to stderr with "--log -"; errors at syslog's error level.
 *
 * The host may have no syslog daemon, so the test makes its own: in a
 * private mount namespace it moves a tmpfs over /dev holding only the
 * device nodes the agent opens (bound from the real /dev) and a /dev/log
 * socket it reads.  Nothing outside the namespace changes.
 * Needs root; runs the coschedd built here.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent_harness.h"
#include "cosched_proto/client.h"
#include "tap.h"

#define WAIT_MS 5000

static char coschedd[PATH_MAX];
static char run_dir[PATH_MAX];

/* A tmpfs over /dev with the real null, zero, urandom and shm bound in. */
static int _private_dev(void)
{
	static const char *const keep[] = { "null", "zero", "urandom",
					    "random", "shm" };
	char staged[PATH_MAX + 16], path[PATH_MAX + 32], real[64];

	snprintf(staged, sizeof(staged), "%s/dev", run_dir);
	if (unshare(CLONE_NEWNS) ||
	    mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) ||
	    mkdir(staged, 0755) ||
	    mount("tmpfs", staged, "tmpfs", 0, "mode=0755"))
		return -1;
	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++) {
		struct stat st;
		int fd;

		snprintf(real, sizeof(real), "/dev/%s", keep[i]);
		snprintf(path, sizeof(path), "%s/%s", staged, keep[i]);
		if (stat(real, &st))
			continue;
		if (S_ISDIR(st.st_mode) ? mkdir(path, 0755) :
		    (fd = open(path, O_CREAT | O_WRONLY, 0600)) < 0 || close(fd))
			return -1;
		if (mount(real, path, "none", MS_BIND, NULL))
			return -1;
	}
	/* moved, not bound: the run dir holds no mount when it is removed
	 * (the types named, "none", ignored here: valgrind flags a NULL) */
	return mount(staged, "/dev", "none", MS_MOVE, NULL);
}

static int _syslog_socket(void)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	snprintf(addr.sun_path, sizeof(addr.sun_path), "/dev/log");
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)))
		return -1;
	return fd;
}

/* The next datagram containing 'want' within WAIT_MS into buf. */
static bool _received(int fd, const char *want, char *buf, size_t len)
{
	uint64_t end = harness_now_ns() + WAIT_MS * 1000000ull;

	while (harness_now_ns() < end) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, 100) <= 0)
			continue;
		n = recv(fd, buf, len - 1, 0);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		if (strstr(buf, want))
			return true;
	}
	buf[0] = '\0';
	return false;
}

static void _drain(int fd)
{
	char buf[1024];

	while (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) > 0)
		;
}

/* stderr of the agent: a pipe (read end in *err_fd), or /dev/null */
static int _stderr_to(void *arg)
{
	int fd = *(int *)arg;

	if (fd < 0)
		fd = open("/dev/null", O_WRONLY);
	return fd < 0 || dup2(fd, 2) < 0 ? -1 : 0;
}

static pid_t _start(const char *node, const char *log, int stderr_fd)
{
	char sock[PATH_MAX];
	char *argv[] = { coschedd, "--node", (char *)node, "--run-dir",
			 run_dir, "--boost", "nice",
			 log ? "--log" : NULL, (char *)log, NULL };

	cosched_socket_path(run_dir, node, sock, sizeof(sock));
	return harness_keep(harness_start_agent_as_given(argv, sock,
							 _stderr_to,
							 &stderr_fd));
}

static void test_syslog(int log_fd, const char *node, const char *how,
			const char *log)
{
	char line[1024], want[64];
	pid_t agent;
	int status;

	_drain(log_fd);
	agent = _start(node, log, -1);
	ok(agent > 0, "%s: the agent starts", how);
	ok(_received(log_fd, "started: boosts by", line, sizeof(line)),
	   "%s: its start reaches syslog: %s", how, line);
	snprintf(want, sizeof(want), "coschedd[%d]: [%s] ", (int)agent, node);
	ok(strstr(line, want) != NULL,
	   "%s: tagged coschedd[PID] and the node (%s)", how, want);
	/* LOG_DAEMON (3 << 3) | LOG_INFO (6) */
	ok(!strncmp(line, "<30>", 4), "%s: facility daemon, level info (%.4s)",
	   how, line);
	ok(agent > 0 && harness_stop_agent(agent, 3000, &status),
	   "%s: stops on SIGTERM", how);
	ok(_received(log_fd, "stopped", line, sizeof(line)),
	   "%s: and says so there", how);
}

static void test_stderr(int log_fd)
{
	char buf[4096] = "";
	int p[2], status;
	ssize_t n, got = 0;
	pid_t agent;

	_drain(log_fd);
	if (pipe2(p, O_CLOEXEC))
		harness_bail_out("pipe: %s", strerror(errno));
	agent = _start("sl-stderr", "-", p[1]);
	close(p[1]);
	ok(agent > 0 && harness_stop_agent(agent, 3000, &status),
	   "--log -: starts and stops");
	while ((n = read(p[0], buf + got, sizeof(buf) - 1 - (size_t)got)) > 0)
		got += n;
	buf[got > 0 ? got : 0] = '\0';
	close(p[0]);
	ok(strstr(buf, "coschedd[sl-stderr]") && strstr(buf, "started: boosts by"),
	   "--log -: the log is on stderr, though it is no terminal");
	ok(!_received(log_fd, "sl-stderr", buf, sizeof(buf)) ||
	   !strstr(buf, "started"), "--log -: nothing goes to syslog");
}

/* A refused start logs "error: ..." at LOG_ERR: boosts by a cgroup2
 * "hierarchy" that is an empty directory fail after the log is open. */
static void test_error_level(int log_fd)
{
	char line[1024], empty[PATH_MAX + 16];
	char *argv[] = { coschedd, "--node", "sl-error", "--run-dir", run_dir,
			 "--boost", "cgroup2", "--log", "syslog",
			 "--cgroup2-root", empty, NULL };

	snprintf(empty, sizeof(empty), "%s/not-cgroup", run_dir);
	if (mkdir(empty, 0755))
		harness_bail_out("%s: %s", empty, strerror(errno));
	pid_t pid;
	int status = 0;

	_drain(log_fd);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	if (!(WIFEXITED(status) && WEXITSTATUS(status))) {
		skip(1, "--boost cgroup2 on an empty directory works: no error to log");
		return;
	}
	/* LOG_DAEMON | LOG_ERR (3) */
	ok(_received(log_fd, "error: ", line, sizeof(line)) &&
	   !strncmp(line, "<27>", 4),
	   "an error at level err: %s", line);
}

int main(int argc, char **argv)
{
	char tmpl[] = "/tmp/coschedd-syslog.XXXXXX";
	int log_fd;

	(void)argc;
	harness_need_coschedd(argv[0], coschedd, sizeof(coschedd));
	if (harness_private_run_dir(tmpl, run_dir, sizeof(run_dir)))
		harness_bail_out("run dir: %s", strerror(errno));
	if (_private_dev())
		harness_bail_out("a private /dev: %s", strerror(errno));
	log_fd = _syslog_socket();
	if (log_fd < 0)
		harness_bail_out("/dev/log: %s", strerror(errno));
	test_syslog(log_fd, "sl-asked", "--log syslog", "syslog");
	test_syslog(log_fd, "sl-default", "no --log, stderr no terminal", NULL);
	test_stderr(log_fd);
	test_error_level(log_fd);
	close(log_fd);
	return done_testing();
}
