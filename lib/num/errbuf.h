/*
 * errbuf.h - a caller's error buffer: every parser of the suite writes
 * its one-line message with errbuf_set, and quotes the user's input cut
 * to a length with errbuf_quote, so that a message always fits.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_NUM_ERRBUF_H
#define COALLOC_NUM_ERRBUF_H

#include <stddef.h>

/* Room for any message the option parsers write (inputs quoted abridged). */
#define ERRBUF_LEN 256

/* printf into a caller's error buffer (nothing when err is NULL or len 0). */
void errbuf_set(char *err, size_t err_len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * A quotable view of len bytes of input: print "%.*s%s" with .len, the
 * text and .more; at most max characters with the "..." that .more adds
 * when the input was cut.
 */
struct errbuf_quote {
	int len;
	const char *more;
};

struct errbuf_quote errbuf_quote(size_t len, size_t max);

/* errbuf_set, then -1: "return errbuf_fail(err, len, ...);". */
int errbuf_fail(char *err, size_t err_len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The suite's message about a place in a file, as Slurm admins read
 * them: "FILE line N: key 'KEY': WHAT".  " line N" is left out when line
 * is 0 (the file as a whole), " key 'KEY'" when key is NULL, "FILE" when
 * file is NULL ("line N: WHAT").  Returns -1.
 */
int errbuf_at(char *err, size_t err_len, const char *file,
	      unsigned long line, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

#endif /* COALLOC_NUM_ERRBUF_H */
