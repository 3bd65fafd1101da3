/*
 * plugstack.c - cosched.so's line in a plugstack.conf (see plugstack.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <glob.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cosched_proto/plugstack.h"
#include "num/errbuf.h"
#include "num/text.h"

#define SEPARATORS " \t\r\n"

static int _find_in(const char *path, int depth,
		    struct cosched_plugstack_line *out, char *err,
		    size_t errlen);

static int _is_cosched(const char *plugin_path)
{
	const char *base = strrchr(plugin_path, '/');

	return !strcmp(base ? base + 1 : plugin_path, COSCHED_PLUGSTACK_SO);
}

/* The words after the plugin's path, into out. */
static int _take_args(char *rest, const char *path, int lineno,
		      struct cosched_plugstack_line *out, char *err,
		      size_t errlen)
{
	char *words[COSCHED_PLUGSTACK_MAX_ARGS], *w, *save = NULL;
	int n = 0;

	for (w = strtok_r(rest, SEPARATORS, &save); w;
	     w = strtok_r(NULL, SEPARATORS, &save)) {
		if (n == COSCHED_PLUGSTACK_MAX_ARGS)
			return errbuf_fail(err, errlen,
					  "%s line %d: more than %d arguments for %s",
					  path, lineno, COSCHED_PLUGSTACK_MAX_ARGS,
					  COSCHED_PLUGSTACK_SO);
		words[n++] = w;
	}
	out->argv = calloc((size_t)n + 1, sizeof(*out->argv));
	out->file = strdup(path);
	if (!out->argv || !out->file)
		goto nomem;
	for (out->argc = 0; out->argc < n; out->argc++)
		if (!(out->argv[out->argc] = strdup(words[out->argc])))
			goto nomem;
	out->line = lineno;
	return 1;
nomem:
	cosched_plugstack_line_free(out);
	return errbuf_fail(err, errlen, "%s: out of memory", path);
}

/* An include's pattern, relative to the including file's directory. */
static int _include(const char *path, const char *pattern, int depth,
		    struct cosched_plugstack_line *out, char *err,
		    size_t errlen)
{
	size_t len = strlen(path) + strlen(pattern) + 2;
	char *dir = strdup(path), *full = malloc(len);
	glob_t gl;
	int rc = 0;

	if (!dir || !full) {
		free(dir);
		free(full);
		return errbuf_fail(err, errlen, "%s: out of memory", path);
	}
	if (pattern[0] == '/')
		snprintf(full, len, "%s", pattern);
	else
		snprintf(full, len, "%s/%s", dirname(dir), pattern);
	memset(&gl, 0, sizeof(gl));
	if (glob(full, 0, NULL, &gl) == 0)	/* no match: nothing included */
		for (size_t i = 0; !rc && i < gl.gl_pathc; i++)
			rc = _find_in(gl.gl_pathv[i], depth + 1, out, err,
				      errlen);
	globfree(&gl);
	free(full);
	free(dir);
	return rc;
}

/* One line (comment cut): 1 found, 0 not this one, -1 error. */
static int _line(char *text, const char *path, int lineno, int depth,
		 struct cosched_plugstack_line *out, char *err, size_t errlen)
{
	char *save = NULL, *kind, *target;

	if (!(kind = strtok_r(text, SEPARATORS, &save)) ||
	    !(target = strtok_r(NULL, SEPARATORS, &save)))
		return 0;
	if (!strcmp(kind, "include"))
		return _include(path, target, depth, out, err, errlen);
	if ((strcmp(kind, "required") && strcmp(kind, "optional")) ||
	    !_is_cosched(target))
		return 0;
	return _take_args(save ? save : target + strlen(target), path, lineno,
			  out, err, errlen);
}

static int _find_in(const char *path, int depth,
		    struct cosched_plugstack_line *out, char *err,
		    size_t errlen)
{
	char *text, *line, *next, *hash;
	int lineno = 1, rc = 0;

	if (depth > COSCHED_PLUGSTACK_DEPTH)
		return errbuf_fail(err, errlen,
				  "%s: includes nested deeper than %d",
				  path, COSCHED_PLUGSTACK_DEPTH);
	if (access(path, F_OK) && errno == ENOENT)
		return 0;	/* as Slurm: no file, no plugins */
	if (!(text = text_load(path, err, errlen)))
		return -1;
	for (line = text; !rc && line; line = next, lineno++) {
		if ((next = strchr(line, '\n')))
			*next++ = '\0';
		if ((hash = strchr(line, '#')))
			*hash = '\0';
		rc = _line(line, path, lineno, depth, out, err, errlen);
	}
	free(text);
	return rc;
}

int cosched_plugstack_find(const char *path,
			   struct cosched_plugstack_line *out,
			   char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	return _find_in(path, 0, out, err, errlen);
}

void cosched_plugstack_line_free(struct cosched_plugstack_line *l)
{
	if (l->argv)
		for (int i = 0; l->argv[i]; i++)
			free(l->argv[i]);
	free(l->argv);
	free(l->file);
	memset(l, 0, sizeof(*l));
}
