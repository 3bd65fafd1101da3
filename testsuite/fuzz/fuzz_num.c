/*
 * fuzz_num.c - the strict numbers of lib/num, behind every number the
 * suite reads from users, files, requests and the environment.
 *
 * The first byte picks the function, the rest is the text.  Promises
 * checked (num.h): whole numbers are decimal digits only, no sign or
 * blank, and equal to a digit-by-digit reference; a range keeps its
 * bounds; doubles are finite decimal numbers (digits, sign, point and
 * exponent only: no hexadecimal, no blank); rates are such a number with
 * an optional suffix, >= 0 and finite.  A failure leaves the output
 * untouched.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fuzz.h"

#include <stdbool.h>
#include <math.h>

#include "num/num.h"

#define SENTINEL 0xa5a5a5a5a5a5a5a5ull

/* The reference for num_parse_u64: -1 unless digits only, no overflow. */
static int _digits(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

static void _u64(const char *text)
{
	uint64_t v = SENTINEL, ref = 0, lo, hi;
	int rc = num_parse_u64(text, &v), ref_rc = _digits(text, &ref);

	FUZZ_CHECK(rc == ref_rc);
	FUZZ_CHECK(rc ? v == SENTINEL : v == ref);
	/* the same text within bounds taken from it */
	lo = ref_rc ? 0 : ref / 2;
	hi = ref_rc ? 10 : ref + (ref < UINT64_MAX);
	v = SENTINEL;
	rc = num_parse_range(text, lo, hi, &v);
	FUZZ_CHECK(rc == ref_rc);
	FUZZ_CHECK(rc ? v == SENTINEL : (v >= lo && v <= hi && v == ref));
	if (!ref_rc && ref) {
		v = SENTINEL;
		FUZZ_CHECK(num_parse_range(text, ref + (ref < UINT64_MAX),
					   UINT64_MAX, &v) ||
			   ref == UINT64_MAX);
	}
}

/* What a decimal number may be written with (strtod takes more). */
static bool _decimal(const char *text, size_t len)
{
	return len && strspn(text, "0123456789.eE+-") >= len;
}

static void _double(const char *text)
{
	double v = -42.5;

	if (num_parse_double(text, &v)) {
		FUZZ_CHECK(v == -42.5);
		return;
	}
	FUZZ_CHECK(isfinite(v));
	FUZZ_CHECK(_decimal(text, strlen(text)));
}

static void _rate(const char *text)
{
	double v = -42.5;
	size_t len;

	if (num_parse_rate(text, &v)) {
		FUZZ_CHECK(v == -42.5);
		return;
	}
	FUZZ_CHECK(isfinite(v) && v >= 0);
	len = strlen(text);	/* > 0: accepted */
	/* the number, then at most one suffix letter */
	if (strchr("kKMGT", text[len - 1]))
		len--;
	FUZZ_CHECK(_decimal(text, len));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static void (*const fn[])(const char *) = {
		_u64, _double, _rate,
	};
	char *text;

	if (!size)
		return 0;
	text = fuzz_text(data + 1, size - 1);
	fn[data[0] % (sizeof(fn) / sizeof(fn[0]))](text);
	free(text);
	return 0;
}
