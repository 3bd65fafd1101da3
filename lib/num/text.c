/*
 * text.c - see text.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num/text.h"

static bool _forbidden(unsigned char c)
{
	return (c < 0x20 && c != '\t' && c != '\r' && c != '\n') || c == 0x7f;
}

int text_check(const char *text, size_t len, const char *file, char *err,
	       size_t errlen)
{
	size_t line = 1, column = 1;

	for (size_t i = 0; i < len; i++, column++) {
		unsigned char c = (unsigned char)text[i];

		if (c == '\n') {
			line++;
			column = 0;
		} else if (_forbidden(c)) {
			if (c)
				snprintf(err, errlen, "%s line %zu: column %zu: control character 0x%02X (only tab, CR and LF are allowed)",
					 file, line, column, c);
			else
				snprintf(err, errlen, "%s line %zu: column %zu: NUL byte (what follows it would be ignored)",
					 file, line, column);
			return -1;
		}
	}
	return 0;
}

/* Grow *buf of *cap bytes to twice that: 0, or -1 (buf unchanged). */
static int _grow(char **buf, size_t *cap)
{
	char *grown = realloc(*buf, *cap * 2);

	if (!grown)
		return -1;
	*buf = grown;
	*cap *= 2;
	return 0;
}

/* Read f to its end into a NUL-terminated buffer; *len its bytes. */
static char *_read_all(FILE *f, const char *path, size_t *len, char *err,
		       size_t errlen)
{
	size_t cap = 4096, used = 0;
	char *buf = malloc(cap);
	const char *why = "out of memory";

	while (buf) {
		used += fread(buf + used, 1, cap - used - 1, f);
		if (ferror(f)) {
			why = strerror(errno);
			break;
		}
		if (used > TEXT_MAX_BYTES) {
			why = "larger than " TEXT_MAX_TEXT " bytes";
			break;
		}
		if (feof(f)) {
			buf[used] = '\0';
			*len = used;
			return buf;
		}
		if (used + 1 == cap && _grow(&buf, &cap))
			break;
	}
	snprintf(err, errlen, "%s: %s", path, why);
	free(buf);
	return NULL;
}

char *text_load(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	size_t len = 0;
	char *text;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	text = _read_all(f, path, &len, err, errlen);
	fclose(f);
	if (text && text_check(text, len, path, err, errlen)) {
		free(text);
		return NULL;
	}
	return text;
}
