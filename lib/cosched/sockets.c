/*
 * sockets.c - see sockets.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <netinet/in.h>
#include <sys/socket.h>

#include "cosched/sockets.h"

static bool _opt_is(int fd, int opt, int want)
{
	int value = -1;
	socklen_t len = sizeof(value);

	return !getsockopt(fd, SOL_SOCKET, opt, &value, &len) && value == want;
}

bool cosched_sock_is_tcp_stream(int fd)
{
	return (_opt_is(fd, SO_DOMAIN, AF_INET) ||
		_opt_is(fd, SO_DOMAIN, AF_INET6)) &&
	       _opt_is(fd, SO_TYPE, SOCK_STREAM) &&
	       _opt_is(fd, SO_PROTOCOL, IPPROTO_TCP) &&
	       _opt_is(fd, SO_ACCEPTCONN, 0);
}
