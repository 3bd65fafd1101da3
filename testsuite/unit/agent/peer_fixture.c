/*
 * peer_fixture.c - see peer_fixture.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "agent_harness.h"
#include "fixture.h"
#include "peer_fixture.h"

int peer_fixture_begin(const char *argv0, const char *name,
		       struct peer_fixture *f)
{
	harness_need_coschedd(argv0, f->coschedd, sizeof(f->coschedd));
	if (!(f->munge_sock = test_munged_start())) {
		test_munged_stop();
		printf("1..0 # SKIP no private munged (/usr/sbin/munged)\n");
		return 1;
	}
	snprintf(f->run_dir, sizeof(f->run_dir), "/tmp/%s.XXXXXX", name);
	if (!mkdtemp(f->run_dir))
		harness_bail_out("mkdtemp %s failed", f->run_dir);
	chmod(f->run_dir, 0755);
	return 0;
}

void peer_fixture_end(const struct peer_fixture *f)
{
	char cmd[PATH_MAX + 32];

	test_munged_stop();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->run_dir);
	if (!getenv("KEEP"))
		(void)!system(cmd);
}

int peer_fixture_socket(const struct peer_fixture *f, const char *name,
			struct peer_ctx *c, struct peer_addr *a)
{
	char text[128], err[256];
	struct sockaddr_in *in = (struct sockaddr_in *)&a->sa;

	snprintf(text, sizeof(text), "%s@127.0.0.1:0", name);
	if (peer_parse(text, a, err, sizeof(err)) ||
	    peer_open(c, a, f->munge_sock, err, sizeof(err)))
		return -1;
	a->len = sizeof(a->sa);
	getsockname(c->fd, (struct sockaddr *)&a->sa, &a->len);
	snprintf(a->text, sizeof(a->text), "%s@127.0.0.1:%d", name,
		 ntohs(in->sin_port));
	return 0;
}
