/*
 * num.c - see num.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "num/num.h"

/* Length of the run of decimal digits at s. */
static size_t _digits(const char *s)
{
	size_t n = 0;

	while (s[n] >= '0' && s[n] <= '9')
		n++;
	return n;
}

/*
 * Whether s is written in decimal: [-]DIGITS[.DIGITS][e[+|-]DIGITS] (or
 * .DIGITS), the whole string.  strtod alone would also take blanks, a '+',
 * hexadecimal ("0x10", "0x1p3"), "inf" and "nan".
 */
static bool _decimal(const char *s)
{
	size_t whole, frac = 0;

	if (*s == '-')
		s++;
	whole = _digits(s);
	s += whole;
	if (*s == '.') {
		frac = _digits(++s);
		s += frac;
	}
	if (!whole && !frac)
		return false;
	if (*s == 'e' || *s == 'E') {
		size_t exp;

		s++;
		if (*s == '+' || *s == '-')
			s++;
		exp = _digits(s);
		if (!exp)
			return false;
		s += exp;
	}
	return !*s;
}

int num_parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!_decimal(s))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno == ERANGE || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

int num_parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	/* strtoull would take a sign or blanks */
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end || errno == ERANGE)
		return -1;
	*out = v;
	return 0;
}

int num_parse_range(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t v;

	if (num_parse_u64(s, &v) || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int num_parse_signed(const char *s, int64_t min, int64_t max, int64_t *out)
{
	bool negative = *s == '-';
	uint64_t magnitude;
	int64_t v;

	if (num_parse_u64(s + negative, &magnitude) ||
	    magnitude > (uint64_t)INT64_MAX + negative)
		return -1;
	if (!negative)
		v = (int64_t)magnitude;
	else if (magnitude == (uint64_t)INT64_MAX + 1)
		v = INT64_MIN;
	else
		v = -(int64_t)magnitude;
	if (v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int num_parse_rate(const char *s, double *out)
{
	static const struct { char suffix; double factor; } units[] = {
		{ 'k', 1e3 }, { 'K', 1e3 }, { 'M', 1e6 }, { 'G', 1e9 },
		{ 'T', 1e12 },
	};
	char digits[64];
	size_t len = strlen(s);
	double factor = 1, v;

	if (!len || len >= sizeof(digits))
		return -1;
	memcpy(digits, s, len + 1);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (digits[len - 1] == units[i].suffix) {
			factor = units[i].factor;
			digits[--len] = '\0';
			break;
		}
	if (num_parse_double(digits, &v) || v < 0 || !isfinite(v * factor))
		return -1;
	*out = v * factor;
	return 0;
}
