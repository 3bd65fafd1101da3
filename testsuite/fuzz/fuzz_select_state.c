/*
 * fuzz_select_state.c - select/coalloc's state file
 * (StateSaveLocation/coalloc_state), read by lib/coalloc/statefile.c
 * when slurmctld starts.  The file is slurmctld's own, but a bad disk, a
 * cut write or an administrator's edit may leave anything in it: no text
 * may crash slurmctld or restore a job to a row that does not exist.
 *
 * The input is the file's bytes and their length, not a C string (ASan
 * sees any read past the end).  Promises checked (statefile.h): a
 * refusal is a message "line N: ..." and leaves st empty; an accepted
 * file has rows within COALLOC_STATEFILE_MAX_ROW, job ids >= 1 and each
 * once, queues distinct and each the global one or a site; st is freed
 * either way (LeakSanitizer sees the rest).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fuzz.h"

#include "coalloc/policy.h"
#include "coalloc/statefile.h"

static int _empty(const struct coalloc_statefile *st)
{
	return !st->has_active && !st->active && !st->jobs && !st->njobs &&
	       !st->nqueues;
}

static void _check_accepted(const struct coalloc_statefile *st)
{
	FUZZ_CHECK(!st->has_active || st->active <= COALLOC_STATEFILE_MAX_ROW);
	FUZZ_CHECK(!st->njobs == !st->jobs);
	for (size_t i = 0; i < st->njobs; i++) {
		FUZZ_CHECK(st->jobs[i].id >= 1);
		FUZZ_CHECK(st->jobs[i].row <= COALLOC_STATEFILE_MAX_ROW);
		for (size_t k = 0; k < i; k++)
			FUZZ_CHECK(st->jobs[k].id != st->jobs[i].id);
	}
	FUZZ_CHECK(st->nqueues <= COALLOC_MAX_SITES + 1);
	for (size_t i = 0; i < st->nqueues; i++) {
		int q = st->queues[i].queue;

		FUZZ_CHECK(q == COALLOC_QUEUE_GLOBAL ||
			   (q >= 0 && q < COALLOC_MAX_SITES));
		for (size_t k = 0; k < i; k++)
			FUZZ_CHECK(st->queues[k].queue != q);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct coalloc_statefile st;
	char err[256];

	memset(err, 0, sizeof(err));
	if (coalloc_statefile_parse((const char *)data, size, &st, err,
				    sizeof(err))) {
		FUZZ_CHECK(fuzz_message_ok(err, sizeof(err)));
		FUZZ_CHECK(!strncmp(err, "line ", 5));
		FUZZ_CHECK(_empty(&st));
	} else {
		_check_accepted(&st);
	}
	coalloc_statefile_free(&st);
	FUZZ_CHECK(_empty(&st));
	return 0;
}
