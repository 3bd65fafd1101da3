/*
 * matrix.c - the Ousterhout matrix, gang and local modes (see matrix.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "coalloc/idmap.h"
#include "coalloc/matrix.h"

struct cell {
	uint32_t id;
	bool replica;
};

struct mjob {
	uint32_t id;		/* 0: free slot */
	unsigned ntasks;
	int home_row;		/* gang; -1 in local mode */
	uint32_t *col;		/* per task */
	uint16_t *row;		/* per task (local mode) */
	uint64_t replicas;	/* gang: rows holding a replica */
	bool priority;
};

struct coalloc_matrix {
	struct coalloc_matrix_config cfg;
	struct cell *cells;	/* rows x cols, row major */
	unsigned *row_used;	/* occupied cells per row, replicas included */
	unsigned *col_load;	/* own tasks per column */
	unsigned active;
	uint64_t wanted;	/* rows a waiting job will start in */
	struct mjob *jobs;
	size_t njobs_cap, njobs;
	struct coalloc_idmap ids;
	uint32_t *scratch;	/* cols entries */
};

static struct cell *cell_at(const struct coalloc_matrix *m, unsigned r,
			    unsigned c)
{
	return &m->cells[(size_t)r * m->cfg.cols + c];
}

struct coalloc_matrix *
coalloc_matrix_create(const struct coalloc_matrix_config *cfg)
{
	struct coalloc_matrix *m;

	if (!cfg || cfg->rows < 1 || cfg->rows > COALLOC_MATRIX_MAX_ROWS ||
	    cfg->cols < 1 || cfg->cols > (1U << 24) ||
	    (cfg->priority_row &&
	     (cfg->mode != COALLOC_MATRIX_GANG || cfg->rows < 2))) {
		errno = EINVAL;
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		goto fail;
	m->cfg = *cfg;
	m->cells = calloc((size_t)cfg->rows * cfg->cols, sizeof(*m->cells));
	m->row_used = calloc(cfg->rows, sizeof(*m->row_used));
	m->col_load = calloc(cfg->cols, sizeof(*m->col_load));
	m->scratch = calloc(cfg->cols, sizeof(*m->scratch));
	if (!m->cells || !m->row_used || !m->col_load || !m->scratch)
		goto fail;
	if (coalloc_idmap_init(&m->ids))
		goto fail;
	return m;
fail:
	if (m) {
		free(m->cells);
		free(m->row_used);
		free(m->col_load);
		free(m->scratch);
		free(m);
	}
	errno = ENOMEM;
	return NULL;
}

static void mjob_free(struct mjob *j)
{
	free(j->col);
	free(j->row);
	memset(j, 0, sizeof(*j));
}

void coalloc_matrix_destroy(struct coalloc_matrix *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->njobs_cap; i++)
		mjob_free(&m->jobs[i]);
	free(m->jobs);
	coalloc_idmap_free(&m->ids);
	free(m->cells);
	free(m->row_used);
	free(m->col_load);
	free(m->scratch);
	free(m);
}

/* A new job record (columns to be filled in), or NULL. */
static struct mjob *mjob_new(struct coalloc_matrix *m, uint32_t id,
			     unsigned ntasks)
{
	size_t slot = 0;
	struct mjob *j;

	while (slot < m->njobs_cap && m->jobs[slot].id != COALLOC_MATRIX_FREE)
		slot++;
	if (slot == m->njobs_cap) {
		size_t cap = m->njobs_cap ? m->njobs_cap * 2 : 16;
		struct mjob *jobs = realloc(m->jobs, cap * sizeof(*jobs));

		if (!jobs)
			return NULL;
		memset(jobs + m->njobs_cap, 0,
		       (cap - m->njobs_cap) * sizeof(*jobs));
		m->jobs = jobs;
		m->njobs_cap = cap;
	}
	j = &m->jobs[slot];
	j->col = calloc(ntasks, sizeof(*j->col));
	j->row = calloc(ntasks, sizeof(*j->row));
	if (!j->col || !j->row)
		goto fail;
	if (coalloc_idmap_put(&m->ids, id, (int32_t)slot))
		goto fail;
	j->id = id;
	j->ntasks = ntasks;
	j->home_row = -1;
	m->njobs++;
	return j;
fail:
	mjob_free(j);
	return NULL;
}

static struct mjob *mjob_find(const struct coalloc_matrix *m, uint32_t id)
{
	int32_t slot = coalloc_idmap_get(&m->ids, id);

	return slot < 0 ? NULL : &m->jobs[slot];
}

static void cell_set(struct coalloc_matrix *m, unsigned r, unsigned c,
		     uint32_t id, bool replica)
{
	struct cell *cl = cell_at(m, r, c);

	if (cl->id == COALLOC_MATRIX_FREE)
		m->row_used[r]++;
	cl->id = id;
	cl->replica = replica;
}

static void cell_clear(struct coalloc_matrix *m, unsigned r, unsigned c)
{
	struct cell *cl = cell_at(m, r, c);

	if (cl->id != COALLOC_MATRIX_FREE)
		m->row_used[r]--;
	cl->id = COALLOC_MATRIX_FREE;
	cl->replica = false;
}

static void drop_replica(struct coalloc_matrix *m, struct mjob *j, unsigned r)
{
	for (unsigned k = 0; k < j->ntasks; k++)
		cell_clear(m, r, j->col[k]);
	j->replicas &= ~(1ULL << r);
}

static bool cell_usable(const struct coalloc_matrix *m, unsigned r,
			unsigned c)
{
	const struct cell *cl = cell_at(m, r, c);

	return cl->id == COALLOC_MATRIX_FREE || cl->replica;
}

bool coalloc_matrix_cell_usable(const struct coalloc_matrix *m, unsigned row,
				unsigned col)
{
	if (col >= m->cfg.cols)
		return false;
	if (m->cfg.mode == COALLOC_MATRIX_LOCAL)
		return m->col_load[col] < m->cfg.rows;
	return row < m->cfg.rows && cell_usable(m, row, col);
}

/* Columns of row r a new job may take (free or replica), lowest first,
 * into m->scratch; returns true when at least ntasks were found. */
static bool row_candidates(struct coalloc_matrix *m, unsigned r,
			   unsigned ntasks)
{
	unsigned found = 0;

	for (unsigned c = 0; c < m->cfg.cols && found < ntasks; c++)
		if (cell_usable(m, r, c))
			m->scratch[found++] = c;
	return found == ntasks;
}

/* Take the cells of m->scratch in row r for j, evicting replicas. */
static void gang_take_row(struct coalloc_matrix *m, struct mjob *j,
			  unsigned r)
{
	for (unsigned k = 0; k < j->ntasks; k++) {
		unsigned c = m->scratch[k];
		struct cell *cl = cell_at(m, r, c);

		/* a replica must stay whole in its row or go */
		if (cl->id != COALLOC_MATRIX_FREE && cl->replica)
			drop_replica(m, mjob_find(m, cl->id), r);
		cell_set(m, r, c, j->id, false);
		j->col[k] = c;
		j->row[k] = (uint16_t)r;
		m->col_load[c]++;
	}
	j->home_row = (int)r;
}

static int gang_place(struct coalloc_matrix *m, uint32_t id, unsigned ntasks)
{
	unsigned first = m->cfg.priority_row ? 1 : 0;
	struct mjob *j;

	for (unsigned r = first; r < m->cfg.rows; r++) {
		if (!row_candidates(m, r, ntasks))
			continue;
		j = mjob_new(m, id, ntasks);
		if (!j)
			return -ENOMEM;
		gang_take_row(m, j, r);
		return (int)r;
	}
	return -ENOSPC;
}

/* Local mode: the ntasks least loaded columns below MPL, lowest first. */
static bool local_candidates(struct coalloc_matrix *m, unsigned ntasks)
{
	unsigned found = 0;

	for (unsigned load = 0; load < m->cfg.rows && found < ntasks; load++)
		for (unsigned c = 0; c < m->cfg.cols && found < ntasks; c++)
			if (m->col_load[c] == load)
				m->scratch[found++] = c;
	return found == ntasks;
}

/* A new job with one cell in each column, the lowest free row of each. */
static int local_take(struct coalloc_matrix *m, uint32_t id,
		      const uint32_t *cols, unsigned n)
{
	struct mjob *j = mjob_new(m, id, n);

	if (!j)
		return -ENOMEM;
	for (unsigned k = 0; k < n; k++) {
		unsigned c = cols[k], r = 0;

		while (cell_at(m, r, c)->id != COALLOC_MATRIX_FREE)
			r++;
		cell_set(m, r, c, id, false);
		j->col[k] = c;
		j->row[k] = (uint16_t)r;
		m->col_load[c]++;
	}
	return 0;
}

static int local_place(struct coalloc_matrix *m, uint32_t id, unsigned ntasks)
{
	if (!local_candidates(m, ntasks))
		return -ENOSPC;
	return local_take(m, id, m->scratch, ntasks);
}

static int place_check(const struct coalloc_matrix *m, uint32_t id,
		       unsigned ntasks)
{
	if (id == COALLOC_MATRIX_FREE || ntasks == 0 || ntasks > m->cfg.cols)
		return -EINVAL;
	if (mjob_find(m, id))
		return -EEXIST;
	return 0;
}

int coalloc_matrix_place(struct coalloc_matrix *m, uint32_t id,
			 unsigned ntasks)
{
	int rc = place_check(m, id, ntasks);

	if (rc)
		return rc;
	if (m->cfg.mode == COALLOC_MATRIX_LOCAL)
		return local_place(m, id, ntasks);
	return gang_place(m, id, ntasks);
}

int coalloc_matrix_place_priority(struct coalloc_matrix *m, uint32_t id,
				  unsigned ntasks)
{
	struct mjob *j;
	int rc;

	if (!m->cfg.priority_row)
		return -EINVAL;
	rc = place_check(m, id, ntasks);
	if (rc)
		return rc;
	if (!row_candidates(m, 0, ntasks))
		return -ENOSPC;
	j = mjob_new(m, id, ntasks);
	if (!j)
		return -ENOMEM;
	gang_take_row(m, j, 0);
	j->priority = true;
	m->active = 0;
	return 0;
}

/* Copy cols into m->scratch when they are usable in row r (gang). */
static bool row_has_columns(struct coalloc_matrix *m, unsigned r,
			    const uint32_t *cols, unsigned n)
{
	for (unsigned k = 0; k < n; k++) {
		if (!cell_usable(m, r, cols[k]))
			return false;
		m->scratch[k] = cols[k];
	}
	return true;
}

static int gang_place_at(struct coalloc_matrix *m, uint32_t id, int row,
			 const uint32_t *cols, unsigned n, bool priority)
{
	unsigned first = m->cfg.priority_row ? 1 : 0, r;
	struct mjob *j;

	if (priority && (!m->cfg.priority_row || row > 0))
		return -EINVAL;
	if (priority)
		row = 0;
	else if (row >= 0 && (unsigned)row < first)
		return -EINVAL;
	if (row >= (int)m->cfg.rows)
		return -EINVAL;
	if (row >= 0) {
		r = (unsigned)row;
		if (!row_has_columns(m, r, cols, n))
			return -ENOSPC;
	} else {
		for (r = first; r < m->cfg.rows; r++)
			if (row_has_columns(m, r, cols, n))
				break;
		if (r == m->cfg.rows)
			return -ENOSPC;
	}
	j = mjob_new(m, id, n);
	if (!j)
		return -ENOMEM;
	gang_take_row(m, j, r);
	if (priority) {
		j->priority = true;
		m->active = 0;
	}
	return (int)r;
}

static int local_place_at(struct coalloc_matrix *m, uint32_t id,
			  const uint32_t *cols, unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		if (m->col_load[cols[k]] >= m->cfg.rows)
			return -ENOSPC;
	return local_take(m, id, cols, n);
}

int coalloc_matrix_place_at(struct coalloc_matrix *m, uint32_t id, int row,
			    const uint32_t *cols, unsigned n, bool priority)
{
	int rc = place_check(m, id, n);

	if (rc)
		return rc;
	for (unsigned k = 0; k < n; k++)
		if (!cols || cols[k] >= m->cfg.cols ||
		    (k && cols[k] <= cols[k - 1]))
			return -EINVAL;
	if (m->cfg.mode == COALLOC_MATRIX_LOCAL)
		return priority ? -EINVAL : local_place_at(m, id, cols, n);
	return gang_place_at(m, id, row, cols, n, priority);
}

bool coalloc_matrix_job_in_row(const struct coalloc_matrix *m, uint32_t id,
			       unsigned row)
{
	const struct mjob *j = mjob_find(m, id);

	if (!j)
		return false;
	if (m->cfg.mode == COALLOC_MATRIX_LOCAL)
		return true;
	return j->home_row == (int)row || (j->replicas & (1ULL << row));
}

bool coalloc_matrix_job_runs(const struct coalloc_matrix *m, uint32_t id)
{
	return coalloc_matrix_job_in_row(m, id, m->active);
}

bool coalloc_matrix_job_priority(const struct coalloc_matrix *m, uint32_t id)
{
	const struct mjob *j = mjob_find(m, id);

	return j && j->priority;
}

int coalloc_matrix_set_active(struct coalloc_matrix *m, unsigned row)
{
	if (row >= m->cfg.rows)
		return -EINVAL;
	m->active = row;
	m->wanted &= ~(1ULL << row);
	return 0;
}

int coalloc_matrix_remove(struct coalloc_matrix *m, uint32_t id)
{
	struct mjob *j = mjob_find(m, id);

	if (!j)
		return -ENOENT;
	for (unsigned r = 0; r < m->cfg.rows; r++)
		if (j->replicas & (1ULL << r))
			drop_replica(m, j, r);
	for (unsigned k = 0; k < j->ntasks; k++) {
		cell_clear(m, j->row[k], j->col[k]);
		m->col_load[j->col[k]]--;
	}
	coalloc_idmap_del(&m->ids, id);
	mjob_free(j);
	m->njobs--;
	return 0;
}

static bool columns_free(const struct coalloc_matrix *m,
			 const struct mjob *j, unsigned r)
{
	for (unsigned k = 0; k < j->ntasks; k++)
		if (cell_at(m, r, j->col[k])->id != COALLOC_MATRIX_FREE)
			return false;
	return true;
}

unsigned coalloc_matrix_replicate(struct coalloc_matrix *m)
{
	unsigned added = 0;

	if (m->cfg.mode != COALLOC_MATRIX_GANG)
		return 0;
	for (size_t i = 0; i < m->njobs_cap; i++) {
		struct mjob *j = &m->jobs[i];

		if (j->id == COALLOC_MATRIX_FREE)
			continue;
		for (unsigned r = 0; r < m->cfg.rows; r++) {
			if ((int)r == j->home_row || !columns_free(m, j, r))
				continue;
			for (unsigned k = 0; k < j->ntasks; k++)
				cell_set(m, r, j->col[k], j->id, true);
			j->replicas |= 1ULL << r;
			added++;
		}
	}
	return added;
}

bool coalloc_matrix_row_busy(const struct coalloc_matrix *m, unsigned row,
			     bool replicas)
{
	if (row >= m->cfg.rows)
		return false;
	if (replicas)
		return m->row_used[row] > 0;
	for (unsigned c = 0; c < m->cfg.cols; c++) {
		const struct cell *cl = cell_at(m, row, c);

		if (cl->id != COALLOC_MATRIX_FREE && !cl->replica)
			return true;
	}
	return false;
}

static bool priority_row_busy(const struct coalloc_matrix *m)
{
	return m->cfg.priority_row && coalloc_matrix_row_busy(m, 0, false);
}

bool coalloc_matrix_priority_busy(const struct coalloc_matrix *m)
{
	return m->cfg.mode == COALLOC_MATRIX_GANG && priority_row_busy(m);
}

size_t coalloc_matrix_column_jobs(const struct coalloc_matrix *m,
				  unsigned col, uint32_t *ids, uint32_t *rows,
				  size_t max)
{
	size_t n = 0, k;

	if (col >= m->cfg.cols)
		return 0;
	for (unsigned r = 0; r < m->cfg.rows && r < 32; r++) {
		uint32_t id = cell_at(m, r, col)->id;

		if (id == COALLOC_MATRIX_FREE)
			continue;
		for (k = 0; k < n && ids[k] != id; k++)
			;
		if (k == n) {
			if (n == max)
				continue;
			ids[n] = id;
			rows[n++] = 0;
		}
		rows[k] |= 1u << r;
	}
	return n;
}

size_t coalloc_matrix_job_ids(const struct coalloc_matrix *m, uint32_t *ids,
			      size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < m->njobs_cap && n < max; i++)
		if (m->jobs[i].id != COALLOC_MATRIX_FREE)
			ids[n++] = m->jobs[i].id;
	return n;
}

unsigned coalloc_matrix_next_row(const struct coalloc_matrix *m)
{
	if (priority_row_busy(m))
		return 0;
	for (unsigned i = 1; i <= m->cfg.rows; i++) {
		unsigned r = (m->active + i) % m->cfg.rows;

		if (m->row_used[r] || (m->wanted & (1ULL << r)))
			return r;
	}
	return m->active;
}

unsigned coalloc_matrix_rotate(struct coalloc_matrix *m)
{
	m->active = coalloc_matrix_next_row(m);
	m->wanted &= ~(1ULL << m->active);
	return m->active;
}

int coalloc_matrix_want_row(struct coalloc_matrix *m, unsigned row)
{
	if (row >= m->cfg.rows || m->cfg.mode != COALLOC_MATRIX_GANG)
		return -EINVAL;
	if (row != m->active)
		m->wanted |= 1ULL << row;
	return 0;
}

bool coalloc_matrix_row_wanted(const struct coalloc_matrix *m, unsigned row)
{
	return row < m->cfg.rows && (m->wanted & (1ULL << row));
}

unsigned coalloc_matrix_active_row(const struct coalloc_matrix *m)
{
	return m->active;
}

uint32_t coalloc_matrix_cell(const struct coalloc_matrix *m, unsigned row,
			     unsigned col, bool *replica)
{
	const struct cell *cl;

	if (row >= m->cfg.rows || col >= m->cfg.cols) {
		if (replica)
			*replica = false;
		return COALLOC_MATRIX_FREE;
	}
	cl = cell_at(m, row, col);
	if (replica)
		*replica = cl->replica;
	return cl->id;
}

int coalloc_matrix_job_row(const struct coalloc_matrix *m, uint32_t id)
{
	const struct mjob *j = mjob_find(m, id);

	if (!j)
		return -ENOENT;
	return j->home_row < 0 ? 0 : j->home_row;
}

unsigned coalloc_matrix_column_load(const struct coalloc_matrix *m,
				    unsigned col)
{
	return col < m->cfg.cols ? m->col_load[col] : 0;
}

unsigned coalloc_matrix_rows(const struct coalloc_matrix *m)
{
	return m->cfg.rows;
}

enum coalloc_matrix_mode coalloc_matrix_mode(const struct coalloc_matrix *m)
{
	return m->cfg.mode;
}

unsigned coalloc_matrix_cols(const struct coalloc_matrix *m)
{
	return m->cfg.cols;
}

size_t coalloc_matrix_jobs(const struct coalloc_matrix *m)
{
	return m->njobs;
}
