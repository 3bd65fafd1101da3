/*
 * test_peer.c - the addresses of MemBUS peers (NAME@HOST:PORT), and what
 * peer_recv accepts and refuses: with a private munged (started here, as
 * root), a root credential is accepted once and refused when replayed,
 * one made by the user nobody is refused, and a datagram without a
 * credential is refused everywhere; a source the caller rejects is
 * dropped before munge is asked; addresses compare by family, address and
 * port; the log limiter lets a burst through, then counts.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <string.h>
#include <unistd.h>

#include "fixture.h"
#include "cosched_proto/peer.h"
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

static bool reject_all(const struct sockaddr_storage *from, socklen_t len,
		       void *arg)
{
	(void)from;
	(void)len;
	++*(int *)arg;
	return false;
}

/* Datagrams without a valid credential never become messages; a source
 * the caller does not know is dropped before munge is asked. */
static void test_refused(void)
{
	struct peer_addr self;
	struct peer_ctx c;
	struct peer_datagram d;
	struct sockaddr_storage to;
	socklen_t len;
	const char *why = NULL;
	char err[256];
	int fd, asked = 0;

	if (peer_parse("t@127.0.0.1:0", &self, err, sizeof(err)) ||
	    peer_open(&c, &self, NULL, err, sizeof(err))) {
		skip(7, "no UDP socket on loopback");
		return;
	}
	is_int(peer_recv(&c, NULL, NULL, &d, &why), 0, "nothing waiting: 0");
	ok(!*why, "... and no reason");
	len = sizeof(to);
	getsockname(c.fd, (struct sockaddr *)&to, &len);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	(void)!sendto(fd, "{\"t\":\"decision\",\"q\":1}", 23, 0,
		      (struct sockaddr *)&to, len);
	usleep(100000);
	is_int(peer_recv(&c, NULL, NULL, &d, &why), -1, "plain JSON is not accepted");
	is_str(why, "invalid credential", "... as an invalid credential");
	is_int((int)c.dropped_auth, 1, "... and counted");
	(void)!sendto(fd, "x", 1, 0, (struct sockaddr *)&to, len);
	usleep(100000);
	ok(peer_recv(&c, reject_all, &asked, &d, &why) == -1 && asked == 1 &&
	   !strcmp(why, "not from a known peer address"),
	   "a source the caller rejects is refused (%s)", why);
	ok(c.dropped_source == 1 && c.dropped_auth == 1,
	   "... before munge is asked (counted apart)");
	close(fd);
	peer_close(&c);
}

static void test_same_addr(void)
{
	struct peer_addr a, b;
	char err[256];

	(void)peer_parse("a@127.0.0.1:7001", &a, err, sizeof(err));
	(void)peer_parse("b@127.0.0.1:7001", &b, err, sizeof(err));
	ok(peer_same_addr(&a.sa, a.len, &b.sa, b.len), "same IPv4 address and port");
	(void)peer_parse("b@127.0.0.1:7002", &b, err, sizeof(err));
	ok(!peer_same_addr(&a.sa, a.len, &b.sa, b.len), "another port differs");
	(void)peer_parse("b@127.0.0.2:7001", &b, err, sizeof(err));
	ok(!peer_same_addr(&a.sa, a.len, &b.sa, b.len), "another address differs");
	(void)peer_parse("b@[::1]:7001", &b, err, sizeof(err));
	ok(!peer_same_addr(&a.sa, a.len, &b.sa, b.len), "another family differs");
	(void)peer_parse("a@[::1]:7001", &a, err, sizeof(err));
	ok(peer_same_addr(&a.sa, a.len, &b.sa, b.len), "same IPv6 address and port");
}

/* ---- with a private munged ---- */

static const char *munge_sock;

/* A plain UDP socket on loopback and its address. */
static int udp_socket(struct sockaddr_storage *sa, socklen_t *len)
{
	struct sockaddr_in *in = (struct sockaddr_in *)sa;
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	memset(sa, 0, sizeof(*sa));
	in->sin_family = AF_INET;
	in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	*len = sizeof(*in);
	if (fd < 0 || bind(fd, (struct sockaddr *)sa, *len) ||
	    getsockname(fd, (struct sockaddr *)sa, len))
		return -1;
	return fd;
}

/* What nobody's munge makes of a message, sent to `to` (in a child). */
static void send_as_nobody(const struct sockaddr_storage *to, socklen_t len)
{
	struct passwd *pw = getpwnam("nobody");
	pid_t pid = fork();

	if (pid == 0) {
		struct peer_addr self;
		struct peer_ctx c;
		char err[256];

		if (!pw || setgid(pw->pw_gid) || setuid(pw->pw_uid) ||
		    peer_parse("x@127.0.0.1:0", &self, err, sizeof(err)) ||
		    peer_open(&c, &self, munge_sock, err, sizeof(err)))
			_exit(1);
		_exit(peer_send(&c, to, len, "{}", 2) ? 1 : 0);
	}
	waitpid(pid, NULL, 0);
}

static void test_munge(void)
{
	static const char text[] = "{\"t\":\"vote\",\"q\":42}";
	struct peer_addr self;
	struct peer_ctx c, sender;
	struct peer_datagram d;
	struct sockaddr_storage to, raw_sa;
	socklen_t to_len, raw_len;
	const char *why = "";
	char err[256], cred[65536];
	ssize_t n;
	int raw, rc;

	if (!(munge_sock = test_munged_start())) {
		skip(7, "no private munged (needs root and /usr/sbin/munged)");
		test_munged_stop();
		return;
	}
	if (peer_parse("t@127.0.0.1:0", &self, err, sizeof(err)) ||
	    peer_open(&c, &self, munge_sock, err, sizeof(err)) ||
	    peer_open(&sender, &self, munge_sock, err, sizeof(err)) ||
	    (raw = udp_socket(&raw_sa, &raw_len)) < 0) {
		skip(7, "no UDP sockets on loopback");
		test_munged_stop();
		return;
	}
	to_len = sizeof(to);
	getsockname(c.fd, (struct sockaddr *)&to, &to_len);
	/* the credential as it travels, caught on a plain socket */
	ok(!peer_send(&sender, &raw_sa, raw_len, text, strlen(text)),
	   "root's message is encoded and sent");
	n = recv(raw, cred, sizeof(cred), 0);
	ok(n > 0 && !strncmp(cred, "MUNGE:", 6), "it travels as a munge credential");
	(void)!sendto(raw, cred, (size_t)n, 0, (struct sockaddr *)&to, to_len);
	usleep(50000);
	rc = peer_recv(&c, NULL, NULL, &d, &why);
	ok(rc == 1 && d.len == strlen(text) && !strcmp(d.text, text) &&
	   peer_same_addr(&d.from, d.from_len, &raw_sa, raw_len),
	   "root's credential is accepted with its payload and sender");
	if (rc == 1)
		free(d.text);
	(void)!sendto(raw, cred, (size_t)n, 0, (struct sockaddr *)&to, to_len);
	usleep(50000);
	is_int(peer_recv(&c, NULL, NULL, &d, &why), -1,
	       "the same credential again is refused");
	is_str(why, "replayed credential", "... as replayed");
	send_as_nobody(&to, to_len);
	usleep(50000);
	is_int(peer_recv(&c, NULL, NULL, &d, &why), -1,
	       "a credential of the user nobody is refused");
	is_str(why, "sender is not root or the allowed user", "... as not root");
	close(raw);
	peer_close(&sender);
	peer_close(&c);
	test_munged_stop();
}

int main(void)
{
	plan(32);
	test_parse();
	test_refused();
	test_same_addr();
	test_munge();
	return done_testing();
}
