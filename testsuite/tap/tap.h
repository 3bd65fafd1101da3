/*
 * tap.h - a small Test Anything Protocol producer for the C unit tests.
 *
 * Header-only so every test binary stays a single translation unit plus the
 * library it tests.  Output goes to stdout; diagnostics go to stderr with a
 * leading '#', as prove expects.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_TAP_H
#define COALLOC_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_count_;
static int tap_failed_;
static int tap_planned_ = -1;

static inline void plan(int n)
{
	tap_planned_ = n;
	printf("1..%d\n", n);
	fflush(stdout);
}

/* n tests skipped, counted as passed, with the reason. */
static inline void skip(int n, const char *why)
{
	for (int i = 0; i < n; i++)
		printf("ok %d # skip %s\n", ++tap_count_, why);
	fflush(stdout);
}

static inline void diag(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static inline void diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static inline int tap_ok_(int cond, const char *file, int line,
			  const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static inline int tap_ok_(int cond, const char *file, int line,
			  const char *fmt, ...)
{
	va_list ap;

	tap_count_++;
	printf("%sok %d - ", cond ? "" : "not ", tap_count_);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (!cond) {
		tap_failed_++;
		diag("  failed at %s:%d", file, line);
	}
	return cond;
}

#define ok(cond, ...) tap_ok_(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

#define is_int(got, want, ...)                                             \
	do {                                                               \
		long long g_ = (long long)(got), w_ = (long long)(want);   \
		if (!ok(g_ == w_, __VA_ARGS__))                             \
			diag("  got %lld, want %lld", g_, w_);              \
	} while (0)

#define is_str(got, want, ...)                                             \
	do {                                                               \
		const char *g_ = (got), *w_ = (want);                      \
		int eq_ = (g_ && w_) ? !strcmp(g_, w_) : g_ == w_;         \
		if (!ok(eq_, __VA_ARGS__))                                  \
			diag("  got \"%s\", want \"%s\"", g_ ? g_ : "(null)", \
			     w_ ? w_ : "(null)");                           \
	} while (0)

#define is_double(got, want, eps, ...)                                     \
	do {                                                               \
		double g_ = (got), w_ = (want);                            \
		double d_ = g_ > w_ ? g_ - w_ : w_ - g_;                   \
		if (!ok(d_ <= (eps), __VA_ARGS__))                          \
			diag("  got %.9g, want %.9g (eps %g)", g_, w_,      \
			     (double)(eps));                                \
	} while (0)

/* A stream into memory for output under test: *buf (freed first, so it
 * can be reused) holds what was written once the stream is closed. */
static inline FILE *tap_memstream(char **buf, size_t *len)
{
	free(*buf);
	*buf = NULL;
	*len = 0;
	return open_memstream(buf, len);
}

/* A whole (small) file into buf, NUL-terminated; "" when unreadable. */
static inline const char *tap_slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

/*
 * A parser's refusal of text: got (what the test's parse gave) is "ERR"
 * and its message err is exactly want, or names part.  Pass err itself:
 * it is read after got was computed.
 */
static inline void tap_refused(const char *got, const char *err,
			       const char *text, const char *want)
{
	is_str(got, "ERR", "'%s' is rejected", text ? text : "(null)");
	is_str(err, want, "message for '%s'", text ? text : "(null)");
}

static inline void tap_refused_naming(const char *got, const char *err,
				      const char *text, const char *part)
{
	is_str(got, "ERR", "'%s' is rejected", text ? text : "(null)");
	if (!ok(strstr(err, part) != NULL, "message for '%s' names %s",
		text ? text : "(null)", part))
		diag("  message: %s", err);
}

/* Print the plan when none was given up front and return the exit code. */
static inline int done_testing(void)
{
	if (tap_planned_ < 0)
		printf("1..%d\n", tap_count_);
	else if (tap_planned_ != tap_count_)
		diag("planned %d tests but ran %d", tap_planned_, tap_count_);
	fflush(stdout);
	return tap_failed_ ? 1 : 0;
}

#endif /* COALLOC_TAP_H */
