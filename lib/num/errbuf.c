/*
 * errbuf.c - a caller's error buffer (errbuf.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stdio.h>

#include "num/errbuf.h"

void errbuf_set(char *err, size_t err_len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !err_len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, err_len, fmt, ap);
	va_end(ap);
}

int errbuf_fail(char *err, size_t err_len, const char *fmt, ...)
{
	va_list ap;

	if (err && err_len) {
		va_start(ap, fmt);
		vsnprintf(err, err_len, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Appends to buf at *used, never past len. */
static void _append(char *buf, size_t len, size_t *used, const char *fmt,
		    ...) __attribute__((format(printf, 4, 5)));
static void _append(char *buf, size_t len, size_t *used, const char *fmt,
		    ...)
{
	va_list ap;
	int n;

	if (*used >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	if (n > 0)
		*used += (size_t)n;
}

int errbuf_at(char *err, size_t err_len, const char *file,
	      unsigned long line, const char *key, const char *fmt, ...)
{
	size_t used = 0;
	va_list ap;

	if (!err || !err_len)
		return -1;
	err[0] = '\0';
	if (file)
		_append(err, err_len, &used, "%s", file);
	if (line)
		_append(err, err_len, &used, "%sline %lu", file ? " " : "",
			line);
	if (key)
		_append(err, err_len, &used, "%skey '%s'", used ? ": " : "",
			key);
	if (used)
		_append(err, err_len, &used, ": ");
	if (used < err_len) {
		va_start(ap, fmt);
		vsnprintf(err + used, err_len - used, fmt, ap);
		va_end(ap);
	}
	return -1;
}

struct errbuf_quote errbuf_quote(size_t len, size_t max)
{
	if (len <= max)
		return (struct errbuf_quote){ (int)len, "" };
	return (struct errbuf_quote){ (int)(max - 3), "..." };
}
