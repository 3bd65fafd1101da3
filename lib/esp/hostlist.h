/*
 * hostlist.h - the node lists esp-work logs (Slurm's SLURM_JOB_NODELIST
 * form), expanded without Slurm: "n[1-4,7],m03,gpu[08-10]".
 *
 * One bracket per name at most (Slurm's usual form for one-dimensional
 * names); ranges keep their zero padding ("[08-10]": n08 n09 n10).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ESP_HOSTLIST_H
#define ESP_HOSTLIST_H

#include <stddef.h>

/* Longest node name accepted. */
#define ESP_HOST_NAME_MAX 64

/*
 * Call fn(name, arg) for every name of list, in order, stopping at the
 * first non-zero return.  Returns the number of names, or -1 when list is
 * malformed (unbalanced or nested brackets, a bad range, an empty name, a
 * name too long: a list cut to fit a log line ends so) or holds more than
 * max names, or fn's non-zero return.
 */
long esp_hostlist_each(const char *list, size_t max,
		       int (*fn)(const char *name, void *arg), void *arg);

#endif /* ESP_HOSTLIST_H */
