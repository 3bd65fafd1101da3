/*
 * fuzz_layout_tag.c - a job's AdminComment as select/coalloc rewrites it
 * when it places the job (lib/coalloc_conf/layout_tag.c): slurmctld holds
 * the old text, which administrators, job_submit plugins and an earlier
 * start of the job wrote over the network, and keeps every word of it
 * but the "coalloc:" ones, then adds the job's layout.
 *
 * The input: the old comment, then after the first newline the layout.
 * Promises checked (layout_tag.h): the result holds exactly one word
 * starting with the tag, the layout's, at its end, when the layout is
 * not empty (none otherwise); every other word of the old text is kept
 * in order; rewriting the result again with the same layout gives it back.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fuzz.h"

#include <stdbool.h>

#include "coalloc_conf/layout_tag.h"

static bool _blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The old words that are not the tag's, as the result should keep them. */
static void _check_kept(const char *old, const char *out)
{
	const char *o = out;

	for (const char *p = old; *p;) {
		size_t n;

		while (_blank(*p))
			p++;
		for (n = 0; p[n] && !_blank(p[n]); n++)
			;
		if (n && strncmp(p, COALLOC_LAYOUT_TAG, strlen(COALLOC_LAYOUT_TAG))) {
			const char *at;

			/* the next kept word comes later in out, whole */
			for (at = o; *at; at++)
				if (!strncmp(at, p, n) && (at == out || _blank(at[-1])))
					break;
			FUZZ_CHECK(*at);
			o = at + n;
		}
		p += n;
	}
}

static size_t _tagged(const char *s, const char **last)
{
	size_t count = 0;

	for (const char *p = s; *p; p++)
		if ((p == s || _blank(p[-1])) &&
		    !strncmp(p, COALLOC_LAYOUT_TAG, strlen(COALLOC_LAYOUT_TAG))) {
			count++;
			*last = p;
		}
	return count;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *old = fuzz_text(data, size), *layout, *out, *again;
	const char *last = NULL;
	size_t tags;

	layout = strchr(old, '\n');
	if (layout)
		*layout++ = '\0';
	/* a layout is one word (coalloc_layout_format) */
	if (layout)
		layout[strcspn(layout, " \t\r\n")] = '\0';
	out = coalloc_comment_with_layout(old, layout);
	FUZZ_CHECK(out);
	tags = _tagged(out, &last);
	if (layout && *layout) {
		/* one word, the last: the layout's (which may start with the
		 * tag again, still one word) */
		FUZZ_CHECK(tags == 1 && !strcmp(last + strlen(COALLOC_LAYOUT_TAG), layout));
	} else {
		FUZZ_CHECK(tags == 0);
	}
	_check_kept(old, out);
	again = coalloc_comment_with_layout(out, layout);
	FUZZ_CHECK(again && !strcmp(again, out));
	free(again);
	free(out);
	free(old);
	return 0;
}
