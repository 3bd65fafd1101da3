/*
 * test_membus_req.c - the text slurmstepd sends a node agent for a
 * membus step: peers (NAME@ADDR:PORT), their ports, the membus request
 * with as many coordinators as fit, and the register request's
 * bandwidth words.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "../../agent/client.h"
#include "membus_req.h"
#include "tap.h"

static void test_port(void)
{
	uint16_t port = 7;

	ok(!cosched_membus_port(6818, 1000, &port) && port == 7818,
	   "slurmd 6818 + 1000 = 7818");
	ok(!cosched_membus_port(1, 64511, &port) && port == 64512,
	   "1 + 64511");
	ok(!cosched_membus_port(64535, 1000, &port) && port == 65535,
	   "65535 is the last port");
	port = 7;
	ok(cosched_membus_port(64536, 1000, &port), "65536 is refused");
	ok(cosched_membus_port(65535, 64511, &port), "far above is refused");
	ok(cosched_membus_port(UINT32_MAX, UINT32_MAX, &port),
	   "no wrap-around");
	ok(cosched_membus_port(0, 1000, &port), "an unknown slurmd port fails");
	ok(cosched_membus_port(6818, 0, &port), "offset 0 fails");
	is_int(port, 7, "port untouched on failure");
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

static void test_bw_words(void)
{
	struct cosched_bw bw = { .mem = 6e8, .net = 4e7, .mem_set = true,
				 .net_set = true };
	char buf[64];

	ok(!cosched_bw_words(&bw, buf, sizeof(buf)), "both");
	is_str(buf, " bw_mem=600000000 bw_net=40000000", "both words");
	bw.mem_set = false;
	ok(!cosched_bw_words(&bw, buf, sizeof(buf)), "net only");
	is_str(buf, " bw_net=40000000", "net word");
	bw = (struct cosched_bw){ .mem = 1e15, .mem_set = true };
	ok(!cosched_bw_words(&bw, buf, sizeof(buf)), "mem only, largest");
	is_str(buf, " bw_mem=1000000000000000", "mem word, whole");
	bw = (struct cosched_bw){ 0 };
	ok(!cosched_bw_words(&bw, buf, sizeof(buf)), "none declared");
	is_str(buf, "", "no words");
	strcpy(buf, "x");
	ok(!cosched_bw_words(NULL, buf, sizeof(buf)) && !buf[0],
	   "NULL: no words");
	bw = (struct cosched_bw){ .net = -1, .net_set = true };
	ok(cosched_bw_words(&bw, buf, sizeof(buf)), "negative fails");
	bw = (struct cosched_bw){ .mem = 6e8, .mem_set = true };
	ok(cosched_bw_words(&bw, buf, 10), "a buffer too small fails");
	is_str(buf, "", "and is left empty");
}

int main(void)
{
	test_port();
	test_peer();
	test_request();
	test_request_worst_case();
	test_bw_words();
	return done_testing();
}
