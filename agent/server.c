/*
 * server.c - the agent's UNIX socket.
 *
 * Anyone may connect (the socket is 0666) and ask for ping or status;
 * register, membus, gang and end, which make the agent touch processes, are
 * refused unless the caller's credentials (SO_PEERCRED, set by the kernel,
 * not by the caller) are root's or the allowed user's (SlurmUser).
 *
 * Any local user can connect, so no client may hold the agent: every
 * connection is non-blocking state served by the agent's one poll loop
 * (coschedd.c).  A request is one line of at most COSCHED_REQUEST_LEN
 * bytes that must be complete within AGENT_REQUEST_MS of accept; the reply
 * is sent as the socket takes it, across loop iterations, within
 * AGENT_REPLY_MS (status can be bigger than a socket buffer, and a client
 * that does not read must not make us wait).  A connection past its
 * deadline or over the line limit is closed.  At most AGENT_CONN_MAX are
 * open: a new one replaces the oldest, an unprivileged one first, so a
 * flood of silent clients cannot keep slurmstepd out (its line is in
 * before we accept it, and we read at accept).  What a refusal logs is rate
 * limited and quotes little of the client's bytes.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "agent.h"

#define REPLY_LEN 512
#define LINE_MAX_BYTES (COSCHED_REQUEST_LEN + 1)	/* with its newline */

struct agent_conn {
	int fd;				/* -1: a free slot */
	uint64_t accepted_ns;
	uint64_t deadline_ns;
	struct ucred cred;
	bool cred_ok;
	char line[LINE_MAX_BYTES + 1];
	size_t used;
	char *out;			/* the reply being sent; NULL: reading */
	size_t out_len, out_sent;
};

struct agent_server {
	struct agent_conn conn[AGENT_CONN_MAX];
	int polled[AGENT_CONN_MAX];	/* slot of each fd handed to poll */
	size_t npolled;
	uint64_t accept_resume_ns;	/* out of descriptors: not before */
};

static struct agent_log_limit refused_log = AGENT_LOG_LIMIT("refused requests");
static struct agent_log_limit dropped_log = AGENT_LOG_LIMIT("dropped connections");
static struct agent_log_limit accept_log = AGENT_LOG_LIMIT("accept failures");

int agent_listen(struct agent *a, char *err, size_t err_len)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	const char *path = a->conf.socket;
	int fd;

	if (strlen(path) >= sizeof(addr.sun_path)) {
		snprintf(err, err_len, "socket path %s too long", path);
		return -1;
	}
	a->server = calloc(1, sizeof(*a->server));
	if (!a->server) {
		snprintf(err, err_len, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < AGENT_CONN_MAX; i++)
		a->server->conn[i].fd = -1;
	memcpy(addr.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		goto fail;
	/* we hold the node's lock: a socket file left here is stale */
	(void)unlink(path);
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) ||
	    chmod(path, 0666) || listen(fd, AGENT_CONN_MAX))
		goto fail;
	a->listen_fd = fd;
	return 0;
fail:
	snprintf(err, err_len, "cannot listen on %s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(a->server);
	a->server = NULL;
	return -1;
}

static void _conn_close(struct agent_conn *c)
{
	close(c->fd);
	free(c->out);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

void agent_unlisten(struct agent *a)
{
	if (a->server) {
		for (size_t i = 0; i < AGENT_CONN_MAX; i++)
			if (a->server->conn[i].fd >= 0)
				_conn_close(&a->server->conn[i]);
		free(a->server);
		a->server = NULL;
	}
	if (a->listen_fd < 0)
		return;
	close(a->listen_fd);
	a->listen_fd = -1;
	(void)unlink(a->conf.socket);
}

static bool _privileged(const struct agent *a, const struct agent_conn *c)
{
	uid_t uid = c->cred.uid;

	return c->cred_ok &&
	       (uid == 0 || (a->conf.allow_uid_set && uid == a->conf.allow_uid));
}

/* A last word to a client we drop, only if the socket takes it now. */
static void _send_now(const struct agent_conn *c, const char *text)
{
	(void)!send(c->fd, text, strlen(text), MSG_DONTWAIT | MSG_NOSIGNAL);
}

static void _drop(struct agent_conn *c, const char *reply, const char *why)
{
	char quoted[AGENT_LOG_QUOTE_LEN];

	if (reply)
		_send_now(c, reply);
	if (agent_log_allow(&dropped_log))
		agent_log("dropped a connection from uid %u pid %d: %s (it sent '%s')",
			  (unsigned)c->cred.uid, (int)c->cred.pid, why,
			  agent_log_escape(c->line, strnlen(c->line, c->used),
					   quoted, sizeof(quoted)));
	_conn_close(c);
}

static char *_status(struct agent *a, const char *line)
{
	enum agent_status_format format;
	char *text = NULL;

	if (!strcmp(line, "status"))
		format = AGENT_STATUS_TEXT;
	else if (!strcmp(line, "status json"))
		format = AGENT_STATUS_JSON;
	else if (!strcmp(line, "status prometheus"))
		format = AGENT_STATUS_METRICS;
	else
		return strdup("error: usage: status [json|prometheus]\n");
	if (agent_status(a, format, &text))
		return strdup("error: out of memory\n");
	return text;
}

/* The reply to the line c has read (allocated; NULL: out of memory). */
static char *_answer(struct agent *a, struct agent_conn *c)
{
	char reply[REPLY_LEN], quoted[AGENT_LOG_QUOTE_LEN];
	const char *line = c->line;

	if (!c->cred_ok)
		return strdup("error: cannot read your credentials\n");
	if (!strcmp(line, "ping"))
		return strdup("ok coschedd\n");
	if (cosched_request_is(line, "status"))
		return _status(a, line);
	if (!cosched_request_is(line, "register") &&
	    !cosched_request_is(line, "end") &&
	    !cosched_request_is(line, "membus") &&
	    !cosched_request_is(line, "gang"))
		return strdup("error: unknown request (ping, register, membus, gang, end, status)\n");
	if (!_privileged(a, c)) {
		if (agent_log_allow(&refused_log))
			agent_log("refused '%s' from uid %u pid %d: not root or the allowed user",
				  agent_log_escape(line, strlen(line), quoted,
						   sizeof(quoted)),
				  (unsigned)c->cred.uid, (int)c->cred.pid);
		return strdup("error: permission denied: only root or SlurmUser may register or end jobs\n");
	}
	/* each parser checks the whole line (lib/cosched_proto) */
	if (cosched_request_is(line, "register"))
		(void)agent_register(a, line, c->cred.pid, reply, sizeof(reply));
	else if (cosched_request_is(line, "membus"))
		(void)agent_membus_request(a, line, reply, sizeof(reply));
	else if (cosched_request_is(line, "gang"))
		(void)agent_gang_request(a, line, reply, sizeof(reply));
	else
		(void)agent_end(a, line, reply, sizeof(reply));
	return strdup(reply);
}

/* Send what the socket takes now; close when all is sent or it fails. */
static void _conn_write(struct agent_conn *c)
{
	while (c->out_sent < c->out_len) {
		ssize_t n = send(c->fd, c->out + c->out_sent,
				 c->out_len - c->out_sent,
				 MSG_DONTWAIT | MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;		/* the rest when poll says so */
		if (n <= 0)
			break;
		c->out_sent += (size_t)n;
	}
	_conn_close(c);
}

static void _conn_answer(struct agent *a, struct agent_conn *c)
{
	c->line[strcspn(c->line, "\r\n")] = '\0';
	c->out = _answer(a, c);
	if (!c->out) {
		_conn_close(c);
		return;
	}
	c->out_len = strlen(c->out);
	c->deadline_ns = agent_now_ns() + AGENT_REPLY_MS * 1000000ull;
	_conn_write(c);
}

/* Read what has come; answer a whole line (or what came before EOF). */
static void _conn_read(struct agent *a, struct agent_conn *c)
{
	for (;;) {
		ssize_t n = read(c->fd, c->line + c->used,
				 LINE_MAX_BYTES - c->used);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n < 0 || (n == 0 && !c->used)) {
			_conn_close(c);		/* gone without a word */
			return;
		}
		c->used += (size_t)n;
		c->line[c->used] = '\0';
		if (n == 0 || memchr(c->line, '\n', c->used)) {
			_conn_answer(a, c);
			return;
		}
		if (c->used == LINE_MAX_BYTES) {
			_drop(c, "error: request longer than 512 bytes\n",
			      "request too long");
			return;
		}
	}
}

/* The slot for a new connection: a free one, else the oldest, preferring
 * an unprivileged one. */
static struct agent_conn *_slot(struct agent *a)
{
	struct agent_conn *oldest = NULL, *oldest_user = NULL;

	for (size_t i = 0; i < AGENT_CONN_MAX; i++) {
		struct agent_conn *c = &a->server->conn[i];

		if (c->fd < 0)
			return c;
		if (!oldest || c->accepted_ns < oldest->accepted_ns)
			oldest = c;
		if (!_privileged(a, c) &&
		    (!oldest_user || c->accepted_ns < oldest_user->accepted_ns))
			oldest_user = c;
	}
	oldest = oldest_user ? oldest_user : oldest;
	_drop(oldest, "error: the agent is busy, try again\n",
	      "too many connections, this one the oldest");
	return oldest;
}

static void _conn_open(struct agent *a, int fd)
{
	struct agent_conn *c = _slot(a);
	socklen_t len = sizeof(c->cred);

	c->fd = fd;
	c->accepted_ns = agent_now_ns();
	c->deadline_ns = c->accepted_ns + AGENT_REQUEST_MS * 1000000ull;
	c->cred_ok = !getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &c->cred, &len);
	_conn_read(a, c);	/* callers send their line right away */
}

/* accept() failed for want of a resource (descriptors, memory): the
 * connection stays queued and the listener readable, so poll would
 * return at once for ever (a SCHED_FIFO agent spinning): the listener
 * rests for AGENT_ACCEPT_BACKOFF_MS. */
static bool _accept_backoff(struct agent *a, int err)
{
	if (err != EMFILE && err != ENFILE && err != ENOBUFS && err != ENOMEM)
		return false;
	a->server->accept_resume_ns = agent_now_ns() +
				      AGENT_ACCEPT_BACKOFF_MS * 1000000ull;
	if (agent_log_allow(&accept_log))
		agent_log("accept: %s: new connections wait %d ms",
			  strerror(err), AGENT_ACCEPT_BACKOFF_MS);
	return true;
}

void agent_accept(struct agent *a)
{
	/* a bounded batch: a flood of connects must leave time for the tick */
	for (int i = 0; i < AGENT_CONN_MAX; i++) {
		int fd = accept4(a->listen_fd, NULL, NULL,
				 SOCK_CLOEXEC | SOCK_NONBLOCK);

		if (fd < 0) {
			(void)_accept_backoff(a, errno);
			return;	/* EAGAIN: served them all */
		}
		_conn_open(a, fd);
	}
}

int agent_listen_pollfd(const struct agent *a)
{
	return agent_now_ns() < a->server->accept_resume_ns ? -1 :
	       a->listen_fd;
}

size_t agent_conn_pollfds(struct agent *a, struct pollfd *fds)
{
	struct agent_server *srv = a->server;

	srv->npolled = 0;
	for (int i = 0; i < AGENT_CONN_MAX; i++) {
		const struct agent_conn *c = &srv->conn[i];

		if (c->fd < 0)
			continue;
		fds[srv->npolled] = (struct pollfd){
			.fd = c->fd, .events = c->out ? POLLOUT : POLLIN };
		srv->polled[srv->npolled++] = i;
	}
	return srv->npolled;
}

static void _expire(struct agent *a)
{
	uint64_t now = agent_now_ns();

	for (size_t i = 0; i < AGENT_CONN_MAX; i++) {
		struct agent_conn *c = &a->server->conn[i];

		if (c->fd < 0 || now < c->deadline_ns)
			continue;
		if (c->out)
			_drop(c, NULL, "did not read its reply in time");
		else
			_drop(c, "error: request not complete in time\n",
			      "request not complete in time");
	}
}

/* The fds came from agent_conn_pollfds in this loop iteration, and no
 * connection was opened since: each still belongs to its slot. */
void agent_conn_serve(struct agent *a, const struct pollfd *fds, size_t n)
{
	struct agent_server *srv = a->server;

	for (size_t i = 0; i < n && i < srv->npolled; i++) {
		struct agent_conn *c = &srv->conn[srv->polled[i]];

		if (!fds[i].revents || c->fd != fds[i].fd)
			continue;
		if (c->out)
			_conn_write(c);
		else
			_conn_read(a, c);
	}
	_expire(a);
}

int agent_conn_timeout_ms(const struct agent *a, int max_ms)
{
	uint64_t now = agent_now_ns();
	int ms = max_ms;

	if (now < a->server->accept_resume_ns &&	/* wake to listen again */
	    (a->server->accept_resume_ns - now + 999999) / 1000000 < (uint64_t)ms)
		ms = (int)((a->server->accept_resume_ns - now + 999999) / 1000000);
	for (size_t i = 0; i < AGENT_CONN_MAX; i++) {
		const struct agent_conn *c = &a->server->conn[i];
		uint64_t left;

		if (c->fd < 0)
			continue;
		left = c->deadline_ns > now ? c->deadline_ns - now : 0;
		if ((left + 999999) / 1000000 < (uint64_t)ms)
			ms = (int)((left + 999999) / 1000000);
	}
	return ms;
}
