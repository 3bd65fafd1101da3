/*
 * client.c - requests to a node agent, and starting one (see client.h).
 * Moved here from agent/ so that the plugin does not reach into the agent's
 * tree.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "proto.h"
#include "num/errbuf.h"


int cosched_node_name_ok(const char *node)
{
	size_t len = node ? strlen(node) : 0;

	return len > 0 && len < COSCHED_NODE_NAME_LEN && node[0] != '.' &&
	       strspn(node, "abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") == len;
}

int cosched_socket_path(const char *run_dir, const char *node, char *buf,
			size_t len)
{
	struct sockaddr_un addr;
	int n = snprintf(buf, len, "%s/%s.sock", run_dir, node);

	/* the path must also fit sun_path */
	if (n < 0 || (size_t)n >= len || (size_t)n >= sizeof(addr.sun_path))
		return -1;
	return 0;
}

/* The monotonic clock in ms: requests have deadlines, not step timeouts. */
static long long _now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int _left_ms(long long deadline)
{
	long long left = deadline - _now_ms();

	return left > 0 ? (int)left : 0;
}

/* Wait until fd is ready for events, at most until deadline. */
static int _wait(int fd, short events, long long deadline)
{
	struct pollfd p = { .fd = fd, .events = events };
	int n;

	do {
		n = poll(&p, 1, _left_ms(deadline));
	} while (n < 0 && errno == EINTR);
	if (n == 0)
		errno = ETIMEDOUT;
	return n > 0 ? 0 : -1;
}

static void _sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Connect without blocking past deadline.  A UNIX socket whose backlog is
 * full (the agent is stalled or flooded) answers EAGAIN at once rather than
 * EINPROGRESS: retry until the deadline.
 */
static int _connect_by(int fd, const struct sockaddr_un *addr,
		       long long deadline)
{
	socklen_t len = sizeof(int);
	int err = 0;

	for (;;) {
		if (!connect(fd, (const struct sockaddr *)addr, sizeof(*addr)))
			return 0;
		if (errno == EINPROGRESS)
			break;
		if (errno != EAGAIN && errno != EINTR)
			return -1;
		if (!_left_ms(deadline)) {
			errno = ETIMEDOUT;
			return -1;
		}
		_sleep_ms(_left_ms(deadline) < 5 ? _left_ms(deadline) : 5);
	}
	if (_wait(fd, POLLOUT, deadline))
		return -1;
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len))
		return -1;
	errno = err;
	return err ? -1 : 0;
}

static int _connect(const char *path, long long deadline)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(addr.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(addr.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	if (_connect_by(fd, &addr, deadline)) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

static int _send_all(int fd, const char *buf, size_t len, long long deadline)
{
	while (len) {
		ssize_t n;

		if (_wait(fd, POLLOUT, deadline))
			return -1;
		n = send(fd, buf, len, MSG_NOSIGNAL);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int _read_all(int fd, char *reply, size_t len, long long deadline)
{
	size_t used = 0;
	char sink[256];

	for (;;) {
		char *dst = used + 1 < len ? reply + used : sink;
		size_t room = used + 1 < len ? len - 1 - used : sizeof(sink);
		ssize_t n;

		if (_wait(fd, POLLIN, deadline))
			return -1;
		n = read(fd, dst, room);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		if (dst != sink)
			used += (size_t)n;
	}
	if (len)
		reply[used] = '\0';
	return 0;
}

int cosched_agent_request(const char *path, const char *request, char *reply,
		    size_t len, int timeout_ms)
{
	char line[COSCHED_REQUEST_LEN + 2];
	long long deadline = _now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
	int fd, rc = -1, e;
	int n = snprintf(line, sizeof(line), "%s\n", request);

	if (n < 0 || (size_t)n >= sizeof(line)) {
		errno = EMSGSIZE;
		return -1;
	}
	fd = _connect(path, deadline);
	if (fd < 0)
		return -1;
	if (_send_all(fd, line, (size_t)n, deadline))
		goto fail;
	(void)shutdown(fd, SHUT_WR);
	if (_read_all(fd, reply, len, deadline))
		goto fail;
	rc = 0;
fail:
	e = errno;
	close(fd);
	errno = e;
	return rc;
}

/*
 * The agent must not keep what slurmstepd opened without CLOEXEC (a job's
 * files or sockets, for as long as the agent lives): close every
 * descriptor above stderr.  close_range(2) where the kernel has it, else
 * one by one up to the descriptor limit.
 */
static void _close_inherited(void)
{
	struct rlimit lim;

#ifdef SYS_close_range
	if (!syscall(SYS_close_range, 3u, ~0u, 0u))
		return;
#endif
	if (getrlimit(RLIMIT_NOFILE, &lim) || lim.rlim_cur == RLIM_INFINITY ||
	    lim.rlim_cur > INT_MAX)
		lim.rlim_cur = 65536;
	for (int fd = 3; fd < (int)lim.rlim_cur; fd++)
		(void)close(fd);
}

/* In the first child: detach and exec the agent (never returns). */
static void _exec_detached(char *const argv[])
{
	int null = open("/dev/null", O_RDWR);

	if (setsid() < 0 || null < 0)
		_exit(126);
	if (fork() != 0)
		_exit(0);	/* the grandchild is the daemon */
	dup2(null, 0);
	dup2(null, 1);
	dup2(null, 2);
	_close_inherited();	/* null too */
	execv(argv[0], argv);
	_exit(127);
}

int cosched_agent_start(char *const argv[], const char *path, int timeout_ms,
			char *err, size_t err_len)
{
	long long deadline = _now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
	char reply[64];
	pid_t pid;
	int status;

	if (access(argv[0], X_OK)) {
		errbuf_set(err, err_len, "cannot run agent %s: %s", argv[0],
		     strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		errbuf_set(err, err_len, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0)
		_exec_detached(argv);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	/* one deadline for every ping: a stalled agent costs timeout_ms */
	while (_left_ms(deadline) > 0) {
		int wait = _left_ms(deadline) < 500 ? _left_ms(deadline) : 500;

		if (!cosched_agent_request(path, "ping", reply, sizeof(reply), wait) &&
		    cosched_reply_ok(reply))
			return 0;
		_sleep_ms(_left_ms(deadline) < 20 ? _left_ms(deadline) : 20);
	}
	errbuf_set(err, err_len, "agent %s did not answer on %s within %d ms",
	     argv[0], path, timeout_ms);
	return -1;
}
