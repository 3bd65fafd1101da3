/*
 * membus_internal.h - what the files of the agent's membus mode share:
 * its state (struct agent_membus) and the calls between the quantum loop
 * (membus.c), the coordinator and the peers' messages (membus_coord.c)
 * and the status (membus_status.c).  agent.h is their interface to the
 * rest of the agent.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHED_AGENT_MEMBUS_INTERNAL_H
#define COSCHED_AGENT_MEMBUS_INTERNAL_H

#include "agent.h"
#include "mbmsg.h"
#include "cosched_proto/peer.h"

#define CANDIDATES_MAX 16
#define MISSES_DEAD 4		/* quanta in a row without a decision */
#define DEAD_QUANTA 10		/* a silent coordinator is skipped so long, */
#define DEAD_DOUBLINGS 4	/* doubled each time its retry fails, to 160 */
#define HISTORY 64		/* quanta kept for status */
#define VOTERS_MAX 256
#define SPANS_MAX 64		/* steps announced, not yet registered */
#define PEER_BATCH_MAX 64	/* datagrams read per wake-up of the loop */
/* quanta a message may be for, around the current one: a vote or a
 * decision is for the next quantum; one late or early by a clock's
 * drift still counts, a quantum far off is someone's wrong clock */
#define WINDOW_BEFORE 1
#define WINDOW_AFTER 2

enum phase { PHASE_VOTE, PHASE_DECIDE, PHASE_SWITCH };

struct candidate {
	struct peer_addr addr;
	uint64_t dead_until;	/* quantum from which it is tried again */
	unsigned misses;	/* our votes it left unanswered, in a row */
	unsigned deaths;	/* times passed over since its last decision */
};

/* A node that voted to this coordinator, and when it last did. */
struct seen_voter {
	char name[COSCHED_NODE_NAME_LEN];
	uint64_t last_q;
};

/* One quantum as status shows it. */
struct quantum_record {
	uint64_t q;
	char run[256];		/* the steps that ran, "J.S J.S" */
	char unstopped[256];	/* of those, the ones the decision stopped
				 * that did not stop in time */
	char coordinator[COSCHED_NODE_NAME_LEN];	/* "" fallback */
	char estimates[512];	/* "J.S=mem/net ..." per process, MB/s */
};

struct span {
	uint32_t job, step, nnodes;
};

struct agent_membus {
	uint64_t q_ns;
	struct span spans[SPANS_MAX];
	size_t nspans;
	struct peer_ctx peer;
	struct peer_addr self;
	bool bound;
	int timer_fd;
	enum phase next_phase;
	uint64_t next_q;		/* quantum of the next phase */
	struct candidate cand[CANDIDATES_MAX];
	size_t ncand;
	/* capacities of this node */
	uint32_t cpus;
	double mem_cap, net_cap;
	const char *mem_cap_how, *net_cap_how;
	bool measured;
	struct bw_sources have;
	struct bw_tcp_table tcp;
	/* as a voter */
	uint64_t voted_q;		/* the quantum our last vote was for */
	int voted_cand;			/* whom it went to, -1: none sent */
	bool have_decision;
	struct mbmsg decision;		/* the one held, for decision.q */
	/* as a coordinator */
	uint64_t tally_q;
	bool tally_decided;
	struct membus_tally tally;
	struct sockaddr_storage voters[VOTERS_MAX];
	socklen_t voter_len[VOTERS_MAX];
	char voter_name[VOTERS_MAX][COSCHED_NODE_NAME_LEN];
	bool voter_self[VOTERS_MAX];
	size_t nvoters;
	struct seen_voter seen[VOTERS_MAX];	/* for the nodes gone */
	size_t nseen;
	uint32_t gone;			/* at the last decision */
	/* counters and history */
	uint64_t quanta, fallbacks, coordinated, late, refused, out_of_window;
	struct quantum_record hist[HISTORY];
	size_t hist_n, hist_next;
	char coordinator[COSCHED_NODE_NAME_LEN];
	bool in_fallback;
};

/* ---- membus_coord.c: the coordinator, for the quantum loop ---- */

int coord_of(const struct agent_membus *m, uint64_t q);
void coord_decide(struct agent_membus *m, uint64_t q);
bool coord_is_self(const struct agent_membus *m, int cand);
int coord_send(struct agent_membus *m, const struct mbmsg *msg,
	       const struct sockaddr_storage *to, socklen_t len);
void coord_tally_start(struct agent_membus *m, uint64_t q);
void coord_tally_vote(struct agent_membus *m, const struct mbmsg *vote,
		      const struct sockaddr_storage *from, socklen_t len,
		      bool self);
uint32_t coord_gone(const struct agent_membus *m, uint64_t q);

#endif /* COSCHED_AGENT_MEMBUS_INTERNAL_H */
