/*
 * site_name.c - what a site name may be (site_name.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <ctype.h>
#include <string.h>

#include "coalloc/limits.h"
#include "coalloc/site_name.h"

bool coalloc_name_char_ok(char c)
{
	return isalnum((unsigned char)c) || (c && strchr("_-.", c));
}

const char *coalloc_site_name_problem(const char *name, size_t len)
{
	if (!len)
		return "empty";
	if (len > COALLOC_SITE_NAME_MAX)
		return "too long (at most " COALLOC_SITE_NAME_MAX_TEXT
		       " characters)";
	for (size_t i = 0; i < len; i++)
		if (!coalloc_name_char_ok(name[i]))
			return "only letters, digits, '_', '-' and '.' are allowed";
	return NULL;
}
