/*
 * test_walk.c - when select/coalloc walks slurmctld's job table again
 * (lib/coalloc/walk.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "coalloc/walk.h"
#include "tap.h"

int main(void)
{
	struct coalloc_walk_seen none = { 0 };
	/* a walk at second 101 saw the table as stamped at 100, 5 jobs */
	struct coalloc_walk_seen seen = { .stamp = 100, .count = 5, .clock = 101 };
	/* a walk in the stamp's own second */
	struct coalloc_walk_seen same = { .stamp = 100, .count = 5, .clock = 100 };

	ok(coalloc_walk_due(&none, 100, 5, 101), "no walk yet: due");
	ok(coalloc_walk_due(&seen, 0, 5, 102), "no stamp (not slurmctld's table yet): due");
	ok(coalloc_walk_due(&seen, 102, 5, 102), "a new stamp: due");
	ok(coalloc_walk_due(&seen, 100, 6, 102), "another count (a job purged or added in the stamp's second): due");
	ok(!coalloc_walk_due(&seen, 100, 5, 101), "the same second as the last walk: not due");
	ok(!coalloc_walk_due(&seen, 100, 5, 102), "nothing changed since a walk after the stamp's second: not due");
	ok(!coalloc_walk_due(&seen, 100, 5, 101 + COALLOC_WALK_AT_LEAST_EVERY - 1),
	   "  nor %d s after it", COALLOC_WALK_AT_LEAST_EVERY - 1);
	/* slurmctld stamps some changes with a scheduling pass's start:
	 * a job held late in a pass begun at 100 still says 100 */
	ok(coalloc_walk_due(&seen, 100, 5, 101 + COALLOC_WALK_AT_LEAST_EVERY),
	   "%d s after the last walk: due, whatever the stamp says", COALLOC_WALK_AT_LEAST_EVERY);
	ok(coalloc_walk_due(&same, 100, 5, 101),
	   "the last walk came in the stamp's second: due the next second (a later change of that second)");
	ok(!coalloc_walk_due(&same, 100, 5, 100), "  not within that second");
	return done_testing();
}
