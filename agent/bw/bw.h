/*
 * bw.h - where the node agent's MemBUS mode gets bandwidth figures from
 * (Koukis and Koziris, sections 4 and 5.2-5.3), without assuming hardware
 * counters.
 *
 * Sources, best first; bw_detect() says which this node offers and why
 * the others are missing, and the agent reports the one each job used:
 *   perf     hardware cache-miss counters per process (perf_event_open):
 *            memory bytes = last-level-cache misses x cache line size
 *   resctrl  Intel RDT / AMD QoS memory-bandwidth monitoring: a monitor
 *            group per job step under /sys/fs/resctrl/mon_groups
 *   tcp      per-socket TCP byte counters (sock_diag: tcp_info's
 *            bytes_acked + bytes_received) of the process's sockets,
 *            for network traffic (and, as the NIC's DMA, memory traffic)
 *   hint     what the job declared (--cosched-bw=mem=...,net=...)
 *
 * Capacities M and N of the node: bw_probe_memory() (a short STREAM-like
 * copy/triad on every CPU of the node) and bw_link_speed() (the link
 * speed of the interface that holds an address) or bw_probe_loopback().
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHEDD_BW_H
#define COSCHEDD_BW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define BW_WHY_LEN 160

enum bw_source {
	BW_SRC_NONE = 0,
	BW_SRC_PERF,
	BW_SRC_RESCTRL,
	BW_SRC_TCP,
	BW_SRC_HINT,
};

/* "none", "perf", "resctrl", "tcp", "hint" */
const char *bw_source_name(enum bw_source src);

/* What this node offers, with the reason when a source is missing. */
struct bw_sources {
	bool perf, resctrl, tcp;
	char perf_why[BW_WHY_LEN];	/* "" when available */
	char resctrl_why[BW_WHY_LEN];
	char tcp_why[BW_WHY_LEN];
};

/* Probe once (at agent start): opens and closes a test counter, looks for
 * a mounted resctrl with MBM, sends one sock_diag dump request. */
void bw_detect(struct bw_sources *have);

/* --- perf: one counter per process (all its threads, inherit) --- */
struct bw_perf {
	int fd;			/* -1: closed */
	uint64_t last;		/* misses at the previous read */
	unsigned line;		/* cache line size, bytes */
};

/* Open a counter on pid.  Returns 0, or -1 with err filled. */
int bw_perf_open(pid_t pid, struct bw_perf *p, char *err, size_t len);
/* Memory bytes since the previous call (the first call: since open).
 * Returns 0, or -1 when the counter cannot be read. */
int bw_perf_delta(struct bw_perf *p, uint64_t *bytes);
void bw_perf_close(struct bw_perf *p);

/* --- resctrl: a monitor group per job step --- */
struct bw_resctrl {
	char dir[256];		/* /sys/fs/resctrl/mon_groups/NAME, "" closed */
	uint64_t last;		/* mbm_total_bytes summed over domains */
};

/* Create group NAME (e.g. "coschedd.n1.12.0").  Returns 0 or -1. */
int bw_resctrl_open(const char *name, struct bw_resctrl *r, char *err,
		    size_t len);
/* Move pid's threads into the group.  Returns 0 or -1. */
int bw_resctrl_add(struct bw_resctrl *r, pid_t pid);
/* Bytes since the previous call.  Returns 0 or -1. */
int bw_resctrl_delta(struct bw_resctrl *r, uint64_t *bytes);
/* Remove the group (its tasks return to the default group). */
void bw_resctrl_close(struct bw_resctrl *r);

/* --- tcp: sock_diag dumps, matched to processes by socket inode --- */
struct bw_tcp_sock {
	uint64_t inode;
	uint64_t bytes;		/* bytes_acked + bytes_received */
};

/* One dump of every TCP socket (IPv4 and IPv6) of our network
 * namespace, sorted by inode. */
struct bw_tcp_table {
	struct bw_tcp_sock *socks;
	size_t n, cap;
};

/* Per process: its sockets at the previous call, to take deltas per
 * socket (a closed socket's bytes must not make the sum go backwards). */
struct bw_tcp_track {
	struct bw_tcp_sock *socks;
	size_t n, cap;
};

/* Refresh the table.  Returns 0, or -1 with err filled. */
int bw_tcp_dump(struct bw_tcp_table *t, char *err, size_t len);
void bw_tcp_table_free(struct bw_tcp_table *t);

/* Bytes moved by pid's TCP sockets (from /proc/PID/fd) since the
 * previous call with this track: new sockets count from 0.  Returns 0,
 * or -1 when the process's fds cannot be read. */
int bw_tcp_delta(const struct bw_tcp_table *t, pid_t pid,
		 struct bw_tcp_track *track, uint64_t *bytes);
void bw_tcp_track_free(struct bw_tcp_track *track);

/* --- capacities --- */

/* Memory bandwidth of the node, bytes/s: `threads` threads copying
 * arrays much larger than the caches for about `seconds`; the best of a
 * few repetitions.  Returns 0 when it cannot run. */
double bw_probe_memory(unsigned threads, double seconds);

/* Link speed (bytes/s) of the interface holding IPv4/IPv6 address addr
 * (text), from /sys/class/net/IF/speed.  0 when unknown (loopback,
 * virtual interfaces without a speed). */
double bw_link_speed(const char *addr);

/* TCP throughput over loopback for about `seconds`, bytes/s (0 on
 * failure): the network capacity where no link speed is known. */
double bw_probe_loopback(double seconds);

#endif /* COSCHEDD_BW_H */
