/*
 * client.c - requests to a node agent, and starting one (see client.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "cosched_opts/cosched_opts.h"


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

/* Wait until fd is ready for events, at most timeout_ms. */
static int _wait(int fd, short events, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = events };
	int n;

	do {
		n = poll(&p, 1, timeout_ms);
	} while (n < 0 && errno == EINTR);
	if (n == 0)
		errno = ETIMEDOUT;
	return n > 0 ? 0 : -1;
}

static int _connect(const char *path, int timeout_ms)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(addr.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(addr.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	(void)timeout_ms;	/* a local connect does not block for long */
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

static int _send_all(int fd, const char *buf, size_t len, int timeout_ms)
{
	while (len) {
		ssize_t n;

		if (_wait(fd, POLLOUT, timeout_ms))
			return -1;
		n = send(fd, buf, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int _read_all(int fd, char *reply, size_t len, int timeout_ms)
{
	size_t used = 0;
	char sink[256];

	for (;;) {
		char *dst = used + 1 < len ? reply + used : sink;
		size_t room = used + 1 < len ? len - 1 - used : sizeof(sink);
		ssize_t n;

		if (_wait(fd, POLLIN, timeout_ms))
			return -1;
		n = read(fd, dst, room);
		if (n < 0 && errno == EINTR)
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
	int fd, rc = -1, e;
	int n = snprintf(line, sizeof(line), "%s\n", request);

	if (n < 0 || (size_t)n >= sizeof(line)) {
		errno = EMSGSIZE;
		return -1;
	}
	fd = _connect(path, timeout_ms);
	if (fd < 0)
		return -1;
	if (_send_all(fd, line, (size_t)n, timeout_ms))
		goto fail;
	(void)shutdown(fd, SHUT_WR);
	if (_read_all(fd, reply, len, timeout_ms))
		goto fail;
	rc = 0;
fail:
	e = errno;
	close(fd);
	errno = e;
	return rc;
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
	if (null > 2)
		close(null);
	execv(argv[0], argv);
	_exit(127);
}

static void _sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int cosched_agent_start(char *const argv[], const char *path, int timeout_ms,
			char *err, size_t err_len)
{
	char reply[64];
	pid_t pid;
	int status;

	if (access(argv[0], X_OK)) {
		cosched_set_err(err, err_len, "cannot run agent %s: %s", argv[0],
		     strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		cosched_set_err(err, err_len, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0)
		_exec_detached(argv);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	for (int waited = 0; waited <= timeout_ms; waited += 20) {
		if (!cosched_agent_request(path, "ping", reply, sizeof(reply), 500) &&
		    !strncmp(reply, "ok", 2))
			return 0;
		_sleep_ms(20);
	}
	cosched_set_err(err, err_len, "agent %s did not answer on %s within %d ms",
	     argv[0], path, timeout_ms);
	return -1;
}
