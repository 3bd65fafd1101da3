/*
 * gang.h - gang rows switched by the node agents: the table slurmctld's
 * select/coalloc sends each node's coschedd, and the rule by which an
 * agent runs a job in a quantum.  One formatter, one parser and one rule,
 * used by both sides.
 *
 * With Matrix=gang and a TimeSlice below a second, Slurm sees the jobs of
 * every row as running; each node's agent freezes and thaws them at
 * quantum boundaries aligned on the wall clock: quantum q starts at
 * q x slice_ms (CLOCK_REALTIME, kept in step by NTP as Slurm needs
 * anyway).  The table of a node lists the jobs with cells on it and the
 * rows each holds there, its home row and its replicas (alternate
 * scheduling, matrix.h).  A job runs in quantum q when it holds the row
 * of q:
 *   - with a preempting job in the priority row: row 0 only (the matrix
 *     stays on it while it holds a job, as the slurmctld path does);
 *   - otherwise the busy rows in turn, the k-th of them with
 *     k = q mod (their number): an ordinary row (first or later, first
 *     being 1 with a priority row, else 0) is busy when it holds some
 *     job's own cells anywhere in the matrix, so every node skips the same
 *     empty rows (a node alone in a row would idle through its quanta);
 *     with no busy row, first + q mod (rows - first).
 * A job the table does not name runs (fail open: a job newer than the
 * table, or one outside the matrix), and so does every job when the
 * newest table is older than GANG_TABLE_STALE_MS (slurmctld dead or cut
 * off).
 *
 * Guard tables (GangGuard=yes, whole-second slices): slurmctld switches
 * the rows through Slurm's suspend and resume, and names in run= the rows
 * whose jobs run on the node now (slice_ms=0).  A job runs when it holds
 * one of them; the agent applies each new table at once, freezing before
 * it thaws.  Slurm's SIGCONT cannot start a job the agent holds frozen,
 * and the agent thaws one only after it froze the others there: the
 * entering row never runs beside the leaving one, however late slurmd
 * carries out its suspend.
 *
 * The text, one line, sealed (seal.h: a munge credential signs the pass,
 * a key in it each node's line; a bare credential holding the line is
 * taken too), in request-line words (proto.h), each key once, all of
 * them required:
 *
 *   gang node=NAME epoch=E slice_ms=S rows=R first=F priority=0|1
 *        busy=MASK run=*|MASK [resend_ms=MS] jobs=ID:MASK[,ID:MASK...]|-
 *
 * run=* with slice_ms from GANG_SLICE_MS_MIN to GANG_SLICE_MS_MAX (the
 * quantum rule), run=MASK with slice_ms=0 (a guard table); resend_ms
 * (the one optional key) from GANG_RESEND_MS to GANG_RESEND_MS_MAX,
 * GANG_RESEND_MS without it.
 * E orders the tables (slurmctld's wall clock when the matrix changed, in
 * microseconds, say): an older one never replaces a newer one, the same
 * one sent again keeps it fresh.  MASK is a hexadecimal set of rows
 * (bit r: row r); busy is the whole matrix's, the same in every node's
 * table; '-' no job.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHED_GANG_H
#define COSCHED_GANG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cosched_proto/client.h"
#include "cosched_proto/peer_hosts.h"
#include "cosched_proto/proto.h"

/* Slices below a second go through the agents; the slurmctld path (job
 * suspend and resume, seconds per switch) keeps the longer ones. */
#define GANG_SLICE_MS_MIN 50
#define GANG_SLICE_MS_MAX 999
#define GANG_ROWS_MAX 16	/* the matrix's MPL bound (coalloc.conf) */
#define GANG_JOBS_MAX GANG_ROWS_MAX	/* one job per cell of a node */
/*
 * slurmctld sends every table again each resend interval, a second up to
 * GANG_RESEND_TABLES_PER_S tables and a second more for each such number
 * beyond (gang_resend_ms: at 4,096 nodes with cells, every 4 s), so that
 * the tables resent cost slurmctld about the same at any scale; a table
 * names a longer interval in resend_ms=.  An agent whose newest table is
 * 3.5 intervals old runs everything (GANG_TABLE_STALE_MS at a second).
 */
#define GANG_RESEND_MS 1000
#define GANG_RESEND_MS_MAX 16000
#define GANG_RESEND_TABLES_PER_S 1024
#define GANG_TABLE_STALE_MS 3500

struct gang_job {
	uint32_t job;
	uint32_t rows;		/* bit r: the job holds row r on this node */
};

struct gang_table {
	char node[COSCHED_NODE_NAME_LEN];
	uint64_t epoch;
	uint32_t slice_ms;
	uint16_t rows;		/* MPL, 2..GANG_ROWS_MAX */
	uint16_t first;		/* first ordinary row: 0, or 1 (priority row) */
	bool priority;		/* a preempting job holds the priority row */
	uint32_t busy;		/* rows with a job's own cells, any node */
	bool guard;		/* slurmctld names the running rows */
	uint32_t run;		/* guard: the rows that run on this node */
	uint32_t resend_ms;	/* 0: GANG_RESEND_MS, else up to _MAX */
	size_t njobs;
	struct gang_job jobs[GANG_JOBS_MAX];
};

/* The resend interval for a pass of this many tables. */
uint32_t gang_resend_ms(size_t tables);
/* How old t may grow before its agent runs everything: 3.5 intervals. */
uint32_t gang_stale_ms(const struct gang_table *t);

/* How often an agent holding a guard table looks whether it went stale. */
#define GANG_GUARD_CHECK_MS 500

/* The row that runs in quantum q (a guard table's lowest running row,
 * UINT32_MAX with none). */
unsigned gang_row_of(const struct gang_table *t, uint64_t q);

/* Whether job runs in quantum q (any q for a guard table): it holds q's
 * row (a guard table's running rows), or the table does not name it. */
bool gang_job_runs(const struct gang_table *t, uint32_t job, uint64_t q);

/*
 * Write t as one line into buf: its length, or -1 (buf "") when t is out
 * of bounds or the text does not fit (COSCHED_REQUEST_LEN is enough).
 */
int gang_table_format(const struct gang_table *t, char *buf, size_t len);

/*
 * Parse len bytes of text (not NUL-terminated) into *t, strictly: 0, or
 * -1 with the reason in err (printable, at most ERRBUF_LEN bytes)
 * and *t untouched.  With self non-NULL a table for another node is
 * refused.
 */
int gang_table_parse(const char *text, size_t len, const char *self,
		     struct gang_table *t, char *err, size_t err_len);

/*
 * The request that tells a node's agent where to take gang tables and
 * from whom: "gang self=PEER from=ADDR[,ADDR...]" (proto.h).  PEER is the
 * UDP address it binds, as for membus (or has bound at its start,
 * coschedd --gang-self); the ADDRs are slurmctld's, SlurmctldHost's and
 * its backups' as the plugin resolved them (numeric, peer_hosts.h): a
 * datagram from any other address is dropped before munge is asked.
 * Tables are taken from root and the agent's allow_user (SlurmUser, whom
 * slurmctld runs as), as membus messages are.
 */
struct cosched_gang_req {
	char self[COSCHED_PEER_LEN];
	char from[PEER_HOSTS_TEXT_LEN];
	struct peer_hosts hosts;	/* from, parsed (the parser fills it) */
};

int cosched_gang_request_format(const struct cosched_gang_req *g, char *buf,
				size_t len);
/* The agent's side: both words there, from a list of numeric addresses
 * (self unchecked: the agent resolves it, peer.c). */
int cosched_gang_request_parse(const char *line, struct cosched_gang_req *g,
			       char *err, size_t err_len);

#endif
