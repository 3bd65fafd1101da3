/*
 * agent_harness.c - see agent_harness.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "agent_harness.h"
#include "client.h"

int harness_request(const char *sock, const char *line, char *reply,
		    size_t len)
{
	size_t n;
	int rc;

	reply[0] = '\0';
	rc = cosched_agent_request(sock, line, reply, len, 3000);
	n = strlen(reply);
	if (n && reply[n - 1] == '\n')
		reply[n - 1] = '\0';
	return rc;
}

int harness_coschedd_path(const char *argv0, char *buf, size_t len)
{
	char *slash;

	snprintf(buf, len, "%s", argv0);
	for (int i = 0; i < 3 && (slash = strrchr(buf, '/')); i++)
		*slash = '\0';
	strncat(buf, "/sbin/coschedd", len - strlen(buf) - 1);
	return access(buf, X_OK) ? -1 : 0;
}

pid_t harness_start_agent(char *const argv[], const char *sock)
{
	struct timespec pause = { 0, 20000000L };
	char reply[256];
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	for (int i = 0; pid > 0 && i < 250; i++) {
		if (!harness_request(sock, "ping", reply, sizeof(reply)) &&
		    !strncmp(reply, "ok", 2))
			return pid;
		nanosleep(&pause, NULL);
	}
	return -1;
}

pid_t harness_spinner(void)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		alarm(120);	/* never outlive a broken test */
		for (;;)
			;
	}
	return pid;
}

const char *harness_cpu_cgroup(pid_t pid)
{
	static char line[512];
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return "?";
	while (fgets(line, sizeof(line), f)) {
		char *c = strstr(line, ":cpu:");

		if (c && c == strchr(line, ':')) {
			fclose(f);
			c[strcspn(c, "\n")] = '\0';
			return c + 5;
		}
	}
	fclose(f);
	return "?";
}

int harness_free_udp_port(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_DGRAM, 0), port = -1;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && !bind(fd, (struct sockaddr *)&sa, sizeof(sa)) &&
	    !getsockname(fd, (struct sockaddr *)&sa, &len))
		port = ntohs(sa.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}
