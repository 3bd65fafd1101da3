/*
 * test_gang_agent.c - gang rows switched by a real coschedd: a private
 * munged (fixture.c), the agent in a temporary run directory, and this
 * test playing slurmctld, sending gang tables over UDP in munge
 * credentials (lib/cosched_proto/gang.h), as root.
 *
 * Two sleeping tasks, jobs 70 and 71, registered with gang=1 and frozen
 * by signals (the agent's --freeze signal: SIGSTOP shows as state T):
 *   - rows=2, 70 in row 0 and 71 in row 1, slices of 200 ms: in the
 *     middle of every quantum q exactly the job of row q mod 2 runs;
 *   - 70 in both rows (a replica) and 71 not named: both always run;
 *   - a table for another node, and one munged by a user who is neither
 *     root nor the agent's allow_user, are refused;
 *   - a table older than the one held is ignored, the same one sent
 *     again keeps it fresh;
 *   - no table for GANG_TABLE_STALE_MS: everything runs;
 *   - the agent SIGKILLed while a job is frozen: its guardian thaws it;
 *   - a job's end thaws it.
 * Needs root (the agent, munged, SIGSTOP).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <arpa/inet.h>
#include <json-c/json.h>
#include <limits.h>
#include <netinet/in.h>
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
#include "cosched_proto/gang.h"
#include "fixture.h"
#include "peer_fixture.h"
#include "cosched_proto/peer.h"
#include "tap.h"

#define SLICE_MS 200
#define NOBODY 65534
#define REPLY_LEN 65536

static struct peer_fixture fx;
static char sock[PATH_MAX + 64];
static char reply[REPLY_LEN];
static char node[32];
static struct peer_ctx ctld;
static struct peer_addr ctld_addr, agent;
static pid_t task[2];
static const uint32_t job[2] = { 70, 71 };

static uint64_t wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int request(const char *line, int timeout_ms)
{
	cosched_socket_path(fx.run_dir, node, sock, sizeof(sock));
	return harness_request_within(sock, line, reply, sizeof(reply),
				      timeout_ms);
}

static pid_t start_agent(void)
{
	/* SlurmUser stands for daemon here: nobody must be refused */
	char *argv[] = { fx.coschedd, "--node", node, "--run-dir", fx.run_dir,
			 "--freeze", "signal", "--allow-user", "daemon",
			 "--munge-socket", (char *)fx.munge_sock, NULL };

	cosched_socket_path(fx.run_dir, node, sock, sizeof(sock));
	return harness_start_agent(argv, sock);
}

/* A socket as NAME on a free port of the loopback, munge-signing. */
static int open_peer(const char *name, struct peer_ctx *c, struct peer_addr *a)
{
	return peer_fixture_socket(&fx, name, c, a);
}

/* The table "70:m0,71:m1" (0: not named) for node to, sent as ctld
 * with epoch (0: now, in microseconds). */
static void send_table_epoch(const char *to, uint32_t m0, uint32_t m1,
			     uint64_t epoch)
{
	struct gang_table t = { .epoch = epoch ? epoch : wall_ms() * 1000,
				.slice_ms = SLICE_MS, .rows = 2, .busy = 3 };
	char text[COSCHED_REQUEST_LEN + 1];
	uint32_t masks[2] = { m0, m1 };

	snprintf(t.node, sizeof(t.node), "%s", to);
	for (int i = 0; i < 2; i++)
		if (masks[i]) {
			t.jobs[t.njobs].job = job[i];
			t.jobs[t.njobs++].rows = masks[i];
		}
	if (gang_table_format(&t, text, sizeof(text)) < 0 ||
	    peer_send(&ctld, &agent.sa, agent.len, text, strlen(text)))
		diag("cannot send the table %s", text);
}

static void send_table(const char *to, uint32_t m0, uint32_t m1)
{
	send_table_epoch(to, m0, m1, 0);
}

/* Whether pid is stopped (state T). */
static bool stopped(pid_t pid)
{
	char path[64], buf[256], *paren;
	FILE *f;
	bool t = false;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (f && fgets(buf, sizeof(buf), f) && (paren = strrchr(buf, ')')))
		t = paren[2] == 'T' || paren[2] == 't';
	if (f)
		fclose(f);
	return t;
}

struct sampled {
	int samples, row_ok, both_ran;
};

/*
 * Sample both tasks for ms, in the middle of quanta, resending the table
 * (m0, m1) every 500 ms: how many samples, how many had exactly the job
 * of row q mod 2 running, how many had both running.
 */
static struct sampled sample(int ms, uint32_t m0, uint32_t m1, bool resend)
{
	struct sampled s = { 0, 0, 0 };
	uint64_t until = wall_ms() + (uint64_t)ms, next_send = 0;
	/* a new table counts from the next boundary: skip the quantum it
	 * came in and the next (a loaded machine may deliver it late) */
	uint64_t from_q = wall_ms() / SLICE_MS + 2;

	while (wall_ms() < until) {
		uint64_t t0 = wall_ms(), q = t0 / SLICE_MS, in = t0 % SLICE_MS;
		bool st0, st1;

		if (resend && t0 >= next_send) {
			send_table(node, m0, m1);
			next_send = t0 + 500;
		}
		if (q < from_q || in < SLICE_MS * 2 / 5 || in > SLICE_MS * 3 / 5) {
			harness_sleep_ms(10);
			continue;
		}
		st0 = stopped(task[0]);
		st1 = stopped(task[1]);
		if (wall_ms() / SLICE_MS != q)
			continue;
		s.samples++;
		s.row_ok += st0 == (q % 2 == 1) && st1 == (q % 2 == 0);
		s.both_ran += !st0 && !st1;
		if (resend && m0 == 0x1 && m1 == 0x2 &&
		    (st0 != (q % 2 == 1) || st1 != (q % 2 == 0)))
			diag("quantum %llu (row %llu), %llu ms in: 70 %s, 71 %s",
			     (unsigned long long)q, (unsigned long long)(q % 2),
			     (unsigned long long)in, st0 ? "stopped" : "runs",
			     st1 ? "stopped" : "runs");
		harness_sleep_ms(SLICE_MS / 2);
	}
	return s;
}

static json_object *gang_status(void)
{
	json_object *o, *g = NULL;

	if (request("status json", 3000))
		return NULL;
	o = json_tokener_parse(reply);
	if (o && json_object_object_get_ex(o, "gang", &g))
		json_object_get(g);
	json_object_put(o);
	return g;
}

static long long counter(const char *key)
{
	json_object *g = gang_status();
	long long v = g ? json_object_get_int64(json_object_object_get(g, key)) : -1;

	json_object_put(g);
	return v;
}

/* A table munged by the user nobody, from a child: 0 sent, -1 not. */
static int send_as_nobody(void)
{
	pid_t pid = fork();
	int st;

	if (!pid) {
		struct peer_ctx c;
		struct peer_addr a;
		struct gang_table t = { .epoch = wall_ms() * 1000 + 1,
					.slice_ms = SLICE_MS, .rows = 2, .busy = 3 };
		char text[COSCHED_REQUEST_LEN + 1];

		snprintf(t.node, sizeof(t.node), "%s", node);
		if (setgid(NOBODY) || setuid(NOBODY) ||
		    open_peer("x", &c, &a) ||
		    gang_table_format(&t, text, sizeof(text)) < 0 ||
		    peer_send(&c, &agent.sa, agent.len, text, strlen(text)))
			_exit(1);
		_exit(0);
	}
	return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	       !WEXITSTATUS(st) ? 0 : -1;
}

static bool both_running_within(int ms)
{
	for (uint64_t until = wall_ms() + (uint64_t)ms; wall_ms() < until;
	     harness_sleep_ms(20))
		if (!stopped(task[0]) && !stopped(task[1]))
			return true;
	return false;
}

static void test_gang(void)
{
	char line[COSCHED_REQUEST_LEN + 1];
	struct cosched_gang_req gr;
	struct peer_ctx probe;
	struct sampled s;
	long long refused, old;
	pid_t pid;
	bool joined = true;

	snprintf(node, sizeof(node), "g%d", (int)getpid());
	if (open_peer("ctld", &ctld, &ctld_addr) ||
	    open_peer(node, &probe, &agent)) {
		skip(15, "no UDP sockets on loopback");
		return;
	}
	peer_close(&probe);	/* a free port for the agent */
	snprintf(gr.self, sizeof(gr.self), "%s", agent.text);
	pid = start_agent();
	(void)cosched_gang_request_format(&gr, line, sizeof(line));
	joined = pid > 0 && !request(line, 3000) && !strncmp(reply, "ok gang", 7);
	for (int i = 0; i < 2; i++) {
		task[i] = harness_sleeper();
		snprintf(line, sizeof(line),
			 "register job=%u step=0 uid=0 mode=none pid=%d rank=0 gang=1",
			 job[i], (int)task[i]);
		joined = joined && !request(line, 3000) &&
			 !strncmp(reply, "ok registered", 13);
	}
	ok(joined, "an agent takes the gang request and two tasks with gang=1 (%s)", reply);

	s = sample(3000, 0x1, 0x2, true);
	ok(s.samples >= 8 && s.row_ok == s.samples,
	   "200 ms slices: in the middle of quantum q only the job of row q mod 2 runs (%d of %d samples)",
	   s.row_ok, s.samples);
	ok(counter("quanta") >= 10 && counter("stale_quanta") == 0,
	   "... the agent switched every quantum from a fresh table (%lld quanta)",
	   counter("quanta"));

	s = sample(1800, 0x3, 0, true);
	ok(s.samples >= 4 && s.both_ran == s.samples,
	   "70 in both rows (a replica), 71 not named: both run in every quantum (%d of %d)",
	   s.both_ran, s.samples);

	refused = counter("refused");
	send_table("n-other", 0x1, 0x2);
	ok(send_as_nobody() == 0, "a table munged by nobody is sent");
	harness_sleep_ms(300);
	ok(counter("refused") == refused + 2,
	   "a table for another node and one from nobody are refused (%lld)",
	   counter("refused") - refused);

	/* back to alternating, then silence: everything runs */
	s = sample(1000, 0x1, 0x2, true);
	ok(s.row_ok == s.samples && s.samples >= 3,
	   "alternating again (%d of %d)", s.row_ok, s.samples);
	old = counter("old");
	send_table_epoch(node, 0x3, 0x0, 1);	/* a datagram from long ago */
	harness_sleep_ms(SLICE_MS * 2);
	s = sample(800, 0, 0, false);
	ok(counter("old") == old + 1 && s.samples >= 2 && s.row_ok == s.samples,
	   "a table older than the one held is ignored (%d of %d still alternate)",
	   s.row_ok, s.samples);
	{	/* one table sent again and again for longer than its staleness */
		uint64_t epoch = wall_ms() * 1000, until = wall_ms() + GANG_TABLE_STALE_MS + 1000;
		long long stale = counter("stale_quanta"), tables = counter("tables");
		int sent = 0;

		old = counter("old");
		for (; wall_ms() < until; sent++) {
			send_table_epoch(node, 0x1, 0x2, epoch);
			harness_sleep_ms(500);
		}
		ok(counter("stale_quanta") == stale && counter("old") == old &&
		   counter("tables") == tables + sent,
		   "the same table sent again keeps it fresh: %lld of %d taken, %lld quanta without one",
		   counter("tables") - tables, sent, counter("stale_quanta") - stale);
	}
	harness_sleep_ms(GANG_TABLE_STALE_MS + SLICE_MS);
	s = sample(1000, 0, 0, false);
	ok(s.samples >= 3 && s.both_ran == s.samples && counter("stale_quanta") > 0,
	   "no table for %d ms: every step runs (%d of %d samples)",
	   GANG_TABLE_STALE_MS, s.both_ran, s.samples);

	/* the agent killed while a job is frozen: its guardian thaws it */
	(void)sample(600, 0x1, 0x2, true);
	send_table(node, 0x1, 0x2);
	for (uint64_t until = wall_ms() + 2000; wall_ms() < until &&
	     !stopped(task[0]) && !stopped(task[1]);)
		harness_sleep_ms(5);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	ok(both_running_within(3000),
	   "the agent SIGKILLed in a quantum that froze a job: the guardian thaws it");

	/* a new agent: a job's end thaws it */
	pid = start_agent();
	(void)cosched_gang_request_format(&gr, line, sizeof(line));
	joined = pid > 0 && !request(line, 3000);
	snprintf(line, sizeof(line),
		 "register job=70 step=0 uid=0 mode=none pid=%d rank=0 gang=1",
		 (int)task[0]);
	joined = joined && !request(line, 3000);
	ok(joined, "a new agent takes job 70 again");
	send_table(node, 0x2, 0);	/* 70 only in row 1 */
	harness_sleep_ms(SLICE_MS * 3);
	send_table(node, 0x2, 0);
	for (uint64_t until = wall_ms() + 2000; wall_ms() < until && !stopped(task[0]);)
		harness_sleep_ms(5);
	ok(stopped(task[0]), "job 70 is frozen in the quanta of row 0");
	(void)request("end job=70 step=0", 3000);
	harness_sleep_ms(SLICE_MS);
	ok(!stopped(task[0]), "its end thaws it (%s)", reply);
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	ok(!stopped(task[0]) && !stopped(task[1]), "the agent stopped: nothing left frozen");
	for (int i = 0; i < 2; i++)
		harness_reap(task[i]);
	peer_close(&ctld);
}

int main(int argc, char **argv)
{
	(void)argc;
	if (peer_fixture_begin(argv[0], "test_gang_agent", &fx))
		return 0;
	plan(15);
	test_gang();
	peer_fixture_end(&fx);
	return done_testing();
}
