/*
 * test_proto.c - the requests slurmstepd sends a node agent
 * (lib/cosched_proto): every message formatted, parsed back and equal;
 * the parsers' refusals (malformed, oversized, out of range, a key
 * twice); peers (NAME@ADDR:PORT), their ports, and the membus request
 * with as many coordinators as fit.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "cosched_proto/proto.h"
#include "cosched_proto/settings.h"
#include "tap.h"
#include "num/errbuf.h"
#include "cosched/mode.h"

static char err[ERRBUF_LEN];

static void test_port(void)
{
	uint16_t port = 7;

	ok(!cosched_agent_port(6818, 1000, &port) && port == 7818,
	   "slurmd 6818 + 1000 = 7818");
	ok(!cosched_agent_port(1, 64511, &port) && port == 64512,
	   "1 + 64511");
	ok(!cosched_agent_port(64535, 1000, &port) && port == 65535,
	   "65535 is the last port");
	port = 7;
	ok(cosched_agent_port(64536, 1000, &port), "65536 is refused");
	ok(cosched_agent_port(65535, 64511, &port), "far above is refused");
	ok(cosched_agent_port(UINT32_MAX, UINT32_MAX, &port),
	   "no wrap-around");
	ok(cosched_agent_port(0, 1000, &port), "an unknown slurmd port fails");
	ok(cosched_agent_port(6818, 0, &port), "offset 0 fails");
	is_int(port, 7, "port untouched on failure");
}

/* Where an agent is, by the rule both plugins follow. */
static void test_agent_peer(void)
{
	char buf[COSCHED_PEER_LEN];

	ok(!cosched_agent_peer("n1", "10.0.0.1", "h1", 6818, 1001, buf,
			       sizeof(buf), err, sizeof(err)) &&
	   !strcmp(buf, "n1@10.0.0.1:7819"), "agent peer: NodeAddr first (%s)", buf);
	ok(!cosched_agent_peer("n1", "", "h1", 6818, 1001, buf, sizeof(buf),
			       err, sizeof(err)) && !strcmp(buf, "n1@h1:7819"),
	   "agent peer: else NodeHostname (%s)", buf);
	ok(!cosched_agent_peer("n1", NULL, NULL, 6818, 1001, buf, sizeof(buf),
			       err, sizeof(err)) && !strcmp(buf, "n1@n1:7819"),
	   "agent peer: else the node's name (%s)", buf);
	ok(cosched_agent_peer("n1", "10.0.0.1", NULL, 65000, 1001, buf,
			      sizeof(buf), err, sizeof(err)) &&
	   !strcmp(err, "node n1: slurmd port 65000 + port offset 1001 is not a port"),
	   "agent peer: a port past 65535 is refused (%s)", err);
	ok(cosched_agent_peer("n1", "bad addr", NULL, 6818, 1001, buf,
			      sizeof(buf), err, sizeof(err)) &&
	   !strcmp(err, "node n1: unusable address 'bad addr'"),
	   "agent peer: an unusable address is refused (%s)", err);
}

static void test_peer(void)
{
	char buf[COSCHED_PEER_LEN], small[17], addr[COSCHED_PEER_ADDR_MAX + 2];

	ok(!cosched_peer_format("n1", "10.0.0.1", 7818, buf, sizeof(buf)),
	   "IPv4 peer");
	is_str(buf, "n1@10.0.0.1:7818", "NAME@ADDR:PORT");
	ok(!cosched_peer_format("node-2.a_b", "node-2.cluster.example", 1,
				buf, sizeof(buf)), "host name peer");
	is_str(buf, "node-2.a_b@node-2.cluster.example:1", "host name kept");
	ok(!cosched_peer_format("n3", "fd00::3", 7818, buf, sizeof(buf)),
	   "IPv6 peer");
	is_str(buf, "n3@[fd00::3]:7818", "IPv6 literal in brackets");
	ok(!cosched_peer_format("n4", "fe80::1%eth0", 65535, buf, sizeof(buf)),
	   "IPv6 with a zone");
	is_str(buf, "n4@[fe80::1%eth0]:65535", "zone kept inside the brackets");

	ok(cosched_peer_format("n1", "10.0.0.1", 0, buf, sizeof(buf)),
	   "port 0 fails");
	is_str(buf, "", "buf left empty");
	ok(cosched_peer_format("n 1", "10.0.0.1", 1, buf, sizeof(buf)),
	   "a name with a space fails");
	ok(cosched_peer_format("n1,n2", "10.0.0.1", 1, buf, sizeof(buf)),
	   "a name with a comma fails");
	ok(cosched_peer_format("n@1", "10.0.0.1", 1, buf, sizeof(buf)),
	   "a name with @ fails");
	ok(cosched_peer_format("", "10.0.0.1", 1, buf, sizeof(buf)),
	   "an empty name fails");
	ok(cosched_peer_format(NULL, "10.0.0.1", 1, buf, sizeof(buf)),
	   "no name fails");
	ok(cosched_peer_format("n1", "", 1, buf, sizeof(buf)),
	   "an empty address fails");
	ok(cosched_peer_format("n1", NULL, 1, buf, sizeof(buf)),
	   "no address fails");
	ok(cosched_peer_format("n1", "10.0.0.1 x", 1, buf, sizeof(buf)),
	   "an address with a space fails");
	ok(cosched_peer_format("n1", "[fd00::1]", 1, buf, sizeof(buf)),
	   "an address already in brackets fails");
	ok(cosched_peer_format("n1", "a,b", 1, buf, sizeof(buf)),
	   "an address with a comma fails");
	memset(addr, 'a', sizeof(addr) - 1);
	addr[sizeof(addr) - 1] = '\0';
	ok(cosched_peer_format("n1", addr, 1, buf, sizeof(buf)),
	   "an address longer than %d fails", COSCHED_PEER_ADDR_MAX);
	addr[COSCHED_PEER_ADDR_MAX] = '\0';
	memset(addr, ':', 4);
	ok(!cosched_peer_format("n123456789012345678901234567890123456789012345678901234567890ab",
				addr, 65535, buf, sizeof(buf)),
	   "the longest peer fits COSCHED_PEER_LEN");
	is_int(strlen(buf), 63 + 1 + COSCHED_PEER_ADDR_MAX + 2 + 6,
	       "every byte of it");
	ok(cosched_peer_format("n1", "10.0.0.1", 7818, small, 16),
	   "a buffer too small fails");
	is_str(small, "", "and is left empty");
	ok(!cosched_peer_format("n1", "10.0.0.1", 7818, small, sizeof(small)) &&
	   !strcmp(small, "n1@10.0.0.1:7818"), "a buffer just large enough");
}

static void test_request(void)
{
	const char *three[] = { "n1@10.0.0.1:7818", "n2@10.0.0.2:7818",
				"n3@[fd00::3]:7818" };
	const char *four[] = { "a@h:1", "b@h:2", "c@h:3", "d@h:4" };
	char buf[COSCHED_REQUEST_LEN], small[96];

	is_int(cosched_membus_request(buf, sizeof(buf), 42, 0, 5,
				      "n2@10.0.0.2:7818", three, 3), 3,
	       "three coordinators");
	is_str(buf, "membus job=42 step=0 nnodes=5 self=n2@10.0.0.2:7818 coord=n1@10.0.0.1:7818,n2@10.0.0.2:7818,n3@[fd00::3]:7818",
	       "the request");
	is_int(cosched_membus_request(buf, sizeof(buf), 7, 3, 1, "a@h:1",
				      four, 1), 1, "one node, one coordinator");
	is_str(buf, "membus job=7 step=3 nnodes=1 self=a@h:1 coord=a@h:1",
	       "single-node request");
	is_int(cosched_membus_request(buf, sizeof(buf), 7, 3, 4, "a@h:1",
				      four, 4), 3, "never more than three");
	is_str(buf, "membus job=7 step=3 nnodes=4 self=a@h:1 coord=a@h:1,b@h:2,c@h:3",
	       "the first three, in order");
	is_int(cosched_membus_request(buf, sizeof(buf), 4294967295u,
				      4294967294u, 2, "a@h:1", four, 2), 2,
	       "largest ids");
	ok(strstr(buf, "job=4294967295 step=4294967294 ") != NULL,
	   "printed unsigned");

	/* 55 bytes before coord=, 6 more for "coord=" */
	is_int(cosched_membus_request(small, 79, 42, 0, 5, "n2@10.0.0.2:7818",
				      three, 3), 1,
	       "a short buffer: fewer coordinators");
	is_str(small, "membus job=42 step=0 nnodes=5 self=n2@10.0.0.2:7818 coord=n1@10.0.0.1:7818",
	       "the first one whole, nothing cut");
	is_int(cosched_membus_request(small, 96, 42, 0, 5, "n2@10.0.0.2:7818",
				      three, 3), 2, "room for two");
	ok(strlen(small) < 96 && small[strlen(small) - 1] == '8',
	   "ends on a whole entry (%s)", small);
	is_int(cosched_membus_request(small, 70, 42, 0, 5, "n2@10.0.0.2:7818",
				      three, 3), -1,
	       "not even one coordinator fits: fails");
	is_str(small, "", "and leaves the buffer empty");
	is_int(cosched_membus_request(small, 20, 42, 0, 5, "n2@10.0.0.2:7818",
				      three, 3), -1, "not even the head fits");
	is_int(cosched_membus_request(buf, sizeof(buf), 1, 0, 1, "a@h:1",
				      four, 0), -1, "no coordinator fails");
	is_int(cosched_membus_request(buf, sizeof(buf), 1, 0, 1, "", four, 1),
	       -1, "no self fails");
	is_int(cosched_membus_request(buf, sizeof(buf), 1, 0, 1, NULL, four, 1),
	       -1, "NULL self fails");
	is_int(cosched_membus_request(NULL, 0, 1, 0, 1, "a@h:1", four, 1), -1,
	       "no buffer fails");
}

/* The longest peers still make a request with one coordinator. */
static void test_request_worst_case(void)
{
	char name[64], addr[COSCHED_PEER_ADDR_MAX + 1];
	char peer[COSCHED_PEER_LEN], buf[COSCHED_REQUEST_LEN];
	const char *coord[3] = { peer, peer, peer };

	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	memset(addr, 'a', sizeof(addr) - 1);
	addr[sizeof(addr) - 1] = '\0';
	ok(!cosched_peer_format(name, addr, 65535, peer, sizeof(peer)),
	   "a longest IPv4/host name peer");
	is_int(cosched_membus_request(buf, sizeof(buf), 4294967295u,
				      4294967295u, 4294967295u, peer, coord,
				      3), -1,
	       "two of them do not fit %d bytes: refused, not cut",
	       COSCHED_REQUEST_LEN);
	addr[60] = '\0';
	ok(!cosched_peer_format(name, addr, 65535, peer, sizeof(peer)),
	   "a shorter peer");
	is_int(cosched_membus_request(buf, sizeof(buf), 4294967295u,
				      4294967295u, 4294967295u, peer, coord,
				      3), 2, "two fit, the third is left out");
	ok(strlen(buf) < sizeof(buf), "within the request length");
}

static bool _same_register(const struct cosched_register *a,
			   const struct cosched_register *b)
{
	return a->job == b->job && a->step == b->step && a->uid == b->uid &&
	       a->pid == b->pid && a->rank == b->rank && a->mode == b->mode &&
	       a->pb.heuristic == b->pb.heuristic && a->pb.fair == b->pb.fair &&
	       a->tick_us == b->tick_us && a->spin_ns == b->spin_ns &&
	       a->bw.mem_set == b->bw.mem_set && a->bw.net_set == b->bw.net_set &&
	       (!a->bw.mem_set || a->bw.mem == b->bw.mem) &&
	       (!a->bw.net_set || a->bw.net == b->bw.net);
}

/* Format r, parse it back: the same fields. */
static void _round_trip(const struct cosched_register *r, const char *what)
{
	char buf[COSCHED_REQUEST_LEN + 1];
	struct cosched_register back;

	memset(&back, 0xa5, sizeof(back));
	if (!ok(!cosched_register_format(r, buf, sizeof(buf)),
		"register %s: formatted", what))
		return;
	ok(!cosched_register_parse(buf, &back, err, sizeof(err)) &&
	   _same_register(r, &back), "register %s: parsed back the same (%s)",
	   what, buf);
}

static void test_register_round_trip(void)
{
	struct cosched_register r = {
		.job = 42, .step = 0, .uid = 1000, .pid = 4242, .rank = 3,
		.mode = COSCHED_MODE_PB, .pb = { COSCHED_PB_D, false },
		.tick_us = 1000, .spin_ns = 50000,
	};
	char buf[COSCHED_REQUEST_LEN + 1];

	ok(!cosched_register_format(&r, buf, sizeof(buf)), "register formatted");
	is_str(buf, "register job=42 step=0 uid=1000 mode=pb pb=D tick_us=1000 spin_ns=50000 pid=4242 rank=3",
	       "the line slurmstepd has always sent");
	_round_trip(&r, "pb");
	for (int m = COSCHED_MODE_SB; m < COSCHED_MODE_COUNT; m++) {
		r.mode = (enum cosched_mode)m;
		_round_trip(&r, cosched_mode_name(r.mode));
	}
	r = (struct cosched_register){
		.job = UINT32_MAX, .step = UINT32_MAX, .uid = UINT32_MAX - 1,
		.pid = INT32_MAX, .rank = INT32_MAX, .mode = COSCHED_MODE_DCS_SY,
		.pb = { COSCHED_PB_E, true },
		.tick_us = (uint32_t)cosched_setting(COSCHED_SET_TICK_US)->hi,
		.spin_ns = cosched_setting(COSCHED_SET_MAX_SPIN_US)->hi * 1000,
	};
	_round_trip(&r, "largest values");
	r = (struct cosched_register){ .pid = 2, .mode = COSCHED_MODE_MEMBUS,
		.bw = { .mem = 6e8, .net = 4e7, .mem_set = true, .net_set = true } };
	_round_trip(&r, "membus, both rates");
	ok(strstr((cosched_register_format(&r, buf, sizeof(buf)), buf),
		  " bw_mem=600000000 bw_net=40000000") != NULL, "whole bytes: %s", buf);
	r.bw = (struct cosched_bw){ .net = 4e7, .net_set = true };
	_round_trip(&r, "membus, net only");
	r.bw = (struct cosched_bw){ .mem = 1e15, .mem_set = true };
	_round_trip(&r, "membus, the largest rate");
	r.bw = (struct cosched_bw){ .mem = 1e15 + 1, .mem_set = true };
	ok(cosched_register_format(&r, buf, sizeof(buf)) && !buf[0],
	   "a rate above 1000T is not formatted");
	r.bw = (struct cosched_bw){ .net = -1, .net_set = true };
	ok(cosched_register_format(&r, buf, sizeof(buf)), "a negative rate fails");
	r.bw = (struct cosched_bw){ 0 };
	ok(cosched_register_format(&r, buf, 20) && !buf[0],
	   "a buffer too small fails, left empty");
}

/* line is refused with a message containing want. */
static void _refused(const char *line, const char *want)
{
	struct cosched_register r;

	ok(cosched_register_parse(line, &r, err, sizeof(err)) &&
	   strstr(err, want) != NULL, "refused: '%.60s' (%s)", line, err);
}

static void test_register_refusals(void)
{
	char line[COSCHED_REQUEST_LEN + 64];
	struct cosched_register r;

	_refused("register job=x", "register needs job, step, uid, pid (>1) and rank");
	_refused("register job=1 step=0 uid=0 mode=pb pid=1 rank=0", "pid (>1)");
	_refused("register job=1 step=0 uid=4294967295 mode=pb pid=2 rank=0", "uid");
	_refused("register job=4294967296 step=0 uid=0 mode=pb pid=2 rank=0", "job");
	_refused("register job=1 step=0 uid=0 mode=pb pid=2147483648 rank=0", "pid");
	_refused("register job=1 step=0 uid=0 mode=pb pid=2 rank=-1", "rank");
	_refused("register job=1 step=0 uid=0 mode=pbx pid=2 rank=0", "bad or missing mode");
	_refused("register job=1 step=0 uid=0 pid=2 rank=0", "bad or missing mode");
	_refused("register job=1 step=0 uid=0 mode=pb pb=Z pid=2 rank=0", "register: ");
	_refused("register job=1 step=0 uid=0 mode=pb pb=DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD pid=2 rank=0",
		 "pb too long");
	_refused("register job=1 step=0 uid=0 mode=pb tick_us=5 pid=2 rank=0",
		 "tick_us must be 0 or from 10 to 10000000");
	_refused("register job=1 step=0 uid=0 mode=pb tick_us=10000001 pid=2 rank=0",
		 "tick_us must be a whole number");
	_refused("register job=1 step=0 uid=0 mode=pb tick_us=1ms pid=2 rank=0",
		 "tick_us must be a whole number");
	_refused("register job=1 step=0 uid=0 mode=pb spin_ns=1000000001 pid=2 rank=0",
		 "spin_ns must be a whole number from 0 to 1000000000");
	_refused("register job=1 step=0 uid=0 mode=membus pid=2 rank=0 bw_mem=8e8",
		 "bw_mem must be whole bytes");
	_refused("register job=1 step=0 uid=0 mode=membus pid=2 rank=0 bw_net=1000000000000001",
		 "bw_net must be whole bytes");
	_refused("register job=1 step=0 uid=0 mode=pb pid=2 rank=0 mode=none",
		 "request: key 'mode' given twice");
	_refused("register job=1 step=0 uid=0 mode=pb pid=2 rank=0 pid=3",
		 "request: key 'pid' given twice");
	_refused("register job=1 step=0 uid=0 mode=pb pid=2 rank=0 junk",
		 "request: not KEY=VALUE: 'junk'");
	_refused("register job=1 step=0 uid=0 mode=pb pid=2  rank=0",
		 "not KEY=VALUE");
	_refused("register job=1 step=0 uid=0 mode=pb pid=2 rank=0 =3",
		 "not KEY=VALUE");
	_refused("end job=1 step=0", "not a register request");
	_refused("registerx job=1", "not a register request");
	snprintf(line, sizeof(line), "register job=1 step=0 uid=0 mode=pb pid=2 rank=0 x=%0*d",
		 COSCHED_REQUEST_LEN, 0);
	_refused(line, "request: longer than 512 bytes");
	memset(&r, 0x5a, sizeof(r));
	ok(cosched_register_parse("register job=1 job=2", &r, err, sizeof(err)) &&
	   r.job == 0x5a5a5a5a, "nothing written on failure");
	ok(!cosched_register_parse("register job=1 step=0 uid=0 mode=pb pid=2 rank=0 future=1",
				   &r, err, sizeof(err)) && r.pb.heuristic == COSCHED_PB_D &&
	   !r.tick_us && !r.spin_ns && !r.bw.mem_set && !r.bw.net_set,
	   "an unknown key is ignored; what is not given is 0 or D");
}

static void test_words(void)
{
	char buf[8];

	is_int(cosched_request_word("end job=1 jobs=2 step=3", "step", buf, sizeof(buf)),
	       0, "a word found");
	is_str(buf, "3", "its value");
	ok(!cosched_request_word("end jobs=2 job=1", "job", buf, sizeof(buf)) &&
	   !strcmp(buf, "1"), "a key that begins another is a different key");
	is_int(cosched_request_word("end job=1", "step", buf, sizeof(buf)), -1,
	       "absent: -1");
	is_int(cosched_request_word("end job=123456789", "job", buf, sizeof(buf)),
	       -2, "too long: -2");
	ok(cosched_request_is("status", "status") &&
	   cosched_request_is("status json", "status") &&
	   !cosched_request_is("statusx", "status"), "verbs");
	is_int(cosched_request_check("ping", "ping", err, sizeof(err)), 0,
	       "a verb alone");
	is_int(cosched_request_check("end job=1 jobs=1 step=0 s=1 step_x=2", "end",
				     err, sizeof(err)), 0,
	       "keys that begin one another are distinct");
	is_int(cosched_request_check("end job=1 job=", "end", err, sizeof(err)),
	       -1, "an empty second value counts too");
	is_str(err, "request: key 'job' given twice", "  naming the key");
}

static void test_end(void)
{
	char buf[64];
	uint32_t job = 7, step = 7;

	ok(!cosched_end_format(UINT32_MAX, 3, buf, sizeof(buf)), "end formatted");
	is_str(buf, "end job=4294967295 step=3", "the end line");
	ok(!cosched_end_parse(buf, &job, &step, err, sizeof(err)) &&
	   job == UINT32_MAX && step == 3, "end parsed back the same");
	ok(cosched_end_format(1, 2, buf, 10) && !buf[0], "too small: empty");
	job = step = 7;
	ok(cosched_end_parse("end job=1", &job, &step, err, sizeof(err)) &&
	   !strcmp(err, "end needs job and step") && job == 7,
	   "end without step (%s)", err);
	ok(cosched_end_parse("end job=7 step=0 job=8", &job, &step, err, sizeof(err)) &&
	   strstr(err, "key 'job' given twice"), "end with a key twice (%s)", err);
	ok(cosched_end_parse("end job=1 step=-1", &job, &step, err, sizeof(err)),
	   "end with a negative step");
}

static void test_membus_round_trip(void)
{
	const char *three[] = { "n1@10.0.0.1:7818", "n2@10.0.0.2:7818",
				"n3@[fd00::3]:7818" };
	char buf[COSCHED_REQUEST_LEN];
	struct cosched_membus m;

	ok(cosched_membus_request(buf, sizeof(buf), 42, 1, 5, three[1], three,
				  3) == 3 &&
	   !cosched_membus_parse(buf, &m, err, sizeof(err)),
	   "membus formatted and parsed");
	ok(m.job == 42 && m.step == 1 && m.nnodes == 5 &&
	   !strcmp(m.self, three[1]) &&
	   !strcmp(m.coord, "n1@10.0.0.1:7818,n2@10.0.0.2:7818,n3@[fd00::3]:7818"),
	   "membus parsed back the same");
	ok(cosched_membus_parse("membus job=50 step=0 nnodes=1", &m, err, sizeof(err)) &&
	   !strcmp(err, "membus needs job, step, nnodes (>0), self and coord"),
	   "membus without self and coord (%s)", err);
	ok(cosched_membus_parse("membus job=50 step=0 nnodes=1 self=a@h:1 coord=",
				&m, err, sizeof(err)), "membus with an empty coord");
	ok(cosched_membus_parse("membus job=50 step=0 nnodes=1 self= coord=a@h:1",
				&m, err, sizeof(err)), "membus with an empty self");
	ok(cosched_membus_parse("membus job=50 step=0 nnodes=0 self=a@h:1 coord=a@h:1",
				&m, err, sizeof(err)), "membus with nnodes 0");
	ok(cosched_membus_parse("membus job=50 step=0 nnodes=1 self=a@h:1 coord=a@h:1 self=b@h:1",
				&m, err, sizeof(err)) &&
	   strstr(err, "key 'self' given twice"), "membus with self twice (%s)", err);
}

static void test_replies(void)
{
	ok(cosched_reply_ok("ok registered job=1 step=0 pid=2\n"), "ok is yes");
	ok(!cosched_reply_ok("error: no process 2\n"), "error is no");
	ok(!cosched_reply_ok(""), "nothing is no");
}

int main(void)
{
	test_port();
	test_agent_peer();
	test_peer();
	test_request();
	test_request_worst_case();
	test_words();
	test_register_round_trip();
	test_register_refusals();
	test_end();
	test_membus_round_trip();
	test_replies();
	return done_testing();
}
