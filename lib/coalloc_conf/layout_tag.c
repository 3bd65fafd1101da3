/*
 * layout_tag.c - the layout word in a job's comments (layout_tag.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "layout_tag.h"

static int _is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int _is_layout_word(const char *word)
{
	return !strncmp(word, COALLOC_LAYOUT_TAG, strlen(COALLOC_LAYOUT_TAG));
}

/*
 * Copies old into out without the layout words, each with the blanks
 * before it (or after it, for a leading word), so that no double space
 * is left where one was; returns the length written.
 */
static size_t _copy_without_layout(const char *old, char *out)
{
	size_t n = 0;
	const char *p = old;

	while (*p) {
		const char *blanks = p, *word, *end;

		while (_is_blank(*p))
			p++;
		word = p;
		while (*p && !_is_blank(*p))
			p++;
		end = p;
		if (word == end) {	/* trailing blanks */
			memcpy(out + n, blanks, end - blanks);
			n += end - blanks;
		} else if (!_is_layout_word(word)) {
			if (n == 0 && blanks != old)
				blanks = word;	/* a removed lead's blanks */
			memcpy(out + n, blanks, end - blanks);
			n += end - blanks;
		}
	}
	out[n] = '\0';
	return n;
}

char *coalloc_comment_with_layout(const char *old, const char *layout)
{
	size_t old_len = old ? strlen(old) : 0;
	size_t layout_len = layout ? strlen(layout) : 0;
	char *out = malloc(old_len + 1 + strlen(COALLOC_LAYOUT_TAG) +
			   layout_len + 1);
	size_t n;

	if (!out)
		return NULL;
	n = old ? _copy_without_layout(old, out) : 0;
	out[n] = '\0';	/* _copy_without_layout ended it too; not for NULL */
	if (!layout_len)
		return out;
	while (n && _is_blank(out[n - 1]))
		n--;
	if (n)
		out[n++] = ' ';
	strcpy(out + n, COALLOC_LAYOUT_TAG);
	strcat(out + n, layout);
	return out;
}
