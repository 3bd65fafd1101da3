/*
 * test_emfile.c - an agent out of descriptors does not spin: clients
 * that connect and send nothing until accept() fails with EMFILE leave
 * the listener readable; the agent (SCHED_FIFO) must rest it, not poll
 * it again at once (agent/server.c).  A private coschedd with a small
 * RLIMIT_NOFILE; its CPU time over a second of the flood is measured
 * from /proc, then it must answer ping once the clients are gone.
 * Needs root.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "agent_harness.h"
#include "cosched_proto/client.h"
#include "tap.h"

#define SPARE_FDS 3		/* above what the agent holds idle */
#define CLIENTS 60
#define CPU_BOUND 0.25		/* of one CPU, over the measured second */

static char coschedd[PATH_MAX], run_dir[256], node[32], sock[PATH_MAX + 64];

static int _open_fds(pid_t pid)
{
	char path[64];
	struct dirent *de;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	if (!(d = opendir(path)))
		return -1;
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

static int _connect(void)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (strlen(sock) >= sizeof(addr.sun_path))
		harness_bail_out("socket path too long: %s", sock);
	memcpy(addr.sun_path, sock, strlen(sock) + 1);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The agent, then limited to SPARE_FDS descriptors more than it holds
 * idle (set from outside with prlimit: under valgrind a setrlimit before
 * exec would only be recorded, not done). */
static pid_t _start(void)
{
	char *argv[] = { coschedd, "--node", node, "--run-dir", run_dir, NULL };
	pid_t agent = harness_keep(harness_start_agent(argv, sock));
	struct rlimit rl;
	int idle;

	if (agent < 0)
		harness_bail_out("no agent");
	harness_sleep_ms(200);
	idle = _open_fds(agent);
	rl.rlim_cur = rl.rlim_max = (rlim_t)idle + SPARE_FDS;
	if (idle < 0 || prlimit(agent, RLIMIT_NOFILE, &rl, NULL))
		harness_bail_out("prlimit: %s", strerror(errno));
	diag("the idle agent holds %d descriptors; its limit now %llu", idle,
	     (unsigned long long)rl.rlim_cur);
	return agent;
}

int main(int argc, char **argv)
{
	char tmpl[] = "/tmp/test_emfile.XXXXXX", reply[256];
	int clients[CLIENTS], connected = 0, status;
	uint64_t cpu0, cpu1;
	double used_s;
	pid_t agent;

	(void)argc;
	harness_need_coschedd(argv[0], coschedd, sizeof(coschedd));
	if (harness_private_run_dir(tmpl, run_dir, sizeof(run_dir)))
		return 1;
	snprintf(node, sizeof(node), "e%d", (int)getpid());
	cosched_socket_path(run_dir, node, sock, sizeof(sock));
	/* how many descriptors an idle agent holds, then one that has few more */
	agent = _start();
	for (int i = 0; i < CLIENTS; i++)
		connected += (clients[i] = _connect()) >= 0;
	ok(connected == CLIENTS, "%d clients connect and send nothing", connected);
	harness_sleep_ms(100);
	cpu0 = harness_cpu_ticks(agent);
	harness_sleep_ms(1000);
	cpu1 = harness_cpu_ticks(agent);
	used_s = (double)(cpu1 - cpu0) / (double)sysconf(_SC_CLK_TCK);
	diag("the agent used %.2f s of CPU in that second", used_s);
	ok(kill(agent, 0) == 0 && used_s < CPU_BOUND,
	   "out of descriptors, the agent does not spin (under %.0f %% of a CPU)",
	   CPU_BOUND * 100);
	ok(harness_log_has(run_dir, node, "new connections wait"),
	   "the failure is logged");
	for (int i = 0; i < CLIENTS; i++)
		if (clients[i] >= 0)
			close(clients[i]);
	ok(!harness_request_within(sock, "ping", reply, sizeof(reply), 3000),
	   "once they are gone it answers ping (%s)", reply);
	ok(harness_stop_agent(agent, 5000, &status), "SIGTERM stops it");
	return done_testing();
}
