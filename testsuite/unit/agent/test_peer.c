/*
 * test_peer.c - the addresses of MemBUS peers (NAME@HOST:PORT), and what
 * peer_recv accepts and refuses: with a private munged (started here, as
 * root), a root credential is accepted once and refused when replayed,
 * one made by the user nobody is refused, and a datagram without a
 * credential is refused everywhere.
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

/* ---- with a private munged ---- */

static char munge_dir[] = "/tmp/test_peer.XXXXXX";
static char munge_sock[sizeof(munge_dir) + 16];
static pid_t munged_pid = -1;

static int start_munged(void)
{
	char key[sizeof(munge_dir) + 16], cmd[1024];
	FILE *f;

	if (geteuid() != 0 || access("/usr/sbin/munged", X_OK) ||
	    !mkdtemp(munge_dir))
		return -1;
	chmod(munge_dir, 0755);	/* nobody must reach the socket */
	snprintf(key, sizeof(key), "%s/key", munge_dir);
	snprintf(munge_sock, sizeof(munge_sock), "%s/sock", munge_dir);
	snprintf(cmd, sizeof(cmd),
		 "dd if=/dev/urandom of=%s bs=1024 count=1 status=none && chmod 600 %s",
		 key, key);
	if (system(cmd))
		return -1;
	snprintf(cmd, sizeof(cmd),
		 "/usr/sbin/munged --socket=%s --key-file=%s --pid-file=%s/pid "
		 "--log-file=%s/log --seed-file=%s/seed --force 2>/dev/null",
		 munge_sock, key, munge_dir, munge_dir, munge_dir);
	if (system(cmd))
		return -1;
	snprintf(cmd, sizeof(cmd), "%s/pid", munge_dir);
	for (int i = 0; i < 50 && munged_pid < 0; i++) {
		f = fopen(cmd, "r");
		if (f && fscanf(f, "%d", &munged_pid) != 1)
			munged_pid = -1;
		if (f)
			fclose(f);
		if (munged_pid < 0)
			usleep(20000);
	}
	return munged_pid > 0 ? 0 : -1;
}

static void stop_munged(void)
{
	char cmd[sizeof(munge_dir) + 16];

	if (munged_pid > 0)
		kill(munged_pid, SIGTERM);
	for (int i = 0; i < 50 && munged_pid > 0 && !kill(munged_pid, 0); i++)
		usleep(20000);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", munge_dir);
	if (strcmp(munge_dir, "/tmp/test_peer.XXXXXX"))
		(void)!system(cmd);
}

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

/* What nobody's munge makes of text, sent to `to` (in a child). */
static void send_as_nobody(const struct sockaddr_storage *to, socklen_t len)
{
	struct passwd *pw = getpwnam("nobody");
	pid_t pid = fork();

	if (pid == 0) {
		struct peer_addr self;
		struct peer_ctx c;
		char err[256];
		json_object *msg = json_object_new_object();

		if (!pw || setgid(pw->pw_gid) || setuid(pw->pw_uid) ||
		    peer_parse("x@127.0.0.1:0", &self, err, sizeof(err)) ||
		    peer_open(&c, &self, munge_sock, err, sizeof(err)))
			_exit(1);
		json_object_object_add(msg, "t", json_object_new_string("vote"));
		_exit(peer_send(&c, to, len, msg) ? 1 : 0);
	}
	waitpid(pid, NULL, 0);
}

static void test_munge(void)
{
	struct peer_addr self;
	struct peer_ctx c, sender;
	struct sockaddr_storage to, raw_sa, from;
	socklen_t to_len, raw_len, len;
	json_object *msg, *got;
	const char *why = "";
	char err[256], cred[65536];
	ssize_t n;
	int raw;

	if (start_munged()) {
		skip(7, "no private munged (needs root and /usr/sbin/munged)");
		stop_munged();
		return;
	}
	if (peer_parse("t@127.0.0.1:0", &self, err, sizeof(err)) ||
	    peer_open(&c, &self, munge_sock, err, sizeof(err)) ||
	    peer_open(&sender, &self, munge_sock, err, sizeof(err)) ||
	    (raw = udp_socket(&raw_sa, &raw_len)) < 0) {
		skip(7, "no UDP sockets on loopback");
		stop_munged();
		return;
	}
	to_len = sizeof(to);
	getsockname(c.fd, (struct sockaddr *)&to, &to_len);
	msg = json_object_new_object();
	json_object_object_add(msg, "t", json_object_new_string("vote"));
	json_object_object_add(msg, "q", json_object_new_int64(42));
	/* the credential as it travels, caught on a plain socket */
	ok(!peer_send(&sender, &raw_sa, raw_len, msg), "root's message is encoded and sent");
	n = recv(raw, cred, sizeof(cred), 0);
	ok(n > 0 && !strncmp(cred, "MUNGE:", 6), "it travels as a munge credential");
	(void)!sendto(raw, cred, (size_t)n, 0, (struct sockaddr *)&to, to_len);
	usleep(50000);
	got = peer_recv(&c, &from, &len, &why);
	ok(got && json_object_get_int64(json_object_object_get(got, "q")) == 42,
	   "root's credential is accepted with its payload");
	json_object_put(got);
	(void)!sendto(raw, cred, (size_t)n, 0, (struct sockaddr *)&to, to_len);
	usleep(50000);
	ok(!peer_recv(&c, &from, &len, &why), "the same credential again is refused");
	is_str(why, "replayed credential", "... as replayed");
	send_as_nobody(&to, to_len);
	usleep(50000);
	ok(!peer_recv(&c, &from, &len, &why), "a credential of the user nobody is refused");
	is_str(why, "sender is not root or the allowed user", "... as not root");
	json_object_put(msg);
	close(raw);
	peer_close(&sender);
	peer_close(&c);
	stop_munged();
}

int main(void)
{
	plan(24);
	test_parse();
	test_refused();
	test_munge();
	return done_testing();
}
