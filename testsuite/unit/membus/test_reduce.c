/*
 * test_reduce.c - the reduction of MemBUS (Algorithm 1, second phase):
 * the coordinator's tally and order, completeness when an agent is
 * missing or gone, and each node's share of the decision.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "membus/membus.h"
#include "tap.h"

/* Two nodes voted for four jobs spanning both. */
static void test_tally_order(void)
{
	struct membus_tally t;
	size_t order[4];
	uint8_t complete[4];

	membus_tally_init(&t);
	/* node 1: H1 + L1; node 2: H1 + L2 */
	ok(!membus_tally_add(&t, "1.0", true, 2) &&
	   !membus_tally_add(&t, "2.0", false, 2) &&
	   !membus_tally_add(&t, "3.0", true, 2) &&
	   !membus_tally_add(&t, "4.0", false, 2), "node 1 voted");
	ok(!membus_tally_add(&t, "1.0", true, 2) &&
	   !membus_tally_add(&t, "2.0", false, 2) &&
	   !membus_tally_add(&t, "3.0", false, 2) &&
	   !membus_tally_add(&t, "4.0", true, 2), "node 2 voted");
	is_int((int)t.n, 4, "four applications");
	membus_tally_decide(&t, 0, order, complete);
	is_str(t.apps[order[0]].id, "1.0", "most popular first (2 votes)");
	is_str(t.apps[order[1]].id, "3.0", "ties in order first reported");
	is_str(t.apps[order[2]].id, "4.0", "then the other 1-vote one");
	is_str(t.apps[order[3]].id, "2.0", "no votes last");
	ok(complete[0] && complete[1] && complete[2] && complete[3],
	   "every node reported every job: all complete");
	is_int((int)t.apps[order[0]].total, 2, "S_total of the first is 2");
	membus_tally_free(&t);
	is_int((int)t.n, 0, "freed tally is empty");
}

static void test_incomplete(void)
{
	struct membus_tally t;
	size_t order[3];
	uint8_t complete[3];
	char long_id[MEMBUS_ID_LEN + 4];

	membus_tally_init(&t);
	(void)membus_tally_add(&t, "7.0", true, 2);	/* only one of 2 */
	(void)membus_tally_add(&t, "8.0", true, 1);	/* a 1-node job */
	membus_tally_decide(&t, 0, order, complete);
	ok(!complete[0], "a job whose second node did not vote is incomplete");
	ok(complete[1], "a one-node job with its vote is complete");
	(void)membus_tally_add(&t, "8.0", false, 3);
	membus_tally_decide(&t, 0, order, complete);
	ok(!complete[1], "voters disagreeing on the span: the larger counts");
	(void)membus_tally_add(&t, "9.0", true, 3);	/* one of 3 */
	membus_tally_decide(&t, 1, order, complete);
	ok(complete[0] && complete[1],
	   "one node gone: a 2-node job with one vote and a 3-node job with two are complete");
	ok(!complete[2], "... a 3-node job with one vote is not");
	membus_tally_decide(&t, 2, order, complete);
	ok(complete[2], "... with two gone it is");
	membus_tally_decide(&t, UINT32_MAX, order, complete);
	ok(complete[0] && complete[1] && complete[2],
	   "... and any count of gone nodes never wraps");
	memset(long_id, 'x', sizeof(long_id) - 1);
	long_id[sizeof(long_id) - 1] = '\0';
	ok(membus_tally_add(&t, long_id, true, 1), "an over-long id is refused");
	membus_tally_free(&t);
	membus_tally_init(&t);
	membus_tally_decide(&t, 0, order, complete);
	ok(1, "an empty tally decides nothing without crashing");
}

static void test_apply(void)
{
	struct membus_app apps[4] = {
		{ .procs = 1 }, { .procs = 1 }, { .procs = 1 }, { .procs = 1 },
	};
	uint8_t run[4], forced[4] = { 0 };
	int rank[4] = { 2, 0, 3, 1 };

	is_int((int)membus_apply(apps, rank, forced, 4, 2, run), 2,
	       "two CPUs: two run");
	ok(run[1] && run[3] && !run[0] && !run[2], "the two ranked first run");
	rank[2] = -1;
	is_int((int)membus_apply(apps, rank, forced, 4, 2, run), 3,
	       "an application the decision does not name runs too");
	ok(run[2], "the unnamed one runs (registered after the vote)");
	rank[2] = 3;
	forced[0] = 1;
	membus_apply(apps, rank, forced, 4, 2, run);
	ok(run[0] && run[1] && run[3] && !run[2], "a forced one runs besides the allocation");
	forced[0] = 0;
	apps[1].procs = 4;
	membus_apply(apps, rank, forced, 4, 2, run);
	ok(run[1] && !run[3] && !run[0],
	   "the first in order runs even when wider than the node, alone");
	apps[1].procs = 1;
	apps[3].procs = 3;
	membus_apply(apps, rank, forced, 4, 2, run);
	ok(run[1] && !run[3] && run[0] && !run[2],
	   "one that does not fit is skipped, the next that fits runs");
	rank[0] = 10;
	rank[1] = 20;
	rank[2] = 30;
	rank[3] = 40;
	apps[3].procs = 1;
	membus_apply(apps, rank, forced, 4, 1, run);
	ok(run[0] && !run[1] && !run[2] && !run[3],
	   "sparse ranks (other nodes' jobs in between) keep their order");
}

int main(void)
{
	plan(27);
	test_tally_order();
	test_incomplete();
	test_apply();
	return done_testing();
}
