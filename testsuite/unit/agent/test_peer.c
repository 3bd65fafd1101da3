/*
 * test_peer.c - the addresses of MemBUS peers (NAME@HOST:PORT), and what
 * peer_recv accepts and refuses: with a private munged (started here, as
 * root), a root credential is accepted once and refused when replayed,
 * one made by the user nobody is refused, and a datagram without a
 * credential is refused everywhere; a source the caller rejects is
 * dropped before munge is asked; addresses compare by family, address and
 * port; the log limiter lets a burst through, then counts.  Sealed
 * datagrams (one credential a pass): taken by every receiver of the
 * pass, refused replayed, older than the last taken or changed; their
 * key unreadable to other users.
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
#include <time.h>
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
		skip(8, "no UDP socket on loopback");
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
	/* a line with its newline (nc's), not a sealed datagram */
	(void)!sendto(fd, "{\"t\":1}\n", 8, 0, (struct sockaddr *)&to, len);
	usleep(100000);
	ok(peer_recv(&c, NULL, NULL, &d, &why) == -1 &&
	   !strcmp(why, "invalid credential"),
	   "a line with a newline is not taken for a sealed datagram: invalid credential (%s)", why);
	(void)!sendto(fd, "x", 1, 0, (struct sockaddr *)&to, len);
	usleep(100000);
	ok(peer_recv(&c, reject_all, &asked, &d, &why) == -1 && asked == 1 &&
	   !strcmp(why, "not from a known peer address"),
	   "a source the caller rejects is refused (%s)", why);
	ok(c.dropped_source == 1 && c.dropped_auth == 2,
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

/* A datagram caught on raw, sent to `to`; peer_recv's answer, *d freed. */
static int pass_on(int raw, const char *buf, size_t n, struct peer_ctx *c,
		   const char **why, char *text, size_t text_len)
{
	struct peer_datagram d;
	struct sockaddr_storage to;
	socklen_t to_len = sizeof(to);
	int rc;

	(void)raw;
	getsockname(c->fd, (struct sockaddr *)&to, &to_len);
	(void)!sendto(raw, buf, n, 0, (struct sockaddr *)&to, to_len);
	usleep(50000);
	rc = peer_recv(c, NULL, NULL, &d, why);
	if (text)
		snprintf(text, text_len, "%s", rc == 1 ? d.text : "");
	if (rc == 1)
		free(d.text);
	return rc;
}

static void send_failed(void *tag, int err, void *arg)
{
	(void)tag;
	(void)err;
	++*(int *)arg;
}

/* text to `to` under s, through the batch slurmctld sends with: 0 or -1 */
static int send_sealed(struct peer_ctx *c, const struct peer_seal *s,
		       const struct sockaddr_storage *to, socklen_t to_len,
		       const char *text)
{
	struct peer_batch b;
	int failed = 0;

	if (peer_batch_init(&b, c, s, send_failed, &failed))
		return -1;
	peer_batch_add(&b, to, to_len, text, strlen(text), NULL);
	peer_batch_end(&b);
	return failed || b.sent != 1 ? -1 : 0;
}

/* In a child as nobody: 1 when munge lets nobody read the credential. */
static int nobody_decodes(const char *cred)
{
	struct passwd *pw = getpwnam("nobody");
	pid_t pid = fork();
	int status = 0;

	if (pid == 0) {
		munge_ctx_t m = munge_ctx_create();
		munge_err_t e;

		if (!pw || setgid(pw->pw_gid) || setuid(pw->pw_uid) || !m ||
		    munge_ctx_set(m, MUNGE_OPT_SOCKET, munge_sock))
			_exit(2);
		e = munge_decode(cred, m, NULL, NULL, NULL, NULL);
		_exit(e == EMUNGE_SUCCESS || e == EMUNGE_CRED_REPLAYED ? 1 : 0);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

/*
 * Sealed datagrams (seal.h): one credential for a pass, accepted by every
 * receiver of the pass (two share this munged, as nodes of a test cluster
 * do), refused replayed, older than the last taken, or changed; the key
 * readable by root only.
 */
static void test_sealed(void)
{
	static const char text[] = "gang node=n1 epoch=1";
	struct peer_addr self;
	struct peer_ctx a, b, sender;
	struct peer_seal first, second;
	struct sockaddr_storage raw_sa;
	socklen_t raw_len;
	const char *why = "";
	char err[256], got[256], dg1[4096], dg2[4096], bad[4096];
	ssize_t n1 = 0, n2 = 0;
	uint64_t floor_s;
	int raw;

	if (peer_parse("t@127.0.0.1:0", &self, err, sizeof(err)) ||
	    peer_open(&a, &self, munge_sock, err, sizeof(err)) ||
	    peer_open(&b, &self, munge_sock, err, sizeof(err)) ||
	    peer_open_sender(&sender, munge_sock, err, sizeof(err)) ||
	    (raw = udp_socket(&raw_sa, &raw_len)) < 0) {
		skip(12, "no UDP sockets on loopback");
		return;
	}
	floor_s = a.seal_seq / 1000000;
	ok(floor_s + 2 >= (uint64_t)time(NULL) - 1 &&
	   floor_s + 2 <= (uint64_t)time(NULL) + 1,
	   "a receiver takes sealed datagrams made from 2 s before its start");
	ok(!peer_seal_begin(&sender, &first) && !peer_seal_begin(&sender, &second) &&
	   second.seq > first.seq, "two passes sealed, the second's seq above");
	ok(!send_sealed(&sender, &first, &raw_sa, raw_len, text) &&
	   (n1 = recv(raw, dg1, sizeof(dg1) - 1, 0)) > 0 &&
	   !strncmp(dg1, "MUNGE:", 6) && memchr(dg1, '\n', (size_t)n1),
	   "a sealed datagram is the credential, a newline and the tagged text");
	dg1[n1 > 0 ? n1 : 0] = '\0';
	is_int(nobody_decodes(dg1), 0, "the user nobody cannot decode the seal's key");
	is_int(pass_on(raw, dg1, (size_t)n1, &a, &why, got, sizeof(got)), 1,
	       "a receiver takes it");
	is_str(got, text, "... with its text");
	is_int(pass_on(raw, dg1, (size_t)n1, &b, &why, NULL, 0), 1,
	       "another receiver behind the same munged takes the same pass");
	is_int(pass_on(raw, dg1, (size_t)n1, &a, &why, NULL, 0), -1,
	       "the same datagram again is refused");
	is_str(why, "sealed datagram not newer than the last taken", "... as not newer");
	/* the text changed by one character */
	memcpy(bad, dg1, (size_t)n1);
	bad[n1 - 1] = '2';
	is_int(pass_on(raw, bad, (size_t)n1, &b, &why, NULL, 0), -1,
	       "a changed text is refused");
	is_str(why, "sealed text fails its tag", "... by its tag");
	/* b took the first pass; the second pass to a, then the first's
	 * datagram for another text to b after b took the second */
	(void)send_sealed(&sender, &second, &raw_sa, raw_len, "two");
	n2 = recv(raw, dg2, sizeof(dg2), 0);
	(void)pass_on(raw, dg2, (size_t)n2, &b, &why, NULL, 0);
	(void)send_sealed(&sender, &first, &raw_sa, raw_len, "one");
	n1 = recv(raw, dg1, sizeof(dg1), 0);
	ok(pass_on(raw, dg1, (size_t)n1, &b, &why, NULL, 0) == -1 &&
	   !strcmp(why, "sealed datagram not newer than the last taken"),
	   "an older pass's datagram after a newer one is refused");
	peer_seal_end(&first);
	peer_seal_end(&second);
	close(raw);
	peer_close(&sender);
	peer_close(&a);
	peer_close(&b);
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
		skip(7 + 12, "no private munged (needs root and /usr/sbin/munged)");
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
	test_sealed();
	test_munged_stop();
}

int main(void)
{
	plan(45);
	test_parse();
	test_refused();
	test_same_addr();
	test_munge();
	return done_testing();
}
