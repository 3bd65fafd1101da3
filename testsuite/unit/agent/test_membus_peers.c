/*
 * test_membus_peers.c - MemBUS messages that reach a real coschedd: a
 * private munged (fixture.c) and agents in a temporary run directory; this
 * test plays the other nodes with UDP sockets of its own (peer.c) and
 * writes their messages with mbmsg.c.
 *
 * As a voter (its coordinator candidates c0 and c1 are this test): a
 * decision from c0, whom it voted for, is taken; munge-valid votes and
 * decisions with apps, order or forced missing, not arrays or holding
 * null do not kill it and are refused; a decision from c1, whom it did
 * not vote for, or addressed to another node, is refused (that quantum
 * falls back); unanswered, it votes for c0 three more quanta, then for
 * c1 (4 quanta in a row without a decision); a datagram from an address that is no candidate is dropped
 * before munge is asked.
 * As its own coordinator: votes for a quantum far ahead are dropped as
 * out of window and never reset its tally (no quantum without a
 * decision); a flood of datagrams neither stalls the agent (ping answers
 * within 2 s) nor writes more than a burst of log lines.
 * Two agents, one coordinating both, whose steps registered in other
 * orders: their lists agree, so they run the same set, a heavy step
 * beside a light one, in every quantum (with lists in registration
 * order the votes tied and both heavy steps ran together).
 * Three agents whose coordinator is killed: the next candidate takes
 * over and keeps pairing the steps that span the dead node on the two
 * left, and retrying the dead one costs a quantum, not four.
 * A step whose process does not stop in time runs that quantum, listed
 * unstopped, and is stopped again once it can be.
 * Needs root (the agent and munged).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <arpa/inet.h>
#include <json-c/json.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "agent_harness.h"
#include "membus/mbmsg.h"
#include "fixture.h"
#include "peer_fixture.h"
#include "cosched_proto/peer.h"
#include "tap.h"

/* The voter's quanta are long: the test must answer its vote within
 * 0.4 of one, under valgrind or on a loaded machine; its own coordinator
 * needs no answer from the test and switches faster. */
#define VOTER_QUANTUM_MS 1000
#define QUANTUM_MS 400
/* Quanta a comparison may leave out because a step did not stop within
 * FREEZE_WAIT_NS (seen once under CI's parallel load: SIGSTOP took longer
 * to land); more means the agent does not recover from it. */
#define UNSTOPPED_MAX 2
#define REPLY_LEN 65536

static struct peer_fixture fx;
static char sock[PATH_MAX + 64];
static char reply[REPLY_LEN];

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int request(const char *node, const char *line, int timeout_ms)
{
	cosched_socket_path(fx.run_dir, node, sock, sizeof(sock));
	return harness_request_within(sock, line, reply, sizeof(reply),
				      timeout_ms);
}

static pid_t start_agent_cpus(const char *node, int quantum_ms, const char *cpus)
{
	char quantum[16];
	char *argv[] = { fx.coschedd, "--node", (char *)node, "--run-dir", fx.run_dir,
			 "--membus-quantum-ms", quantum, "--cpus", (char *)cpus,
			 "--membus-mem", "1G", "--membus-net", "1G",
			 "--freeze", "signal", "--munge-socket", (char *)fx.munge_sock,
			 NULL };

	snprintf(quantum, sizeof(quantum), "%d", quantum_ms);
	cosched_socket_path(fx.run_dir, node, sock, sizeof(sock));
	return harness_start_agent(argv, sock);
}

static pid_t start_agent(const char *node, int quantum_ms)
{
	return start_agent_cpus(node, quantum_ms, "1");
}

static bool alive(pid_t agent, const char *node)
{
	return waitpid(agent, NULL, WNOHANG) == 0 &&
	       !request(node, "ping", 2000) && !strncmp(reply, "ok", 2);
}

static void stop_agent(pid_t agent)
{
	if (agent <= 0)
		return;
	kill(agent, SIGTERM);
	waitpid(agent, NULL, 0);
}

/* A socket as the test's peer NAME, munge-signing, on a free port. */
static int open_peer(const char *name, struct peer_ctx *c, struct peer_addr *a)
{
	return peer_fixture_socket(&fx, name, c, a);
}

/* An address for the agent NAME: a free port, probed and released. */
static int agent_addr(const char *name, struct peer_addr *a)
{
	struct peer_ctx probe;

	if (open_peer(name, &probe, a))
		return -1;
	peer_close(&probe);
	return 0;
}

static void send_text(struct peer_ctx *c, const struct peer_addr *to,
		      const char *text)
{
	if (peer_send(c, &to->sa, to->len, text, strlen(text)))
		diag("cannot send %s", text);
}

/* The q of a vote's text (read leniently: any agent's vote), 0 if none;
 * *to_ok: it also passes the strict parser as addressed to `to`. */
static uint64_t vote_q(const char *text, size_t len, const char *to,
		       bool *to_ok)
{
	struct mbmsg *msg = malloc(sizeof(*msg));
	json_object *o = json_tokener_parse(text);
	const char *t = json_object_get_string(json_object_object_get(o, "t"));
	uint64_t q = 0;
	char err[MBMSG_ERR_LEN];

	if (t && !strcmp(t, "vote"))
		q = (uint64_t)json_object_get_int64(json_object_object_get(o, "q"));
	*to_ok = msg && !mbmsg_parse(text, len, to, msg, err, sizeof(err)) &&
		 msg->type == MBMSG_VOTE;
	json_object_put(o);
	free(msg);
	return q;
}

/* The test's coordinator candidates c0 and c1. */
struct cand {
	char name[8];
	struct peer_ctx ctx;
	struct peer_addr addr;
};

static uint64_t wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/*
 * The next vote the agent sends to c0 or c1 (within 5 s) for a quantum
 * that starts more than 100 ms from now (a vote that waited longer is
 * for a quantum about to switch): its q (0 if none), *which candidate
 * got it, *to_ok whether it names that candidate as its destination.
 */
static uint64_t next_vote(struct cand *c, int *which, bool *to_ok)
{
	uint64_t until = now_ms() + 5000, q = 0;
	struct peer_datagram d;
	const char *why;

	while (!q && now_ms() < until) {
		struct pollfd p[2] = { { .fd = c[0].ctx.fd, .events = POLLIN },
				       { .fd = c[1].ctx.fd, .events = POLLIN } };

		if (poll(p, 2, 100) <= 0)
			continue;
		*which = p[0].revents ? 0 : 1;
		if (peer_recv(&c[*which].ctx, NULL, NULL, &d, &why) != 1)
			continue;
		q = vote_q(d.text, d.len, c[*which].name, to_ok);
		free(d.text);
		if (q * VOTER_QUANTUM_MS <= wall_ms() + 100)
			q = 0;
	}
	return q;
}

static void send_decision(struct cand *c, const struct peer_addr *agent,
			  uint64_t q, const char *from, const char *to)
{
	char text[512];

	snprintf(text, sizeof(text),
		 "{\"t\":\"decision\",\"q\":%llu,\"from\":\"%s\",\"to\":\"%s\",\"order\":[\"60.0\"],\"forced\":[]}",
		 (unsigned long long)q, from, to);
	send_text(&c->ctx, agent, text);
}

static json_object *membus_status(const char *node)
{
	json_object *o, *m = NULL;

	if (request(node, "status json", 3000))
		return NULL;
	o = json_tokener_parse(reply);
	if (o && json_object_object_get_ex(o, "membus", &m))
		json_object_get(m);
	json_object_put(o);
	return m;
}

static long long counter(const char *node, const char *key)
{
	json_object *m = membus_status(node);
	long long v = m ? json_object_get_int64(json_object_object_get(m, key)) : -1;

	json_object_put(m);
	return v;
}

/* Who coordinated quantum q as node's history says: "" fallback, "?"
 * not recorded (yet), waiting up to 5 s for it. */
static const char *coordinator_of(const char *node, uint64_t q)
{
	static char who[COSCHED_NODE_NAME_LEN];

	snprintf(who, sizeof(who), "?");
	for (uint64_t until = now_ms() + 5000; now_ms() < until; harness_sleep_ms(50)) {
		json_object *m = membus_status(node), *hist;

		hist = m ? json_object_object_get(m, "history") : NULL;
		for (size_t i = 0; json_object_is_type(hist, json_type_array) &&
				   i < json_object_array_length(hist); i++) {
			json_object *r = json_object_array_get_idx(hist, i);

			if ((uint64_t)json_object_get_int64(json_object_object_get(r, "q")) == q)
				snprintf(who, sizeof(who), "%s", json_object_get_string(
					 json_object_object_get(r, "coordinator")));
		}
		json_object_put(m);
		if (strcmp(who, "?"))
			break;
	}
	return who;
}

/* Lines of node's log that contain what. */
static int log_lines(const char *node, const char *what)
{
	char path[PATH_MAX + 64], line[1024];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.log", fx.run_dir, node);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += strstr(line, what) != NULL;
	fclose(f);
	return n;
}

/* node's log lines about steps it could not stop, as diagnostics (what
 * a failed comparison needs to be understood after the run dir is gone) */
static void diag_freezes(const char *node)
{
	char path[PATH_MAX + 64], line[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.log", fx.run_dir, node);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "freezing failed") ||
		    strstr(line, "not stopped within")) {
			line[strcspn(line, "\n")] = '\0';
			diag("%s: %s", node, line);
		}
	if (f)
		fclose(f);
}

static bool join_span(const char *node, int job, int nnodes, const char *self,
		      const char *coord, pid_t task, const char *bw_mem)
{
	char line[512];

	snprintf(line, sizeof(line), "membus job=%d step=0 nnodes=%d self=%s coord=%s",
		 job, nnodes, self, coord);
	if (request(node, line, 3000) || strncmp(reply, "ok membus", 9))
		return false;
	snprintf(line, sizeof(line),
		 "register job=%d step=0 uid=0 mode=membus pid=%d rank=0 bw_mem=%s",
		 job, (int)task, bw_mem);
	return !request(node, line, 3000) && !strncmp(reply, "ok registered", 13);
}

static bool join_bw(const char *node, int job, const char *self,
		    const char *coord, pid_t task, const char *bw_mem)
{
	return join_span(node, job, 2, self, coord, task, bw_mem);
}

static bool join(const char *node, int job, const char *self,
		 const char *coord, pid_t task)
{
	return join_bw(node, job, self, coord, task, "100000000");
}

/* ---- the agent as a voter ---- */

static void send_malformed(struct peer_ctx *c0, const struct peer_addr *agent,
			   const char *node, uint64_t q)
{
	static const char *const bodies[] = {
		"{\"t\":\"decision\",\"q\":%llu,\"from\":\"c0\",\"od\":[\"1.0\"]}",
		"{\"t\":\"vote\",\"q\":%llu,\"from\":\"c0\",\"to\":\"%s\"}",
		"{\"t\":\"vote\",\"q\":%llu,\"from\":\"c0\",\"to\":\"%s\",\"apps\":{}}",
		"{\"t\":\"vote\",\"q\":%llu,\"from\":\"c0\",\"to\":\"%s\",\"apps\":[null]}",
		"{\"t\":\"vote\",\"q\":%llu,\"from\":\"c0\",\"to\":\"%s\",\"apps\":[{\"id\":null}]}",
		"{\"t\":\"decision\",\"q\":%llu,\"from\":\"c0\",\"to\":\"%s\",\"order\":[null],\"forced\":[]}",
		"{\"t\":\"decision\",\"q\":%llu,\"from\":\"c0\",\"to\":\"%s\",\"order\":\"x\",\"forced\":5}",
	};
	char text[512];

	for (size_t i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++) {
		snprintf(text, sizeof(text), bodies[i], (unsigned long long)q, node);
		send_text(c0, agent, text);
	}
}

/*
 * Quantum q2 had no decision from c[v]: the agent keeps voting for c[v]
 * (a candidate that has not yet heard of a new step drops votes for a
 * quantum or two) until it went MISSES_DEAD quanta in a row without a
 * decision, q2 and the next three, then votes for the other one.
 */
static void test_passed_over(struct cand *c, int v, uint64_t q2,
			     const char *node)
{
	uint64_t q, last = q2, other = 0;
	int which = v, tries = 0;
	bool to_ok, same = true;

	while (!other && tries++ < 8 && (q = next_vote(c, &which, &to_ok))) {
		if (which == v && q > last)
			last = q;
		else if (which != v)
			other = q;
		same &= which == v || q > last;
	}
	ok(same && last == q2 + 3,
	   "voter: unanswered, it votes for %s again for 3 more quanta (%llu to %llu)",
	   c[v].name, (unsigned long long)q2 + 1, (unsigned long long)last);
	ok(other == q2 + 4 && log_lines(node, "electing another coordinator") == 1,
	   "voter: ... and then for %s, once 4 quanta went without a decision (quantum %llu, expected %llu)",
	   c[1 - v].name, (unsigned long long)other, (unsigned long long)q2 + 4);
}

static void test_voter(void)
{
	struct cand c[2] = { { .name = "c0" }, { .name = "c1" } };
	char node[32], coord[2 * PEER_ADDR_TEXT_LEN + 2];
	struct peer_ctx stranger;
	struct peer_addr as, agent;
	pid_t pid, task;
	uint64_t q = 0, q2;
	int v = 0, tries = 0;
	bool to_ok = false;
	const char *ran = "?";

	snprintf(node, sizeof(node), "v%d", (int)getpid());
	if (open_peer("c0", &c[0].ctx, &c[0].addr) ||
	    open_peer("c1", &c[1].ctx, &c[1].addr) ||
	    open_peer("x", &stranger, &as) || agent_addr(node, &agent)) {
		skip(13, "no UDP sockets on loopback");
		return;
	}
	snprintf(coord, sizeof(coord), "%s,%s", c[0].addr.text, c[1].addr.text);
	pid = start_agent(node, VOTER_QUANTUM_MS);
	task = harness_sleeper();
	ok(pid > 0 && join(node, 60, agent.text, coord, task),
	   "voter: an agent with candidates c0 and c1 (this test) joins a step (%s)", reply);
	/* answer its votes until one answer was in time (a loaded machine
	 * may miss a quantum: then the agent votes for the other candidate) */
	while (strcmp(ran, c[v].name) && tries++ < 4 &&
	       (q = next_vote(c, &v, &to_ok))) {
		send_decision(&c[v], &agent, q, c[v].name, node);
		if (tries == 1)
			send_malformed(&c[v].ctx, &agent, node, q);
		ran = coordinator_of(node, q);
	}
	ok(q > 0, "voter: it votes to a candidate (%s, quantum %llu, try %d)",
	   c[v].name, (unsigned long long)q, tries);
	ok(to_ok, "voter: ... a vote that names %s as its destination", c[v].name);
	ok(alive(pid, node), "voter: munge-valid votes and decisions without apps, order or forced, or with null in them, do not kill the agent");
	ok(counter(node, "refused") >= 7, "voter: ... they are refused (%lld)",
	   counter(node, "refused"));
	is_str(ran, c[v].name, "voter: the decision of %s, voted for, ran quantum %llu",
	       c[v].name, (unsigned long long)q);

	/* the next quantum: decisions that must not count */
	q2 = next_vote(c, &v, &to_ok);
	send_decision(&c[1 - v], &agent, q2, c[1 - v].name, node);
	send_decision(&c[v], &agent, q2, c[v].name, "n-other");
	ok(q2 > 0, "voter: it votes again, to %s (quantum %llu)", c[v].name,
	   (unsigned long long)q2);
	is_str(coordinator_of(node, q2), "",
	       "voter: a decision from %s (not voted for) and one of %s addressed to another node are refused: quantum %llu falls back",
	       c[1 - v].name, c[v].name, (unsigned long long)q2);
	ok(log_lines(node, "refused a message: a decision from a node this agent did not vote for") == 1 &&
	   log_lines(node, "refused a message: malformed: addressed to another node") == 1,
	   "voter: ... the log says why");

	test_passed_over(c, v, q2, node);

	send_text(&stranger, &agent, "not even a credential");
	harness_sleep_ms(300);
	ok(counter(node, "unknown_source") == 1,
	   "voter: a datagram from an address that is no candidate is dropped before munge (%lld)",
	   counter(node, "unknown_source"));
	ok(alive(pid, node), "voter: the agent still answers");
	stop_agent(pid);
	kill(task, SIGKILL);
	waitpid(task, NULL, 0);
	peer_close(&c[0].ctx);
	peer_close(&c[1].ctx);
	peer_close(&stranger);
}

/* ---- the agent as its own coordinator ---- */

static uint64_t wall_quantum(void)
{
	return wall_ms() / QUANTUM_MS;
}

/* Votes for a quantum 1000 ahead, every 10 ms for ms. */
static int far_votes(struct peer_ctx *c, const struct peer_addr *agent,
		     const char *node, int ms)
{
	char text[512];
	int sent = 0;

	for (uint64_t until = now_ms() + (uint64_t)ms; now_ms() < until; sent++) {
		snprintf(text, sizeof(text),
			 "{\"t\":\"vote\",\"q\":%llu,\"from\":\"x\",\"to\":\"%s\",\"apps\":[{\"id\":\"61.0\",\"sel\":1,\"nodes\":2}]}",
			 (unsigned long long)(wall_quantum() + 1000), node);
		send_text(c, agent, text);
		harness_sleep_ms(10);
	}
	return sent;
}

/* A child that sends garbage to to as fast as it can for ms. */
static pid_t flood(const struct peer_addr *to, int ms)
{
	pid_t pid = fork();

	if (pid == 0) {
		int fd = socket(AF_INET, SOCK_DGRAM, 0);
		uint64_t until = now_ms() + (uint64_t)ms;

		while (now_ms() < until)
			for (int i = 0; i < 1000; i++)
				(void)!sendto(fd, "MUNGE:garbage:", 14, 0,
					      (const struct sockaddr *)&to->sa, to->len);
		_exit(0);
	}
	return pid;
}

static void test_coordinator(void)
{
	char node[32];
	struct peer_ctx x;
	struct peer_addr ax, agent;
	pid_t pid, task, flooder;
	long long fallbacks, quanta, window;
	int sent, slowest = 0, failed = 0;

	snprintf(node, sizeof(node), "k%d", (int)getpid());
	if (open_peer("x", &x, &ax) || agent_addr(node, &agent)) {
		skip(6, "no UDP sockets on loopback");
		return;
	}
	pid = start_agent(node, QUANTUM_MS);
	task = harness_sleeper();
	ok(pid > 0 && join(node, 61, agent.text, agent.text, task),
	   "coordinator: an agent that is its own candidate joins a step (%s)", reply);
	harness_sleep_ms(3 * QUANTUM_MS);
	fallbacks = counter(node, "fallbacks");
	quanta = counter(node, "quanta");
	sent = far_votes(&x, &agent, node, 12 * QUANTUM_MS);
	window = counter(node, "out_of_window");
	ok(window >= sent / 2, "coordinator: %d votes for a quantum 1000 ahead: dropped as out of window (%lld)",
	   sent, window);
	ok(counter(node, "quanta") >= quanta + 8 && counter(node, "fallbacks") == fallbacks,
	   "coordinator: ... and its tally was never reset: %lld quanta, %lld without a decision",
	   counter(node, "quanta") - quanta, counter(node, "fallbacks") - fallbacks);
	ok(log_lines(node, "out of window") <= AGENT_LOG_BURST,
	   "coordinator: ... logged at most %d times (%d)", AGENT_LOG_BURST,
	   log_lines(node, "out of window"));

	flooder = flood(&agent, 4000);
	for (uint64_t until = now_ms() + 3000; now_ms() < until;) {
		uint64_t t0 = now_ms();

		failed += !alive(pid, node);
		if ((int)(now_ms() - t0) > slowest)
			slowest = (int)(now_ms() - t0);
		harness_sleep_ms(100);
	}
	waitpid(flooder, NULL, 0);
	ok(!failed && slowest < 1000, "coordinator: flooded with datagrams, it answers every ping within 1 s (slowest %d ms)",
	   slowest);
	ok(log_lines(node, "refused a message") <= AGENT_LOG_BURST + 1,
	   "coordinator: ... and logs at most a burst of refusals (%d lines for %lld refused)",
	   log_lines(node, "refused a message"), counter(node, "refused"));
	stop_agent(pid);
	kill(task, SIGKILL);
	waitpid(task, NULL, 0);
	peer_close(&x);
}

/* ---- two agents whose steps registered in different orders ---- */

/* Words of in, sorted, joined by spaces into out: a set's one spelling. */
static void sorted_words(const char *in, char *out, size_t len)
{
	char buf[512], *words[16], *save = NULL;
	size_t n = 0, used = 0;

	snprintf(buf, sizeof(buf), "%s", in ? in : "");
	for (char *w = strtok_r(buf, " ", &save); w && n < 16;
	     w = strtok_r(NULL, " ", &save))
		words[n++] = w;
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && strcmp(words[j - 1], words[j]) > 0; j--) {
			char *t = words[j];

			words[j] = words[j - 1];
			words[j - 1] = t;
		}
	out[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%s",
					 i ? " " : "", words[i]);
}

static int words_in(const char *s)
{
	int n = 0;

	for (const char *p = s; p && *p; p++)
		n += *p != ' ' && (p == s || p[-1] == ' ');
	return n;
}

/* Quantum q of node's history decided by coord with all 4 steps known:
 * its run set, sorted, into run, and whether a step the decision stopped
 * did not stop in time (then it ran: failing open); false if there is no
 * such record. */
static bool full_quantum(json_object *hist, uint64_t q, const char *coord,
			 char *run, size_t len, bool *unstopped)
{
	for (size_t i = 0; json_object_is_type(hist, json_type_array) &&
			   i < json_object_array_length(hist); i++) {
		json_object *r = json_object_array_get_idx(hist, i);
		const char *est = json_object_get_string(json_object_object_get(r, "estimates_mbs"));
		const char *who = json_object_get_string(json_object_object_get(r, "coordinator"));

		if ((uint64_t)json_object_get_int64(json_object_object_get(r, "q")) != q)
			continue;
		if (words_in(est) != 4 || !who || strcmp(who, coord))
			return false;
		sorted_words(json_object_get_string(json_object_object_get(r, "run")),
			     run, len);
		*unstopped |= words_in(json_object_get_string(
				json_object_object_get(r, "unstopped"))) > 0;
		return true;
	}
	return false;
}

/* Quanta both ran on coord's decision, those that ran the same set and
 * those that paired a heavy with a light step; unstopped: quanta left out
 * of common because a step did not stop in time on either node (a loaded
 * machine: it ran that quantum, and the next was tried again). */
struct pairing { int common, same, paired, unstopped; };

/* Compare the quanta both agents ran on a decision of coord's. */
static struct pairing compare_quanta(const char *a, const char *b,
				     const char *coord, uint64_t from_q, bool tell)
{
	json_object *ma = membus_status(a), *mb = membus_status(b);
	json_object *ha = ma ? json_object_object_get(ma, "history") : NULL;
	json_object *hb = mb ? json_object_object_get(mb, "history") : NULL;
	struct pairing p = { 0, 0, 0, 0 };
	char ra[256], rb[256];

	for (size_t i = 0; json_object_is_type(ha, json_type_array) &&
			   i < json_object_array_length(ha); i++) {
		uint64_t q = (uint64_t)json_object_get_int64(json_object_object_get(
				json_object_array_get_idx(ha, i), "q"));

		bool slow = false;

		if (q < from_q || !full_quantum(ha, q, coord, ra, sizeof(ra), &slow) ||
		    !full_quantum(hb, q, coord, rb, sizeof(rb), &slow))
			continue;
		if (slow) {
			p.unstopped++;
			if (tell)
				diag("quantum %llu: a step did not stop in time on %s or %s: left out",
				     (unsigned long long)q, a, b);
			continue;
		}
		p.common++;
		p.same += !strcmp(ra, rb);
		/* 90.0 and 91.0 are the heavy ones: one of them beside a light one */
		if (words_in(ra) == 2 &&
		    (strstr(ra, "90.0") != NULL) + (strstr(ra, "91.0") != NULL) == 1)
			p.paired++;
		else if (tell)
			diag("quantum %llu ran %s on %s, %s on %s", (unsigned long long)q,
			     ra, a, rb, b);
	}
	json_object_put(ma);
	json_object_put(mb);
	return p;
}

/*
 * Agent a coordinates itself and b; both have 2 CPUs, M = 1 GB/s, and
 * the same four 2-node steps, two heavy (800 MB/s) and two light
 * (50 MB/s), whose tasks registered on b in another order than on a.
 * The lists must still agree, else the votes tie and the decision runs
 * both heavy steps together (what the embedded cluster saw in CI).
 */
static void test_two_lists(void)
{
	static const int jobs_a[4] = { 90, 91, 92, 93 }, jobs_b[4] = { 91, 90, 93, 92 };
	char a[32], b[32];
	struct peer_addr addr_a, addr_b;
	pid_t pa, pb, tasks[8];
	struct pairing p = { 0, 0, 0, 0 };
	bool joined = true;
	uint64_t from_q;

	snprintf(a, sizeof(a), "a%d", (int)getpid());
	snprintf(b, sizeof(b), "b%d", (int)getpid());
	if (agent_addr(a, &addr_a) || agent_addr(b, &addr_b)) {
		skip(2, "no UDP sockets on loopback");
		return;
	}
	pa = start_agent_cpus(a, QUANTUM_MS, "2");
	pb = start_agent_cpus(b, QUANTUM_MS, "2");
	for (int i = 0; i < 4; i++) {
		tasks[i] = harness_sleeper();
		tasks[4 + i] = harness_sleeper();
		joined &= join_bw(a, jobs_a[i], addr_a.text, addr_a.text, tasks[i],
				  jobs_a[i] < 92 ? "800000000" : "50000000");
		joined &= join_bw(b, jobs_b[i], addr_b.text, addr_a.text, tasks[4 + i],
				  jobs_b[i] < 92 ? "800000000" : "50000000");
	}
	/* from the second quantum on that every step was known by both
	 * agents in (before, a step one has not heard of runs everywhere) */
	from_q = wall_quantum() + 2;
	for (uint64_t until = now_ms() + 20 * QUANTUM_MS;
	     joined && now_ms() < until && p.common < 8; harness_sleep_ms(QUANTUM_MS))
		p = compare_quanta(a, b, a, from_q, false);
	p = compare_quanta(a, b, a, from_q, true);
	diag_freezes(a);
	diag_freezes(b);
	ok(pa > 0 && pb > 0 && joined && p.common >= 8 && p.same == p.common &&
	   p.unstopped <= UNSTOPPED_MAX,
	   "two agents, steps registered in other orders: both ran the same set in every quantum a decided (%d of %d; %d not stopped in time)",
	   p.same, p.common, p.unstopped);
	ok(p.common >= 8 && p.paired == p.common,
	   "... a heavy step beside a light one in every such quantum (%d of %d)",
	   p.paired, p.common);
	stop_agent(pa);
	stop_agent(pb);
	for (int i = 0; i < 8; i++) {
		kill(tasks[i], SIGKILL);
		waitpid(tasks[i], NULL, 0);
	}
}

/* ---- the coordinator killed: the next candidate takes over ---- */

/* Quanta without a decision on node since it was killed, and how many
 * quanta node switched: fallbacks, quanta (-1 each when unreadable). */
static void node_counts(const char *node, long long *fallbacks,
			long long *quanta)
{
	*fallbacks = counter(node, "fallbacks");
	*quanta = counter(node, "quanta");
}

/* The first quantum from from_q of node's history whose record r
 * matches(r, arg), polled until ms have passed; 0 if none. */
static uint64_t history_first(const char *node, uint64_t from_q,
			      bool (*matches)(json_object *r, const void *arg),
			      const void *arg, int ms)
{
	for (uint64_t until = now_ms() + (uint64_t)ms; now_ms() < until;
	     harness_sleep_ms(QUANTUM_MS / 4)) {
		json_object *m = membus_status(node), *hist;
		uint64_t found = 0;

		hist = m ? json_object_object_get(m, "history") : NULL;
		for (size_t i = 0; json_object_is_type(hist, json_type_array) &&
				   i < json_object_array_length(hist) && !found; i++) {
			json_object *r = json_object_array_get_idx(hist, i);
			uint64_t q = (uint64_t)json_object_get_int64(
				json_object_object_get(r, "q"));

			if (q >= from_q && matches(r, arg))
				found = q;
		}
		json_object_put(m);
		if (found)
			return found;
	}
	return 0;
}

static bool decided_by(json_object *r, const void *coord)
{
	const char *who = json_object_get_string(
		json_object_object_get(r, "coordinator"));

	return who && !strcmp(who, coord);
}

/* The quantum at which node first applied a decision of coord's, 0 if
 * none within ms. */
static uint64_t first_decided_by(const char *node, const char *coord, int ms)
{
	return history_first(node, 0, decided_by, coord, ms);
}

/*
 * Agents a, b and c, candidates a then b, with the four steps of
 * test_two_lists spanning all three nodes.  a pairs them; a is killed;
 * b takes over and, counting a gone, keeps pairing them on b and c
 * (before, a step whose node did not vote ran everywhere, so b paired
 * nothing).  Retrying the dead a costs b one quantum each time, not 4.
 */
static void test_takeover(void)
{
	char names[3][32], coord[2 * PEER_ADDR_TEXT_LEN + 2];
	struct peer_addr addr[3];
	pid_t agents[3], tasks[12];
	struct pairing before = { 0, 0, 0, 0 }, after = { 0, 0, 0, 0 };
	long long fb0, q0, fb1, q1;
	bool joined = true;
	uint64_t from_q, took;

	for (int n = 0; n < 3; n++) {
		snprintf(names[n], sizeof(names[n]), "%c%d", 'a' + n, (int)getpid());
		if (agent_addr(names[n], &addr[n])) {
			skip(5, "no UDP sockets on loopback");
			return;
		}
	}
	snprintf(coord, sizeof(coord), "%s,%s", addr[0].text, addr[1].text);
	for (int n = 0; n < 3; n++)
		agents[n] = start_agent_cpus(names[n], QUANTUM_MS, "2");
	for (int n = 0; n < 3; n++)
		for (int j = 0; j < 4; j++) {
			tasks[4 * n + j] = harness_sleeper();
			joined &= join_span(names[n], 90 + j, 3, addr[n].text, coord,
					    tasks[4 * n + j],
					    j < 2 ? "800000000" : "50000000");
		}
	from_q = wall_quantum() + 2;
	for (uint64_t until = now_ms() + 20 * QUANTUM_MS;
	     joined && now_ms() < until && before.common < 6; harness_sleep_ms(QUANTUM_MS))
		before = compare_quanta(names[1], names[2], names[0], from_q, false);
	ok(agents[0] > 0 && agents[1] > 0 && agents[2] > 0 && joined &&
	   before.common >= 6 && before.paired == before.common &&
	   before.unstopped <= UNSTOPPED_MAX,
	   "takeover: a pairs the steps of three nodes on b and c (%d of %d quanta; %d not stopped in time)",
	   before.paired, before.common, before.unstopped);

	kill(agents[0], SIGKILL);
	waitpid(agents[0], NULL, 0);
	took = first_decided_by(names[1], names[1], 20 * QUANTUM_MS);
	ok(took > 0, "takeover: a killed, b decides from quantum %llu on",
	   (unsigned long long)took);
	node_counts(names[1], &fb0, &q0);
	for (uint64_t until = now_ms() + 30 * QUANTUM_MS;
	     took && now_ms() < until; harness_sleep_ms(QUANTUM_MS))
		after = compare_quanta(names[1], names[2], names[1], took + 1, false);
	node_counts(names[1], &fb1, &q1);
	after = compare_quanta(names[1], names[2], names[1], took + 1, true);
	for (int n = 0; n < 3; n++)
		diag_freezes(names[n]);
	ok(after.common >= 10 && after.same == after.common &&
	   after.unstopped <= UNSTOPPED_MAX,
	   "takeover: b and c run the same set in every quantum b decided (%d of %d; %d not stopped in time)",
	   after.same, after.common, after.unstopped);
	ok(after.common >= 10 && after.paired == after.common,
	   "takeover: ... a heavy step beside a light one: a, gone, does not stop the pairing (%d of %d)",
	   after.paired, after.common);
	ok(q1 - q0 >= 25 && fb1 - fb0 <= 2,
	   "takeover: retrying the dead a cost b %lld of %lld quanta (one each retry, 10 then 20 quanta apart)",
	   fb1 - fb0, q1 - q0);
	for (int n = 1; n < 3; n++)
		stop_agent(agents[n]);
	for (int i = 0; i < 12; i++) {
		kill(tasks[i], SIGKILL);
		waitpid(tasks[i], NULL, 0);
	}
}

/* ---- a step that does not stop in time ---- */

/* A record lists step id under key ("run" or "unstopped"), or not. */
struct listed { const char *key, *id; bool want; };

static bool listed_as(json_object *r, const void *arg)
{
	const struct listed *l = arg;
	char words[256];

	sorted_words(json_object_get_string(json_object_object_get(r, l->key)),
		     words, sizeof(words));
	return (strstr(words, l->id) != NULL) == l->want;
}

/* The first quantum from from_q of node's history in which step id is
 * listed under key ("run" or "unstopped") as want says, 0 if none
 * within ms. */
static uint64_t quantum_where(const char *node, const char *key,
			      const char *id, bool want, uint64_t from_q, int ms)
{
	const struct listed l = { key, id, want };

	return history_first(node, from_q, listed_as, &l, ms);
}

/*
 * One agent, its own coordinator, 1 CPU, two heavy steps: they take
 * turns.  One step's process cannot stop until the test lets it: in the
 * quanta that stop it, it runs and is listed unstopped; once it can, it
 * is stopped again.  Before, one stop not done within 100 ms (a loaded
 * CI machine) made the agent give up on the step for good: it ran in
 * every later quantum, and the pairing of two nodes diverged.
 */
static void test_slow_freeze(void)
{
	char node[32];
	struct peer_addr addr;
	pid_t agent, slow, child, other;
	uint64_t unstopped = 0, stopped = 0;
	bool joined;

	snprintf(node, sizeof(node), "s%d", (int)getpid());
	if (agent_addr(node, &addr)) {
		skip(3, "no UDP sockets on loopback");
		return;
	}
	slow = harness_slow_to_stop(&child);
	if (slow > 0 && !harness_in_d(slow, 1000)) {
		skip(3, "the vfork parent is not in D (valgrind runs vfork as fork)");
		kill(child, SIGKILL);
		harness_reap(slow);
		return;
	}
	agent = start_agent(node, QUANTUM_MS);
	other = harness_sleeper();
	joined = slow > 0 && child > 0 &&
		 join_span(node, 80, 1, addr.text, addr.text, slow, "800000000") &&
		 join_span(node, 81, 1, addr.text, addr.text, other, "800000000");
	if (joined)
		unstopped = quantum_where(node, "unstopped", "80.0", true, 0,
					  20 * QUANTUM_MS);
	ok(agent > 0 && joined && unstopped,
	   "slow stop: a step whose process does not stop in time runs, listed unstopped (quantum %llu)",
	   (unsigned long long)unstopped);
	if (child > 0)
		kill(child, SIGKILL);	/* its parent may stop from now on */
	if (unstopped)
		stopped = quantum_where(node, "run", "80.0", false,
					unstopped + 1, 20 * QUANTUM_MS);
	ok(stopped > unstopped,
	   "slow stop: ... and once it can stop, a quantum stops it again (quantum %llu)",
	   (unsigned long long)stopped);
	ok(log_lines(node, "it runs from now on") == 0 &&
	   log_lines(node, "not stopped within") >= 1,
	   "slow stop: ... it was never given up on, and the log says why it ran");
	stop_agent(agent);
	harness_reap(slow);
	harness_reap(other);
}

int main(int argc, char **argv)
{
	(void)argc;
	if (peer_fixture_begin(argv[0], "test_membus_peers", &fx))
		return 0;
	plan(29);
	test_voter();
	test_coordinator();
	test_two_lists();
	test_takeover();
	test_slow_freeze();
	peer_fixture_end(&fx);
	return done_testing();
}
