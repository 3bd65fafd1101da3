/*
 * hostlist.c - expand the node lists of an ESP run log (see hostlist.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "esp/hostlist.h"

/* A range bound: digits only, at most 9 of them (no overflow). */
static int _bound(const char *s, size_t len, long *v)
{
	if (!len || len > 9)
		return -1;
	*v = 0;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		*v = *v * 10 + (s[i] - '0');
	}
	return 0;
}

struct walk {
	size_t max, count;
	int (*fn)(const char *name, void *arg);
	void *arg;
};

static int _emit(struct walk *w, const char *name)
{
	if (++w->count > w->max)
		return -1;
	return w->fn(name, w->arg) ? -1 : 0;
}

static int _emit_range(struct walk *w, const char *prefix, size_t plen,
		       const char *suffix, size_t slen, long lo, long hi,
		       int width)
{
	char name[ESP_HOST_NAME_MAX + 1];

	if (lo > hi || (size_t)(hi - lo) >= w->max)
		return -1;
	for (long v = lo; v <= hi; v++) {
		int n = snprintf(name, sizeof(name), "%.*s%0*ld%.*s",
				 (int)plen, prefix, width, v, (int)slen,
				 suffix);

		if (n < 0 || (size_t)n >= sizeof(name) || _emit(w, name))
			return -1;
	}
	return 0;
}

/* "1-4,7,08-10" between the brackets of prefix[...]suffix. */
static int _expand_ranges(struct walk *w, const char *prefix, size_t plen,
			  const char *ranges, size_t rlen, const char *suffix,
			  size_t slen)
{
	const char *p = ranges, *end = ranges + rlen;

	while (p <= end) {
		const char *comma = memchr(p, ',', end - p);
		const char *stop = comma ? comma : end;
		const char *dash = memchr(p, '-', stop - p);
		size_t lo_len = (dash ? dash : stop) - p;
		long lo, hi;

		if (_bound(p, lo_len, &lo))
			return -1;
		hi = lo;
		if (dash && _bound(dash + 1, stop - dash - 1, &hi))
			return -1;
		/* "08": the width of the lower bound pads every number */
		if (_emit_range(w, prefix, plen, suffix, slen, lo, hi,
				p[0] == '0' ? (int)lo_len : 0))
			return -1;
		p = stop + 1;
	}
	return 0;
}

/* One comma-separated item at bracket depth 0: "n[1-4]" or "m03". */
static int _expand_item(struct walk *w, const char *s, size_t len)
{
	const char *open = memchr(s, '[', len), *close;
	char name[ESP_HOST_NAME_MAX + 1];

	if (!len)
		return -1;
	if (!open) {
		if (memchr(s, ']', len) || len > ESP_HOST_NAME_MAX)
			return -1;
		snprintf(name, sizeof(name), "%.*s", (int)len, s);
		return _emit(w, name);
	}
	close = memchr(open, ']', len - (open - s));
	if (!close || memchr(open + 1, '[', close - open - 1) ||
	    memchr(close + 1, '[', len - (close + 1 - s)) ||
	    memchr(close + 1, ']', len - (close + 1 - s)))
		return -1;
	return _expand_ranges(w, s, open - s, open + 1, close - open - 1,
			      close + 1, len - (close + 1 - s));
}

long esp_hostlist_each(const char *list, size_t max,
		       int (*fn)(const char *name, void *arg), void *arg)
{
	struct walk w = { .max = max, .fn = fn, .arg = arg };
	const char *p = list, *item = list;
	int depth = 0;

	for (;; p++) {
		if (*p == '[' && ++depth > 1)
			return -1;
		if (*p == ']' && --depth < 0)
			return -1;
		if ((*p == ',' && !depth) || !*p) {
			if (_expand_item(&w, item, p - item))
				return -1;
			item = p + 1;
		}
		if (!*p)
			break;
	}
	return depth ? -1 : (long)w.count;
}
