/*
 * site_name.h - what a site name may be.  coalloc.conf defines the names
 * and an ordered request (--coalloc=16@siteA) quotes them, so both check
 * them here: a name the file accepts is one a user can type.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_SITE_NAME_H
#define COALLOC_SITE_NAME_H

#include <stdbool.h>
#include <stddef.h>

/* Letters, digits, '_', '-' and '.': what Slurm takes in a partition name. */
bool coalloc_name_char_ok(char c);

/*
 * Why the len bytes at name are not a site name ("empty", "too long
 * (at most 63 characters)", "only letters, digits, '_', '-', '.'"), or
 * NULL when they are one.
 */
const char *coalloc_site_name_problem(const char *name, size_t len);

#endif /* COALLOC_SITE_NAME_H */
