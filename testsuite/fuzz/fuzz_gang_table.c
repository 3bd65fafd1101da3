/*
 * fuzz_gang_table.c - the gang table slurmctld sends each node agent
 * (lib/cosched_proto/gang.c), parsed by the agent before it freezes
 * anything.  The sender is root on a host of the realm, possibly
 * compromised: no table may crash or stall the agent.
 *
 * The input is the payload as munge_decode hands it over: bytes and a
 * length, not a C string.  Promises checked (gang.h): a refusal is a
 * printable message and leaves the output untouched; an accepted table
 * is within its bounds, formats back into a line the parser accepts
 * again as the same table, and gives every quantum a row below rows (a
 * guard table running no row: none); a guard table has no slice and
 * running rows within the matrix, a quantum table the reverse;
 * with a self name, the same text is accepted exactly when it is
 * addressed to that node.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fuzz.h"

#include "cosched_proto/gang.h"
#include "num/errbuf.h"

static int _printable(const char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			return 0;
	return 1;
}

static void _check_accepted(const struct gang_table *t)
{
	static struct gang_table back;
	char line[COSCHED_REQUEST_LEN + 1], err[ERRBUF_LEN];
	uint32_t seen = 0;
	int n;

	FUZZ_CHECK(t->epoch >= 1 && t->rows >= 2 && t->rows <= GANG_ROWS_MAX);
	/* a guard table: slurmctld's running rows, no slice */
	FUZZ_CHECK(t->guard ? t->slice_ms == 0 && t->run < 1u << t->rows :
		   t->slice_ms >= GANG_SLICE_MS_MIN &&
		   t->slice_ms <= GANG_SLICE_MS_MAX && !t->run);
	FUZZ_CHECK(t->first <= 1 && (!t->priority || t->first));
	FUZZ_CHECK(t->njobs <= GANG_JOBS_MAX);
	for (size_t i = 0; i < t->njobs; i++) {
		FUZZ_CHECK(t->jobs[i].job && t->jobs[i].rows &&
			   !(t->jobs[i].rows & seen) &&
			   t->jobs[i].rows < 1u << t->rows);
		seen |= t->jobs[i].rows;
	}
	for (uint64_t q = 0; q < 40; q++)	/* none: a guard running nothing */
		FUZZ_CHECK(gang_row_of(t, q) < t->rows ||
			   (t->guard && !t->run &&
			    gang_row_of(t, q) == UINT32_MAX));
	n = gang_table_format(t, line, sizeof(line));
	FUZZ_CHECK(n > 0);
	FUZZ_CHECK(!gang_table_parse(line, (size_t)n, t->node, &back, err,
				     sizeof(err)));
	FUZZ_CHECK(back.epoch == t->epoch && back.njobs == t->njobs &&
		   back.guard == t->guard && back.run == t->run &&
		   !strcmp(back.node, t->node));
	for (size_t i = 0; i < t->njobs; i++)
		FUZZ_CHECK(back.jobs[i].job == t->jobs[i].job &&
			   back.jobs[i].rows == t->jobs[i].rows);
}

/* Parse as node self (or anyone: NULL); 0 when accepted. */
static int _parse(const char *data, size_t size, const char *self,
		  struct gang_table *t)
{
	static struct gang_table untouched;
	char err[ERRBUF_LEN];
	int rc;

	memset(err, 0, sizeof(err));
	memset(t, 0x5a, sizeof(*t));
	memset(&untouched, 0x5a, sizeof(untouched));
	rc = gang_table_parse(data, size, self, t, err, sizeof(err));
	FUZZ_CHECK(rc == 0 || rc == -1);
	if (rc) {
		FUZZ_CHECK(fuzz_message_ok(err, sizeof(err)) && _printable(err));
		FUZZ_CHECK(!memcmp(t, &untouched, sizeof(*t)));
	} else {
		_check_accepted(t);
	}
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct gang_table t;
	const char *text = (const char *)data;
	char node[COSCHED_NODE_NAME_LEN] = "";
	int any = _parse(text, size, NULL, &t);

	if (!any)
		memcpy(node, t.node, sizeof(node));
	FUZZ_CHECK(_parse(text, size, "n1", &t) == (any || strcmp(node, "n1") ? -1 : 0));
	FUZZ_CHECK(_parse(text, size, "n2", &t) == (any || strcmp(node, "n2") ? -1 : 0));
	return 0;
}
