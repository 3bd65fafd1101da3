/*
 * test_coschedd.c - the node agent as a program: a private coschedd in a
 * temporary run directory, driven over its socket like slurmstepd and
 * coschedctl drive it.
 *
 * Checked: ping and status for anyone; register only from root and only
 * for a process that descends from the caller; a registered PB process is
 * moved into the agent's cgroup and boosted; end puts it back and empties
 * the state file; SIGKILL of the agent makes the guardian restore it; a
 * restarted agent recovers the state file (restores, then re-adopts the
 * live process); SIGTERM restores everything; bad options and requests
 * are refused with messages; a run directory that is another user's,
 * writable by others, or reached through a symbolic link is refused, a
 * missing one is made 0755, and a pid file that is a link is not
 * followed.  membus on one node (its own coordinator, no
 * munge needed): two steps on one CPU take turns, one frozen while the
 * other runs, both progress, and SIGKILL of the agent thaws both.  Needs
 * root (the agent refuses otherwise).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent_harness.h"
#include "cosched_proto/client.h"
#include "tap.h"

#define REPLY_LEN 65536

static char coschedd[PATH_MAX];
static char run_dir[PATH_MAX], node[32], sock[PATH_MAX + 64];
static char reply[REPLY_LEN];

/* Send line; the reply, without its last newline, lands in reply. */
static int request(const char *line)
{
	return harness_request(sock, line, reply, sizeof(reply));
}

static pid_t start_agent(void)
{
	char *argv[] = { coschedd, "--node", node, "--run-dir", run_dir,
			 "--tick-us", "1000", NULL };

	return harness_start_agent(argv, sock);
}

static bool in_our_cgroup(pid_t pid)
{
	return strstr(harness_cpu_cgroup(pid), "/coschedd/") != NULL;
}

static bool wait_for(bool (*cond)(pid_t), pid_t pid, bool want, int ms)
{
	for (int waited = 0; waited < ms; waited += 20) {
		if (cond(pid) == want)
			return true;
		harness_sleep_ms(20);
	}
	return cond(pid) == want;
}

static int state_procs(void)
{
	char path[PATH_MAX + 64], buf[8192];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.state", run_dir, node);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strstr(buf, "\"pid\"") ? 1 : 0;
}

static void register_spinner(pid_t child, const char *what)
{
	char line[256];

	snprintf(line, sizeof(line),
		 "register job=42 step=0 uid=0 mode=pb pb=D tick_us=1000 spin_ns=0 pid=%d rank=0",
		 (int)child);
	is_int(request(line), 0, "%s: the agent answers", what);
	ok(!strncmp(reply, "ok registered job=42 step=0", 27), "%s: registered (%s)",
	   what, reply);
}

static void test_refusals(pid_t child)
{
	char line[256];
	pid_t pid;
	int status;

	snprintf(line, sizeof(line),
		 "register job=7 step=0 uid=0 mode=pb pid=%d rank=0", (int)getppid());
	request(line);
	ok(strstr(reply, "is not a process of the caller") != NULL,
	   "our parent is refused: not the caller's (%s)", reply);
	snprintf(line, sizeof(line),
		 "register job=7 step=0 uid=0 mode=none pid=%d rank=0", (int)child);
	request(line);
	ok(strstr(reply, "nothing for this agent") != NULL,
	   "mode none is refused (%s)", reply);
	snprintf(line, sizeof(line),
		 "register job=7 step=0 uid=65534 mode=pb pid=%d rank=0", (int)child);
	request(line);
	ok(strstr(reply, "does not belong to uid 65534") != NULL,
	   "a uid the process does not have is refused (%s)", reply);
	request("register job=x");
	ok(!strncmp(reply, "error: register needs", 21), "a malformed register (%s)", reply);
	snprintf(line, sizeof(line),
		 "register job=7 step=0 uid=0 mode=pb pid=%d rank=0 mode=none", (int)child);
	request(line);
	ok(strstr(reply, "key 'mode' given twice") != NULL, "a key twice is refused (%s)", reply);
	request("end job=7 step=0 job=8");
	ok(strstr(reply, "key 'job' given twice") != NULL,
	   "... in an end request too (%s)", reply);
	request("frobnicate");
	ok(!strncmp(reply, "error: unknown request", 22), "an unknown request (%s)", reply);

	/* an unprivileged caller: a child that drops to nobody */
	pid = fork();
	if (pid == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(3);
		snprintf(line, sizeof(line),
			 "register job=7 step=0 uid=65534 mode=pb pid=%d rank=0",
			 (int)getpid());
		if (request(line) || !strstr(reply, "permission denied"))
			_exit(1);
		if (request("end job=42 step=0") || !strstr(reply, "permission denied"))
			_exit(1);
		if (request("status") || !strstr(reply, "node "))
			_exit(2);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "nobody may read the status but not register or end (exit %d)",
	   WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

static void test_boosts(pid_t child)
{
	const char *pb;

	ok(in_our_cgroup(child), "the process runs in the agent's group (%s)",
	   harness_cpu_cgroup(child));
	is_int(state_procs(), 1, "the state file lists it");
	harness_sleep_ms(300);
	is_int(request("status json"), 0, "status json");
	ok(strstr(reply, "\"job\":42") != NULL, "status shows job 42");
	ok(strstr(reply, "\"energy_model\":\"paper\"") != NULL,
	   "status names the energy models' variant, paper by default");
	pb = strstr(reply, "\"boosts\":");
	pb = pb ? strstr(pb, "\"pb\":") : NULL;
	ok(pb && atoi(pb + 5) > 0, "it was periodically boosted (%.12s)", pb ? pb : "-");
	ok(strstr(reply, "\"S4\":0") != NULL, "never in S4");
	is_int(request("status"), 0, "status text");
	ok(strstr(reply, "job 42.0 running mode pb") != NULL, "text status names the step");
	is_int(request("status prometheus"), 0, "status prometheus");
	pb = strstr(reply, "\ncoschedd_boosts_total{job=\"42\",step=\"0\",kind=\"pb\"} ");
	ok(pb && atoi(strchr(pb, '}') + 2) > 0 &&
	   strstr(reply, "\n# TYPE coschedd_cpu_seconds_total counter\n") &&
	   strstr(reply, "\ncoschedd_steps{state=\"running\"} 1\n") &&
	   /* Prometheus' text format: no OpenMetrics "# EOF" */
	   !strstr(reply, "# EOF"),
	   "metrics: the step's pb boosts, the agent's CPU, its steps, no # EOF (%.60s)",
	   pb ? pb + 1 : reply);
}

static void test_end(pid_t child)
{
	const char *orig = "/";

	is_int(request("end job=42 step=0"), 0, "end");
	ok(!strncmp(reply, "ok ended job=42 step=0", 22), "ended (%s)", reply);
	is_str(harness_cpu_cgroup(child), orig, "the process is back where it was");
	is_int(state_procs(), 0, "the state file is empty");
	request("end job=42 step=0");
	ok(!strncmp(reply, "ok not registered", 17), "a second end is harmless");
}

/* How many of agent's descriptors are /proc/PID/schedstat of pid. */
static int schedstat_fds(pid_t agent, pid_t pid)
{
	char path[64], target[128], want[64];
	int count = 0;

	snprintf(want, sizeof(want), "/proc/%d/schedstat", (int)pid);
	for (int i = 0; i < 1024; i++) {
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)agent, i);
		n = readlink(path, target, sizeof(target) - 1);
		if (n > 0) {
			target[n] = '\0';
			count += !strcmp(target, want);
		}
	}
	return count;
}

/* The first "cpu_share" of status json, -1 when there is none. */
static double status_cpu_share(void)
{
	const char *share;

	if (request("status json"))
		return -1;
	share = strstr(reply, "\"cpu_share\":");
	return share ? atof(share + 12) : -1;
}

/*
 * CPU time comes from /proc/PID/schedstat opened once per process and
 * read again at each sample: at every tick for PB (who runs decides), every
 * 100 ms for SY (it does not).  A fresh spinner's share stays well above
 * zero only if the reads after the first see its time grow; the file is
 * closed when the step ends.
 */
static void test_cpu_time(pid_t agent)
{
	static const char *const modes[] = { "pb", "sy" };

	for (int i = 0; i < 2; i++) {
		pid_t spinner = harness_spinner();
		char line[256];
		double share;

		snprintf(line, sizeof(line),
			 "register job=60 step=0 uid=0 mode=%s tick_us=1000 spin_ns=0 pid=%d rank=0",
			 modes[i], (int)spinner);
		request(line);
		ok(!strncmp(reply, "ok registered job=60", 20), "%s: a fresh spinner registers (%s)",
		   modes[i], reply);
		harness_sleep_ms(1500);
		share = status_cpu_share();
		ok(share > 0.05, "%s: its CPU share grows with its CPU time (%.3f)",
		   modes[i], share);
		is_int(schedstat_fds(agent, spinner), 1,
		       "%s: one descriptor of its schedstat in the agent", modes[i]);
		request("end job=60 step=0");
		is_int(schedstat_fds(agent, spinner), 0,
		       "%s: closed when the step ends", modes[i]);
		harness_reap(spinner);
	}
}

static void test_crash_and_recovery(pid_t *agent, pid_t child)
{
	kill(*agent, SIGKILL);
	waitpid(*agent, NULL, 0);
	ok(wait_for(in_our_cgroup, child, false, 5000),
	   "after SIGKILL of the agent the guardian moved the process back (%s)",
	   harness_cpu_cgroup(child));
	is_int(state_procs(), 1, "the state file still lists it");
	*agent = start_agent();
	ok(*agent > 0, "a new agent starts");
	ok(wait_for(in_our_cgroup, child, true, 3000),
	   "and re-adopts the live process from the state file (%s)",
	   harness_cpu_cgroup(child));
	kill(*agent, SIGTERM);
	waitpid(*agent, NULL, 0);
	is_str(harness_cpu_cgroup(child), "/", "SIGTERM: the agent restores before it exits");
	is_int(state_procs(), 0, "and leaves an empty state file");
}

static void test_options(void)
{
	char cmd[PATH_MAX + 128];

	snprintf(cmd, sizeof(cmd), "%s --node 'a b' --run-dir /tmp 2>/dev/null", coschedd);
	is_int(WEXITSTATUS(system(cmd)), 2, "a bad node name is refused");
	snprintf(cmd, sizeof(cmd), "%s --node x --run-dir /tmp --tick-us 1ms 2>/dev/null", coschedd);
	is_int(WEXITSTATUS(system(cmd)), 2, "a bad tick is refused");
	/* strtol took a leading blank or '+'; no --run-dir: nothing starts */
	snprintf(cmd, sizeof(cmd), "%s --node x --tick-us ' 1000' --cpus +2 2>&1 | grep -q \"tick-us ' 1000'\"", coschedd);
	is_int(WEXITSTATUS(system(cmd)), 0, "a tick with a leading blank is refused, named");
	snprintf(cmd, sizeof(cmd), "%s --node x 2>/dev/null", coschedd);
	is_int(WEXITSTATUS(system(cmd)), 2, "--run-dir is required");
	snprintf(cmd, sizeof(cmd), "%s --node x --energy rate 2>&1 | grep -qF -e \"--energy 'rate': expected paper or tick\"", coschedd);
	is_int(WEXITSTATUS(system(cmd)), 0, "a bad energy variant is refused, named");
	/* taken: parsing goes on to the missing --run-dir */
	snprintf(cmd, sizeof(cmd), "%s --node x --energy tick 2>&1 | grep -q 'run-dir are required'", coschedd);
	is_int(WEXITSTATUS(system(cmd)), 0, "--energy tick is taken");
}

/* ---- membus: one node, two steps, one CPU ---- */

static char mb_node[32];

static pid_t start_membus_agent(void)
{
	char *argv[] = { coschedd, "--node", mb_node, "--run-dir", run_dir,
			 "--membus-quantum-ms", "100", "--cpus", "1",
			 "--membus-mem", "1G", "--membus-net", "1G", NULL };

	cosched_socket_path(run_dir, mb_node, sock, sizeof(sock));
	return harness_start_agent(argv, sock);
}

static const char *freezer_state(int job)
{
	static char state[32];
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/fs/cgroup/freezer/coschedd/%s/%d.0/freezer.state",
		 mb_node, job);
	f = fopen(path, "r");
	if (!f)
		return "gone";
	if (!fgets(state, sizeof(state), f))
		state[0] = '\0';
	fclose(f);
	state[strcspn(state, "\n")] = '\0';
	return state;
}

/* One frozen, the other thawed, seen within a second (switches race). */
static bool one_runs(void)
{
	for (int i = 0; i < 50; i++) {
		char a[32];

		snprintf(a, sizeof(a), "%s", freezer_state(50));
		if ((!strcmp(a, "FROZEN") && !strcmp(freezer_state(51), "THAWED")) ||
		    (!strcmp(a, "THAWED") && !strcmp(freezer_state(51), "FROZEN")))
			return true;
		harness_sleep_ms(20);
	}
	return false;
}

static bool both_thawed(void)
{
	for (int i = 0; i < 100; i++) {
		if (!strcmp(freezer_state(50), "THAWED") &&
		    !strcmp(freezer_state(51), "THAWED"))
			return true;
		harness_sleep_ms(20);
	}
	return false;
}

static void test_membus(void)
{
	char line[512], self[96];
	pid_t agent, a, b;
	uint64_t ta, tb;
	int port = harness_free_udp_port();

	snprintf(mb_node, sizeof(mb_node), "m%d", (int)getpid());
	if (access("/sys/fs/cgroup/freezer", W_OK) || port < 0) {
		skip(14, "no writable cgroup v1 freezer or no UDP port");
		return;
	}
	agent = start_membus_agent();
	ok(agent > 0, "membus: an agent with 100 ms quanta and P = 1 starts");
	snprintf(self, sizeof(self), "%s@127.0.0.1:%d", mb_node, port);
	snprintf(line, sizeof(line), "membus job=50 step=0 nnodes=1 self=other@127.0.0.1:%d coord=%s",
		 port, self);
	request(line);
	ok(strstr(reply, "is not this agent's node") != NULL,
	   "membus: self naming another node is refused (%s)", reply);
	request("membus job=50 step=0 nnodes=1");
	ok(!strncmp(reply, "error:", 6), "membus: a request without self and coord is refused");
	a = harness_spinner();
	b = harness_spinner();
	for (int job = 50; job <= 51; job++) {
		snprintf(line, sizeof(line), "membus job=%d step=0 nnodes=1 self=%s coord=%s",
			 job, self, self);
		request(line);
		ok(!strncmp(reply, "ok membus", 9), "membus: job %d announced (%s)", job, reply);
	}
	snprintf(line, sizeof(line), "register job=50 step=0 uid=0 mode=membus pid=%d rank=0 bw_mem=8e8",
		 (int)a);
	request(line);
	ok(strstr(reply, "bw_mem must be whole bytes") != NULL,
	   "membus: a malformed hint is refused (%s)", reply);
	snprintf(line, sizeof(line), "register job=50 step=0 uid=0 mode=membus pid=%d rank=0 bw_mem=800000000",
		 (int)a);
	request(line);
	ok(!strncmp(reply, "ok registered", 13), "membus: a heavy step registers");
	snprintf(line, sizeof(line), "register job=51 step=0 uid=0 mode=membus pid=%d rank=0 bw_mem=50000000",
		 (int)b);
	request(line);
	ok(!strncmp(reply, "ok registered", 13), "membus: a light step registers");
	ok(one_runs(), "membus: with one CPU one step runs while the other is frozen (%s, %s)",
	   freezer_state(50), freezer_state(51));
	ta = harness_cpu_ticks(a);
	tb = harness_cpu_ticks(b);
	harness_sleep_ms(1500);
	ok(harness_cpu_ticks(a) > ta && harness_cpu_ticks(b) > tb,
	   "membus: both steps progress over 15 quanta (taking turns)");
	request("status");
	ok(strstr(reply, "coordinator ") && strstr(reply, "quantum ") &&
	   strstr(reply, "(hint)"), "membus: status shows quanta, the coordinator and the source");
	ok(strstr(reply, "without a decision") != NULL &&
	   strstr(reply, ", 0 without a decision") != NULL,
	   "membus: its own coordinator decides every quantum");
	kill(agent, SIGKILL);
	waitpid(agent, NULL, 0);
	ok(both_thawed(), "membus: SIGKILL of the agent: the guardian thaws both steps (%s, %s)",
	   freezer_state(50), freezer_state(51));
	kill(a, SIGKILL);
	kill(b, SIGKILL);
	waitpid(a, NULL, 0);
	waitpid(b, NULL, 0);
	harness_sleep_ms(100);
	for (int job = 50; job <= 51; job++) {
		snprintf(line, sizeof(line), "/sys/fs/cgroup/freezer/coschedd/%s/%d.0", mb_node, job);
		(void)rmdir(line);
	}
	snprintf(line, sizeof(line), "/sys/fs/cgroup/freezer/coschedd/%s", mb_node);
	(void)rmdir(line);
	ok(access(line, F_OK) != 0, "membus: no freezer cgroup left");
}

/* ---- the socket: no client may hold the agent (issue 13) ---- */

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int connect_to(const char *path, bool nonblock)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | (nonblock ? SOCK_NONBLOCK : 0), 0);

	if (strlen(path) >= sizeof(addr.sun_path)) {
		close(fd);
		return -1;
	}
	memcpy(addr.sun_path, path, strlen(path) + 1);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&addr, sizeof(addr)) &&
	    errno != EINPROGRESS) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * A client that sends one byte every 150 ms for up to `ms`: exits 0 when
 * the agent closed it within 2 s of connecting, 1 when it lasted longer,
 * 2 when it could not connect.
 */
static pid_t slow_client(int ms)
{
	pid_t pid = fork();

	if (pid == 0) {
		long long start = now_ms();
		int fd = connect_to(sock, false);

		alarm(30);
		if (fd < 0)
			_exit(2);
		while (now_ms() - start < ms) {
			struct pollfd p = { .fd = fd, .events = POLLIN };
			char buf[128];

			if (send(fd, "x", 1, MSG_NOSIGNAL) != 1 ||
			    (poll(&p, 1, 150) > 0 && read(fd, buf, sizeof(buf)) <= 0))
				_exit(now_ms() - start < 2000 ? 0 : 1);
		}
		_exit(1);
	}
	return pid;
}

static int exit_code(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Elapsed ms of fn (privileged requests) in a child that an alarm stops
 * after 10 s; -1 when fn failed. */
static long long timed(int (*fn)(void))
{
	long long start = now_ms();
	pid_t pid = fork();

	if (pid == 0) {
		alarm(10);
		_exit(fn());
	}
	return exit_code(pid) == 0 ? now_ms() - start : -1;
}

static int ping_ok(void)
{
	return request("ping") || strncmp(reply, "ok", 2);
}

/* register a process of ours, then end it (a register's pid must descend
 * from the caller) */
static int register_and_end(void)
{
	char line[256];
	pid_t child = harness_spinner();
	int rc;

	snprintf(line, sizeof(line),
		 "register job=44 step=0 uid=0 mode=pb pb=D tick_us=1000 spin_ns=0 pid=%d rank=0",
		 (int)child);
	rc = request(line) || strncmp(reply, "ok registered", 13) ||
	     request("end job=44 step=0") || strncmp(reply, "ok ended", 8);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	return rc;
}

static long long status_ticks(void)
{
	const char *t;

	reply[0] = '\0';
	if (cosched_agent_request(sock, "status json", reply, sizeof(reply), 1000))
		return -1;
	t = strstr(reply, "\"ticks\":");
	return t ? atoll(t + 8) : -1;
}

static void test_slow_client(void)
{
	pid_t slow = slow_client(4000);	/* the old agent served it 77 s */
	long long ticks, later, ms;

	harness_sleep_ms(200);
	ticks = status_ticks();
	harness_sleep_ms(300);
	later = status_ticks();
	ok(ticks >= 0 && later > ticks,
	   "slow client: status answers and the tick keeps running (%lld, then %lld ticks)",
	   ticks, later);
	ms = timed(ping_ok);
	ok(ms >= 0 && ms < 1000,
	   "slow client: another client's ping answers within 1 s (%lld ms)", ms);
	is_int(exit_code(slow), 0,
	       "slow client: its connection is closed by its deadline, within 2 s");
}

static void test_full_backlog(void)
{
	int fds[200], n = 0;
	long long ms;

	for (int i = 0; i < 200; i++) {
		fds[i] = connect_to(sock, true);
		n += fds[i] >= 0;
	}
	diag("%d of 200 silent clients connected", n);
	ms = timed(ping_ok);
	ok(ms >= 0 && ms < 2000,
	   "full backlog: 200 silent clients, a ping is served within 2 s (%lld ms)", ms);
	ms = timed(register_and_end);
	ok(ms >= 0 && ms < 2000,
	   "full backlog: a register and an end are served within 2 s (%lld ms)", ms);
	for (int i = 0; i < 200; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* cosched_agent_request against a socket that never accepts, its backlog
 * full: it gives up after its timeout (a blocking connect waited forever). */
static void test_request_deadline(void)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fds[100], n = 0, lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	long long start;
	pid_t pid;

	if (strlen(run_dir) + 16 > sizeof(addr.sun_path)) {
		ok(0, "request deadline: run dir too long");
		return;
	}
	memcpy(addr.sun_path, run_dir, strlen(run_dir));
	strcat(addr.sun_path, "/stalled.sock");
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) ||
	    listen(lfd, 1)) {
		ok(0, "request deadline: a listening socket");
		return;
	}
	while (n < 100 && (fds[n] = connect_to(addr.sun_path, true)) >= 0)
		n++;
	diag("the backlog took %d connections", n);
	start = now_ms();
	pid = fork();
	if (pid == 0) {
		long long t0 = now_ms();
		int rc;

		alarm(5);
		rc = cosched_agent_request(addr.sun_path, "ping", reply,
					   sizeof(reply), 300);
		_exit(rc == -1 && errno == ETIMEDOUT && now_ms() - t0 < 1500 ? 0 : 1);
	}
	is_int(exit_code(pid), 0,
	       "request deadline: with the backlog full, a request fails with ETIMEDOUT within its 300 ms (%lld ms)",
	       now_ms() - start);
	while (n--)
		close(fds[n]);
	close(lfd);
	unlink(addr.sun_path);
}

static int count_lines(const char *path, const char *word, bool *raw_ctrl)
{
	char line[2048];
	FILE *f = fopen(path, "r");
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, word))
			continue;
		n++;
		for (const char *c = line; *c; c++)
			if ((unsigned char)*c < 0x20 && *c != '\n')
				*raw_ctrl = true;
	}
	fclose(f);
	return n;
}

/* 10,000 refused registers from nobody: a bounded log. Stops the agent. */
static void test_refusal_flood(pid_t *agent)
{
	char log[PATH_MAX + 64];
	bool raw = false;
	int refused;
	pid_t pid = fork();

	if (pid == 0) {
		alarm(120);
		if (setgid(65534) || setuid(65534))
			_exit(3);
		for (int i = 0; i < 10000; i++)
			if (request("register \x01\x1b[2J job=7 step=0 uid=65534 mode=pb pid=1 rank=0") ||
			    !strstr(reply, "permission denied"))
				_exit(1);
		_exit(0);
	}
	is_int(exit_code(pid), 0, "flood: 10,000 registers from nobody, each refused");
	kill(*agent, SIGTERM);
	waitpid(*agent, NULL, 0);
	*agent = -1;
	snprintf(log, sizeof(log), "%s/%s.log", run_dir, node);
	refused = count_lines(log, "refused '", &raw);
	ok(refused > 0 && refused < 50, "flood: %d lines logged for them", refused);
	is_int(count_lines(log, "similar messages (refused requests)", &raw), 1,
	       "flood: and one line with the number suppressed");
	ok(!raw, "flood: control bytes of the client's line are escaped in the log");
}

/* The agent stops at SIGTERM within 2 s while a slow client is connected. */
static void test_sigterm_slow_client(pid_t agent)
{
	pid_t slow = slow_client(5000);
	long long start;
	bool gone = false;

	harness_sleep_ms(200);
	start = now_ms();
	kill(agent, SIGTERM);
	while (!gone && now_ms() - start < 2000) {
		gone = waitpid(agent, NULL, WNOHANG) == agent;
		harness_sleep_ms(10);
	}
	ok(gone, "SIGTERM with a slow client connected: the agent stops within 2 s");
	if (!gone) {
		kill(agent, SIGKILL);
		waitpid(agent, NULL, 0);
	}
	kill(slow, SIGKILL);
	waitpid(slow, NULL, 0);
}

/* A started agent keeps none of the starter's descriptors. */
static void test_descriptors(void)
{
	char dnode[32], marker[PATH_MAX + 64], dsock[PATH_MAX + 64];
	char path[PATH_MAX + 64], target[PATH_MAX + 64], err[256] = "";
	char *argv[] = { coschedd, "--node", dnode, "--run-dir", run_dir, NULL };
	int fd, agent = 0, leaked = 0;
	FILE *f;

	snprintf(dnode, sizeof(dnode), "d%d", (int)getpid());
	snprintf(marker, sizeof(marker), "%s/inherited-marker", run_dir);
	cosched_socket_path(run_dir, dnode, dsock, sizeof(dsock));
	fd = open(marker, O_RDWR | O_CREAT, 0600);	/* no O_CLOEXEC */
	ok(!cosched_agent_start(argv, dsock, 3000, err, sizeof(err)),
	   "descriptors: the agent starts detached (%s)", err);
	snprintf(path, sizeof(path), "%s/%s.pid", run_dir, dnode);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%d", &agent) != 1)
		agent = 0;
	if (f)
		fclose(f);
	for (int i = 0; agent > 0 && i < 1024; i++) {
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/%d/fd/%d", agent, i);
		n = readlink(path, target, sizeof(target) - 1);
		if (n > 0) {
			target[n] = '\0';
			leaked += !strcmp(target, marker);
		}
	}
	ok(agent > 0 && !leaked,
	   "descriptors: a descriptor without CLOEXEC in the starter is not open in the agent (pid %d)",
	   agent);
	close(fd);
	if (agent > 0) {
		kill(agent, SIGTERM);
		for (int i = 0; i < 200 && !kill(agent, 0); i++)
			harness_sleep_ms(10);
	}
	unlink(marker);
}

/* ---- the run directory (lib/cosched/rundir.h) ---- */

#define NOBODY 65534

/*
 * coschedd on dir: its exit code, its first line of output (stderr too)
 * in out.  One that starts instead of refusing is stopped after
 * RUN_DIR_WAIT_S (timeout(1): 124), its output read from a file, not a
 * pipe its guardian would hold.
 */
#define RUN_DIR_WAIT_S 5
static int run_on(const char *dir, char *out, size_t len)
{
	char cmd[3 * PATH_MAX], file[PATH_MAX + 16];
	size_t n = 0;
	FILE *f;
	int status;

	snprintf(file, sizeof(file), "%s/run_on.out", run_dir);
	snprintf(cmd, sizeof(cmd),
		 "timeout %d %s --node rd%d --run-dir '%s' > '%s' 2>&1",
		 RUN_DIR_WAIT_S, coschedd, (int)getpid(), dir, file);
	status = system(cmd);
	f = fopen(file, "r");
	if (f) {
		n = fread(out, 1, len - 1, f);
		fclose(f);
	}
	out[n] = '\0';
	out[strcspn(out, "\n")] = '\0';
	unlink(file);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* dir is refused with one line naming --run-dir dir and why. */
static void refused(const char *dir, const char *why, const char *what)
{
	char out[1024], want[PATH_MAX + 32];
	int rc = run_on(dir, out, sizeof(out));

	snprintf(want, sizeof(want), "--run-dir %s: refused", dir);
	ok(rc == 1 && strstr(out, want) && strstr(out, why),
	   "run dir: %s is refused: %s", what, out);
}

static void test_run_dir(void)
{
	char base[PATH_MAX + 16], d[PATH_MAX + 96], e[PATH_MAX + 128];
	char out[1024], rd_sock[PATH_MAX + 160], rd_node[32], pid[PATH_MAX + 160];
	char *argv[] = { coschedd, "--node", rd_node, "--run-dir", d, NULL };
	struct stat st;
	pid_t agent;

	snprintf(base, sizeof(base), "%s/rd", run_dir);
	mkdir(base, 0755);
	snprintf(rd_node, sizeof(rd_node), "rd%d", (int)getpid());

	snprintf(d, sizeof(d), "%s/nobodys", base);
	if (mkdir(d, 0755) || chown(d, NOBODY, NOBODY))
		diag("cannot make %s", d);
	refused(d, "is owned by another user", "a directory of another user");
	snprintf(e, sizeof(e), "%s/below", d);
	refused(e, "nobodys is owned by another user",
		"a directory below another user's (created there)");
	ok(stat(e, &st) && errno == ENOENT,
	   "run dir: ... and nothing was created below it");

	static const struct { mode_t mode; const char *name; } writable[] = {
		{ 0777, "0777" }, { 01777, "1777 (sticky)" }, { 0775, "0775" },
	};
	for (size_t i = 0; i < sizeof(writable) / sizeof(writable[0]); i++) {
		char what[64];

		snprintf(d, sizeof(d), "%s/mode%zu", base, i);
		mkdir(d, 0700);
		chmod(d, writable[i].mode);
		snprintf(what, sizeof(what), "a directory of mode %s",
			 writable[i].name);
		refused(d, "is writable by group or others", what);
	}

	snprintf(e, sizeof(e), "%s/real", base);
	mkdir(e, 0755);
	snprintf(d, sizeof(d), "%s/link", base);
	if (symlink("real", d))
		diag("symlink %s: %s", d, strerror(errno));
	refused(d, "is a symbolic link", "a symbolic link to a good directory");
	snprintf(d, sizeof(d), "%s/link/sub", base);
	snprintf(e, sizeof(e), "%s/real/sub", base);
	mkdir(e, 0755);
	refused(d, "link is a symbolic link",
		"a good directory reached through a symbolic link");

	snprintf(d, sizeof(d), "%s/made", base);
	cosched_socket_path(d, rd_node, rd_sock, sizeof(rd_sock));
	umask(072);	/* mkdir alone would leave it 0705 */
	agent = harness_start_agent(argv, rd_sock);
	umask(022);
	if (stat(d, &st))
		memset(&st, 0, sizeof(st));
	ok(agent > 0 && S_ISDIR(st.st_mode) &&
	   (st.st_mode & 07777) == 0755 && st.st_uid == 0,
	   "run dir: a missing one is made, root's, mode 0755 (%o), and the agent starts",
	   (unsigned)(st.st_mode & 07777));
	if (agent > 0) {
		kill(agent, SIGTERM);
		waitpid(agent, NULL, 0);
	}

	/* root planted it, but a pid file is still not followed */
	snprintf(e, sizeof(e), "%s/target", base);
	close(open(e, O_WRONLY | O_CREAT, 0644));
	snprintf(pid, sizeof(pid), "%s/%s.pid", d, rd_node);
	unlink(pid);
	if (symlink(e, pid))
		diag("symlink %s: %s", pid, strerror(errno));
	ok(run_on(d, out, sizeof(out)) == 1 && strstr(out, "cannot open") &&
	   !stat(e, &st) && st.st_size == 0,
	   "run dir: a pid file that is a symbolic link is not followed: %s",
	   out);
	unlink(pid);
}

static void test_socket(pid_t child)
{
	pid_t agent;

	cosched_socket_path(run_dir, node, sock, sizeof(sock));
	agent = start_agent();
	ok(agent > 0, "socket: a new agent starts");
	register_spinner(child, "socket");
	test_slow_client();
	test_full_backlog();
	test_request_deadline();
	test_sigterm_slow_client(agent);
	agent = start_agent();
	ok(agent > 0, "socket: and another one");
	test_refusal_flood(&agent);
	test_descriptors();
}

int main(int argc, char **argv)
{
	char tmpl[] = "/tmp/test_coschedd.XXXXXX";
	pid_t agent, child;

	(void)argc;
	harness_need_coschedd(argv[0], coschedd, sizeof(coschedd));
	if (!mkdtemp(tmpl))
		return 1;
	chmod(tmpl, 0755);
	snprintf(run_dir, sizeof(run_dir), "%s", tmpl);
	snprintf(node, sizeof(node), "t%d", (int)getpid());
	cosched_socket_path(run_dir, node, sock, sizeof(sock));

	test_options();
	test_run_dir();
	agent = start_agent();
	ok(agent > 0, "the agent starts and answers ping");
	child = harness_spinner();
	register_spinner(child, "first");
	test_refusals(child);
	test_boosts(child);
	test_end(child);
	test_cpu_time(agent);
	register_spinner(child, "again");
	test_crash_and_recovery(&agent, child);
	test_membus();
	test_socket(child);

	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	{
		char cmd[PATH_MAX + 32];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", run_dir);
		(void)!system(cmd);
	}
	return done_testing();
}
