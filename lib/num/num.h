/*
 * num.h - strict numbers: the whole string, nothing before or after it.
 * One rule for every file, request and option the suite parses: ESP's
 * mix files, run logs and tools, the cosched plugin's plugstack.conf
 * arguments and options, the node agent's requests and options, the MPI
 * shim's environment and cosched-bench's options.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_NUM_H
#define COALLOC_NUM_H

#include <stdint.h>

/*
 * A finite number written in decimal, the whole string:
 * [-]DIGITS[.DIGITS][e[+|-]DIGITS] (".5" and "5." too).  No blank, no '+',
 * no hexadecimal ("0x10", "0x1p3"), no inf or nan, no overflow: 0 or -1.
 */
int num_parse_double(const char *s, double *out);

/* num_parse_u64 within [min, max]: 0 or -1 (out untouched). */
int num_parse_range(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* A whole number of decimal digits only (no sign, no blank, no
 * hexadecimal, no exponent, no overflow; "010" is ten): 0 or -1.
 * Callers check their own range. */
int num_parse_u64(const char *s, uint64_t *out);

/*
 * A whole number of decimal digits with an optional '-' (no '+', no
 * blank) within [min, max]: 0, or -1 (out untouched).
 */
int num_parse_signed(const char *s, int64_t min, int64_t max, int64_t *out);

/*
 * A rate or size: a decimal number (num_parse_double rules, >= 0) with an
 * optional decimal suffix k/K (1e3), M (1e6), G (1e9) or T (1e12), as in
 * "600M" (bytes per second for bandwidths).  0 or -1.
 */
int num_parse_rate(const char *s, double *out);

#endif /* COALLOC_NUM_H */
