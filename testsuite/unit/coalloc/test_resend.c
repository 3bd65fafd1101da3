/*
 * test_resend.c - the resend schedule of suspends and resumes: each
 * operation is sent again at +3 s and +11 s, a newer one replaces an
 * older one's resends, late passes send once, and many jobs stay O(1).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdlib.h>

#include "coalloc/resend.h"
#include "tap.h"

#define CAP 64

static size_t due(struct coalloc_resend *r, int64_t now,
		  struct coalloc_resend_item *out)
{
	return coalloc_resend_due(r, now, out, CAP);
}

static void test_one_job(void)
{
	struct coalloc_resend r;
	struct coalloc_resend_item out[CAP];

	ok(coalloc_resend_init(&r) == 0, "init");
	is_int((int) coalloc_resend_wait(&r, 100), -1, "empty: nothing to wait for");
	ok(coalloc_resend_note(&r, 7, COALLOC_RESEND_SUSPEND, 100) == 0, "note a suspend at 100");
	is_int((int) coalloc_resend_wait(&r, 100), 3, "first resend 3 s later");
	is_int((int) due(&r, 102, out), 0, "nothing due at 102");
	is_int((int) due(&r, 103, out), 1, "one due at 103");
	ok(out[0].job == 7 && out[0].op == COALLOC_RESEND_SUSPEND, "  job 7, suspend");
	is_int((int) due(&r, 103, out), 0, "  sent once, not again at 103");
	is_int((int) coalloc_resend_wait(&r, 103), 8, "second resend at 111");
	is_int((int) due(&r, 111, out), 1, "one due at 111");
	is_int((int) coalloc_resend_count(&r), 0, "  then the entry is gone");
	is_int((int) coalloc_resend_wait(&r, 111), -1, "  nothing left to wait for");
	coalloc_resend_free(&r);
}

static void test_newer_replaces(void)
{
	struct coalloc_resend r;
	struct coalloc_resend_item out[CAP];

	coalloc_resend_init(&r);
	coalloc_resend_note(&r, 7, COALLOC_RESEND_SUSPEND, 100);
	coalloc_resend_note(&r, 7, COALLOC_RESEND_RESUME, 102);
	is_int((int) coalloc_resend_count(&r), 1, "a newer operation keeps one entry");
	is_int((int) due(&r, 104, out), 0, "the suspend's resend at 103 is gone");
	is_int((int) due(&r, 105, out), 1, "the resume's comes at 105");
	ok(out[0].op == COALLOC_RESEND_RESUME, "  and it is a resume");
	coalloc_resend_forget(&r, 7);
	is_int((int) coalloc_resend_count(&r), 0, "forget drops it");
	coalloc_resend_forget(&r, 7);
	is_int((int) coalloc_resend_count(&r), 0, "forgetting twice is harmless");
	for (uint32_t j = 1; j <= 100; j++)
		coalloc_resend_note(&r, j, COALLOC_RESEND_SUSPEND, 200);
	coalloc_resend_clear(&r);
	is_int((int) coalloc_resend_count(&r), 0, "clear drops all 100");
	is_int((int) coalloc_resend_wait(&r, 300), -1, "  nothing left to wait for");
	ok(coalloc_resend_note(&r, 50, COALLOC_RESEND_RESUME, 300) == 0 &&
	   coalloc_resend_count(&r) == 1, "  and the table takes new notes");
	coalloc_resend_free(&r);
}

static void test_late_pass(void)
{
	struct coalloc_resend r;
	struct coalloc_resend_item out[CAP];

	coalloc_resend_init(&r);
	coalloc_resend_note(&r, 9, COALLOC_RESEND_RESUME, 100);
	is_int((int) coalloc_resend_wait(&r, 200), 0, "overdue: wait 0");
	is_int((int) due(&r, 200, out), 1, "a pass 100 s late sends once");
	is_int((int) coalloc_resend_count(&r), 0, "  and retires the entry");
	coalloc_resend_free(&r);
}

/* Many jobs, a cap smaller than what is due: nothing lost, nothing twice. */
static void test_many(void)
{
	enum { JOBS = 5000 };
	struct coalloc_resend r;
	struct coalloc_resend_item out[CAP];
	static unsigned seen[JOBS + 1];
	size_t n, total = 0;
	int bad = 0, twice = 0;

	coalloc_resend_init(&r);
	for (uint32_t j = 1; j <= JOBS; j++)
		if (coalloc_resend_note(&r, j * 7919u, j % 2 ? COALLOC_RESEND_SUSPEND
				: COALLOC_RESEND_RESUME, 1000 + j % 5))
			bad++;
	is_int(bad, 0, "%d jobs noted", JOBS);
	for (int64_t now = 1000; now < 1030; now++)
		while ((n = due(&r, now, out)) > 0) {
			for (size_t i = 0; i < n; i++) {
				uint32_t j = out[i].job / 7919u;

				if (j < 1 || j > JOBS || out[i].job != j * 7919u ||
				    out[i].op != (j % 2 ? COALLOC_RESEND_SUSPEND
						  : COALLOC_RESEND_RESUME))
					bad++;
				else if (++seen[j] > COALLOC_RESEND_STEPS)
					twice++;
			}
			total += n;
		}
	is_int(bad, 0, "every item names a noted job with its operation");
	is_int(twice, 0, "no job is resent more than %d times", COALLOC_RESEND_STEPS);
	is_int((int) total, JOBS * COALLOC_RESEND_STEPS, "every job is resent %d times", COALLOC_RESEND_STEPS);
	is_int((int) coalloc_resend_count(&r), 0, "the table is empty after the last step");
	coalloc_resend_free(&r);
}

int main(void)
{
	test_one_job();
	test_newer_replaces();
	test_late_pass();
	test_many();
	return done_testing();
}
