/*
 * membus_coord.c - the membus coordinator (the tally of the votes for a
 * quantum and the decision sent back, Koukis and Koziris, Algorithm 1's
 * second phase) and the datagrams from the other nodes' agents: who may
 * send what, for which quantum.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <json-c/json.h>
#include <netdb.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "membus_internal.h"

/* ---- the coordinator ---- */

/* The first live candidate in natural name order (n2 before n10). */
int coord_of(const struct agent_membus *m, uint64_t q)
{
	int best = -1;

	for (size_t i = 0; i < m->ncand; i++) {
		if (m->cand[i].dead_until > q)
			continue;
		if (best < 0 || strverscmp(m->cand[i].addr.name,
					   m->cand[best].addr.name) < 0)
			best = (int)i;
	}
	return best;
}

bool coord_is_self(const struct agent_membus *m, int cand)
{
	return cand >= 0 && !strcmp(m->cand[cand].addr.name, m->self.name);
}

/* A new quantum's tally: votes for an older one are late from now on. */
void coord_tally_start(struct agent_membus *m, uint64_t q)
{
	membus_tally_free(&m->tally);
	m->tally_q = q;
	m->tally_decided = false;
	m->nvoters = 0;
}

/* A node votes once per quantum (the coordinator's own vote is self). */
static bool _known_voter(const struct agent_membus *m, const char *name)
{
	for (size_t i = 0; i < m->nvoters; i++)
		if (!strcmp(m->voter_name[i], name))
			return true;
	return false;
}

/* Note that name voted for quantum q; a full table forgets the node
 * that has been silent longest. */
static void _seen(struct agent_membus *m, const char *name, uint64_t q)
{
	struct seen_voter *slot = NULL;

	for (size_t i = 0; i < m->nseen && !slot; i++)
		if (!strcmp(m->seen[i].name, name))
			slot = &m->seen[i];
	if (!slot && m->nseen < VOTERS_MAX)
		slot = &m->seen[m->nseen++];
	if (!slot) {
		slot = &m->seen[0];
		for (size_t i = 1; i < m->nseen; i++)
			if (m->seen[i].last_q < slot->last_q)
				slot = &m->seen[i];
	}
	snprintf(slot->name, sizeof(slot->name), "%s", name);
	slot->last_q = q;
}

static bool _dead_candidate(const struct agent_membus *m, const char *name,
			    uint64_t q)
{
	for (size_t i = 0; i < m->ncand; i++)
		if (m->cand[i].dead_until > q && !strcmp(m->cand[i].addr.name, name))
			return true;
	return false;
}

/*
 * The nodes gone at quantum q: the candidates passed over as dead (a
 * dead coordinator voted to itself, so it was never seen here) and the
 * nodes that voted here once and then stayed silent MISSES_DEAD quanta
 * in a row, the silence that passes a coordinator over.
 */
uint32_t coord_gone(const struct agent_membus *m, uint64_t q)
{
	uint32_t gone = 0;

	for (size_t i = 0; i < m->ncand; i++)
		gone += m->cand[i].dead_until > q;
	for (size_t i = 0; i < m->nseen; i++)
		gone += m->seen[i].last_q + MISSES_DEAD <= q &&
			!_dead_candidate(m, m->seen[i].name, q);
	return gone;
}

/* Add one node's vote to the tally; from is where to send the decision. */
void coord_tally_vote(struct agent_membus *m, const struct mbmsg *vote,
		      const struct sockaddr_storage *from, socklen_t len,
		      bool self)
{
	if (m->nvoters == VOTERS_MAX || _known_voter(m, vote->from))
		return;
	if (!self) {
		memcpy(&m->voters[m->nvoters], from, len);
		m->voter_len[m->nvoters] = len;
	}
	memcpy(m->voter_name[m->nvoters], vote->from, sizeof(vote->from));
	m->voter_self[m->nvoters++] = self;
	_seen(m, vote->from, vote->q);
	/* equal totals keep the order steps entered the tally in: the first
	 * voter's selection first, a set that fits, then the rest */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < vote->napps; i++)
			if (!vote->apps[i].sel == pass)
				(void)membus_tally_add(&m->tally, vote->apps[i].id,
						       vote->apps[i].sel,
						       vote->apps[i].nodes);
}

/* A node voting now and then changes the count: its news is bounded */
static struct agent_log_limit gone_log =
	AGENT_LOG_LIMIT_WINDOW("membus nodes gone", 60);

/* The tally's order and its incomplete steps (as many as a message
 * holds: a step the decision does not name runs, so none is stopped). */
static void _decision_of_tally(struct agent_membus *m, struct mbmsg *d)
{
	uint32_t gone = coord_gone(m, m->tally_q);

	size_t *idx = calloc(m->tally.n + 1, sizeof(*idx));
	uint8_t *complete = calloc(m->tally.n + 1, 1);

	memset(d, 0, sizeof(*d));
	d->type = MBMSG_DECISION;
	d->q = m->tally_q;
	memcpy(d->from, m->self.name, sizeof(d->from));
	if (idx && complete) {
		membus_tally_decide(&m->tally, gone, idx, complete);
		for (size_t k = 0; k < m->tally.n && d->norder < MBMSG_APPS_MAX; k++) {
			const struct membus_tally_app *app = &m->tally.apps[idx[k]];

			memcpy(d->order[d->norder++], app->id, MEMBUS_ID_LEN);
			if (!complete[idx[k]])
				memcpy(d->forced[d->nforced++], app->id,
				       MEMBUS_ID_LEN);
		}
	}
	free(idx);
	free(complete);
	if (gone != m->gone && agent_log_allow(&gone_log))
		agent_log("membus: quantum %llu: %u node(s) gone (a dead coordinator candidate, or no vote in %d quanta): the steps they span stay paired on the nodes that vote",
			  (unsigned long long)m->tally_q, gone, MISSES_DEAD);
	m->gone = gone;
}

static void _hold_decision(struct agent_membus *m, const struct mbmsg *d)
{
	memcpy(&m->decision, d, sizeof(*d));
	m->have_decision = true;
}

/* Format msg (to filled in) and send it; 0 or -1. */
int coord_send(struct agent_membus *m, const struct mbmsg *msg,
	       const struct sockaddr_storage *to, socklen_t len)
{
	static char text[MBMSG_TEXT_MAX + 1];
	int n = mbmsg_format(msg, text, sizeof(text));

	if (n < 0) {
		errno = EINVAL;
		return -1;
	}
	return m->bound ? peer_send(&m->peer, to, len, text, (size_t)n) : -1;
}

void coord_decide(struct agent_membus *m, uint64_t q)
{
	static struct mbmsg d;

	if (m->tally_q != q || m->tally_decided || !m->nvoters)
		return;
	m->tally_decided = true;
	_decision_of_tally(m, &d);
	for (size_t i = 0; i < m->nvoters; i++) {
		memcpy(d.to, m->voter_name[i], sizeof(d.to));
		if (m->voter_self[i])
			_hold_decision(m, &d);
		else if (coord_send(m, &d, &m->voters[i], m->voter_len[i]))
			agent_log("membus: quantum %llu: cannot send the decision to %s: %s",
				  (unsigned long long)q, m->voter_name[i],
				  strerror(errno));
	}
	m->coordinated++;
}

/* ---- messages from peers ---- */

/* Refusals an outsider can cause: logged within a budget (a minute's) */
static struct agent_log_limit refused_log =
	AGENT_LOG_LIMIT_WINDOW("membus refusals", 60);
static struct agent_log_limit window_log =
	AGENT_LOG_LIMIT_WINDOW("membus quanta outside the window", 60);

/* One refusal: counted always, logged within the limiter's budget. */
static void _refuse(struct agent_membus *m, const char *why)
{
	m->refused++;
	if (agent_log_allow(&refused_log))
		agent_log("membus: refused a message: %s", why);
}

static bool _in_window(struct agent_membus *m, const struct mbmsg *msg)
{
	uint64_t cur = agent_wall_ns() / m->q_ns;

	if (msg->q + WINDOW_BEFORE >= cur && msg->q <= cur + WINDOW_AFTER)
		return true;
	m->out_of_window++;
	if (agent_log_allow(&window_log))
		agent_log("membus: dropped a %s from %s for quantum %llu, out of window (now %llu)",
			  msg->type == MBMSG_VOTE ? "vote" : "decision",
			  msg->from, (unsigned long long)msg->q,
			  (unsigned long long)cur);
	return false;
}

static bool _coordinates(const struct agent_membus *m)
{
	for (size_t i = 0; i < m->ncand; i++)
		if (coord_is_self(m, (int)i))
			return true;
	return false;
}

/*
 * Before munge is asked: a coordinator candidate hears votes from any
 * node of its steps, which it does not know by address, so it takes any
 * source; any other agent only hears decisions, from its candidates.
 */
static bool _known_source(const struct sockaddr_storage *from, socklen_t len,
			  void *arg)
{
	const struct agent_membus *m = arg;

	if (_coordinates(m))
		return true;
	for (size_t i = 0; i < m->ncand; i++)
		if (peer_same_addr(from, len, &m->cand[i].addr.sa,
				   m->cand[i].addr.len))
			return true;
	return false;
}

static void _on_vote(struct agent_membus *m, const struct mbmsg *msg,
		     const struct peer_datagram *d)
{
	if (!strcmp(msg->from, m->self.name)) {
		_refuse(m, "a vote in this agent's own name");
		return;
	}
	if (msg->q < m->tally_q || (msg->q == m->tally_q && m->tally_decided)) {
		m->late++;	/* for a quantum already decided */
		return;
	}
	if (msg->q > m->tally_q)
		coord_tally_start(m, msg->q);
	coord_tally_vote(m, msg, &d->from, d->from_len, false);
}

static void _on_decision(struct agent_membus *m, const struct mbmsg *msg,
			 const struct peer_datagram *d)
{
	const struct peer_addr *voted;

	/* only for the quantum we voted in, before its switch */
	if (m->voted_cand < 0 || msg->q != m->voted_q) {
		m->late++;
		return;
	}
	/* only from the candidate we voted for, from its address */
	voted = &m->cand[m->voted_cand].addr;
	if (coord_is_self(m, m->voted_cand) || strcmp(msg->from, voted->name) ||
	    !peer_same_addr(&d->from, d->from_len, &voted->sa, voted->len)) {
		_refuse(m, "a decision from a node this agent did not vote for");
		return;
	}
	if (m->have_decision && m->decision.q == msg->q) {
		m->late++;
		return;
	}
	_hold_decision(m, msg);
}

/* One datagram whose credential passed. */
static void _on_datagram(struct agent_membus *m, const struct peer_datagram *d)
{
	static struct mbmsg msg;
	char err[MBMSG_ERR_LEN], why[MBMSG_ERR_LEN + 32];

	if (mbmsg_parse(d->text, d->len, m->self.name, &msg, err,
			sizeof(err))) {
		snprintf(why, sizeof(why), "malformed: %s", err);
		_refuse(m, why);
		return;
	}
	if (!_in_window(m, &msg))
		return;
	if (msg.type == MBMSG_VOTE)
		_on_vote(m, &msg, d);
	else
		_on_decision(m, &msg, d);
}

/* At most PEER_BATCH_MAX datagrams, then back to the loop (which comes
 * back here at once while more wait): a flood never starves the rest. */
void agent_membus_peer(struct agent *a)
{
	struct agent_membus *m = a->mb;
	struct peer_datagram d;
	const char *why;

	if (!m || !m->bound)
		return;
	for (int i = 0; i < PEER_BATCH_MAX; i++) {
		int rc = peer_recv(&m->peer, _known_source, m, &d, &why);

		if (!rc)
			return;
		if (rc < 0) {
			_refuse(m, why);
			continue;
		}
		_on_datagram(m, &d);
		free(d.text);
	}
}

int agent_membus_timer_fd(const struct agent *a)
{
	return a->mb ? a->mb->timer_fd : -1;
}

int agent_membus_peer_fd(const struct agent *a)
{
	return a->mb && a->mb->bound ? a->mb->peer.fd : -1;
}

void agent_membus_close(struct agent *a)
{
	struct agent_membus *m = a->mb;

	if (!m)
		return;
	peer_close(&m->peer);
	if (m->timer_fd >= 0)
		close(m->timer_fd);
	membus_tally_free(&m->tally);
	bw_tcp_table_free(&m->tcp);
	free(m);
	a->mb = NULL;
}
