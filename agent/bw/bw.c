/*
 * bw.c - bandwidth sources and capacity probes of the node agent's MemBUS
 * mode (Koukis and Koziris, sections 4, 5.2, 5.3): perf cache-miss
 * counters, resctrl memory-bandwidth monitoring, sock_diag TCP byte
 * counters, and the microbenchmarks that give the node's capacities M and
 * N.
 *
 * This file holds bw_detect; each source has its file (bw_perf.c,
 * bw_resctrl.c, bw_tcp.c), the capacity probes theirs (bw_probe.c), the
 * helpers they share bw_util.c.
 *
 * Nothing here may assume the hardware is there: a VM usually exposes no
 * PMU, resctrl needs Intel RDT or AMD QoS plus a mount, and a kernel may
 * lack fields of tcp_info.  Every source says why it is missing, in words
 * an operator can act on, and the library never prints: the agent logs.
 *
 * perf.  One inherited counter per process (its threads and the children
 * it forks after open).  inherit excludes PERF_FORMAT_GROUP on older
 * kernels, so one counter it is: the generic cache-misses event, which
 * Intel and AMD map to last-level misses of loads and stores (RFOs), or
 * the LL read-miss cache event where the generic one is missing.
 * Multiplexed counters are scaled by enabled/running time.
 *
 * resctrl.  A monitor group mon_groups/NAME under the resctrl mount; its
 * mbm_total_bytes, summed over the L3 domains, is the group's memory
 * traffic.  "tasks" takes one tid per write, so adding a process writes
 * each of its threads; threads created later inherit the group.
 *
 * tcp.  One NETLINK_SOCK_DIAG dump per tick gives every TCP socket of the
 * network namespace with its tcp_info; processes are matched to sockets
 * by inode through /proc/PID/fd.  Deltas are taken per socket, so a
 * socket that closes (and leaves the dump) never makes a sum go down.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <inttypes.h>
#include <limits.h>
#include <mntent.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/perf_event.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>

#include "bw.h"
#include "bw_internal.h"
#include "host/proc.h"
#include "num/errbuf.h"

const char *bw_source_name(enum bw_source src)
{
	switch (src) {
	case BW_SRC_NONE:
		return "none";
	case BW_SRC_PERF:
		return "perf";
	case BW_SRC_RESCTRL:
		return "resctrl";
	case BW_SRC_TCP:
		return "tcp";
	case BW_SRC_HINT:
		return "hint";
	}
	return "unknown";
}

void bw_detect(struct bw_sources *have)
{
	memset(have, 0, sizeof(*have));
	bw_perf_detect(have);
	bw_resctrl_detect(have);
	bw_tcp_detect(have);
}
