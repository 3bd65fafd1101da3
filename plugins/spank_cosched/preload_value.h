/*
 * preload_value.h - the LD_PRELOAD a coscheduled task gets: the MPI shim
 * first, then whatever the user preloads, kept whole whatever its length.
 *
 * Free of Slurm headers so it is unit-tested on its own
 * (testsuite/unit/spank_cosched/test_preload.c); preload.c reads and sets
 * the task's variable.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_SPANK_COSCHED_PRELOAD_VALUE_H
#define COALLOC_SPANK_COSCHED_PRELOAD_VALUE_H

#include <stdbool.h>

/*
 * Longest LD_PRELOAD composed, terminator included: the kernel's limit on
 * one environment string (MAX_ARG_STRLEN, 32 pages of 4 KiB), beyond which
 * the task's exec would fail anyway.
 */
#define COSCHED_PRELOAD_MAX 131072

/*
 * Whether the LD_PRELOAD list (entries separated by blanks or colons, as
 * ld.so reads it) has path as one of its entries.
 */
bool cosched_preload_lists(const char *list, const char *path);

/*
 * The LD_PRELOAD for a task whose own is user (NULL or "" for none): into
 * *value a malloc'd "SHIM USER", or NULL when user already lists shim
 * (nothing to change).  Returns 0, or -1 when the result would be longer
 * than COSCHED_PRELOAD_MAX or memory runs out (*value NULL: leave the
 * user's LD_PRELOAD as it is).
 */
int cosched_preload_value(const char *user, const char *shim, char **value);

#endif /* COALLOC_SPANK_COSCHED_PRELOAD_VALUE_H */
