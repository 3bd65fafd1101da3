/*
 * statefile.c - see statefile.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coalloc/policy.h"
#include "coalloc/statefile.h"
#include "num/num.h"
#include "num/errbuf.h"

#define MAX_WORDS 4

/* One line, split at single blanks into NUL-terminated words. */
struct words {
	char buf[COALLOC_STATEFILE_LINE_MAX + 1];
	char *w[MAX_WORDS];
	int n;
};

/* "line N: WHAT" (errbuf_at), then -1. */
#define _fail(err, errlen, line, ...) \
	errbuf_at((err), (errlen), NULL, (line), NULL, __VA_ARGS__)

/* Split the len bytes at s; -1 when there are too many words. */
static int _split(const char *s, size_t len, struct words *w)
{
	char *save = NULL;

	memcpy(w->buf, s, len);
	w->buf[len] = '\0';
	w->n = 0;
	for (char *t = strtok_r(w->buf, " ", &save); t;
	     t = strtok_r(NULL, " ", &save)) {
		if (w->n == MAX_WORDS)
			return -1;
		w->w[w->n++] = t;
	}
	return 0;
}

static int _active(struct coalloc_statefile *st, const struct words *w)
{
	uint64_t row;

	if (w->n != 2 || st->has_active ||
	    num_parse_range(w->w[1], 0, COALLOC_STATEFILE_MAX_ROW, &row))
		return -1;
	st->has_active = true;
	st->active = (uint32_t)row;
	return 0;
}

static int _job(struct coalloc_statefile *st, const struct words *w)
{
	struct coalloc_statefile_job *grown;
	uint64_t id, row;

	if (w->n != 3 || num_parse_range(w->w[1], 1, UINT32_MAX, &id) ||
	    num_parse_range(w->w[2], 0, COALLOC_STATEFILE_MAX_ROW, &row))
		return -1;
	for (size_t i = 0; i < st->njobs; i++)
		if (st->jobs[i].id == id)
			return -1;
	grown = realloc(st->jobs, (st->njobs + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	st->jobs = grown;
	st->jobs[st->njobs++] = (struct coalloc_statefile_job){
		.id = (uint32_t)id, .row = (uint32_t)row };
	return 0;
}

/* "queue -1 disabled" is the global queue: the one negative number.
 * HEAD is optional: 0.9 wrote none. */
static int _queue(struct coalloc_statefile *st, const struct words *w)
{
	uint64_t site, head = 0;
	int q;

	if (w->n < 3 || w->n > 4 || strcmp(w->w[2], "disabled"))
		return -1;
	if (w->n == 4 && num_parse_range(w->w[3], 1, UINT32_MAX, &head))
		return -1;
	if (!strcmp(w->w[1], "-1"))
		q = COALLOC_QUEUE_GLOBAL;
	else if (!num_parse_range(w->w[1], 0, COALLOC_MAX_SITES - 1, &site))
		q = (int)site;
	else
		return -1;
	for (size_t i = 0; i < st->nqueues; i++)
		if (st->queues[i].queue == q)
			return -1;
	/* distinct: they fit */
	st->queues[st->nqueues++] = (struct coalloc_statefile_queue){
		.queue = q, .head = (uint32_t)head };
	return 0;
}

static int _line(struct coalloc_statefile *st, const char *s, size_t len,
		 size_t line, char *err, size_t errlen)
{
	struct words w;
	int rc = -1;

	if (len > COALLOC_STATEFILE_LINE_MAX)
		return _fail(err, errlen, line, "line too long (more than %d bytes)",
			     COALLOC_STATEFILE_LINE_MAX);
	if (memchr(s, '\0', len))
		return _fail(err, errlen, line, "NUL byte");
	if (!_split(s, len, &w) && w.n) {
		if (!strcmp(w.w[0], "active"))
			rc = _active(st, &w);
		else if (!strcmp(w.w[0], "job"))
			rc = _job(st, &w);
		else if (!strcmp(w.w[0], "queue"))
			rc = _queue(st, &w);
	}
	if (rc)
		return _fail(err, errlen, line, "'%.*s%s' is not 'active ROW', 'job ID ROW' or 'queue Q disabled HEAD', or repeats one",
			     len > 60 ? 57 : (int)len, s, len > 60 ? "..." : "");
	return 0;
}

static int _header(const char *s, size_t len, char *err, size_t errlen)
{
	if (len == strlen(COALLOC_STATEFILE_HEADER) &&
	    !memcmp(s, COALLOC_STATEFILE_HEADER, len))
		return 0;
	return _fail(err, errlen, 1, "not the header '%s'",
		     COALLOC_STATEFILE_HEADER);
}

int coalloc_statefile_parse(const char *text, size_t len,
			    struct coalloc_statefile *st, char *err,
			    size_t errlen)
{
	size_t line = 0, pos = 0;

	memset(st, 0, sizeof(*st));
	while (pos < len) {
		const char *s = text + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;

		line++;
		if (!nl) {
			_fail(err, errlen, line, "no newline at the end (the file was cut short)");
			break;
		}
		if (line == 1 ? _header(s, n, err, errlen)
			      : _line(st, s, n, line, err, errlen))
			break;
		pos += n + 1;
	}
	if (!line)
		_fail(err, errlen, 1, "empty file, no header '%s'",
		      COALLOC_STATEFILE_HEADER);
	if (pos < len || !line) {
		coalloc_statefile_free(st);
		return -1;
	}
	return 0;
}

void coalloc_statefile_free(struct coalloc_statefile *st)
{
	free(st->jobs);
	memset(st, 0, sizeof(*st));
}
