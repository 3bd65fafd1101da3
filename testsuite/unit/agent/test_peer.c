/*
 * test_peer.c - the addresses of MemBUS peers (NAME@HOST:PORT) and what
 * peer_recv refuses without a munge credential.  Sending with a real
 * credential is tested on the embedded cluster (16-membus.t), which runs
 * a munged.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <unistd.h>

#include "peer.h"
#include "tap.h"

static void test_parse(void)
{
	struct peer_addr p;
	char err[256];
	struct sockaddr_in *in = (struct sockaddr_in *)&p.sa;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&p.sa;

	ok(!peer_parse("n1@127.0.0.1:7001", &p, err, sizeof(err)),
	   "IPv4 address parses");
	is_str(p.name, "n1", "... the node name");
	ok(in->sin_family == AF_INET && ntohs(in->sin_port) == 7001 &&
	   in->sin_addr.s_addr == htonl(INADDR_LOOPBACK), "... address and port");
	is_str(p.text, "n1@127.0.0.1:7001", "... the text kept for status");
	ok(!peer_parse("node-12@[::1]:7818", &p, err, sizeof(err)),
	   "IPv6 in brackets parses");
	ok(in6->sin6_family == AF_INET6 && ntohs(in6->sin6_port) == 7818,
	   "... as an IPv6 address");
	ok(!peer_parse("n2@localhost:9", &p, err, sizeof(err)),
	   "a host name is resolved");
	ok(peer_parse("127.0.0.1:7001", &p, err, sizeof(err)) &&
	   strstr(err, "NAME@HOST:PORT"), "no name: refused (%s)", err);
	ok(peer_parse("n1@127.0.0.1", &p, err, sizeof(err)), "no port: refused");
	ok(peer_parse("n1@:7001", &p, err, sizeof(err)), "no host: refused");
	ok(peer_parse("n1@[::1]7001", &p, err, sizeof(err)),
	   "IPv6 without ':' after the bracket: refused");
	ok(peer_parse("n1@127.0.0.1:port", &p, err, sizeof(err)),
	   "a port that is not a number: refused (%s)", err);
	ok(peer_parse("n1@no-such-host.invalid:7001", &p, err, sizeof(err)),
	   "an unknown host: refused (%s)", err);
}

/* Datagrams without a valid credential never become messages. */
static void test_refused(void)
{
	struct peer_addr self;
	struct peer_ctx c;
	struct sockaddr_storage from;
	socklen_t len;
	const char *why = NULL;
	char err[256];
	int fd;

	if (peer_parse("t@127.0.0.1:0", &self, err, sizeof(err)) ||
	    peer_open(&c, &self, NULL, err, sizeof(err))) {
		skip(4, "no UDP socket on loopback");
		return;
	}
	ok(peer_recv(&c, &from, &len, &why) == NULL && !*why,
	   "nothing waiting: NULL and no reason");
	len = sizeof(from);
	getsockname(c.fd, (struct sockaddr *)&from, &len);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	(void)!sendto(fd, "{\"t\":\"decision\",\"q\":1}", 23, 0,
		      (struct sockaddr *)&from, len);
	close(fd);
	usleep(100000);
	ok(peer_recv(&c, &from, &len, &why) == NULL, "plain JSON is not accepted");
	is_str(why, "invalid credential", "... as an invalid credential");
	is_int((int)c.dropped_auth, 1, "... and counted");
	peer_close(&c);
}

int main(void)
{
	plan(17);
	test_parse();
	test_refused();
	return done_testing();
}
