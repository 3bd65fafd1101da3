/*
 * test_matrix.c - the Ousterhout matrix: placement, alternate scheduling,
 * row rotation, the priority row, local mode, and randomised invariants.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>

#include "coalloc/matrix.h"
#include "coalloc/rng.h"
#include "tap.h"

#define MAXJOBS 256

struct live {
	uint32_t id[MAXJOBS];
	unsigned ntasks[MAXJOBS];
	unsigned n;
};

static struct coalloc_matrix *mk(unsigned rows, unsigned cols,
				 enum coalloc_matrix_mode mode, bool prio)
{
	struct coalloc_matrix_config cfg = { .rows = rows, .cols = cols,
					     .mode = mode,
					     .priority_row = prio };

	return coalloc_matrix_create(&cfg);
}

static int live_index(const struct live *l, uint32_t id)
{
	for (unsigned i = 0; i < l->n; i++)
		if (l->id[i] == id)
			return (int)i;
	return -1;
}

/*
 * Check every invariant; returns NULL or what broke.  Cells hold known
 * jobs only (so no cell is used twice: each holds one id); a gang job has
 * exactly ntasks own cells, all in its home row; its replicas are whole
 * rows of exactly its columns; local mode keeps at most MPL per column
 * and puts a job's tasks in distinct columns.
 */
static const char *check(const struct coalloc_matrix *m,
			 const struct live *l, bool gang)
{
	unsigned rows = coalloc_matrix_rows(m), cols = coalloc_matrix_cols(m);
	unsigned own[MAXJOBS] = { 0 }, rep[MAXJOBS][COALLOC_MATRIX_MAX_ROWS];
	unsigned percol[MAXJOBS];

	memset(rep, 0, sizeof(rep));
	if (coalloc_matrix_jobs(m) != l->n)
		return "job count differs";
	for (unsigned c = 0; c < cols; c++) {
		unsigned used = 0;

		memset(percol, 0, sizeof(percol));
		for (unsigned r = 0; r < rows; r++) {
			bool replica;
			uint32_t id = coalloc_matrix_cell(m, r, c, &replica);
			int i;

			if (id == COALLOC_MATRIX_FREE)
				continue;
			i = live_index(l, id);
			if (i < 0)
				return "cell holds an unknown job";
			if (replica) {
				if (!gang)
					return "replica in local mode";
				rep[i][r]++;
				continue;
			}
			if (gang && (int)r != coalloc_matrix_job_row(m, id))
				return "gang task outside its home row";
			own[i]++;
			used++;
			if (++percol[i] > 1)
				return "two tasks of a job in one column";
		}
		if (used > rows)
			return "column over MPL";
		if (used != coalloc_matrix_column_load(m, c))
			return "column load mismatch";
	}
	for (unsigned i = 0; i < l->n; i++) {
		if (own[i] != l->ntasks[i])
			return "job does not hold exactly its tasks";
		for (unsigned r = 0; r < rows; r++)
			if (rep[i][r] && rep[i][r] != l->ntasks[i])
				return "partial replica";
	}
	return NULL;
}

static void live_add(struct live *l, uint32_t id, unsigned ntasks)
{
	l->id[l->n] = id;
	l->ntasks[l->n] = ntasks;
	l->n++;
}

static void live_del(struct live *l, uint32_t id)
{
	int i = live_index(l, id);

	l->n--;
	l->id[i] = l->id[l->n];
	l->ntasks[i] = l->ntasks[l->n];
}

static void test_gang(void)
{
	struct coalloc_matrix *m = mk(3, 8, COALLOC_MATRIX_GANG, false);
	struct live l = { .n = 0 };
	const char *err;
	bool rp;
	int replica_left = 0;

	is_int(coalloc_matrix_place(m, 1, 4), 0, "gang: A in row 0");
	is_int(coalloc_matrix_place(m, 2, 6), 1, "gang: B (6) first fits "
	       "row 1");
	is_int(coalloc_matrix_place(m, 3, 4), 0, "gang: C back in row 0");
	is_int(coalloc_matrix_place(m, 4, 8), 2, "gang: D takes row 2");
	is_int(coalloc_matrix_place(m, 5, 1), 1, "gang: E into row 1");
	is_int(coalloc_matrix_place(m, 6, 8), -ENOSPC, "gang: no room in any "
	       "row");
	is_int(coalloc_matrix_place(m, 1, 1), -EEXIST, "gang: duplicate id");
	is_int(coalloc_matrix_place(m, 0, 1), -EINVAL, "gang: id 0 reserved");
	is_int(coalloc_matrix_place(m, 7, 9), -EINVAL, "gang: wider than "
	       "the machine");
	live_add(&l, 1, 4);
	live_add(&l, 2, 6);
	live_add(&l, 3, 4);
	live_add(&l, 5, 1);
	coalloc_matrix_remove(m, 4);
	is_int(coalloc_matrix_remove(m, 4), -ENOENT, "remove twice");
	is_int(coalloc_matrix_replicate(m), 2, "alternate scheduling: A and C "
	       "replicated into row 2, B and E nowhere");
	is_int(coalloc_matrix_cell(m, 2, 0, &rp), 1, "A replica in row 2");
	ok(rp, "... marked as a replica");
	is_int(coalloc_matrix_cell(m, 2, 5, &rp), 3, "C replica in row 2");
	{
		uint32_t ids[4], rows[4];
		size_t n = coalloc_matrix_column_jobs(m, 6, ids, rows, 4);

		ok(n == 2 && ids[0] == 3 && rows[0] == 0x5 && ids[1] == 5 &&
		   rows[1] == 0x2,
		   "column 6: C in rows 0 and 2 (home and replica), E in row 1");
		ok(coalloc_matrix_column_jobs(m, 6, ids, rows, 1) == 1 &&
		   coalloc_matrix_column_jobs(m, 8, ids, rows, 4) == 0,
		   "... at most max jobs; no column 8");
	}
	err = check(m, &l, true);
	ok(!err, "invariants after replication (%s)", err ? err : "ok");
	is_int(coalloc_matrix_place(m, 8, 3), 2, "new job G takes the "
	       "replica cells of row 2");
	live_add(&l, 8, 3);
	for (unsigned c = 0; c < 8; c++)
		if (coalloc_matrix_cell(m, 2, c, NULL) == 1)
			replica_left++;
	is_int(replica_left, 0, "A's replica went away whole");
	is_int(coalloc_matrix_cell(m, 2, 4, &rp), 3, "C's replica stays");
	err = check(m, &l, true);
	ok(!err, "invariants after eviction (%s)", err ? err : "ok");

	is_int(coalloc_matrix_active_row(m), 0, "active row 0");
	is_int(coalloc_matrix_rotate(m), 1, "rotate to row 1");
	is_int(coalloc_matrix_rotate(m), 2, "rotate to row 2");
	is_int(coalloc_matrix_rotate(m), 0, "rotate wraps");
	coalloc_matrix_remove(m, 2);
	coalloc_matrix_remove(m, 5);
	live_del(&l, 2);
	live_del(&l, 5);
	is_int(coalloc_matrix_next_row(m), 2, "next_row: the row a rotation activates (2) ...");
	is_int(coalloc_matrix_active_row(m), 0, "... and the matrix unchanged");
	is_int(coalloc_matrix_rotate(m), 2, "rotation skips an empty row");
	is_int(coalloc_matrix_want_row(m, 1), 0, "a waiting job wants row 1");
	ok(coalloc_matrix_row_wanted(m, 1), "... row 1 is wanted");
	is_int(coalloc_matrix_rotate(m), 0, "rotation goes on to row 0 first");
	is_int(coalloc_matrix_rotate(m), 1, "then visits the empty wanted row");
	ok(!coalloc_matrix_row_wanted(m, 1), "... which forgets the wish");
	is_int(coalloc_matrix_rotate(m), 2, "and skips it again once empty");
	is_int(coalloc_matrix_want_row(m, 9), -EINVAL, "no row 9 to want");
	coalloc_matrix_want_row(m, 1);
	coalloc_matrix_set_active(m, 1);
	ok(!coalloc_matrix_row_wanted(m, 1), "set_active forgets it too");
	coalloc_matrix_destroy(m);
}

static void test_priority(void)
{
	struct coalloc_matrix *m = mk(3, 4, COALLOC_MATRIX_GANG, true);
	struct coalloc_matrix *n = mk(3, 4, COALLOC_MATRIX_GANG, false);

	is_int(coalloc_matrix_place(m, 1, 4), 1, "priority row kept free");
	is_int(coalloc_matrix_place(m, 2, 4), 2, "next row");
	is_int(coalloc_matrix_place(m, 3, 1), -ENOSPC, "ordinary jobs never "
	       "take the priority row");
	coalloc_matrix_rotate(m);
	coalloc_matrix_replicate(m);
	is_int(coalloc_matrix_place_priority(m, 9, 3), 0, "a preempting job "
	       "takes the priority row at once");
	is_int(coalloc_matrix_active_row(m), 0, "... and runs now");
	ok(coalloc_matrix_priority_busy(m) && !coalloc_matrix_priority_busy(n),
	   "... the priority row is busy");
	is_int(coalloc_matrix_rotate(m), 0, "rotation holds on it");
	is_int(coalloc_matrix_place_priority(m, 10, 2), -ENOSPC,
	       "only one column left in the priority row");
	coalloc_matrix_remove(m, 9);
	ok(coalloc_matrix_rotate(m) != 0, "time slicing resumes once it "
	   "leaves");
	is_int(coalloc_matrix_place_priority(n, 9, 1), -EINVAL,
	       "no priority row configured");
	coalloc_matrix_destroy(m);
	coalloc_matrix_destroy(n);
}

static void test_local(void)
{
	struct coalloc_matrix *m = mk(2, 4, COALLOC_MATRIX_LOCAL, false);
	struct live l = { .n = 0 };
	const char *err;

	is_int(coalloc_matrix_place(m, 1, 3), 0, "local: A on columns 0-2");
	is_int(coalloc_matrix_place(m, 2, 2), 0, "local: B least loaded");
	ok(coalloc_matrix_cell(m, 0, 3, NULL) == 2 &&
	   coalloc_matrix_cell(m, 1, 0, NULL) == 2,
	   "local: B on column 3 (empty) and column 0, in different rows");
	is_int(coalloc_matrix_place(m, 3, 4), -ENOSPC, "local: column 0 at "
	       "MPL, only three columns left");
	is_int(coalloc_matrix_place(m, 3, 3), 0, "local: C fits three");
	live_add(&l, 1, 3);
	live_add(&l, 2, 2);
	live_add(&l, 3, 3);
	err = check(m, &l, false);
	ok(!err, "local invariants (%s)", err ? err : "ok");
	is_int(coalloc_matrix_replicate(m), 0, "no replicas in local mode");
	coalloc_matrix_destroy(m);
}

static const char *random_run(uint64_t seed, bool gang)
{
	struct coalloc_rng rng;
	struct coalloc_matrix *m;
	struct live l = { .n = 0 };
	unsigned rows, cols;
	uint32_t next_id = 1;
	const char *err = NULL;

	coalloc_rng_seed(&rng, seed);
	rows = 1 + coalloc_rng_below(&rng, 6);
	cols = 1 + coalloc_rng_below(&rng, 24);
	m = mk(rows, cols, gang ? COALLOC_MATRIX_GANG : COALLOC_MATRIX_LOCAL,
	       false);
	for (int step = 0; step < 400 && !err; step++) {
		uint32_t op = coalloc_rng_below(&rng, 10);

		if (op < 5 && l.n < MAXJOBS) {
			unsigned k = 1 + coalloc_rng_below(&rng, cols);
			int rc = coalloc_matrix_place(m, next_id, k);

			if (rc >= 0)
				live_add(&l, next_id, k);
			else if (rc != -ENOSPC)
				err = "unexpected place error";
			next_id++;
		} else if (op < 8 && l.n) {
			uint32_t id = l.id[coalloc_rng_below(&rng, l.n)];

			if (coalloc_matrix_remove(m, id))
				err = "remove failed";
			live_del(&l, id);
		} else if (op == 8) {
			coalloc_matrix_replicate(m);
		} else {
			coalloc_matrix_rotate(m);
		}
		if (!err)
			err = check(m, &l, gang);
	}
	coalloc_matrix_destroy(m);
	return err;
}

static void test_random(void)
{
	const char *err = NULL;
	uint64_t bad = 0;

	for (uint64_t s = 1; s <= 200 && !err; s++) {
		err = random_run(s, s & 1);
		bad = s;
	}
	ok(!err, "200 random runs keep the invariants (%s%s%llu)",
	   err ? err : "ok", err ? " at seed " : ", last seed ",
	   (unsigned long long)bad);
}

/* Placement on columns a scheduler chose (the select plugin's way). */
static void test_place_at(void)
{
	struct coalloc_matrix *m = mk(3, 4, COALLOC_MATRIX_GANG, true);
	struct coalloc_matrix *l = mk(2, 4, COALLOC_MATRIX_LOCAL, false);
	const uint32_t all[] = { 0, 1, 2, 3 }, low[] = { 0, 1 },
		       high[] = { 2, 3 }, bad[] = { 1, 0 };
	bool replica;

	is_int(coalloc_matrix_place_at(m, 1, -1, all, 4, false), 1,
	       "first ordinary row");
	is_int(coalloc_matrix_place_at(m, 2, -1, low, 2, false), 2,
	       "row 1 full: next row");
	is_int(coalloc_matrix_place_at(m, 3, 0, high, 2, false), -EINVAL,
	       "ordinary job refused in the priority row");
	is_int(coalloc_matrix_place_at(m, 3, -1, bad, 2, false), -EINVAL,
	       "columns out of order refused");
	is_int(coalloc_matrix_place_at(m, 3, 1, high, 2, false), -ENOSPC,
	       "named row without room");
	ok(coalloc_matrix_cell_usable(m, 2, 3) &&
	   !coalloc_matrix_cell_usable(m, 2, 0), "cell_usable");
	coalloc_matrix_set_active(m, 1);
	ok(coalloc_matrix_job_runs(m, 1) && !coalloc_matrix_job_runs(m, 2),
	   "only the active row's jobs run");
	coalloc_matrix_replicate(m);
	is_int(coalloc_matrix_cell(m, 0, 0, &replica), 1,
	       "job 1 replicated into the free priority row");
	ok(replica, "... as a replica");
	ok(coalloc_matrix_job_in_row(m, 1, 0) && coalloc_matrix_job_in_row(m, 1, 1) &&
	   !coalloc_matrix_job_in_row(m, 1, 2) && !coalloc_matrix_job_in_row(m, 77, 1),
	   "job_in_row: home row and replica, not the third row, no unknown job");
	is_int(coalloc_matrix_place_at(m, 9, -1, high, 2, true), 0,
	       "preempting job in the priority row");
	is_int(coalloc_matrix_cell(m, 0, 0, NULL), 0,
	       "job 1's replica gave way whole");
	coalloc_matrix_replicate(m);
	ok(coalloc_matrix_job_priority(m, 9) && !coalloc_matrix_job_priority(m, 1),
	   "job_priority");
	ok(coalloc_matrix_job_runs(m, 9) && coalloc_matrix_job_runs(m, 2) &&
	   !coalloc_matrix_job_runs(m, 1),
	   "priority row active: its job and the replica beside it run");
	is_int(coalloc_matrix_set_active(m, 3), -EINVAL, "no row 3");
	{
		uint32_t ids[8];
		size_t n = coalloc_matrix_job_ids(m, ids, 8);

		is_int(n, 3, "job_ids: the three jobs");
		ok(ids[0] + ids[1] + ids[2] == 1 + 2 + 9, "... 1, 2 and 9");
		is_int(coalloc_matrix_job_ids(m, ids, 2), 2, "... at most max");
	}
	ok(coalloc_matrix_row_busy(m, 0, false), "row_busy: own cells");
	coalloc_matrix_remove(m, 9);
	ok(!coalloc_matrix_row_busy(m, 0, false) &&
	   coalloc_matrix_row_busy(m, 0, true),
	   "row_busy: replicas alone count only when asked");
	ok(!coalloc_matrix_row_busy(m, 5, true), "row_busy: no such row");

	is_int(coalloc_matrix_place_at(l, 1, -1, all, 4, false), 0, "local");
	is_int(coalloc_matrix_place_at(l, 2, 7, low, 2, false), 0,
	       "local ignores the row");
	ok(!coalloc_matrix_cell_usable(l, 0, 0) &&
	   coalloc_matrix_cell_usable(l, 0, 2), "local: columns at MPL full");
	is_int(coalloc_matrix_place_at(l, 3, -1, low, 2, false), -ENOSPC,
	       "local: MPL jobs per column at most");
	is_int(coalloc_matrix_place_at(l, 3, -1, high, 2, true), -EINVAL,
	       "local: no priority row");
	ok(coalloc_matrix_job_runs(l, 1) && coalloc_matrix_job_runs(l, 2),
	   "local: every job runs");
	coalloc_matrix_destroy(m);
	coalloc_matrix_destroy(l);
}

int main(void)
{
	test_gang();
	test_place_at();
	test_priority();
	test_local();
	test_random();
	return done_testing();
}
