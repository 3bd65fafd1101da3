/*
 * test_pages_fuse.c - a job's owner who mounts a FUSE file system of
 * their own over their step's page directory, or over a page, cannot
 * stall the root agent (lib/cosched/pages.c, agent/sched.c;
 * doc/security.md, "The root agent's operations on what users control").
 *
 * The step's directory RUN_DIR/pages/JOB.STEP and its pages are the job
 * user's, so fusermount3 lets that user mount over either.  stallfs
 * ("open" mode) never answers OPEN or OPENDIR.  With the real coschedd
 * and a registered rank of that user, checked for each place:
 *
 *   the agent answers ping within 2 s for 2 s and keeps ticking, since
 *   it never walks into the mount (openat2 RESOLVE_NO_XDEV: EXDEV
 *   before the file system is asked anything); before that guard its
 *   openat() sat in FUSE waiting for OPENDIR (OPEN) for ever;
 *   and it uses no page for the rank.
 *
 * Then SIGTERM stops the agent within 2 s.  Root reaches another user's
 * FUSE mount only with allow_other, which a user gets where fuse.conf
 * says user_allow_other: the whole test runs in a private mount
 * namespace whose /etc/fuse.conf says so (a bind mount, the host's file
 * untouched), the agent and the mounts in it.  Skips where /dev/fuse or
 * fusermount3 is missing.  Needs root.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <json-c/json.h>
#include <libgen.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent_harness.h"
#include "cosched/pages.h"
#include "cosched_proto/client.h"
#include "tap.h"

#define REPLY_LEN 65536
#define NOBODY 65534		/* the job's (hostile) user */

static char coschedd[PATH_MAX], stallfs[PATH_MAX];
static char run_dir[256], node[32], sock[PATH_MAX + 64];
static char reply[REPLY_LEN];

static int request(const char *line)
{
	return harness_request(sock, line, reply, sizeof(reply));
}

static void _become_nobody(void)
{
	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
		_exit(11);
}

/* A rank of the job's user, returned once it is that user: sleeps
 * until killed (or 120 s). */
static pid_t rank_process(void)
{
	int became[2];
	pid_t pid;
	char k = 0;

	if (pipe(became))
		harness_bail_out("pipe: %s", strerror(errno));
	pid = fork();
	if (pid == 0) {
		close(became[0]);
		_become_nobody();
		if (write(became[1], "k", 1) != 1)
			_exit(12);
		close(became[1]);
		alarm(120);
		for (;;)
			pause();
	}
	close(became[1]);
	if (pid < 0 || read(became[0], &k, 1) != 1)
		harness_bail_out("the rank did not become uid %d", NOBODY);
	close(became[0]);
	return harness_keep(pid);
}

/* stallfs ("open": OPEN and OPENDIR never answered) mounted at mnt by
 * the job's user through fusermount3; its pid once mounted. */
static pid_t mount_stallfs(const char *mnt)
{
	int ready[2];
	pid_t fs;
	char k = 0;

	if (pipe(ready))
		harness_bail_out("pipe: %s", strerror(errno));
	fs = fork();
	if (fs == 0) {
		char fd_text[16];

		close(ready[0]);
		_become_nobody();
		snprintf(fd_text, sizeof(fd_text), "%d", ready[1]);
		execl(stallfs, stallfs, mnt, "open", fd_text, "allow_other",
		      (char *)NULL);
		_exit(15);
	}
	close(ready[1]);
	if (fs < 0 || read(ready[0], &k, 1) != 1)
		harness_bail_out("stallfs did not mount %s", mnt);
	close(ready[0]);
	return harness_keep(fs);
}

static void unmount_stallfs(pid_t fs, const char *mnt)
{
	harness_reap(fs);	/* aborts the connection, and what waits on it */
	(void)umount2(mnt, MNT_DETACH);
}

/* "shim" of j's rank 0 in the status: 1, 0, or -1 when not found. */
static int shim_of(uint32_t j)
{
	json_object *o = NULL, *jobs, *procs, *v;
	int found = -1;

	if (!request("status json"))
		o = json_tokener_parse(reply);
	if (!o || !json_object_object_get_ex(o, "jobs", &jobs))
		goto out;
	for (size_t i = 0; i < json_object_array_length(jobs); i++) {
		json_object *s = json_object_array_get_idx(jobs, i);

		if (!json_object_object_get_ex(s, "job", &v) ||
		    json_object_get_int64(v) != j ||
		    !json_object_object_get_ex(s, "procs", &procs) ||
		    json_object_array_length(procs) < 1)
			continue;
		if (json_object_object_get_ex(
			    json_object_array_get_idx(procs, 0), "shim", &v))
			found = json_object_get_boolean(v);
	}
out:
	json_object_put(o);
	return found;
}

/*
 * Job j's step directory made for the job's user; over it (page NULL)
 * or over its page "0" (made first by the user, as the shim would), a
 * stallfs of that user; rank 0 registered: the agent looks for its page
 * every 100 ms from then on.
 */
static void attack(const char *what, uint32_t j, const char *page)
{
	char dir[PATH_MAX], mnt[PATH_MAX + 16], line[256], err[512] = "";
	int64_t gained = 0;
	pid_t rank, fs;
	bool alive;

	if (cosched_pages_create(run_dir, j, 0, NOBODY, err, sizeof(err)) ||
	    cosched_page_dir_path(run_dir, j, 0, dir, sizeof(dir)))
		harness_bail_out("step directory: %s", err);
	snprintf(mnt, sizeof(mnt), "%s%s%s", dir, page ? "/" : "",
		 page ? page : "");
	if (page && (harness_write_page(mnt, 1, 0, j, 0, 16) ||
		     chown(mnt, NOBODY, NOBODY)))
		harness_bail_out("%s: %s", mnt, strerror(errno));
	fs = mount_stallfs(mnt);
	rank = rank_process();
	snprintf(line, sizeof(line),
		 "register job=%u step=0 uid=%d mode=pb pb=D tick_us=1000 spin_ns=0 pid=%d rank=0",
		 j, NOBODY, (int)rank);
	ok(!request(line) && !strncmp(reply, "ok registered", 13),
	   "%s: the user's rank is registered, stallfs mounted over %s",
	   what, page ? "its page" : "the step's directory");
	alive = harness_responsive_for(sock, 2000, &gained);
	ok(alive, "%s: the agent answers ping within 2 s for 2 s and keeps ticking (%lld ticks)",
	   what, (long long)gained);
	is_int(shim_of(j), 0, "%s: and uses no page for the rank", what);
	unmount_stallfs(fs, mnt);
	harness_reap(rank);
	snprintf(line, sizeof(line), "end job=%u step=0", j);
	(void)request(line);
}

/* ---------------------------------------------------------- set-up */

int main(int argc, char **argv)
{
	char tmpl[] = "/tmp/test_pages_fuse.XXXXXX";
	char *agent_argv[] = { coschedd, "--node", node, "--run-dir", run_dir,
			       "--tick-us", "1000", NULL };
	uint32_t job;
	pid_t agent;
	int status = 0;

	(void)argc;
	harness_need_coschedd(argv[0], coschedd, sizeof(coschedd));
	harness_need_fuse(argv[0], stallfs, sizeof(stallfs));
	if (harness_private_run_dir(tmpl, run_dir, sizeof(run_dir)))
		return 1;
	/* this process, the agent and the mounts: in a namespace of their own */
	if (harness_fuse_namespace(run_dir, true))
		harness_bail_out("private mount namespace: %s", strerror(errno));
	snprintf(node, sizeof(node), "pf%d", (int)getpid());
	cosched_socket_path(run_dir, node, sock, sizeof(sock));
	job = 930000000u + (uint32_t)getpid() % 1000000u * 10u;
	agent = harness_keep(harness_start_agent(agent_argv, sock));
	if (agent < 0)
		harness_bail_out("no agent");
	attack("step directory", job, NULL);
	attack("page", job + 1, "0");
	ok(harness_stop_agent(agent, 2000, &status) && WIFEXITED(status) &&
	   WEXITSTATUS(status) == 0, "SIGTERM stops the agent within 2 s");
	return done_testing();
}
