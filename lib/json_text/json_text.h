/*
 * json_text.h - the JSON the suite's programs print (esp-sim,
 * coalloc-sim, esp's results.json): one text form, pretty and with '/'
 * unescaped, and numbers that are not numbers written as null.  A header
 * of inline functions: only programs that link json-c include it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_JSON_TEXT_H
#define COALLOC_JSON_TEXT_H

#include <math.h>
#include <stdio.h>

#include <json.h>

#define JSON_TEXT_FLAGS (JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE)

/* A double, or null (NULL) for NaN: JSON has no NaN. */
static inline json_object *json_text_num(double v)
{
	return isnan(v) ? NULL : json_object_new_double(v);
}

/* The text of o (owned by o), or NULL when out of memory. */
static inline const char *json_text_of(json_object *o)
{
	return o ? json_object_to_json_string_ext(o, JSON_TEXT_FLAGS) : NULL;
}

/* o's text and a newline on fp: 0, or -1 (no memory, a write error). */
static inline int json_text_print(FILE *fp, json_object *o)
{
	const char *text = json_text_of(o);

	return text && fprintf(fp, "%s\n", text) >= 0 ? 0 : -1;
}

#endif /* COALLOC_JSON_TEXT_H */
