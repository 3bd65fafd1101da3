/*
 * test_reserve.c - the slurm.conf rule that keeps queue partitions open
 * for the policy: each verdict, and a message that says what to set.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "coalloc_conf/reserve.h"
#include "tap.h"

static char msg[1024];

/* The recommended set-up: PriorityWeightPartition=100000, queue
 * partitions at factor 0, debug at 1 (normalized: 1), 1000 of age. */
static struct coalloc_reserve_input good(void)
{
	struct coalloc_reserve_input in = {
		.multifactor = true, .prio_reserve = 50000,
		.weight_other = 1000, .nqueues = 3, .queue_max = 0,
		.queue_max_name = "grid", .nothers = 1, .other_min = 100000,
		.other_min_name = "debug",
	};
	return in;
}

static void test_range(void)
{
	struct coalloc_reserve_input in = good();
	uint64_t lo, hi;

	coalloc_reserve_range(&in, &lo, &hi);
	is_int((int) lo, 1001, "lowest threshold: one above queue jobs' top");
	is_int((int) hi, 100000, "highest: the other partition's term");
	in.nothers = 0;
	coalloc_reserve_range(&in, &lo, &hi);
	ok(hi == 0xfffffffeull, "no other partition: any threshold above");
	in = good();
	in.other_min = 999.9;	/* Slurm truncates the sum */
	coalloc_reserve_range(&in, &lo, &hi);
	is_int((int) hi, 999, "a fractional term truncates");
	ok(lo > hi, "... and leaves no room above 1000 of other weights");
}

static void test_verdicts(void)
{
	struct coalloc_reserve_input in = good();

	is_int(coalloc_reserve_check(&in, msg, sizeof(msg)),
	       COALLOC_RESERVE_BY_PRIO, "recommended set-up: by priority");
	is_str(msg, "", "... nothing to say");

	in.nqueues = 0;
	in.multifactor = false;
	is_int(coalloc_reserve_check(&in, msg, sizeof(msg)),
	       COALLOC_RESERVE_UNNEEDED, "no queue partition: nothing needed");

	in = good();
	in.prio_reserve = 0;
	in.age_reserve = 2592000;
	is_int(coalloc_reserve_check(&in, msg, sizeof(msg)),
	       COALLOC_RESERVE_BY_AGE, "bf_min_age_reserve alone: by age");
	ok(strstr(msg, "bf_min_age_reserve=2592000: backfill reserves nothing") != NULL,
	   "... and the price is said: %s", msg);

	in.prio_reserve = 50000;
	is_int(coalloc_reserve_check(&in, msg, sizeof(msg)),
	       COALLOC_RESERVE_BY_AGE, "both set: age still rules");
	ok(strstr(msg, "overrides bf_min_prio_reserve=50000") &&
	   strstr(msg, "drop it"), "... and says to drop it: %s", msg);

	in.age_reserve = 3600;	/* too short to keep queues open */
	is_int(coalloc_reserve_check(&in, msg, sizeof(msg)),
	       COALLOC_RESERVE_BY_PRIO, "a short bf_min_age_reserve is not the rule");
}

static void bad(struct coalloc_reserve_input in, const char *want,
		const char *what)
{
	is_int(coalloc_reserve_check(&in, msg, sizeof(msg)),
	       COALLOC_RESERVE_BAD, "%s: refused", what);
	is_str(msg, want, "%s: message", what);
}

static void test_bad(void)
{
	struct coalloc_reserve_input in = good();

	in.multifactor = false;
	bad(in, "the queue partitions need PriorityType=priority/multifactor, PriorityJobFactor=0 on each of them and SchedulerParameters=bf_min_prio_reserve above their jobs' priority (or bf_min_age_reserve=2592000, which gives up every reservation of the cluster): without either, Slurm's scheduler stops at the first blocked job of a queue partition and the policy's order cannot act",
	    "priority/basic");

	in = good();
	in.prio_reserve = 0;
	bad(in, "add bf_min_prio_reserve=1001 to SchedulerParameters (any value from 1001 to 100000): without it Slurm's scheduler stops at the first blocked job of a queue partition and the policy's order cannot act",
	    "no threshold");

	in = good();
	in.prio_reserve = 1000;
	bad(in, "SchedulerParameters bf_min_prio_reserve=1000 is not above the jobs of queue partition grid (priority up to 1000): they would get reservations and stop their queue at a blocked job; use a value from 1001 to 100000",
	    "threshold too low");

	in = good();
	in.prio_reserve = 100001;
	bad(in, "SchedulerParameters bf_min_prio_reserve=100001 is above the jobs of partition debug (priority from 100000): they would get no reservations; use a value from 1001 to 100000",
	    "threshold too high");

	in = good();
	in.queue_max = 100000;	/* grid left at PriorityJobFactor=1 */
	bad(in, "the jobs of queue partition grid reach priority 101000 (PriorityWeightPartition x its PriorityJobFactor, plus 1000 of the other weights), not below those of partition debug (from 100000): set PriorityJobFactor=0 on every queue partition and a PriorityWeightPartition that gives the others more than 1001",
	    "queue factor not 0");
}

int main(void)
{
	test_range();
	test_verdicts();
	test_bad();
	return done_testing();
}
