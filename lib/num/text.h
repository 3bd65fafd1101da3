/*
 * text.h - text files as the suite's parsers take them: read whole, with
 * no byte that would make a parser see less (a NUL ends a C string) or
 * something else than an editor shows (control characters).  Shared by
 * coalloc.conf and ESP's mix files, whose errors read "FILE line N: ...".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_TEXT_H
#define COALLOC_TEXT_H

#include <stddef.h>

/* Largest file text_load() reads (far beyond any configuration). */
#define TEXT_MAX_BYTES 1048576u
#define TEXT_MAX_TEXT "1048576"

/*
 * Check len bytes of text named file: a NUL byte or a control character
 * other than tab, CR and LF (DEL too) is refused with "FILE line N:
 * column C: ..." in err (columns count bytes from 1).  Returns 0 or -1.
 */
int text_check(const char *text, size_t len, const char *file, char *err,
	       size_t errlen);

/*
 * The whole file at path, at most TEXT_MAX_BYTES, checked by
 * text_check(): a NUL-terminated copy to free(), or NULL with err
 * ("PATH: why").
 */
char *text_load(const char *path, char *err, size_t errlen);

#endif /* COALLOC_TEXT_H */
