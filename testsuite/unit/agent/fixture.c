/*
 * fixture.c - a private munged for the agent's tests (see fixture.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fixture.h"

#define DIR_TEMPLATE "/tmp/test_munged.XXXXXX"

static char munge_dir[] = DIR_TEMPLATE;
static char munge_sock[sizeof(munge_dir) + 16];
static pid_t munged_pid = -1;

static pid_t _read_pid(void)
{
	char path[sizeof(munge_dir) + 16];
	pid_t pid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/pid", munge_dir);
	f = fopen(path, "r");
	if (f && fscanf(f, "%d", &pid) != 1)
		pid = -1;
	if (f)
		fclose(f);
	return pid;
}

const char *test_munged_start(void)
{
	char key[sizeof(munge_dir) + 16], cmd[1024];

	if (geteuid() != 0 || access("/usr/sbin/munged", X_OK) ||
	    !mkdtemp(munge_dir))
		return NULL;
	chmod(munge_dir, 0755);	/* nobody must reach the socket */
	snprintf(key, sizeof(key), "%s/key", munge_dir);
	snprintf(munge_sock, sizeof(munge_sock), "%s/sock", munge_dir);
	snprintf(cmd, sizeof(cmd),
		 "dd if=/dev/urandom of=%s bs=1024 count=1 status=none && chmod 600 %s",
		 key, key);
	if (system(cmd))
		return NULL;
	snprintf(cmd, sizeof(cmd),
		 "/usr/sbin/munged --socket=%s --key-file=%s --pid-file=%s/pid "
		 "--log-file=%s/log --seed-file=%s/seed --force 2>/dev/null",
		 munge_sock, key, munge_dir, munge_dir, munge_dir);
	if (system(cmd))
		return NULL;
	for (int i = 0; i < 100 && munged_pid < 0; i++) {
		munged_pid = _read_pid();
		if (munged_pid < 0)
			usleep(20000);
	}
	return munged_pid > 0 ? munge_sock : NULL;
}

void test_munged_stop(void)
{
	char cmd[sizeof(munge_dir) + 16];

	if (munged_pid > 0)
		kill(munged_pid, SIGTERM);
	for (int i = 0; i < 50 && munged_pid > 0 && !kill(munged_pid, 0); i++)
		usleep(20000);
	munged_pid = -1;
	if (strcmp(munge_dir, DIR_TEMPLATE)) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", munge_dir);
		(void)!system(cmd);
	}
}
