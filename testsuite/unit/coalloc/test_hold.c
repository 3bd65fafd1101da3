/*
 * test_hold.c - the waiting jobs of the PreemptPartition (lib/coalloc/
 * hold.c): first sight counts, a job seen again keeps its start, the
 * hold ends after the limit (0: never holds), forgetting keeps the
 * order, and a full set drops the job seen first.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "coalloc/hold.h"
#include "tap.h"

static void test_note_and_over(void)
{
	struct coalloc_hold h;

	memset(&h, 0, sizeof(h));
	coalloc_hold_note(&h, 81, 1000);
	coalloc_hold_note(&h, 81, 1007);
	is_int((int)h.n, 1, "a job seen twice is tracked once");
	ok(!coalloc_hold_over(&h, 0, 1009, 10),
	   "9 s after its first sight it still holds (PreemptHold=10)");
	ok(coalloc_hold_over(&h, 0, 1010, 10),
	   "... 10 s after it, its hold is over: seeing it again at 1007 did not extend it");
	ok(coalloc_hold_over(&h, 0, 1000, 0), "PreemptHold=0: it never holds");
	ok(coalloc_hold_over(&h, 1, 1000, 10), "an index past the set holds nothing");
	ok(!coalloc_hold_over(&h, 0, 900, 10),
	   "a clock stepped back does not end it early");
}

static void test_forget(void)
{
	struct coalloc_hold h;

	memset(&h, 0, sizeof(h));
	coalloc_hold_note(&h, 1, 10);
	coalloc_hold_note(&h, 2, 11);
	coalloc_hold_note(&h, 3, 12);
	coalloc_hold_forget(&h, 2);
	ok(h.n == 2 && h.jobs[0].job == 1 && h.jobs[1].job == 3 &&
	   h.jobs[1].since == 12, "forgetting one keeps the others in order, with their times");
	coalloc_hold_forget(&h, 99);
	is_int((int)h.n, 2, "forgetting an unknown job changes nothing");
	coalloc_hold_forget(&h, 1);
	coalloc_hold_forget(&h, 3);
	is_int((int)h.n, 0, "all forgotten: empty");
}

static void test_full(void)
{
	struct coalloc_hold h;
	bool kept = true;

	memset(&h, 0, sizeof(h));
	for (uint32_t j = 1; j <= COALLOC_HOLD_JOBS + 1; j++)
		coalloc_hold_note(&h, j, 100 + j);
	is_int((int)h.n, COALLOC_HOLD_JOBS, "a full set stays at %d jobs",
	       COALLOC_HOLD_JOBS);
	for (size_t i = 0; i < h.n; i++)
		kept &= h.jobs[i].job == i + 2;
	ok(kept, "... the job seen first made room for the newest");
}

int main(void)
{
	plan(11);
	test_note_and_over();
	test_forget();
	test_full();
	return done_testing();
}
