/*
 * membus_req.c - the membus request and its PEERs (see proto.h).
 *
 * Every snprintf is checked: a request cut short would reach the agent as
 * a different, valid-looking request (a coordinator list missing a digit
 * of a port), so a text that does not fit is an error, or, for the
 * coordinator list, a shorter list.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "num/num.h"
#include "proto.h"
#include "num/errbuf.h"

#define ADDR_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" \
		   "0123456789.-_:%"

/* Append to buf at *used; false (buf unchanged past *used) if it does not fit. */
static bool _append(char *buf, size_t len, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static bool _append(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*used >= len)
		return false;
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - *used) {
		buf[*used] = '\0';
		return false;
	}
	*used += (size_t)n;
	return true;
}

/* Clear buf (when there is one) and fail. */
static int _fail(char *buf, size_t len)
{
	if (buf && len)
		buf[0] = '\0';
	return -1;
}

int cosched_agent_port(uint32_t slurmd_port, uint32_t offset,
			uint16_t *port)
{
	uint64_t sum = (uint64_t)slurmd_port + offset;

	if (!slurmd_port || !offset || sum > 65535)
		return -1;
	*port = (uint16_t)sum;
	return 0;
}

static bool _addr_ok(const char *addr)
{
	size_t len = addr ? strlen(addr) : 0;

	return len > 0 && len <= COSCHED_PEER_ADDR_MAX &&
	       strspn(addr, ADDR_CHARS) == len;
}

int cosched_peer_format(const char *name, const char *addr, uint16_t port,
			char *buf, size_t len)
{
	bool v6 = addr && strchr(addr, ':');
	size_t used = 0;

	if (!buf || !len || !cosched_node_name_ok(name) || !_addr_ok(addr) ||
	    !port)
		return _fail(buf, len);
	if (!_append(buf, len, &used, v6 ? "%s@[%s]:%u" : "%s@%s:%u", name,
		     addr, (unsigned int)port))
		return _fail(buf, len);
	return 0;
}

int cosched_membus_request(char *buf, size_t len, uint32_t job, uint32_t step,
			   uint32_t nnodes, const char *self,
			   const char *const coord[], size_t ncoord)
{
	size_t used = 0;
	int named = 0;

	if (!buf || !len || !self || !*self || !coord || !ncoord)
		return _fail(buf, len);
	if (!_append(buf, len, &used, "membus job=%u step=%u nnodes=%u self=%s coord=",
		     (unsigned int)job, (unsigned int)step,
		     (unsigned int)nnodes, self))
		return _fail(buf, len);
	/* _append leaves the text whole when an entry does not fit */
	for (size_t i = 0; i < ncoord && i < COSCHED_COORD_MAX; i++) {
		if (!coord[i] || !*coord[i] ||
		    !_append(buf, len, &used, "%s%s", named ? "," : "",
			     coord[i]))
			break;
		named++;
	}
	if (!named)
		return _fail(buf, len);
	return named;
}

int cosched_membus_parse(const char *line, struct cosched_membus *out,
			 char *err, size_t err_len)
{
	struct cosched_membus m;
	char num[32];
	uint64_t job, step, nnodes;

	memset(&m, 0, sizeof(m));
	if (cosched_request_check(line, "membus", err, err_len))
		return -1;
	if (cosched_request_word(line, "job", num, sizeof(num)) ||
	    num_parse_range(num, 0, UINT32_MAX, &job) ||
	    cosched_request_word(line, "step", num, sizeof(num)) ||
	    num_parse_range(num, 0, UINT32_MAX, &step) ||
	    cosched_request_word(line, "nnodes", num, sizeof(num)) ||
	    num_parse_range(num, 1, UINT32_MAX, &nnodes) ||
	    cosched_request_word(line, "self", m.self, sizeof(m.self)) ||
	    cosched_request_word(line, "coord", m.coord, sizeof(m.coord)) ||
	    !m.self[0] || !m.coord[0]) {
		errbuf_set(err, err_len,
				"membus needs job, step, nnodes (>0), self and coord");
		return -1;
	}
	m.job = (uint32_t)job;
	m.step = (uint32_t)step;
	m.nnodes = (uint32_t)nnodes;
	*out = m;
	return 0;
}

int cosched_agent_peer(const char *name, const char *node_addr,
		       const char *hostname, uint32_t slurmd_port,
		       uint32_t offset, char *buf, size_t len, char *err,
		       size_t err_len)
{
	const char *addr = node_addr && *node_addr ? node_addr :
			   hostname && *hostname ? hostname : name;
	uint16_t port;

	if (cosched_agent_port(slurmd_port, offset, &port)) {
		snprintf(err, err_len, "node %s: slurmd port %u + port offset %u is not a port",
			 name, (unsigned int)slurmd_port, (unsigned int)offset);
		return -1;
	}
	if (cosched_peer_format(name, addr, port, buf, len)) {
		snprintf(err, err_len, "node %s: unusable address '%.64s'",
			 name, addr);
		return -1;
	}
	return 0;
}
