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

struct errbuf_quote errbuf_quote(size_t len, size_t max)
{
	if (len <= max)
		return (struct errbuf_quote){ (int)len, "" };
	return (struct errbuf_quote){ (int)(max - 3), "..." };
}
