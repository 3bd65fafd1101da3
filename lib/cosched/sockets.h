/*
 * sockets.h - which of a process's sockets carry messages from other
 * hosts: the one rule shared by the node agent (arrivals.c, which watches
 * a process's sockets) and the MPI shim (wake.c, where an SB receiver
 * sleeps on its own).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_COSCHED_SOCKETS_H
#define COALLOC_COSCHED_SOCKETS_H

#include <stdbool.h>

/* fd is an IPv4 or IPv6 TCP stream socket that is not listening (it may
 * still be connecting; a listening socket carries no message). */
bool cosched_sock_is_tcp_stream(int fd);

#endif /* COALLOC_COSCHED_SOCKETS_H */
