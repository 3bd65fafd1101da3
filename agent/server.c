/*
 * server.c - the agent's UNIX socket.
 *
 * Anyone may connect (the socket is 0666) and ask for ping or status;
 * register and end, which make the agent touch processes, are refused
 * unless the caller's credentials (SO_PEERCRED, set by the kernel, not by
 * the caller) are root's or the allowed user's (SlurmUser).
 *
 * One request per connection, served at once: requests are one short line
 * and the callers (slurmstepd, coschedctl) send it right after connecting,
 * so a slow or silent client costs at most the read timeout.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "agent.h"

#define READ_TIMEOUT_MS 200
#define REPLY_LEN 512

int agent_listen(struct agent *a, char *err, size_t err_len)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	const char *path = a->conf.socket;
	int fd;

	if (strlen(path) >= sizeof(addr.sun_path)) {
		snprintf(err, err_len, "socket path %s too long", path);
		return -1;
	}
	memcpy(addr.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		goto fail;
	/* we hold the node's lock: a socket file left here is stale */
	(void)unlink(path);
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) ||
	    chmod(path, 0666) || listen(fd, 64))
		goto fail;
	a->listen_fd = fd;
	return 0;
fail:
	snprintf(err, err_len, "cannot listen on %s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	return -1;
}

void agent_unlisten(struct agent *a)
{
	if (a->listen_fd < 0)
		return;
	close(a->listen_fd);
	a->listen_fd = -1;
	(void)unlink(a->conf.socket);
}

static bool _privileged(const struct agent *a, uid_t uid)
{
	return uid == 0 || (a->conf.allow_uid_set && uid == a->conf.allow_uid);
}

/* Read one line (without its newline) within READ_TIMEOUT_MS. */
static int _read_line(int fd, char *buf, size_t len)
{
	struct timeval tv = { 0, READ_TIMEOUT_MS * 1000 };
	size_t used = 0;

	(void)setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	(void)setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	while (used + 1 < len) {
		ssize_t n = read(fd, buf + used, len - 1 - used);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		used += (size_t)n;
		if (memchr(buf, '\n', used))
			break;
	}
	buf[used] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
	return used ? 0 : -1;
}

static void _send_text(int fd, const char *text)
{
	size_t len = strlen(text);

	while (len) {
		ssize_t n = send(fd, text, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		text += n;
		len -= (size_t)n;
	}
}

static bool _verb(const char *line, const char *verb)
{
	size_t n = strlen(verb);

	return !strncmp(line, verb, n) && (line[n] == '\0' || line[n] == ' ');
}

static void _status(struct agent *a, int fd, const char *line)
{
	bool json = !strcmp(line, "status json");
	char *text = NULL;

	if (strcmp(line, "status") && !json) {
		_send_text(fd, "error: usage: status [json]\n");
		return;
	}
	if (agent_status(a, json, &text)) {
		_send_text(fd, "error: out of memory\n");
		return;
	}
	_send_text(fd, text);
	free(text);
}

static void _serve(struct agent *a, int fd)
{
	char line[COSCHED_REQUEST_LEN + 2], reply[REPLY_LEN];
	struct ucred cred;
	socklen_t clen = sizeof(cred);

	if (_read_line(fd, line, sizeof(line)))
		return;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen)) {
		_send_text(fd, "error: cannot read your credentials\n");
		return;
	}
	if (!strcmp(line, "ping")) {
		_send_text(fd, "ok coschedd\n");
		return;
	}
	if (_verb(line, "status")) {
		_status(a, fd, line);
		return;
	}
	if (!_verb(line, "register") && !_verb(line, "end") &&
	    !_verb(line, "membus")) {
		_send_text(fd, "error: unknown request (ping, register, membus, end, status)\n");
		return;
	}
	if (!_privileged(a, cred.uid)) {
		agent_log("refused '%.40s' from uid %u pid %d: not root or the allowed user",
			  line, (unsigned)cred.uid, (int)cred.pid);
		_send_text(fd, "error: permission denied: only root or SlurmUser may register or end jobs\n");
		return;
	}
	if (_verb(line, "register"))
		(void)agent_register(a, line, cred.pid, reply, sizeof(reply));
	else if (_verb(line, "membus"))
		(void)agent_membus_request(a, line, reply, sizeof(reply));
	else
		(void)agent_end(a, line, reply, sizeof(reply));
	_send_text(fd, reply);
}

void agent_accept(struct agent *a)
{
	for (;;) {
		int fd = accept4(a->listen_fd, NULL, NULL, SOCK_CLOEXEC);

		if (fd < 0)
			return;	/* EAGAIN: served them all */
		_serve(a, fd);
		close(fd);
	}
}
