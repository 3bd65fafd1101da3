/*
 * test_gang.c - the gang table slurmctld sends the node agents and the
 * rule of which job runs in a quantum (lib/cosched_proto/gang.c): the
 * rows in turn, the priority row, replicas and unknown jobs; guard
 * tables (slurmctld names the running rows); the text
 * round trip; every malformed or impossible table refused with its
 * reason and the output untouched.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "coalloc_conf/coalloc_conf.h"
#include "cosched_proto/gang.h"
#include "tap.h"
#include "num/errbuf.h"
#include "cosched/mode.h"

static struct gang_table table(unsigned rows, unsigned first, bool priority)
{
	struct gang_table t = {
		.node = "n1", .epoch = 7, .slice_ms = 200,
		.rows = (uint16_t)rows, .first = (uint16_t)first,
		.priority = priority,
		/* every ordinary row busy somewhere */
		.busy = ((1u << rows) - 1) & ~((1u << first) - 1),
	};
	return t;
}

/* Field by field: padding bytes are not part of a table. */
static bool same(const struct gang_table *a, const struct gang_table *b)
{
	if (strcmp(a->node, b->node) || a->epoch != b->epoch ||
	    a->slice_ms != b->slice_ms || a->rows != b->rows ||
	    a->first != b->first || a->priority != b->priority ||
	    a->busy != b->busy || a->guard != b->guard || a->run != b->run ||
	    a->resend_ms != b->resend_ms || a->njobs != b->njobs)
		return false;
	for (size_t i = 0; i < a->njobs; i++)
		if (a->jobs[i].job != b->jobs[i].job ||
		    a->jobs[i].rows != b->jobs[i].rows)
			return false;
	return true;
}

static void add(struct gang_table *t, uint32_t job, uint32_t rows)
{
	t->jobs[t->njobs].job = job;
	t->jobs[t->njobs++].rows = rows;
}

static void test_rule(void)
{
	struct gang_table t = table(2, 0, false);
	int a = 0, b = 0, c = 0, u = 0;

	add(&t, 10, 0x1);	/* row 0 */
	add(&t, 11, 0x2);	/* row 1 */
	for (uint64_t q = 1000; q < 1010; q++) {
		a += gang_job_runs(&t, 10, q) == (q % 2 == 0);
		b += gang_job_runs(&t, 11, q) == (q % 2 == 1);
		u += gang_job_runs(&t, 99, q);
	}
	is_int(a + b, 20, "two rows: row q mod 2 runs in quantum q, the other is frozen");
	is_int(u, 10, "a job the table does not name runs in every quantum");

	t = table(2, 0, false);
	add(&t, 12, 0x3);	/* home row and a replica in the other */
	for (uint64_t q = 0; q < 10; q++)
		c += gang_job_runs(&t, 12, q);
	is_int(c, 10, "a job replicated into every row runs in every quantum");

	t = table(3, 1, false);
	ok(gang_row_of(&t, 0) == 1 && gang_row_of(&t, 1) == 2 &&
	   gang_row_of(&t, 2) == 1 && gang_row_of(&t, 3) == 2,
	   "with a priority row, the ordinary rows 1 and 2 take turns");
	t.busy = 0x2;
	ok(gang_row_of(&t, 0) == 1 && gang_row_of(&t, 1) == 1,
	   "... and row 1 alone while row 2 holds no job anywhere");
	t = table(4, 0, false);
	t.busy = 0xa;
	ok(gang_row_of(&t, 0) == 1 && gang_row_of(&t, 1) == 3 &&
	   gang_row_of(&t, 2) == 1 && gang_row_of(&t, 3) == 3,
	   "only busy rows take turns: 1 and 3 of 4");
	t.busy = 0;
	ok(gang_row_of(&t, 5) == 1 && gang_row_of(&t, 6) == 2,
	   "no busy row: every row in turn");
	t = table(3, 1, false);
	t.priority = true;
	add(&t, 20, 0x1);
	add(&t, 21, 0x2);
	ok(gang_row_of(&t, 0) == 0 && gang_row_of(&t, 1) == 0 &&
	   gang_job_runs(&t, 20, 1) && !gang_job_runs(&t, 21, 1) &&
	   !gang_job_runs(&t, 21, 2),
	   "a busy priority row runs alone, every quantum");
}

/* A guard table: slurmctld's running rows, whatever the quantum. */
static struct gang_table guard_table(uint32_t run)
{
	struct gang_table t = table(3, 1, false);

	t.slice_ms = 0;
	t.guard = true;
	t.run = run;
	add(&t, 30, 0x2);	/* row 1 */
	add(&t, 31, 0x4);	/* row 2 */
	return t;
}

static void test_guard(void)
{
	char buf[COSCHED_REQUEST_LEN + 1], err[ERRBUF_LEN] = "";
	struct gang_table t = guard_table(0x4), back;
	int right = 0, n;

	for (uint64_t q = 0; q < 10; q++)
		right += !gang_job_runs(&t, 30, q) && gang_job_runs(&t, 31, q) &&
			 gang_job_runs(&t, 99, q);
	is_int(right, 10, "guard: the running row's job runs in every quantum, the other's never, an unnamed job always");
	t.run = 0;
	ok(!gang_job_runs(&t, 30, 0) && !gang_job_runs(&t, 31, 0) &&
	   gang_row_of(&t, 0) == UINT32_MAX,
	   "guard: no running row (a preempting job elsewhere): both frozen");
	t = guard_table(0x6);
	ok(gang_job_runs(&t, 30, 0) && gang_job_runs(&t, 31, 0) &&
	   gang_row_of(&t, 0) == 1,
	   "guard: two running rows (a job replicated, or one outside the priority row's nodes)");

	t = guard_table(0x4);
	n = gang_table_format(&t, buf, sizeof(buf));
	is_str(buf, "gang node=n1 epoch=7 slice_ms=0 rows=3 first=1 priority=0 busy=6 run=4 jobs=30:2,31:4",
	       "guard: the table as a line");
	memset(&back, 0, sizeof(back));
	ok(n > 0 && !gang_table_parse(buf, (size_t)n, "n1", &back, err, sizeof(err)) &&
	   same(&back, &t), "guard: read back the same (%s)", err);

	t = guard_table(0x8);
	ok(gang_table_format(&t, buf, sizeof(buf)) == -1,
	   "guard: a running row beyond the matrix is refused");
	t = guard_table(0x4);
	t.slice_ms = 200;
	ok(gang_table_format(&t, buf, sizeof(buf)) == -1,
	   "guard: a slice is refused (slurmctld switches)");
	t = table(2, 0, false);
	t.run = 1;
	ok(gang_table_format(&t, buf, sizeof(buf)) == -1,
	   "a quantum table with running rows is refused");
}

static void test_roundtrip(void)
{
	char buf[COSCHED_REQUEST_LEN + 1], err[ERRBUF_LEN] = "";
	struct gang_table t = table(3, 1, true), back;
	int n;

	add(&t, 5, 0x1);
	add(&t, 4000000000u, 0x6);
	n = gang_table_format(&t, buf, sizeof(buf));
	is_str(buf, "gang node=n1 epoch=7 slice_ms=200 rows=3 first=1 priority=1 busy=6 run=* jobs=5:1,4000000000:6",
	       "the table as a line");
	memset(&back, 0, sizeof(back));
	ok(n > 0 && !gang_table_parse(buf, (size_t)n, "n1", &back, err, sizeof(err)) &&
	   same(&back, &t), "... read back the same (%s)", err);

	t = table(2, 0, false);
	n = gang_table_format(&t, buf, sizeof(buf));
	ok(n > 0 && strstr(buf, " jobs=-") &&
	   !gang_table_parse(buf, (size_t)n, NULL, &back, err, sizeof(err)) &&
	   back.njobs == 0, "a node without jobs: jobs=- (%s)", buf);

	t = table(GANG_ROWS_MAX, 1, true);
	memset(t.node, 'x', sizeof(t.node) - 1);
	t.node[sizeof(t.node) - 1] = '\0';
	t.epoch = UINT64_MAX;
	t.slice_ms = GANG_SLICE_MS_MAX;
	for (unsigned r = 0; r < GANG_ROWS_MAX; r++)
		add(&t, UINT32_MAX - 1 - r, 1u << r);
	n = gang_table_format(&t, buf, sizeof(buf));
	ok(n > 0 && n <= COSCHED_REQUEST_LEN &&
	   !gang_table_parse(buf, (size_t)n, NULL, &back, err, sizeof(err)) &&
	   same(&back, &t),
	   "the largest table fits a request line (%d bytes) and reads back", n);
	ok(gang_table_format(&t, buf, 100) == -1 && !buf[0],
	   "a buffer too short gives -1 and an empty text");
	ok(gang_table_format(&t, buf, (size_t)n + 1) == n &&
	   gang_table_format(&t, buf, (size_t)n) == -1,
	   "room for the text and its NUL is enough, a byte less is not");
	is_int(GANG_ROWS_MAX, COALLOC_CONF_MAX_MPL, "rows bound = coalloc.conf's MPL bound");
}

/* Fewer resends at scale: the interval, named in the table, and the
 * staleness the agent derives from it. */
static void test_resend(void)
{
	char buf[COSCHED_REQUEST_LEN + 1], err[ERRBUF_LEN] = "";
	struct gang_table t = table(2, 0, false), back;
	int n;

	ok(gang_resend_ms(0) == 1000 && gang_resend_ms(1024) == 1000 &&
	   gang_resend_ms(1025) == 2000 && gang_resend_ms(4096) == 4000 &&
	   gang_resend_ms(1u << 30) == GANG_RESEND_MS_MAX,
	   "resend every second up to 1,024 tables, a second more per 1,024, at most %d ms",
	   GANG_RESEND_MS_MAX);
	is_int((int)gang_stale_ms(&t), GANG_TABLE_STALE_MS,
	       "a table without resend_ms goes stale after %d ms", GANG_TABLE_STALE_MS);
	add(&t, 5, 1);
	n = gang_table_format(&t, buf, sizeof(buf));
	ok(n > 0 && !strstr(buf, "resend_ms"),
	   "the default interval is not written: older agents read the same line");
	t.resend_ms = 4000;
	n = gang_table_format(&t, buf, sizeof(buf));
	ok(n > 0 && strstr(buf, " run=* resend_ms=4000 jobs=5:1"),
	   "a longer one is (%s)", buf);
	memset(&back, 0, sizeof(back));
	ok(!gang_table_parse(buf, (size_t)n, "n1", &back, err, sizeof(err)) &&
	   same(&back, &t) && back.resend_ms == 4000 &&
	   gang_stale_ms(&back) == 14000,
	   "and read back: stale after 3.5 intervals, 14000 ms (%s)", err);
	static const char *bad[] = { "999", "16001", "4e3", "-1", "" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char line[COSCHED_REQUEST_LEN];

		snprintf(line, sizeof(line),
			 "gang node=n1 epoch=7 slice_ms=200 rows=2 first=0 priority=0 busy=3 run=* resend_ms=%s jobs=5:1",
			 bad[i]);
		back.resend_ms = 77;
		ok(gang_table_parse(line, strlen(line), "n1", &back, err,
				    sizeof(err)) && back.resend_ms == 77,
		   "resend_ms=%s refused (%s)", bad[i], err);
	}
}

static void test_format_refuses(void)
{
	char buf[COSCHED_REQUEST_LEN + 1];
	struct gang_table t;
	int refused = 0, cases = 0;

#define REFUSE(setup) do { t = table(2, 0, false); add(&t, 1, 1); setup; \
	cases++; refused += gang_table_format(&t, buf, sizeof(buf)) == -1 && !buf[0]; } while (0)
	REFUSE(t.epoch = 0);
	REFUSE(t.slice_ms = 1000);
	REFUSE(t.slice_ms = 49);
	REFUSE(t.rows = 1);
	REFUSE(t.rows = GANG_ROWS_MAX + 1);
	REFUSE(t.priority = true);
	REFUSE(t.first = 2);
	REFUSE(add(&t, 2, 1));
	REFUSE(add(&t, 1, 2));
	REFUSE(t.jobs[0].rows = 4);
	REFUSE(t.jobs[0].rows = 0);
	REFUSE(t.jobs[0].job = 0);
	REFUSE(strcpy(t.node, "a b"));
	REFUSE(t.busy = 4);
	REFUSE(t.resend_ms = GANG_RESEND_MS - 1);
	REFUSE(t.resend_ms = GANG_RESEND_MS_MAX + 1);
#undef REFUSE
	is_int(refused, cases, "the formatter refuses every impossible table (%d)", cases);
}

static void test_parse_refuses(void)
{
	static const struct { const char *text, *why; } bad[] = {
		{ "gang node=n1 epoch=7 slice_ms=200 rows=2 first=0 priority=0 busy=3 run=*", "no jobs=" },
		{ "gang node=n1 epoch=7 slice_ms=200 rows=2 first=0 priority=0 jobs=-", "no busy=" },
		{ "gang node=n1 epoch=7 slice_ms=200 rows=2 first=0 priority=0 busy=g run=* jobs=-", "busy=g is not a hexadecimal row set" },
		{ "gang node=n1 epoch=7 slice_ms=200 rows=2 first=0 priority=0 busy=4 run=* jobs=-", "busy rows out of range" },
		{ "gang node=n1 epoch=0 slice_ms=200 rows=2 first=0 priority=0 busy=3 run=* jobs=-", "epoch=0 is not a number" },
		{ "gang node=n1 epoch=7 slice_ms=1000 rows=2 first=0 priority=0 busy=3 run=* jobs=-", "slice_ms=1000" },
		{ "gang node=n1 epoch=7 slice_ms=200 rows=17 first=0 priority=0 busy=3 run=* jobs=-", "rows=17" },
		{ "gang node=n1 epoch=7 slice_ms=200 rows=2 first=0 priority=1 busy=3 run=* jobs=-", "first must be 0, or 1" },
		{ "gang node=n1 epoch=7 slice_ms=200 rows=2 first=0 priority=0 busy=3 run=* jobs=1:1,2:1", "two jobs hold one row" },
		{ "gang node=n1 epoch=7 slice_ms=200 rows=2 first=0 priority=0 busy=3 run=* jobs=1:1,1:2", "a job named twice" },
		{ "gang node=n1 epoch=7 slice_ms=200 rows=2 first=0 priority=0 busy=3 run=* jobs=1:4", "rows of a job out of range" },
		{ "gang node=n1 epoch=7 slice_ms=200 rows=2 first=0 priority=0 busy=3 run=* jobs=1:0", "rows of a job out of range" },
		{ "gang node=n1 epoch=7 slice_ms=200 rows=2 first=0 priority=0 busy=3 run=* jobs=1:A", "jobs= must be" },
		{ "gang node=n1 epoch=7 slice_ms=200 rows=2 first=0 priority=0 busy=3 run=* jobs=1:0x1", "jobs= must be" },
		{ "gang node=n1 epoch=7 slice_ms=200 rows=2 first=0 priority=0 busy=3 run=* jobs=1:00001", "jobs= must be" },
		{ "gang node=n1 epoch=7 slice_ms=200 rows=2 first=0 priority=0 busy=3 run=* jobs=1:1,", "jobs= must be" },
		{ "gang node=n1 epoch=7 slice_ms=200 rows=2 first=0 priority=0 busy=3 run=* jobs=,1:1", "jobs= must be" },
		{ "gang node=n1 epoch=7 slice_ms=200 rows=2 first=0 priority=0 busy=3 run=* jobs=1:1,,2:2", "jobs= must be" },
		{ "gang node=n1 epoch=7 slice_ms=200 rows=2 first=0 priority=0 busy=3 run=* jobs=-1:1", "jobs= must be" },
		{ "gang node=n1 epoch=7 slice_ms=200 rows=2 first=0 priority=0 busy=3 run=* jobs=4294967295:1", "jobs= must be" },
		{ "gang node=n1 epoch=7 slice_ms=200 rows=2 first=0 priority=0 busy=3 run=* jobs=1", "jobs= must be" },
		{ "gang node=n1 epoch=7 epoch=8 slice_ms=200 rows=2 first=0 priority=0 busy=3 run=* jobs=-", "given twice" },
		{ "gang node=n/1 epoch=7 slice_ms=200 rows=2 first=0 priority=0 busy=3 run=* jobs=-", "bad node name" },
		{ "gang  node=n1 epoch=7 slice_ms=200 rows=2 first=0 priority=0 busy=3 run=* jobs=-", "not KEY=VALUE" },
		{ "membus node=n1 epoch=7 slice_ms=200 rows=2 first=0 priority=0 busy=3 run=* jobs=-", "not a gang request" },
		{ "gang node=n1 epoch=7 slice_ms=200 rows=2 first=0 priority=0 busy=3 jobs=-", "no run=" },
		{ "gang node=n1 epoch=7 slice_ms=200 rows=2 first=0 priority=0 busy=3 run=x jobs=-", "run=x is neither * nor" },
		{ "gang node=n1 epoch=7 slice_ms=200 rows=2 first=0 priority=0 busy=3 run=1 jobs=-", "slice_ms out of range" },
		{ "gang node=n1 epoch=7 slice_ms=0 rows=2 first=0 priority=0 busy=3 run=* jobs=-", "slice_ms out of range" },
		{ "gang node=n1 epoch=7 slice_ms=0 rows=2 first=0 priority=0 busy=3 run=4 jobs=-", "running rows out of range" },
		{ "gang node=n2 epoch=7 slice_ms=200 rows=2 first=0 priority=0 busy=3 run=* jobs=-", "addressed to another node" },
	};
	char err[ERRBUF_LEN];
	struct gang_table t, before;
	int good = 0, n = (int)(sizeof(bad) / sizeof(bad[0]));

	memset(&t, 0x5a, sizeof(t));
	before = t;
	for (int i = 0; i < n; i++) {
		err[0] = '\0';
		if (gang_table_parse(bad[i].text, strlen(bad[i].text), "n1", &t,
				     err, sizeof(err)) == -1 &&
		    strstr(err, bad[i].why) && !memcmp(&t, &before, sizeof(t)))
			good++;
		else
			diag("not refused as '%s': %s -> '%s'", bad[i].why,
			     bad[i].text, err);
	}
	is_int(good, n, "every malformed or impossible table is refused with its reason, the output untouched");

	{
		static const char nul[] = "gang node=n1 epoch=7 slice_ms=200 rows=2 first=0 priority=0 busy=3 run=* jobs=-\0x";
		char big[COSCHED_REQUEST_LEN + 2];

		ok(gang_table_parse(nul, sizeof(nul) - 1, NULL, &t, err, sizeof(err)) == -1 &&
		   strstr(err, "not text"), "a NUL inside the payload is refused");
		memset(big, 'a', sizeof(big));
		ok(gang_table_parse(big, sizeof(big), NULL, &t, err, sizeof(err)) == -1 &&
		   strstr(err, "longer than"), "a payload longer than a request line is refused");
		ok(gang_table_parse("gang n\377=1 n\377=2", 14, NULL, &t, err, sizeof(err)) == -1 &&
		   strstr(err, "n?") && !strchr(err, '\377'),
		   "a reason that quotes the sender's bytes is printable (%s)", err);
	}
}

/* register ... gang=1, and the gang request. */
static void test_requests(void)
{
	struct cosched_register r = { .job = 7, .step = 0, .uid = 1000,
				      .pid = 4242, .mode = COSCHED_MODE_NONE,
				      .gang = true }, back;
	struct cosched_gang_req g = { .self = "n1@10.0.0.1:6868",
				      .from = "10.0.0.254,fd00::fe" }, gb;
	char line[COSCHED_REQUEST_LEN + 1], err[ERRBUF_LEN] = "";

	ok(!cosched_register_format(&r, line, sizeof(line)) &&
	   strstr(line, " gang=1") &&
	   !cosched_register_parse(line, &back, err, sizeof(err)) && back.gang,
	   "register: gang=1 written and read back (%s)", err);
	r.gang = false;
	ok(!cosched_register_format(&r, line, sizeof(line)) &&
	   !strstr(line, "gang") &&
	   !cosched_register_parse(line, &back, err, sizeof(err)) && !back.gang,
	   "register: without gang rows, no gang word");
	ok(cosched_register_parse("register job=1 step=0 uid=0 mode=membus pid=9 rank=0 gang=1",
				  &back, err, sizeof(err)) == -1 &&
	   strstr(err, "membus step cannot be in gang rows") &&
	   cosched_register_parse("register job=1 step=0 uid=0 mode=none pid=9 rank=0 gang=2",
				  &back, err, sizeof(err)) == -1,
	   "register: gang=1 with membus, or gang=2, is refused");
	r.mode = COSCHED_MODE_MEMBUS;
	r.gang = true;
	ok(cosched_register_format(&r, line, sizeof(line)) == -1,
	   "... and never written");

	ok(!cosched_gang_request_format(&g, line, sizeof(line)) &&
	   !strcmp(line, "gang self=n1@10.0.0.1:6868 from=10.0.0.254,fd00::fe") &&
	   !cosched_gang_request_parse(line, &gb, err, sizeof(err)) &&
	   !strcmp(gb.self, g.self) && !strcmp(gb.from, g.from),
	   "the gang request: %s", line);
	ok(cosched_gang_request_parse("gang self=", &gb, err, sizeof(err)) == -1 &&
	   cosched_gang_request_parse("gang", &gb, err, sizeof(err)) == -1 &&
	   strstr(err, "gang needs self"),
	   "the gang request needs self: %s", err);
	ok(cosched_gang_request_parse("gang self=n1@h:1", &gb, err, sizeof(err)) == -1 &&
	   strstr(err, "gang needs from"),
	   "... and from, slurmctld's addresses: %s", err);
	ok(cosched_gang_request_parse("gang self=n1@h:1 from=ctld", &gb, err, sizeof(err)) == -1 &&
	   strstr(err, "not a numeric") &&
	   cosched_gang_request_parse("gang self=n1@h:1 from=10.0.0.1,10.0.0.1", &gb, err, sizeof(err)) == -1 &&
	   cosched_gang_request_parse("gang self=n1@h:1 from=10.0.0.1,", &gb, err, sizeof(err)) == -1 &&
	   cosched_gang_request_parse("gang self=n1@h:1 from=1.1.1.1,1.1.1.2,1.1.1.3,1.1.1.4,1.1.1.5,1.1.1.6,1.1.1.7,1.1.1.8,1.1.1.9",
				      &gb, err, sizeof(err)) == -1 &&
	   strstr(err, "more than 8"),
	   "... numeric, each once, at most %d (no name is looked up): %s",
	   PEER_HOSTS_MAX, err);
	g.from[0] = '\0';
	ok(cosched_gang_request_format(&g, line, sizeof(line)) == -1,
	   "... and never written without from");
}

static bool _has(const struct peer_hosts *h, int family, const char *text,
		 unsigned port)
{
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_in *in = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;

	ss.ss_family = (sa_family_t)family;
	if (family == AF_INET) {
		in->sin_port = htons((uint16_t)port);
		inet_pton(AF_INET, text, &in->sin_addr);
		return peer_hosts_has(h, &ss, sizeof(*in));
	}
	in6->sin6_port = htons((uint16_t)port);
	inet_pton(AF_INET6, text, &in6->sin6_addr);
	return peer_hosts_has(h, &ss, sizeof(*in6));
}

/* slurmctld's addresses as the agent matches a datagram's source */
static void test_hosts(void)
{
	struct peer_hosts h;
	char err[ERRBUF_LEN] = "", text[PEER_HOSTS_TEXT_LEN];

	ok(!peer_hosts_parse("10.0.0.254,::ffff:10.0.0.253,fd00::fe", &h, err,
			     sizeof(err)) && h.n == 3,
	   "three addresses parsed (%s)", err);
	ok(_has(&h, AF_INET, "10.0.0.254", 1234) &&
	   _has(&h, AF_INET, "10.0.0.253", 1) &&
	   _has(&h, AF_INET6, "::ffff:10.0.0.254", 9) &&
	   _has(&h, AF_INET6, "fd00::fe", 5),
	   "a source matches whatever its port, IPv4-mapped IPv6 as IPv4");
	ok(!_has(&h, AF_INET, "10.0.0.1", 1234) &&
	   !_has(&h, AF_INET6, "fd00::1", 5) &&
	   !_has(&h, AF_INET6, "::10.0.0.254", 5),
	   "any other source does not");
	ok(!peer_hosts_format(&h, text, sizeof(text)) &&
	   !strcmp(text, "10.0.0.254,10.0.0.253,fd00::fe"),
	   "formatted back: %s", text);
	h.n = 0;
	ok(!_has(&h, AF_INET, "10.0.0.254", 1), "an empty list matches nothing");
}

int main(void)
{
	plan(52);
	test_rule();
	test_guard();
	test_roundtrip();
	test_resend();
	test_format_refuses();
	test_parse_refuses();
	test_requests();
	test_hosts();
	return done_testing();
}
