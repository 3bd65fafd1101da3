/*
 * test_coalloc_conf.c - coalloc.conf parsing: good files, and one test per
 * kind of mistake, each checking that the message names line and key.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coalloc_conf/coalloc_conf.h"
#include "coalloc_conf/layout.h"
#include "tap.h"

static char err[COALLOC_CONF_ERR_LEN];

static int parse(const char *text, struct coalloc_conf *c)
{
	err[0] = '\0';
	return coalloc_conf_parse(text, "coalloc.conf", c, err, sizeof(err));
}

/* The text must be refused with exactly this message. */
static void refused(const char *text, const char *want, const char *what)
{
	struct coalloc_conf c;

	is_int(parse(text, &c), -1, "%s: refused", what);
	is_str(err, want, "%s: message", what);
	is_int(c.nsites, 0, "%s: nothing kept", what);
}

#define TWO_SITES "Site=a Nodes=n[1-4]\nSite=b Nodes=n[5-8]\n"
#define LOCALS "LocalPartition=pa Site=a\nLocalPartition=pb Site=b\n"

static void test_good(void)
{
	struct coalloc_conf c;

	is_int(parse("# minimal\n" TWO_SITES, &c), 0, "sites only");
	is_int(c.policy, COALLOC_POLICY_GS, "default policy GS");
	is_int(c.aging_time, COALLOC_CONF_DEFAULT_AGING, "default aging");
	is_int(c.queue_order, COALLOC_ORDER_FCFS, "default queue order fcfs");
	is_int(c.matrix.mode, COALLOC_CONF_MATRIX_OFF, "default matrix off");
	is_int(c.matrix.mpl, 1, "default MPL 1");
	is_int(c.nsites, 2, "two sites");
	is_str(c.sites[1].nodes, "n[5-8]", "hostlist kept as written");
	is_int(c.sites[1].line, 3, "site line number");
	coalloc_conf_free(&c);

	is_int(parse("Policy=GS QueueOrder=Smallest\n" TWO_SITES, &c), 0,
	       "a queue order, any case");
	is_int(c.queue_order, COALLOC_ORDER_SMALLEST, "... smallest");
	coalloc_conf_free(&c);

	is_int(parse("policy=ls-do  AgingTime=0 # no aging\n"
		     "Matrix=GANG MPL=2 \\\n  TimeSlice=10\n"
		     TWO_SITES LOCALS, &c), 0, "full LS-DO gang config");
	is_int(c.policy, COALLOC_POLICY_LS_DO, "policy, any case");
	is_int(c.aging_time, 0, "aging off");
	is_int(c.matrix.mode, COALLOC_CONF_MATRIX_GANG, "matrix gang");
	is_int(c.matrix.time_slice, 10, "time slice across a continued line");
	is_int(c.sites[0].line, 4, "line numbers count continued lines");
	is_str(c.sites[1].local_partition, "pb", "local partition attached");
	is_int(c.sites[1].local_line, 7, "its line");
	coalloc_conf_free(&c);

	is_int(parse("Matrix=gang MPL=4 TimeSlice=200ms\n" TWO_SITES, &c), 0,
	       "a time slice in milliseconds");
	is_int(c.matrix.time_slice_ms, 200, "... kept in milliseconds");
	ok(coalloc_conf_fast_gang(&c.matrix), "... rows the agents switch");
	is_int(c.matrix.gang_port_offset, 1001, "... default gang port offset");
	coalloc_conf_free(&c);
	is_int(parse("Matrix=gang MPL=2 TimeSlice=50MS GangPortOffset=2000\n" TWO_SITES, &c),
	       0, "the shortest slice, any case; a gang port offset");
	ok(c.matrix.time_slice_ms == 50 && c.matrix.gang_port_offset == 2000, "... both kept");
	coalloc_conf_free(&c);
	is_int(parse("Matrix=gang MPL=2 TimeSlice=1\n" TWO_SITES, &c), 0, "one second");
	ok(c.matrix.time_slice == 1 && !c.matrix.time_slice_ms && !coalloc_conf_fast_gang(&c.matrix),
	   "... goes through slurmctld");
	ok(!c.matrix.gang_guard && !coalloc_conf_agent_tables(&c.matrix),
	   "... unguarded by default");
	coalloc_conf_free(&c);
	is_int(parse("Matrix=gang MPL=2 TimeSlice=30 GangGuard=yes GangPortOffset=1500\n" TWO_SITES, &c),
	       0, "rows the agents guard");
	ok(c.matrix.gang_guard && coalloc_conf_agent_tables(&c.matrix) &&
	   !coalloc_conf_fast_gang(&c.matrix) && c.matrix.gang_port_offset == 1500,
	   "... tables to the agents, slurmctld switching, their port");
	coalloc_conf_free(&c);
	is_int(parse("GangGuard=YES PreemptPartition=urgent\n" TWO_SITES, &c),
	       0, "a guarded priority row (Matrix=off), any case");
	coalloc_conf_free(&c);

	is_int(parse("LocalPartition=pa Site=a\nLocalPartition=pb Site=b\n"
		     "Policy=LP-GF GlobalPartition=\"grid\"\n" TWO_SITES, &c),
	       0, "local partitions before their sites, quoted value");
	is_str(c.global_partition, "grid", "quotes removed");
	is_int(c.global_line, 3, "global line");
	coalloc_conf_free(&c);
}

static void test_bad_syntax(void)
{
	refused("Policy=GS\nFoo=1\n" TWO_SITES,
		"coalloc.conf line 2: key 'Foo': unknown key", "unknown key");
	refused("Policy=GS Nodes=n1\n" TWO_SITES,
		"coalloc.conf line 1: key 'Nodes': unknown key (a line of Policy, AgingTime, QueueOrder, Matrix, MPL, TimeSlice, GlobalPartition, PreemptPartition, PreemptHold, GangPortOffset or GangGuard takes only those)",
		"site key on a scalar line");
	refused("Site=a Nodes=n1 Weight=2\n",
		"coalloc.conf line 1: key 'Weight': unknown key (a Site line takes only Nodes)",
		"unknown key on a Site line");
	refused("Policy\n", "coalloc.conf line 1: key 'Policy': expected Key=Value",
		"no '='");
	refused("Policy=\n", "coalloc.conf line 1: key 'Policy': empty value",
		"empty value");
	refused("Policy=\"GS\n", "coalloc.conf line 1: key 'Policy': unterminated quote",
		"unterminated quote");
	refused("=GS\n", "coalloc.conf line 1: '=' without a key", "no key");
	refused("Policy=GS\nPolicy=LQ\n",
		"coalloc.conf line 2: key 'Policy': given twice", "duplicate key");
}

static void test_bad_values(void)
{
	refused("Policy=GANG\n" TWO_SITES,
		"coalloc.conf line 1: key 'Policy': unknown policy 'GANG' (expected GS, LS-OR, LS-RD, LS-RO, LS-DO, GP, LP-LF, LP-GF, LP-RD, EQ-LF, EQ-GF, EQ-RD or LQ)",
		"unknown policy");
	refused("QueueOrder=sjf\n" TWO_SITES,
		"coalloc.conf line 1: key 'QueueOrder': 'sjf' is not fcfs, firstfit or smallest",
		"unknown queue order");
	refused("QueueOrder=firstfit QueueOrder=fcfs\n" TWO_SITES,
		"coalloc.conf line 1: key 'QueueOrder': given twice",
		"queue order twice");
	refused("\nMPL=0\n" TWO_SITES,
		"coalloc.conf line 2: key 'MPL': '0' is not a whole number from 1 to 16",
		"MPL 0");
	refused("AgingTime=-5\n" TWO_SITES,
		"coalloc.conf line 1: key 'AgingTime': '-5' is not a whole number from 0 to 31536000",
		"negative aging");
	refused("TimeSlice=10s\n" TWO_SITES,
		"coalloc.conf line 1: key 'TimeSlice': '10s' is not a whole number from 1 to 86400",
		"unit suffix");
	refused("Matrix=gang MPL=2 TimeSlice=1000ms\n" TWO_SITES,
		"coalloc.conf line 1: key 'TimeSlice': '1000ms' is neither whole seconds from 1 to 86400 nor milliseconds from 50ms to 999ms",
		"a second in milliseconds");
	refused("Matrix=gang MPL=2 TimeSlice=49ms\n" TWO_SITES,
		"coalloc.conf line 1: key 'TimeSlice': '49ms' is neither whole seconds from 1 to 86400 nor milliseconds from 50ms to 999ms",
		"too short a slice");
	refused("Matrix=gang MPL=2 TimeSlice=ms\n" TWO_SITES,
		"coalloc.conf line 1: key 'TimeSlice': 'ms' is not a whole number from 1 to 86400",
		"no number");
	refused("Matrix=gang MPL=2 TimeSlice=2.5ms\n" TWO_SITES,
		"coalloc.conf line 1: key 'TimeSlice': '2.5ms' is neither whole seconds from 1 to 86400 nor milliseconds from 50ms to 999ms",
		"a fraction");
	refused("Matrix=gang MPL=2 TimeSlice=200ms GangPortOffset=0\n" TWO_SITES,
		"coalloc.conf line 1: key 'GangPortOffset': '0' is not a whole number from 1 to 64511",
		"gang port offset 0");
	refused("Matrix=gang MPL=2 TimeSlice=20 GangPortOffset=1001\n" TWO_SITES,
		"coalloc.conf: key 'GangPortOffset': only rows the node agents switch (Matrix=gang, TimeSlice below a second, e.g. 200ms) or guard (GangGuard=yes) use it",
		"gang port offset with slurmctld's rows");
	refused("Matrix=gang MPL=2 TimeSlice=20 GangGuard=maybe\n" TWO_SITES,
		"coalloc.conf line 1: key 'GangGuard': 'maybe' is not yes or no",
		"GangGuard neither yes nor no");
	refused("Matrix=gang MPL=2 TimeSlice=200ms GangGuard=yes\n" TWO_SITES,
		"coalloc.conf: key 'GangGuard': only rows slurmctld suspends are guarded (Matrix=gang with a TimeSlice in seconds, or a PreemptPartition); the agents switch rows of a TimeSlice in ms themselves",
		"GangGuard with rows the agents switch");
	refused("GangGuard=yes\n" TWO_SITES,
		"coalloc.conf: key 'GangGuard': only rows slurmctld suspends are guarded (Matrix=gang with a TimeSlice in seconds, or a PreemptPartition); the agents switch rows of a TimeSlice in ms themselves",
		"GangGuard with no rows");
	refused("Matrix=rows\n" TWO_SITES,
		"coalloc.conf line 1: key 'Matrix': 'rows' is not off, gang or local",
		"bad matrix");
	refused("Site=a/b Nodes=n1\n",
		"coalloc.conf line 1: key 'Site': 'a/b' is not a valid name (letters, digits, '_', '-', '.')",
		"bad site name");
}

static void test_bad_structure(void)
{
	refused("Policy=GS\n",
		"coalloc.conf: key 'Site': no Site= line: every node must belong to a site",
		"no sites");
	refused("Site=a\n", "coalloc.conf line 1: key 'Site': site 'a' has no Nodes=",
		"site without nodes");
	refused("Site=a Nodes=n1\nSite=a Nodes=n2\n",
		"coalloc.conf line 2: key 'Site': site 'a' is defined twice",
		"site twice");
	refused(TWO_SITES "LocalPartition=pc Site=c\n",
		"coalloc.conf line 3: key 'Site': no Site=c line defines that site",
		"local partition of an unknown site");
	refused(TWO_SITES "LocalPartition=pa Site=a\nLocalPartition=px Site=a\n",
		"coalloc.conf line 4: key 'LocalPartition': site 'a' already has local partition 'pa' (line 3)",
		"two local partitions for a site");
	refused(TWO_SITES "LocalPartition=p Site=a\nLocalPartition=p Site=b\n",
		"coalloc.conf line 4: key 'LocalPartition': 'p' is already the local partition of site 'a'",
		"one partition for two sites");
	refused("Policy=EQ-GF GlobalPartition=pa\n" TWO_SITES LOCALS,
		"coalloc.conf line 4: key 'LocalPartition': 'pa' is also the GlobalPartition (line 1)",
		"global and local partition the same");
	refused("Policy=LS-OR\n" TWO_SITES "LocalPartition=pa Site=a\n",
		"coalloc.conf line 3: key 'Site': site 'b' has no LocalPartition, which Policy=LS-OR needs",
		"LS needs every local queue");
	refused("Policy=LS-DO GlobalPartition=g\n" TWO_SITES LOCALS,
		"coalloc.conf line 1: key 'GlobalPartition': Policy=LS-DO has no global queue",
		"LS has no global queue");
	refused("Policy=GP\n" TWO_SITES LOCALS,
		"coalloc.conf: key 'GlobalPartition': Policy=GP needs a GlobalPartition= line",
		"GP needs a global queue");
	refused("Matrix=gang\n" TWO_SITES,
		"coalloc.conf: key 'MPL': Matrix=gang needs MPL=2 or more",
		"gang needs MPL");
	refused("MPL=3\n" TWO_SITES,
		"coalloc.conf: key 'MPL': MPL=3 needs Matrix=gang or Matrix=local",
		"MPL without matrix");
	refused("Matrix=local MPL=2 TimeSlice=5\n" TWO_SITES,
		"coalloc.conf: key 'TimeSlice': only Matrix=gang rows are time-sliced",
		"time slice without gang");
	refused("Matrix=local MPL=2 PreemptPartition=urgent\n" TWO_SITES,
		"coalloc.conf line 1: key 'PreemptPartition': Matrix=local has no rows to suspend jobs in: use Matrix=off or Matrix=gang",
		"preemption needs rows");
	refused("Policy=GP GlobalPartition=g PreemptPartition=g\n" TWO_SITES LOCALS,
		"coalloc.conf line 1: key 'PreemptPartition': 'g' is also the GlobalPartition (line 1)",
		"preempting partition is not the global queue");
	refused("PreemptPartition=pb\n" TWO_SITES LOCALS,
		"coalloc.conf line 1: key 'PreemptPartition': 'pb' is also the local partition of site 'b' (line 5)",
		"preempting partition is not a local queue");
	refused("PreemptHold=5\n" TWO_SITES,
		"coalloc.conf line 1: key 'PreemptHold': no PreemptPartition whose jobs would hold the others",
		"PreemptHold needs a PreemptPartition");
	refused("Matrix=gang MPL=2\nPreemptPartition=u PreemptHold=3601\n" TWO_SITES,
		"coalloc.conf line 2: key 'PreemptHold': '3601' is not a whole number from 0 to 3600",
		"PreemptHold at most an hour");
}

static void test_preempt(void)
{
	struct coalloc_conf c;

	is_int(parse("Matrix=gang MPL=2\nPreemptPartition=urgent\n" TWO_SITES,
		     &c), 0, "gang with a preempting partition");
	is_str(c.preempt_partition, "urgent", "preempting partition kept");
	is_int(c.preempt_line, 2, "and its line");
	is_int((int)c.preempt_hold, 10, "PreemptHold: 10 s by default");
	coalloc_conf_free(&c);
	is_int(parse("Matrix=gang MPL=2\nPreemptPartition=urgent PreemptHold=0\n" TWO_SITES,
		     &c), 0, "PreemptHold=0 (others never wait)");
	is_int((int)c.preempt_hold, 0, "... kept");
	coalloc_conf_free(&c);
	is_int(parse(TWO_SITES, &c), 0, "no preempting partition");
	ok(c.preempt_partition == NULL, "by default");
	coalloc_conf_free(&c);
}

/* The example shipped in etc/ must stay valid (prove runs from the top). */
static void test_example(void)
{
	struct coalloc_conf c;

	err[0] = '\0';
	is_int(coalloc_conf_load("etc/coalloc.conf", &c, err, sizeof(err)), 0,
	       "etc/coalloc.conf parses");
	if (err[0])
		diag("%s", err);
	is_int(c.nsites, 4, "example: 4 sites");
	is_int(c.policy, COALLOC_POLICY_LP_GF, "example: LP-GF");
	is_str(c.global_partition, "grid", "example: global partition");
	coalloc_conf_free(&c);
	is_int(coalloc_conf_load("no/such/file", &c, err, sizeof(err)), -1,
	       "missing file refused");
	is_str(err, "no/such/file: No such file or directory", "and named");
}

/*
 * A NUL byte used to end the file for the parser: the sites after it were
 * silently dropped.  Control characters are refused as well.
 */
static void test_control_bytes(void)
{
	static const char text[] = "Site=a Nodes=n[1-4]\n\0Site=b Nodes=n[5-8]\n";
	char path[] = "/tmp/test_coalloc_conf.XXXXXX";
	struct coalloc_conf c;
	int fd = mkstemp(path);

	if (fd < 0 || write(fd, text, sizeof(text) - 1) != sizeof(text) - 1)
		diag("cannot write %s", path);
	close(fd);
	is_int(coalloc_conf_load(path, &c, err, sizeof(err)), -1,
	       "NUL byte: the file is refused");
	ok(!strncmp(err, path, strlen(path)) &&
	   !strcmp(err + strlen(path), " line 2: column 1: NUL byte (what follows it would be ignored)"),
	   "NUL byte: file, line and column named (%s)", err);
	is_int(c.nsites, 0, "NUL byte: nothing kept");
	unlink(path);
	refused(TWO_SITES "Policy=GS\x1b[8m\n",
		"coalloc.conf line 3: column 10: control character 0x1B (only tab, CR and LF are allowed)",
		"escape character");
	refused("Site=a\vNodes=n1\n",
		"coalloc.conf line 1: column 7: control character 0x0B (only tab, CR and LF are allowed)",
		"vertical tab");
	is_int(parse("Site=a\tNodes=n1\r\n", &c), 0, "tab and CRLF are fine");
	coalloc_conf_free(&c);
	refused("MPL=0x2 Matrix=gang\n" TWO_SITES,
		"coalloc.conf line 1: key 'MPL': '0x2' is not a whole number from 1 to 16",
		"hexadecimal number");
	refused("AgingTime=+60\n" TWO_SITES,
		"coalloc.conf line 1: key 'AgingTime': '+60' is not a whole number from 0 to 31536000",
		"signed number");
}

static void test_layout(void)
{
	struct coalloc_conf c;
	char buf[64], small[8];
	char *hosts[3] = { "n[1-4]", NULL, "n9" };

	parse("Site=a Nodes=n[1-4]\nSite=b Nodes=n[5-8]\nSite=c Nodes=n[9-12]\n", &c);
	is_int(coalloc_layout_join(&c, hosts, buf, sizeof(buf)), 0, "layout joins");
	is_str(buf, "a:n[1-4];c:n9", "sites in file order, empty ones left out");
	is_int(coalloc_layout_join(&c, hosts, small, sizeof(small)), -1,
	       "too small a buffer");
	is_str(small, "", "leaves it empty");
	coalloc_conf_free(&c);
}

static char env_text[512];

static void _collect(const char *name, const char *value, void *arg)
{
	size_t used = strlen(env_text);

	(void)arg;
	snprintf(env_text + used, sizeof(env_text) - used, "%s=%s\n", name,
		 value);
}

static void test_layout_env(void)
{
	struct coalloc_conf c;
	char *hosts[3] = { "n[1-4]", NULL, "n9" };
	char *none[3] = { NULL, NULL, NULL };

	parse("Site=a Nodes=n[1-4]\nSite=b Nodes=n[5-8]\nSite=c Nodes=n[9-12]\n", &c);
	env_text[0] = '\0';
	is_int(coalloc_layout_env(&c, hosts, _collect, NULL), 2,
	       "layout env: two components");
	is_str(env_text,
	       "SLURM_COALLOC_LAYOUT=a:n[1-4];c:n9\n"
	       "SLURM_COALLOC_SITE_0=a\nSLURM_COALLOC_NODELIST_0=n[1-4]\n"
	       "SLURM_COALLOC_SITE_1=c\nSLURM_COALLOC_NODELIST_1=n9\n"
	       "SLURM_COALLOC_NCOMPONENTS=2\n",
	       "the layout, each component's site and nodes, numbered from 0 in file order, and the count");
	env_text[0] = '\0';
	is_int(coalloc_layout_env(&c, none, _collect, NULL), 0,
	       "no hosts: no component");
	is_str(env_text, "SLURM_COALLOC_LAYOUT=\nSLURM_COALLOC_NCOMPONENTS=0\n",
	       "  an empty layout and 0");
	coalloc_conf_free(&c);
}

/* n sites s0..s(n-1) of one node each. */
static char *sites_text(int n)
{
	static char text[64 * 40];
	size_t used = 0;

	for (int i = 0; i < n; i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used,
					 "Site=s%d Nodes=n%d\n", i, i);
	return text;
}

/*
 * The engine's site limit is the parser's: a file with more sites used
 * to parse (the parser allowed 256) and then stop slurmctld at start.
 */
static void test_site_limit(void)
{
	struct coalloc_conf c;
	char want[128];

	is_int(parse(sites_text(COALLOC_MAX_SITES), &c), 0,
	       "%d sites, the engine's limit, are accepted", COALLOC_MAX_SITES);
	is_int(c.nsites, COALLOC_MAX_SITES, "  all kept");
	coalloc_conf_free(&c);
	snprintf(want, sizeof(want),
		 "coalloc.conf line %d: key 'Site': more than 32 sites",
		 COALLOC_MAX_SITES + 1);
	refused(sites_text(COALLOC_MAX_SITES + 1), want, "one site more");
	refused(sites_text(40), want, "40 sites");
}

int main(void)
{
	test_site_limit();
	test_layout();
	test_layout_env();
	test_control_bytes();
	test_preempt();
	test_example();
	test_good();
	test_bad_syntax();
	test_bad_values();
	test_bad_structure();
	return done_testing();
}
