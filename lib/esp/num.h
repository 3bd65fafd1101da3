/*
 * num.h - strict numbers for ESP's files and command lines: the whole
 * string, nothing before or after it.  One rule for mix files, run logs
 * and the options of esp-driver, esp-sim and esp-work.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ESP_NUM_H
#define ESP_NUM_H

#include <stdint.h>

/* A finite decimal number (no leading blank, no overflow): 0 or -1. */
int esp_parse_double(const char *s, double *out);

/* A whole number of decimal digits only (no sign, no blank, no
 * overflow): 0 or -1.  Callers check their own range. */
int esp_parse_u64(const char *s, uint64_t *out);

#endif /* ESP_NUM_H */
