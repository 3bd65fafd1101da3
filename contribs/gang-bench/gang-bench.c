/*
 * gang-bench.c - what slurmctld's gang tables cost at scale: one pass
 * sends every node its table, as plugins/select_coalloc/gang_tables.c
 * does, through the same library calls (gang_table_format, then
 * peer_batch_add under one peer_seal_begin a pass, or peer_send, a munge
 * credential a node, as before), to NODES UDP sockets on loopback that a
 * child process receives and verifies, or (--dummy) through a veth whose
 * far end drops them (the driver's network namespace): the send path of a
 * real interface, without loopback's receiving charged to the sender.
 *
 *   gang-bench --munge-socket S [--nodes N] [--passes P] [--mode sealed|per-node]
 *
 * Prints one line: mode, nodes, the resend interval slurmctld uses for
 * that many tables (gang_resend_ms), passes, datagrams sent and received,
 * tables verified and refused, and per pass the sender's CPU, munged's CPU
 * (every thread's run time, /proc/PID/task/TID/schedstat) and the wall
 * time.  munged's CPU also holds the receiver's decodes: one a pass when
 * sealed (the credential is decoded once and its key kept, as nodes
 * behind one munged would each decode it), one in VERIFY_EVERY datagrams
 * per node (a sample, so that the receiver's decodes, which nodes do in
 * a real cluster, stay out of the sender's share as far as possible).
 * The driver, bench-gang-tables, starts the private munged and compares.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cosched_proto/gang.h"
#include "cosched_proto/peer.h"
#include "cosched_proto/seal.h"
#include "num/num.h"

#define VERIFY_EVERY 64
#define RCVBUF (256 * 1024)

struct opts {
	const char *munge_socket;
	unsigned nodes;
	unsigned passes;
	bool sealed;
	bool dummy;	/* to 10.77.0.0/16, no receiver (the driver's netns) */
};

/* What the receiver tells the parent at the end. */
struct verdict {
	uint64_t received, verified, refused;
};

static uint64_t _ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Every thread's run time of pid, in ns (schedstat's first field). */
static uint64_t _task_ns(pid_t pid)
{
	char path[320], line[128];
	struct dirent *e;
	uint64_t sum = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (!(d = opendir(path)))
		return 0;
	while ((e = readdir(d))) {
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/schedstat",
			 (int)pid, e->d_name);
		if ((f = fopen(path, "r"))) {
			unsigned long long ns;

			if (fgets(line, sizeof(line), f) &&
			    sscanf(line, "%llu", &ns) == 1)
				sum += ns;
			fclose(f);
		}
	}
	closedir(d);
	return sum;
}

static pid_t _munged_pid(const char *socket)
{
	char path[4200];
	FILE *f;
	int pid = -1;

	/* the driver puts the pid file beside the socket */
	snprintf(path, sizeof(path), "%s.pid", socket);
	if ((f = fopen(path, "r"))) {
		if (fscanf(f, "%d", &pid) != 1)
			pid = -1;
		fclose(f);
	}
	return pid;
}

/* A node's table as a 2-row matrix with a job in each row. */
static void _table(unsigned i, struct gang_table *t)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->node, sizeof(t->node), "n%05u", i);
	t->epoch = 1700000000000000ULL;
	t->guard = true;
	t->rows = 2;
	t->busy = 3;
	t->run = 1;
	t->njobs = 2;
	t->jobs[0].job = 1000 + i % 64;
	t->jobs[0].rows = 1;
	t->jobs[1].job = 2000 + i % 64;
	t->jobs[1].rows = 2;
}

/* Node i's table as its line: the length, or -1. */
static int _text(unsigned i, char *text, size_t len)
{
	struct gang_table t;

	_table(i, &t);
	return gang_table_format(&t, text, len);
}

/* ---- the receiver (a child process) ---- */

struct receiver {
	int epfd;
	int *fds;
	unsigned nodes;
	munge_ctx_t munge;
	char last_cred[1024];
	uint8_t key[SEAL_KEY_LEN];
	bool have_key;
	struct verdict v;
};

/* A sealed datagram: its credential decoded once, then tag and table. */
static bool _verify_sealed(struct receiver *r, char *buf, size_t n,
			   unsigned node)
{
	struct seal_parts p;
	struct gang_table t;
	char self[COSCHED_NODE_NAME_LEN], err[128];
	uint64_t seq;

	if (seal_datagram_split(buf, n, &p))
		return false;
	if (!r->have_key || strcmp(p.cred, r->last_cred)) {
		void *payload = NULL;
		int plen = 0;
		munge_err_t e = munge_decode(p.cred, r->munge, &payload, &plen,
					     NULL, NULL);

		r->have_key = (e == EMUNGE_SUCCESS || e == EMUNGE_CRED_REPLAYED) &&
			      payload && !seal_payload_parse(payload, (size_t)plen,
							     r->key, &seq);
		free(payload);
		snprintf(r->last_cred, sizeof(r->last_cred), "%s", p.cred);
		if (!r->have_key)
			return false;
	}
	snprintf(self, sizeof(self), "n%05u", node);
	return seal_tag_ok(r->key, p.text, p.text_len, p.tag) &&
	       !gang_table_parse(p.text, p.text_len, self, &t, err, sizeof(err));
}

/* A bare credential: a sample is decoded and its table parsed. */
static bool _verify_plain(struct receiver *r, const char *buf, unsigned node)
{
	struct gang_table t;
	char self[COSCHED_NODE_NAME_LEN], err[128];
	void *payload = NULL;
	int plen = 0;
	bool good;

	snprintf(self, sizeof(self), "n%05u", node);
	good = munge_decode(buf, r->munge, &payload, &plen, NULL, NULL) ==
		       EMUNGE_SUCCESS &&
	       payload && !gang_table_parse(payload, (size_t)plen, self, &t,
					    err, sizeof(err));
	free(payload);
	return good;
}

static void _receive(struct receiver *r, int i, bool sealed)
{
	static char buf[8192];
	ssize_t n;

	while ((n = recv(r->fds[i], buf, sizeof(buf) - 1, MSG_DONTWAIT)) > 0) {
		bool good;

		buf[n] = '\0';
		r->v.received++;
		if (!sealed && r->v.received % VERIFY_EVERY)
			continue;
		good = sealed ? _verify_sealed(r, buf, (size_t)n, (unsigned)i)
			      : _verify_plain(r, buf, (unsigned)i);
		if (good)
			r->v.verified++;
		else
			r->v.refused++;
	}
}

/* Until the parent closes ctl: receive, then write the verdict. */
static void _receiver_main(struct receiver *r, int ctl, bool sealed)
{
	struct epoll_event ev[64];

	for (;;) {
		int n = epoll_wait(r->epfd, ev, 64, 200);

		for (int k = 0; k < n; k++) {
			if (ev[k].data.u32 == UINT32_MAX)
				goto done;
			_receive(r, (int)ev[k].data.u32, sealed);
		}
	}
done:
	for (unsigned i = 0; i < r->nodes; i++)
		_receive(r, (int)i, sealed);
	if (write(ctl, &r->v, sizeof(r->v)) != sizeof(r->v))
		_exit(1);
	_exit(0);
}

static int _bind_all(struct receiver *r, struct sockaddr_storage *addrs,
		     socklen_t *lens)
{
	r->fds = calloc(r->nodes, sizeof(*r->fds));
	r->epfd = epoll_create1(0);
	if (!r->fds || r->epfd < 0)
		return -1;
	for (unsigned i = 0; i < r->nodes; i++) {
		struct sockaddr_in *in = (struct sockaddr_in *)&addrs[i];
		struct epoll_event ev = { .events = EPOLLIN, .data.u32 = i };
		int size = RCVBUF;

		memset(&addrs[i], 0, sizeof(addrs[i]));
		in->sin_family = AF_INET;
		in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		lens[i] = sizeof(*in);
		r->fds[i] = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (r->fds[i] < 0 ||
		    setsockopt(r->fds[i], SOL_SOCKET, SO_RCVBUF, &size,
			       sizeof(size)) ||
		    bind(r->fds[i], (struct sockaddr *)&addrs[i], lens[i]) ||
		    getsockname(r->fds[i], (struct sockaddr *)&addrs[i],
				&lens[i]) ||
		    epoll_ctl(r->epfd, EPOLL_CTL_ADD, r->fds[i], &ev))
			return -1;
	}
	return 0;
}

/* ---- the sender: one pass as gang_tables.c's _send_all ---- */

static void _failed(void *tag, int err, void *arg)
{
	(void)tag;
	(void)err;
	++*(uint64_t *)arg;
}

/* gang_tables.c's _send_pass: one seal, the tables in batches. */
static uint64_t _pass_sealed(struct peer_ctx *c, const struct opts *o,
			     const struct sockaddr_storage *addrs,
			     const socklen_t *lens, uint64_t *failed)
{
	struct peer_seal seal;
	struct peer_batch batch;
	uint64_t sent;

	if (peer_seal_begin(c, &seal) ||
	    peer_batch_init(&batch, c, &seal, _failed, failed)) {
		*failed += o->nodes;
		return 0;
	}
	for (unsigned i = 0; i < o->nodes; i++) {
		char text[COSCHED_REQUEST_LEN];
		int len = _text(i, text, sizeof(text));

		if (len < 0)
			(*failed)++;
		else
			peer_batch_add(&batch, &addrs[i], lens[i], text,
				       (size_t)len, NULL);
	}
	peer_batch_end(&batch);
	sent = batch.sent;
	peer_seal_end(&seal);
	return sent;
}

/* The protocol before: a munge credential a node. */
static uint64_t _pass_per_node(struct peer_ctx *c, const struct opts *o,
			       const struct sockaddr_storage *addrs,
			       const socklen_t *lens, uint64_t *failed)
{
	uint64_t sent = 0;

	for (unsigned i = 0; i < o->nodes; i++) {
		char text[COSCHED_REQUEST_LEN];
		int len = _text(i, text, sizeof(text));

		if (len >= 0 && !peer_send(c, &addrs[i], lens[i], text,
					   (size_t)len))
			sent++;
		else
			(*failed)++;
	}
	return sent;
}

static uint64_t _pass(struct peer_ctx *c, const struct opts *o,
		      const struct sockaddr_storage *addrs,
		      const socklen_t *lens, uint64_t *failed)
{
	return o->sealed ? _pass_sealed(c, o, addrs, lens, failed)
			 : _pass_per_node(c, o, addrs, lens, failed);
}

/* --dummy: node i at 10.77.(i / 256).(i % 256), port 9, where the
 * driver's network namespace has a dummy device: the send path a real
 * interface takes, without the receiving that loopback charges the
 * sender. */
static void _dummy_addrs(unsigned nodes, struct sockaddr_storage *addrs,
			 socklen_t *lens)
{
	for (unsigned i = 0; i < nodes; i++) {
		struct sockaddr_in *in = (struct sockaddr_in *)&addrs[i];

		memset(&addrs[i], 0, sizeof(addrs[i]));
		in->sin_family = AF_INET;
		in->sin_port = htons(9);
		in->sin_addr.s_addr = htonl(0x0a4d0000u | (i + 2));
		lens[i] = sizeof(*in);
	}
}

static int _usage(void)
{
	fprintf(stderr, "usage: gang-bench --munge-socket S [--nodes N] [--passes P] [--mode sealed|per-node] [--dummy]\n");
	return 2;
}

static int _options(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "munge-socket", required_argument, NULL, 's' },
		{ "nodes", required_argument, NULL, 'n' },
		{ "passes", required_argument, NULL, 'p' },
		{ "mode", required_argument, NULL, 'm' },
		{ "dummy", no_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int ch;

	*o = (struct opts){ .nodes = 1024, .passes = 10, .sealed = true };
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (ch) {
		case 's': o->munge_socket = optarg; break;
		case 'n':
			if (num_parse_range(optarg, 1, 65536, &v))
				return -1;
			o->nodes = (unsigned)v;
			break;
		case 'p':
			if (num_parse_range(optarg, 1, 100000, &v))
				return -1;
			o->passes = (unsigned)v;
			break;
		case 'm':
			if (strcmp(optarg, "sealed") && strcmp(optarg, "per-node"))
				return -1;
			o->sealed = !strcmp(optarg, "sealed");
			break;
		case 'd': o->dummy = true; break;
		default: return -1;
		}
	}
	return o->munge_socket && optind == argc ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct opts o;
	struct receiver r = { 0 };
	struct sockaddr_storage *addrs;
	struct rlimit rl = { 65536 + 64, 65536 + 64 };
	socklen_t *lens;
	struct peer_ctx c;
	struct verdict v = { 0 };
	uint64_t sent = 0, failed = 0, cpu0, cpu1, wall0, wall1, m0, m1;
	char err[256];
	int ctl[2], stop[2];
	pid_t munged, child;

	if (_options(argc, argv, &o))
		return _usage();
	(void)setrlimit(RLIMIT_NOFILE, &rl);
	munged = _munged_pid(o.munge_socket);
	r.nodes = o.nodes;
	addrs = calloc(o.nodes, sizeof(*addrs));
	lens = calloc(o.nodes, sizeof(*lens));
	if (!addrs || !lens || (o.dummy ? (_dummy_addrs(o.nodes, addrs, lens), 0)
					: _bind_all(&r, addrs, lens)) ||
	    pipe(ctl) || pipe(stop)) {
		fprintf(stderr, "gang-bench: %u sockets: %s\n", o.nodes,
			strerror(errno));
		return 1;
	}
	child = o.dummy ? -1 : fork();
	if (child == 0) {
		struct epoll_event ev = { .events = EPOLLIN, .data.u32 = UINT32_MAX };

		close(ctl[0]);
		close(stop[1]);
		r.munge = munge_ctx_create();
		if (!r.munge || munge_ctx_set(r.munge, MUNGE_OPT_SOCKET,
					      o.munge_socket) ||
		    epoll_ctl(r.epfd, EPOLL_CTL_ADD, stop[0], &ev))
			_exit(1);
		_receiver_main(&r, ctl[1], o.sealed);
	}
	close(ctl[1]);
	close(stop[0]);
	if (peer_open_sender(&c, o.munge_socket, err, sizeof(err))) {
		fprintf(stderr, "gang-bench: %s\n", err);
		return 1;
	}
	m0 = munged > 0 ? _task_ns(munged) : 0;
	cpu0 = _ns(CLOCK_PROCESS_CPUTIME_ID);
	wall0 = _ns(CLOCK_MONOTONIC);
	for (unsigned p = 0; p < o.passes; p++)
		sent += _pass(&c, &o, addrs, lens, &failed);
	cpu1 = _ns(CLOCK_PROCESS_CPUTIME_ID);
	wall1 = _ns(CLOCK_MONOTONIC);
	m1 = munged > 0 ? _task_ns(munged) : 0;
	close(stop[1]);
	if (child > 0) {
		usleep(300000);	/* the last datagrams reach the receiver */
		if (read(ctl[0], &v, sizeof(v)) != sizeof(v))
			fprintf(stderr, "gang-bench: no verdict from the receiver\n");
		waitpid(child, NULL, 0);
	}
	printf("mode=%s sink=%s nodes=%u resend_ms=%u passes=%u sent=%llu failed=%llu received=%llu verified=%llu refused=%llu "
	       "sender_cpu_ms_per_pass=%.3f munged_cpu_ms_per_pass=%.3f wall_ms_per_pass=%.3f\n",
	       o.sealed ? "sealed" : "per-node", o.dummy ? "dummy" : "loopback",
	       o.nodes, gang_resend_ms(o.nodes), o.passes,
	       (unsigned long long)sent, (unsigned long long)failed,
	       (unsigned long long)v.received, (unsigned long long)v.verified,
	       (unsigned long long)v.refused,
	       (double)(cpu1 - cpu0) / 1e6 / o.passes,
	       munged > 0 ? (double)(m1 - m0) / 1e6 / o.passes : -1.0,
	       (double)(wall1 - wall0) / 1e6 / o.passes);
	peer_close(&c);
	for (unsigned i = 0; r.fds && i < o.nodes; i++)
		close(r.fds[i]);
	free(r.fds);
	free(addrs);
	free(lens);
	return v.refused || failed ? 1 : 0;
}
