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
 *   - guard tables (slurmctld's running rows): applied at once, freeze
 *     first (never both running during a switch), held across checks,
 *     a step registered to a job that does not run stopped at once, and
 *     one the table runs but a signal keeps stopped (a resume slurmd
 *     lost) continued after 3 s;
 *   - a table for another node, and one munged by a user who is neither
 *     root nor the agent's allow_user, are refused;
 *   - a table older than the one held is ignored, the same one sent
 *     again keeps it fresh;
 *   - a table naming resend_ms=2000 stays fresh past 3.5 s (3.5 intervals);
 *   - no table for GANG_TABLE_STALE_MS: everything runs;
 *   - the agent SIGKILLed while a job is frozen: its guardian thaws it;
 *   - a job's end thaws it.
 * Where tables come from (slurmctld is 127.0.0.1 here):
 *   - started with --gang-self, the agent holds the port before any gang
 *     request, and refuses tables until one names slurmctld's addresses;
 *   - a credential sent from 127.0.0.2 is refused before munge is asked:
 *     the same credential sent next from 127.0.0.1 is taken, where munge
 *     would have called it replayed had it seen it first;
 *   - a squatter who holds the port before the agent starts: the agent
 *     says so in one log line and in status, refuses gang requests (the
 *     plugin then runs the steps in every row), and binds once it is gone.
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

#include <munge.h>
#include <sys/socket.h>

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

/* The agent of node name, with --gang-self self unless NULL. */
static pid_t start_agent_as(char *name, char *self)
{
	/* SlurmUser stands for daemon here: nobody must be refused */
	char *argv[] = { fx.coschedd, "--node", name, "--run-dir", fx.run_dir,
			 "--freeze", "signal", "--allow-user", "daemon",
			 "--munge-socket", (char *)fx.munge_sock,
			 self ? "--gang-self" : NULL, self, NULL };

	cosched_socket_path(fx.run_dir, name, sock, sizeof(sock));
	return harness_start_agent(argv, sock);
}

static pid_t start_agent(void)
{
	return start_agent_as(node, agent.text);
}

/* A socket as NAME on a free port of the loopback, munge-signing. */
static int open_peer(const char *name, struct peer_ctx *c, struct peer_addr *a)
{
	return peer_fixture_socket(&fx, name, c, a);
}

/* The table "70:m0,71:m1" (0: not named) for node to, sent as ctld
 * with epoch (0: now, in microseconds) and resend_ms (0: the default). */
static void send_table_resend(const char *to, uint32_t m0, uint32_t m1,
			      uint64_t epoch, uint32_t resend_ms)
{
	struct gang_table t = { .epoch = epoch ? epoch : wall_ms() * 1000,
				.slice_ms = SLICE_MS, .rows = 2, .busy = 3,
				.resend_ms = resend_ms };
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

static void send_table_epoch(const char *to, uint32_t m0, uint32_t m1,
			     uint64_t epoch)
{
	send_table_resend(to, m0, m1, epoch, 0);
}

static void send_table(const char *to, uint32_t m0, uint32_t m1)
{
	send_table_epoch(to, m0, m1, 0);
}

static bool stopped(pid_t pid);
static long long counter(const char *key);

/* A guard table: 70 in row 0, 71 in row 1, the rows run (slurmctld's). */
static void send_guard(uint32_t run)
{
	struct gang_table t = { .epoch = wall_ms() * 1000, .rows = 2,
				.busy = 3, .guard = true, .run = run,
				.njobs = 2,
				.jobs = { { job[0], 0x1 }, { job[1], 0x2 } } };
	char text[COSCHED_REQUEST_LEN + 1];

	snprintf(t.node, sizeof(t.node), "%s", node);
	if (gang_table_format(&t, text, sizeof(text)) < 0 ||
	    peer_send(&ctld, &agent.sa, agent.len, text, strlen(text)))
		diag("cannot send the guard table %s", text);
}

/* Until ms pass or (70 stopped, 71 stopped) is (s0, s1): the ms it
 * took (-1: never), and in *both how many samples had both running. */
static int until_state(int ms, bool s0, bool s1, int *both)
{
	uint64_t t0 = wall_ms();

	while (wall_ms() < t0 + (uint64_t)ms) {
		bool st0 = stopped(task[0]), st1 = stopped(task[1]);

		*both += !st0 && !st1;
		if (st0 == s0 && st1 == s1)
			return (int)(wall_ms() - t0);
		harness_sleep_ms(1);
	}
	return -1;
}

/*
 * Guard tables: slurmctld names the running row and the agent follows
 * at once, freezing before it thaws; a step added to a job that does
 * not run is stopped at its registration.
 */
static void test_guard(void)
{
	char line[256];
	int both = 0, took, held = 0, samples = 0;
	pid_t late;

	send_guard(0x1);
	took = until_state(2000, false, true, &both);
	ok(took >= 0, "guard run=1: 70 runs, 71 frozen, %d ms after the table", took);
	for (uint64_t until = wall_ms() + 1600, next = 0; wall_ms() < until;) {
		if (wall_ms() >= next) {
			send_guard(0x1);
			next = wall_ms() + 500;
		}
		samples++;
		held += !stopped(task[0]) && stopped(task[1]);
		harness_sleep_ms(20);
	}
	ok(held == samples, "... and held across the agent's checks, the table sent again (%d of %d samples)",
	   held, samples);
	both = 0;
	send_guard(0x2);
	took = until_state(2000, true, false, &both);
	ok(took >= 0 && both == 0,
	   "guard run=2: switched at once (%d ms, no quantum boundary awaited), never both running meanwhile (%d samples had both)",
	   took, both);
	late = harness_sleeper();
	snprintf(line, sizeof(line),
		 "register job=70 step=1 uid=0 mode=none pid=%d rank=0 gang=1",
		 (int)late);
	ok(!request(line, 3000) && stopped(late),
	   "a step of job 70 registered while its row does not run is stopped at once (%s)",
	   reply);
	(void)request("end job=70 step=1", 3000);
	harness_reap(late);

	/* a resume slurmd lost: 71 runs by the table, stopped by a signal */
	{
		long long before = counter("continued");
		uint64_t t0 = wall_ms(), next = 0, took = 0;

		kill(task[1], SIGSTOP);
		while (wall_ms() < t0 + 8000) {
			if (wall_ms() >= next) {
				send_guard(0x2);
				next = wall_ms() + 500;
			}
			if (!stopped(task[1])) {
				took = wall_ms() - t0;
				break;
			}
			harness_sleep_ms(20);
		}
		ok(took >= 2500 && counter("continued") == before + 1,
		   "a step the table runs but a signal keeps stopped is continued after 3 s (%llu ms, %lld counted)",
		   (unsigned long long)took, counter("continued") - before);
		ok(stopped(task[0]), "... and the frozen row's step stays stopped");
	}
}

/* Whether pid is stopped (state T). */
static bool stopped(pid_t pid)
{
	char state = harness_proc_state(pid);

	return state == 'T' || state == 't';
}

struct sampled {
	int samples, row_ok, both_ran;
};

/*
 * Sample both tasks for ms, in the middle of quanta, resending the table
 * (m0, m1) every 500 ms: how many samples, how many had exactly the job
 * of row q mod 2 running, how many had both running.
 */
/*
 * Long enough for n samples with room to miss as many: the first two
 * quanta are skipped, and each later quantum gives one sample at most (its
 * middle fifth), which a loaded machine can miss (1000 ms for 3 samples
 * failed beside a make check and an ESP run).
 */
#define SAMPLE_MS(n) ((2 + 2 * (n)) * SLICE_MS)

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

/* Lines of node name's log that contain text. */
static int log_count(const char *name, const char *text)
{
	char path[PATH_MAX + 64], line[4096];
	FILE *f;
	int n = 0;

	snprintf(path, sizeof(path), "%s/%s.log", fx.run_dir, name);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		n += strstr(line, text) != NULL;
	if (f)
		fclose(f);
	return n;
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

/* String key of the gang status ("" when absent or null). */
static const char *status_text(const char *key, char *buf, size_t len)
{
	json_object *g = gang_status(), *v = NULL;

	snprintf(buf, len, "%s", g && json_object_object_get_ex(g, key, &v) &&
		 v ? json_object_get_string(v) : "");
	json_object_put(g);
	return buf;
}

/* A UDP socket on 127.0.0.2, another host of the loopback: -1 or fd. */
static int stranger_socket(void)
{
	struct sockaddr_in in = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	inet_pton(AF_INET, "127.0.0.2", &in.sin_addr);
	if (fd >= 0 && bind(fd, (struct sockaddr *)&in, sizeof(in))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Counters after a datagram has had time to be read. */
static void settle(void)
{
	harness_sleep_ms(300);
}

/*
 * One credential (the current table, signed by ctld's munge context),
 * sent from 127.0.0.2 first, then from ctld's 127.0.0.1.  Munge refuses
 * a credential decoded twice: the second is taken only if the first
 * never reached munge.
 */
static void test_source(void)
{
	struct gang_table t = { .epoch = wall_ms() * 1000, .slice_ms = SLICE_MS,
				.rows = 2, .busy = 3, .njobs = 2,
				.jobs = { { job[0], 0x1 }, { job[1], 0x2 } } };
	char text[COSCHED_REQUEST_LEN + 1], *cred = NULL, buf[256];
	long long tables = counter("tables"), strangers = counter("refused_source");
	long long refused = counter("refused");
	int fd = stranger_socket();

	snprintf(t.node, sizeof(t.node), "%s", node);
	if (fd < 0 || gang_table_format(&t, text, sizeof(text)) < 0 ||
	    munge_encode(&cred, ctld.munge, text, (int)strlen(text)) != EMUNGE_SUCCESS) {
		skip(3, "no socket on 127.0.0.2 or no credential");
		free(cred);
		return;
	}
	(void)!sendto(fd, cred, strlen(cred), 0, (struct sockaddr *)&agent.sa,
		      agent.len);
	settle();
	ok(counter("refused_source") == strangers + 1 &&
	   counter("tables") == tables,
	   "a table from 127.0.0.2, not slurmctld's address, is refused (refused_source %lld, tables %lld)",
	   counter("refused_source") - strangers, counter("tables") - tables);
	tables = counter("tables");
	refused = counter("refused");
	(void)!sendto(ctld.fd, cred, strlen(cred), 0,
		      (struct sockaddr *)&agent.sa, agent.len);
	settle();
	ok(counter("tables") == tables + 1 && counter("refused") == refused,
	   "... before munge was asked: the same credential from 127.0.0.1 is taken, not replayed (%s)",
	   status_text("slurmctld", buf, sizeof(buf)));
	ok(log_count(node, "refused a table: from 127.0.0.2, not one of slurmctld's addresses") == 1,
	   "... and logged, within the refusals' limit");
	close(fd);
	free(cred);
}

/* A user's process holds the gang port before the agent starts. */
static void test_squatter(void)
{
	char name[32], self[PEER_ADDR_TEXT_LEN], line[COSCHED_REQUEST_LEN + 1];
	char buf[256], saved[sizeof(node)];
	struct cosched_gang_req gr = { .from = "127.0.0.1" };
	struct peer_ctx squat;
	struct peer_addr at;
	pid_t pid;

	snprintf(name, sizeof(name), "s%d", (int)getpid());
	if (open_peer(name, &squat, &at)) {
		skip(5, "no UDP socket on loopback");
		return;
	}
	snprintf(self, sizeof(self), "%s", at.text);
	memcpy(saved, node, sizeof(saved));
	snprintf(node, sizeof(node), "%s", name);
	pid = start_agent_as(name, self);
	ok(pid > 0 && !strstr(status_text("bound", buf, sizeof(buf)), "true") &&
	   strstr(status_text("bind_error", buf, sizeof(buf)), "in use"),
	   "a squatter holds the gang port: the agent runs, status says why gang rows are off (%s)",
	   buf);
	snprintf(gr.self, sizeof(gr.self), "%s", self);
	(void)cosched_gang_request_format(&gr, line, sizeof(line));
	ok(!request(line, 3000) && !strncmp(reply, "error: gang rows are off", 24),
	   "... a gang request is refused, so the step runs in every row (%s)",
	   reply);
	ok(log_count(name, "cannot bind the gang port") == 1,
	   "... in one log line, not one per request");
	peer_close(&squat);
	ok(!request(line, 3000) && !strncmp(reply, "ok gang", 7) &&
	   strstr(status_text("bound", buf, sizeof(buf)), "true") &&
	   !status_text("bind_error", buf, sizeof(buf))[0],
	   "the squatter gone, the next gang request binds the port");
	ok(log_count(name, "bound ") == 1, "... and says so");
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	memcpy(node, saved, sizeof(node));
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
		skip(20, "no UDP sockets on loopback");
		return;
	}
	peer_close(&probe);	/* a free port for the agent */
	snprintf(gr.self, sizeof(gr.self), "%s", agent.text);
	snprintf(gr.from, sizeof(gr.from), "127.0.0.1");
	pid = start_agent();
	{	/* bound at start, before any gang request names slurmctld */
		char buf[256];
		long long strangers;

		ok(pid > 0 && strstr(status_text("bound", buf, sizeof(buf)), "true") &&
		   !strcmp(status_text("self", buf, sizeof(buf)), agent.text),
		   "started with --gang-self, the agent holds its gang port at once (%s)",
		   buf);
		strangers = counter("refused_source");
		send_table(node, 0x1, 0x2);
		settle();
		ok(counter("refused_source") == strangers + 1 && counter("tables") == 0,
		   "... and takes no table before a gang request names slurmctld's addresses");
	}
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

	test_guard();

	refused = counter("refused");
	send_table("n-other", 0x1, 0x2);
	ok(send_as_nobody() == 0, "a table munged by nobody is sent");
	harness_sleep_ms(300);
	ok(counter("refused") == refused + 2,
	   "a table for another node and one from nobody are refused (%lld)",
	   counter("refused") - refused);
	test_source();

	/* back to alternating, then silence: everything runs */
	s = sample(SAMPLE_MS(3), 0x1, 0x2, true);
	ok(s.row_ok == s.samples && s.samples >= 3,
	   "alternating again (%d of %d)", s.row_ok, s.samples);
	old = counter("old");
	send_table_epoch(node, 0x3, 0x0, 1);	/* a datagram from long ago */
	harness_sleep_ms(SLICE_MS * 2);
	s = sample(SAMPLE_MS(2), 0, 0, false);
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
	{	/* slurmctld resends less often at scale, and says so */
		long long stale = counter("stale_quanta");

		send_table_resend(node, 0x1, 0x2, 0, 2000);
		harness_sleep_ms(GANG_TABLE_STALE_MS + 1000);
		ok(counter("stale_quanta") == stale,
		   "a table naming resend_ms=2000 is still fresh %d ms later (stale after 7000, not %d)",
		   GANG_TABLE_STALE_MS + 1000, GANG_TABLE_STALE_MS);
	}
	/* (7 s after that table: 4.5 s gone, 3.7 s more) */
	harness_sleep_ms(GANG_TABLE_STALE_MS + SLICE_MS);
	s = sample(SAMPLE_MS(3), 0, 0, false);
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
	plan(32);
	test_gang();
	test_squatter();
	peer_fixture_end(&fx);
	return done_testing();
}
