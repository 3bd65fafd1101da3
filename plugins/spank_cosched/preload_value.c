/*
 * preload_value.c - see preload_value.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preload_value.h"

#define SEPARATORS " \t:"

bool cosched_preload_lists(const char *list, const char *path)
{
	size_t len = strlen(path);

	while (list && *list) {
		size_t entry;

		list += strspn(list, SEPARATORS);
		entry = strcspn(list, SEPARATORS);
		if (entry == len && len && !strncmp(list, path, len))
			return true;
		list += entry;
	}
	return false;
}

int cosched_preload_value(const char *user, const char *shim, char **value)
{
	size_t len;

	*value = NULL;
	if (!user)
		user = "";
	if (cosched_preload_lists(user, shim))
		return 0;
	len = strlen(shim) + 1 + strlen(user) + 1;
	if (len > COSCHED_PRELOAD_MAX)
		return -1;
	*value = malloc(len);
	if (!*value)
		return -1;
	snprintf(*value, len, "%s%s%s", shim, *user ? " " : "", user);
	return 0;
}
