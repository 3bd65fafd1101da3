/*
 * bw_util.c - the small helpers the bandwidth sources share (bw_internal.h):
 * a leaf, so that no source file calls back into another.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bw_internal.h"

double bw_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* First line of a small file into buf (newline removed); 0 or -1. */
int bw_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int rc = -1;

	if (!f)
		return -1;
	if (fgets(buf, (int)len, f)) {
		buf[strcspn(buf, "\n")] = '\0';
		rc = 0;
	}
	fclose(f);
	return rc;
}

/* Whether path has a line that is exactly word (mon_features, filesystems
 * whose lines end in the name). */
bool bw_file_has_word(const char *path, const char *word)
{
	char line[256];
	bool found = false;
	FILE *f = fopen(path, "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *last;

		line[strcspn(line, "\n")] = '\0';
		last = strrchr(line, '\t');
		last = last ? last + 1 : line;
		found = !strcmp(last, word);
	}
	fclose(f);
	return found;
}
