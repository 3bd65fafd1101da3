/*
 * fuzz.h - what the libFuzzer harnesses of testsuite/fuzz share: the
 * input as a C string, checks that abort (so libFuzzer keeps the input),
 * and a scratch file for the parsers that take a path.
 *
 * A harness feeds the bytes to the parser as an outsider would give them
 * (a file's text, an option value, a request line) and checks what the
 * parser's header promises on success and on failure; a broken promise
 * is a crash like any other.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_FUZZ_H
#define COALLOC_FUZZ_H

#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken promise: say which, then abort so libFuzzer saves the input. */
#define FUZZ_CHECK(cond)                                                   \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "%s:%d: broken promise: %s\n",     \
				__FILE__, __LINE__, #cond);                \
			abort();                                           \
		}                                                          \
	} while (0)

/* The input as a NUL-terminated string (the caller frees it).  Inner
 * NULs stay: a parser taking a C string sees the text up to the first. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	return text;
}

/* An error message must be a non-empty string within its buffer. */
static inline int fuzz_message_ok(const char *err, size_t len)
{
	size_t n = strnlen(err, len);

	return n > 0 && n < len;
}

/*
 * A path whose content is data: a regular file in $TMPDIR (run.sh points
 * it into the build directory), reused between inputs and removed at
 * exit.  Not a memfd's /proc/self/fd/N: that is a symbolic link, which
 * parsers opening with O_NOFOLLOW (the agent's state file) refuse, so
 * every input would stop at open().
 */
static inline char *fuzz_file_path(void)
{
	static char path[4096];

	return path;
}

static inline void fuzz_file_remove(void)
{
	unlink(fuzz_file_path());
}

static inline const char *fuzz_file(const uint8_t *data, size_t size)
{
	static int fd = -1;
	char *path = fuzz_file_path();

	if (fd < 0) {
		const char *tmp = getenv("TMPDIR");

		snprintf(path, 4096, "%s/fuzz-input.XXXXXX",
			 tmp && *tmp ? tmp : "/tmp");
		fd = mkstemp(path);
		if (fd < 0)
			abort();
		atexit(fuzz_file_remove);
	}
	if (ftruncate(fd, 0) ||
	    (size && pwrite(fd, data, size, 0) != (ssize_t)size))
		abort();
	return path;
}

#endif /* COALLOC_FUZZ_H */
