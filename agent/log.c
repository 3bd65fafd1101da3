/*
 * log.c - the agent's log (a file, stderr or syslog, one line a call,
 * tagged with the node), its rate limits and the escaping of bytes other
 * users sent, and its monotonic clock: the leaf every agent file uses,
 * kept out of coschedd.c (main) so that no file includes its way back to
 * the entry file.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"

static int log_fd = 2;		/* -1: syslog */
static char log_node[COSCHED_NODE_NAME_LEN] = "?";

uint64_t agent_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * Where the log goes: a file, stderr ("-"), or syslog ("syslog"; without
 * --log too when stderr is no terminal, as Slurm's daemons do when no log
 * file is set: a service manager's agent lands in the journal).
 */
int agent_log_open(const char *path, const char *node)
{
	snprintf(log_node, sizeof(log_node), "%s", node);
	if (!path[0])
		path = isatty(2) ? "-" : AGENT_LOG_SYSLOG;
	if (!strcmp(path, "-"))
		return 0;
	if (!strcmp(path, AGENT_LOG_SYSLOG)) {
		openlog("coschedd", LOG_PID, LOG_DAEMON);
		log_fd = -1;
		return 0;
	}
	log_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (log_fd < 0) {
		log_fd = 2;
		return -1;
	}
	return 0;
}

const char *agent_log_where(void)
{
	return log_fd < 0 ? "syslog" : log_fd == 2 ? "stderr" : "its file";
}

int agent_log_fd(void)
{
	return log_fd;
}

void agent_log_close(void)
{
	if (log_fd < 0)
		closelog();
	if (log_fd > 2)
		close(log_fd);
	log_fd = 2;
}

/* syslog's level of a line: what starts with "error" is an error */
static int _syslog_level(const char *msg)
{
	return strncmp(msg, "error", 5) ? LOG_INFO : LOG_ERR;
}

void agent_log(const char *fmt, ...)
{
	char line[768], when[32];
	time_t now = time(NULL);
	struct tm tm;
	va_list ap;
	int n;

	/* syslog stamps time and pid itself; the node tells agents apart */
	if (log_fd < 0)
		n = snprintf(line, sizeof(line), "[%s] ", log_node);
	else {
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S",
			 localtime_r(&now, &tm));
		n = snprintf(line, sizeof(line), "[%s] coschedd[%s] pid %d: ",
			     when, log_node, (int)getpid());
	}
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	if (log_fd < 0) {
		syslog(_syslog_level(line + n), "%s", line);
		return;
	}
	n = (int)strnlen(line, sizeof(line) - 2);
	line[n++] = '\n';
	(void)!write(log_fd, line, (size_t)n);	/* one write: lines stay whole */
}

static struct agent_log_limit *suppressing;	/* limits that suppressed */

static uint64_t _window_ns(const struct agent_log_limit *l)
{
	return (l->window_s ? l->window_s : AGENT_LOG_WINDOW_S) * 1000000000ull;
}

static void _log_suppressed(struct agent_log_limit *l, uint64_t now)
{
	if (l->suppressed)
		agent_log("suppressed %lu similar messages (%s) in the last %llu s",
			  l->suppressed, l->kind,
			  (unsigned long long)((now - l->window_ns) / 1000000000ull));
	l->suppressed = 0;
	l->logged = 0;
	l->window_ns = now;
}

bool agent_log_allow(struct agent_log_limit *l)
{
	uint64_t now = agent_now_ns();

	if (!l->window_ns || now - l->window_ns >= _window_ns(l))
		_log_suppressed(l, now);
	if (l->logged < AGENT_LOG_BURST) {
		l->logged++;
		return true;
	}
	if (!l->suppressed++ && !l->listed) {
		l->next = suppressing;
		suppressing = l;
		l->listed = true;
	}
	return false;
}

void agent_log_flush_suppressed(bool all)
{
	uint64_t now;

	if (!suppressing)
		return;		/* the usual case, at every loop iteration */
	now = agent_now_ns();
	for (struct agent_log_limit *l = suppressing; l; l = l->next)
		if (l->suppressed &&
		    (all || now - l->window_ns >= _window_ns(l)))
			_log_suppressed(l, now);
}

const char *agent_log_escape(const void *data, size_t len, char *buf,
			     size_t buf_len)
{
	const unsigned char *in = data;
	size_t used = 0, quoted = len < AGENT_LOG_QUOTE ? len : AGENT_LOG_QUOTE;

	for (size_t i = 0; i < quoted && used + 5 < buf_len; i++) {
		unsigned char ch = in[i];

		if (ch >= 0x20 && ch < 0x7f && ch != '\'' && ch != '\\')
			buf[used++] = (char)ch;
		else
			used += (size_t)snprintf(buf + used, buf_len - used,
						 "\\x%02x", ch);
	}
	if (len > quoted && used + 4 <= buf_len) {
		memcpy(buf + used, "...", 3);
		used += 3;
	}
	if (buf_len)
		buf[used < buf_len ? used : buf_len - 1] = '\0';
	return buf;
}
