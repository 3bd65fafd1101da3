/*
 * resend.c - the resend schedule of suspends and resumes (see resend.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdlib.h>

#include "coalloc/resend.h"

const int64_t coalloc_resend_after[COALLOC_RESEND_STEPS] = { 3, 11 };

int coalloc_resend_init(struct coalloc_resend *r)
{
	r->v = NULL;
	r->n = r->cap = 0;
	return coalloc_idmap_init(&r->map);
}

void coalloc_resend_free(struct coalloc_resend *r)
{
	coalloc_idmap_free(&r->map);
	free(r->v);
	r->v = NULL;
	r->n = r->cap = 0;
}

static int _grow(struct coalloc_resend *r)
{
	size_t cap = r->cap ? 2 * r->cap : 16;
	struct coalloc_resend_entry *v = realloc(r->v, cap * sizeof(*v));

	if (!v)
		return -ENOMEM;
	r->v = v;
	r->cap = cap;
	return 0;
}

int coalloc_resend_note(struct coalloc_resend *r, uint32_t job,
			enum coalloc_resend_op op, int64_t now)
{
	int32_t i = coalloc_idmap_get(&r->map, job);
	int rc;

	if (i < 0) {
		if (r->n == r->cap && (rc = _grow(r)))
			return rc;
		if (r->n >= INT32_MAX)
			return -ENOMEM;
		i = (int32_t) r->n;
		if ((rc = coalloc_idmap_put(&r->map, job, i)))
			return rc;
		r->n++;
	}
	r->v[i] = (struct coalloc_resend_entry) {
		.job = job, .op = op, .sent = now, .step = 0 };
	return 0;
}

/* Remove entry i: the last one moves into its place. */
static void _remove_at(struct coalloc_resend *r, size_t i)
{
	coalloc_idmap_del(&r->map, r->v[i].job);
	r->n--;
	if (i < r->n) {
		r->v[i] = r->v[r->n];
		coalloc_idmap_put(&r->map, r->v[i].job, (int32_t) i);
	}
}

void coalloc_resend_forget(struct coalloc_resend *r, uint32_t job)
{
	int32_t i = coalloc_idmap_get(&r->map, job);

	if (i >= 0)
		_remove_at(r, (size_t) i);
}

void coalloc_resend_clear(struct coalloc_resend *r)
{
	while (r->n)
		_remove_at(r, r->n - 1);
}

static int64_t _due_at(const struct coalloc_resend_entry *e)
{
	return e->sent + coalloc_resend_after[e->step];
}

size_t coalloc_resend_due(struct coalloc_resend *r, int64_t now,
			  struct coalloc_resend_item *out, size_t cap)
{
	size_t got = 0, i = 0;

	while (i < r->n && got < cap) {
		struct coalloc_resend_entry *e = &r->v[i];

		if (_due_at(e) > now) {
			i++;
			continue;
		}
		out[got++] = (struct coalloc_resend_item) {
			.job = e->job, .op = e->op };
		/* a late pass sends once, not every step it missed */
		while (e->step < COALLOC_RESEND_STEPS && _due_at(e) <= now)
			e->step++;
		if (e->step == COALLOC_RESEND_STEPS)
			_remove_at(r, i);	/* entry i is now another */
		else
			i++;
	}
	return got;
}

int64_t coalloc_resend_wait(const struct coalloc_resend *r, int64_t now)
{
	int64_t best = -1;

	for (size_t i = 0; i < r->n; i++) {
		int64_t w = _due_at(&r->v[i]) - now;

		if (w < 0)
			w = 0;
		if (best < 0 || w < best)
			best = w;
	}
	return best;
}
