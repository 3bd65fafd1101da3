/*
 * matrix.h - the Ousterhout matrix (Zhang et al., "Impact of Workload and
 * System Parameters on Next Generation Cluster Scheduling Mechanisms",
 * section 2.2 and 2.3).
 *
 * Rows are time slices, as many as the multiprogramming level (MPL);
 * columns are processors (or nodes).  Two modes:
 *
 *  - gang: a job of k tasks takes k cells of one row, the first row with
 *    k free cells.  "Alternate scheduling" replicates a running job into
 *    other rows where all of its columns are free, so idle slots do useful
 *    work without breaking the coscheduling of any job; replicas give way
 *    at once to a job that needs their cells.  Rows are activated in turn
 *    (row rotation = time slicing).  With a priority row, row 0 is kept
 *    for preempting jobs: ordinary jobs never take it, a preempting job
 *    takes it at once and the matrix stays on it while it holds a job.
 *
 *  - local: a job of k tasks takes one free cell in each of k columns,
 *    in any rows, at most MPL per column (what local and dynamic
 *    coscheduling use: no row constraint).
 *
 * "Gang" here means gang scheduling.  It is unrelated to the GS
 * (global-scheduler) queue policy of policy.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_MATRIX_H
#define COALLOC_MATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The job id of an empty cell: job ids given to the matrix must be > 0. */
#define COALLOC_MATRIX_FREE 0u
/* Most rows (MPL) a matrix has. */
#define COALLOC_MATRIX_MAX_ROWS 64

enum coalloc_matrix_mode {
	COALLOC_MATRIX_GANG,
	COALLOC_MATRIX_LOCAL,
};

struct coalloc_matrix_config {
	unsigned rows;			/* MPL, 1..COALLOC_MATRIX_MAX_ROWS */
	unsigned cols;			/* processors or nodes, > 0 */
	enum coalloc_matrix_mode mode;
	bool priority_row;		/* gang: reserve row 0 (rows >= 2) */
};

struct coalloc_matrix;

/* NULL with errno set (EINVAL, ENOMEM) on failure. */
struct coalloc_matrix *
coalloc_matrix_create(const struct coalloc_matrix_config *cfg);
void coalloc_matrix_destroy(struct coalloc_matrix *m);

/*
 * Place job id with ntasks tasks.  Gang: in the first row (the priority
 * row excluded) with ntasks free cells, lowest columns first, evicting
 * replicas in the way; returns that row.  Local: in the ntasks least
 * loaded columns (ties to the lowest column), lowest free row of each;
 * returns 0.  Errors: -EINVAL (id 0, ntasks 0 or > cols), -EEXIST,
 * -ENOSPC (no room in any row / too few columns below MPL), -ENOMEM.
 */
int coalloc_matrix_place(struct coalloc_matrix *m, uint32_t id,
			 unsigned ntasks);

/*
 * Gang with a priority row only: place a preempting job in the priority
 * row (evicting replicas there) and make it the active row at once.
 * Returns 0 (the row), -EINVAL (no priority row, bad args), -EEXIST,
 * -ENOSPC (other preempting jobs hold the cells), -ENOMEM.
 */
int coalloc_matrix_place_priority(struct coalloc_matrix *m, uint32_t id,
				  unsigned ntasks);

/*
 * Place job id on given columns (a scheduler that picked the nodes itself),
 * cols[0..n) strictly ascending.  Gang: in row 'row', or with row < 0 the
 * first ordinary row where every column is free (replicas give way); with
 * 'priority' in the priority row, which becomes active at once.  Local:
 * one cell in each column below MPL ('row' is ignored).  Returns the row,
 * or -EINVAL (bad args, a priority job without a priority row, an
 * ordinary job in the priority row), -EEXIST, -ENOSPC, -ENOMEM.
 */
int coalloc_matrix_place_at(struct coalloc_matrix *m, uint32_t id, int row,
			    const uint32_t *cols, unsigned n, bool priority);

/* Could a new job take this cell: free, or a replica that gives way
 * (gang); local mode: the column is below MPL (row is ignored). */
bool coalloc_matrix_cell_usable(const struct coalloc_matrix *m, unsigned row,
				unsigned col);

/* Does the job run now: it has cells (home or replica) in the active row
 * (gang), or it is in the matrix at all (local).  False when unknown. */
bool coalloc_matrix_job_runs(const struct coalloc_matrix *m, uint32_t id);

/* Does the job have cells (home or replica) in row (gang), or is it in
 * the matrix at all (local)?  False when unknown. */
bool coalloc_matrix_job_in_row(const struct coalloc_matrix *m, uint32_t id,
			       unsigned row);

/* Was it placed as a preempting job (in the priority row)? */
bool coalloc_matrix_job_priority(const struct coalloc_matrix *m, uint32_t id);

/* Does the row hold a job's own cells (or, with replicas, any cell)? */
bool coalloc_matrix_row_busy(const struct coalloc_matrix *m, unsigned row,
			     bool replicas);

/* The ids of the jobs in the matrix, at most max; returns how many. */
size_t coalloc_matrix_job_ids(const struct coalloc_matrix *m, uint32_t *ids,
			      size_t max);

/* Make a row active (restoring saved state).  Returns 0 or -EINVAL. */
int coalloc_matrix_set_active(struct coalloc_matrix *m, unsigned row);

/* Remove a job with all its replicas.  Returns 0 or -ENOENT. */
int coalloc_matrix_remove(struct coalloc_matrix *m, uint32_t id);

/*
 * Gang only: alternate scheduling.  Replicate every job into each other
 * row where all of its columns are free.  Returns the replicas added.
 */
unsigned coalloc_matrix_replicate(struct coalloc_matrix *m);

/*
 * Time slicing: activate the next row that holds any job or is wanted
 * (cyclically); the priority row while it holds a preempting job.
 * Returns the new active row (unchanged when the matrix is empty).
 */
unsigned coalloc_matrix_rotate(struct coalloc_matrix *m);

/* The row coalloc_matrix_rotate() would activate, the matrix unchanged. */
unsigned coalloc_matrix_next_row(const struct coalloc_matrix *m);
unsigned coalloc_matrix_active_row(const struct coalloc_matrix *m);

/*
 * Gang only: a job waits to start in an inactive row (starting it now
 * would run it beside the active row's jobs on its nodes).  The rotation
 * then visits that row even while it is empty; activating the row
 * forgets the wish.  Returns 0, or -EINVAL (no such row, not gang).
 */
int coalloc_matrix_want_row(struct coalloc_matrix *m, unsigned row);
bool coalloc_matrix_row_wanted(const struct coalloc_matrix *m, unsigned row);

/* The job in a cell (COALLOC_MATRIX_FREE if none); *replica when the
 * cell holds a replica rather than the job's home cells. */
uint32_t coalloc_matrix_cell(const struct coalloc_matrix *m, unsigned row,
			     unsigned col, bool *replica);

/* Gang: a job's home row; local: 0.  -ENOENT for an unknown job. */
int coalloc_matrix_job_row(const struct coalloc_matrix *m, uint32_t id);

/*
 * The jobs with a cell in column col, at most max: their ids and the rows
 * each holds there as a bit set (bit r: row r, home cells and replicas
 * alike), in the order of the rows; returns how many.  What a node's agent
 * needs to switch the rows itself (cosched_proto/gang.h).
 */
size_t coalloc_matrix_column_jobs(const struct coalloc_matrix *m,
				  unsigned col, uint32_t *ids, uint32_t *rows,
				  size_t max);

/* Gang with a priority row: a preempting job holds it (it runs alone). */
bool coalloc_matrix_priority_busy(const struct coalloc_matrix *m);

/* Cells of a column held by jobs' own tasks (replicas not counted). */
unsigned coalloc_matrix_column_load(const struct coalloc_matrix *m,
				    unsigned col);

unsigned coalloc_matrix_rows(const struct coalloc_matrix *m);
enum coalloc_matrix_mode coalloc_matrix_mode(const struct coalloc_matrix *m);
unsigned coalloc_matrix_cols(const struct coalloc_matrix *m);
size_t coalloc_matrix_jobs(const struct coalloc_matrix *m);

#endif /* COALLOC_MATRIX_H */
