/*
 * spawn.c - see spawn.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE	/* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawn.h"

extern char **environ;

static void _read_all(int fd, char *out, size_t outlen)
{
	size_t len = 0;
	char sink[512];

	for (;;) {
		char *dst = len + 1 < outlen ? out + len : sink;
		size_t room = len + 1 < outlen ? outlen - 1 - len : sizeof(sink);
		ssize_t n = read(fd, dst, room);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (dst != sink)
			len += (size_t)n;
	}
	if (outlen)
		out[len] = '\0';
}

int esp_spawn(char *const argv[], char *out, size_t outlen)
{
	posix_spawn_file_actions_t fa;
	int pipefd[2], status, rc = -1;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC))
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	errno = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (errno) {
		fprintf(stderr, "esp: cannot run %s: %s\n", argv[0],
			strerror(errno));
		close(pipefd[0]);
		return -1;
	}
	_read_all(pipefd[0], out, outlen);
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status))
		rc = WEXITSTATUS(status);
	return rc;
}
