/*
 * slurm_text.c - slurm.conf as coalloc-status --check reads it
 * (slurm_text.h).
 *
 * A line is whitespace-separated Key=Value words, "#" to its end a
 * comment; a value may be quoted ("a b").  The first word tells the
 * line's kind: NodeName= and PartitionName= lines (DEFAULT ones set what
 * later lines of their kind inherit), "Include FILE" (relative to the
 * including file's directory), or global settings.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE	/* strndup */
#include <ctype.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "coalloc_conf/slurm_text.h"
#include "num/errbuf.h"
#include "num/text.h"

#define FORCE_DEFAULT 4		/* OverSubscribe=FORCE without :N */
#define WORD_MAX 64		/* words on one line, far beyond slurm.conf's */

struct word {
	char *key, *value;	/* in the line's copy */
};

struct reader {
	struct slurm_text *t;
	unsigned part_default_force;
	char *err;
	size_t errlen;
};

/* The global settings kept, by key. */
static struct slurm_text_setting *_setting(struct slurm_text *t,
					   const char *key)
{
	static const struct {
		const char *key;
		size_t offset;
	} settings[] = {
		{ "SelectType", offsetof(struct slurm_text, select_type) },
		{ "SelectTypeParameters",
		  offsetof(struct slurm_text, select_type_parameters) },
		{ "PreemptMode", offsetof(struct slurm_text, preempt_mode) },
		{ "PreemptType", offsetof(struct slurm_text, preempt_type) },
		{ "PlugStackConfig",
		  offsetof(struct slurm_text, plugstack_config) },
	};

	for (size_t i = 0; i < sizeof(settings) / sizeof(settings[0]); i++)
		if (!strcasecmp(key, settings[i].key))
			return (struct slurm_text_setting *)
				((char *) t + settings[i].offset);
	return NULL;
}

/* Cuts line (modified in place) into words; -1 on an open quote. */
static int _split(char *line, struct word *w, int *n)
{
	char *p = line;

	*n = 0;
	while (*p) {
		while (isspace((unsigned char) *p))
			p++;
		if (!*p || *p == '#')
			break;
		if (*n == WORD_MAX)
			return -1;
		w[*n].key = p;
		w[*n].value = NULL;
		while (*p && !isspace((unsigned char) *p) && *p != '=' &&
		       *p != '#')
			p++;
		if (*p == '=') {
			*p++ = '\0';
			if (*p == '"') {
				w[*n].value = ++p;
				if (!(p = strchr(p, '"')))
					return -1;
				*p++ = '\0';
			} else {
				w[*n].value = p;
				while (*p && !isspace((unsigned char) *p) &&
				       *p != '#')
					p++;
			}
		}
		if (*p && *p != '#')
			*p++ = '\0';
		else if (*p == '#')
			*p = '\0';
		(*n)++;
	}
	return 0;
}

/* FORCE[:N] -> N, anything else 0. */
static unsigned _force(const char *value)
{
	char *end;
	unsigned long n;

	if (strncasecmp(value, "FORCE", 5))
		return 0;
	if (value[5] != ':')
		return FORCE_DEFAULT;
	n = strtoul(value + 6, &end, 10);
	return *end || n > 1024 ? FORCE_DEFAULT : (unsigned) n;
}

static void *_grow(void *array, size_t n, size_t size)
{
	return realloc(array, (n + 1) * size);
}

static int _nodes_line(struct reader *r, struct word *w,
		       const struct slurm_text_line *at)
{
	struct slurm_text *t = r->t;
	struct slurm_text_nodes *grown;

	if (!strcasecmp(w[0].value, "DEFAULT"))
		return 0;
	if (!(grown = _grow(t->nodes, t->nnodes, sizeof(*grown))))
		return errbuf_fail(r->err, r->errlen, "out of memory");
	t->nodes = grown;
	grown[t->nnodes].hostlist = strdup(w[0].value);
	grown[t->nnodes].at = *at;
	if (!grown[t->nnodes++].hostlist)
		return errbuf_fail(r->err, r->errlen, "out of memory");
	return 0;
}

static int _partition_line(struct reader *r, struct word *w, int n,
			   const struct slurm_text_line *at)
{
	struct slurm_text *t = r->t;
	struct slurm_text_partition *grown;
	unsigned force = r->part_default_force;

	for (int i = 1; i < n; i++)
		if (w[i].value && (!strcasecmp(w[i].key, "OverSubscribe") ||
				   !strcasecmp(w[i].key, "Shared")))
			force = _force(w[i].value);
	if (!strcasecmp(w[0].value, "DEFAULT")) {
		r->part_default_force = force;
		return 0;
	}
	if (!(grown = _grow(t->partitions, t->npartitions, sizeof(*grown))))
		return errbuf_fail(r->err, r->errlen, "out of memory");
	t->partitions = grown;
	grown[t->npartitions].name = strdup(w[0].value);
	grown[t->npartitions].force = force;
	grown[t->npartitions].at = *at;
	if (!grown[t->npartitions++].name)
		return errbuf_fail(r->err, r->errlen, "out of memory");
	return 0;
}

static int _settings_line(struct reader *r, struct word *w, int n,
			  const struct slurm_text_line *at)
{
	for (int i = 0; i < n; i++) {
		struct slurm_text_setting *s = _setting(r->t, w[i].key);

		if (!s || !w[i].value)
			continue;
		free(s->value);
		if (!(s->value = strdup(w[i].value)))
			return errbuf_fail(r->err, r->errlen, "out of memory");
		s->at = *at;
	}
	return 0;
}

static int _load_file(struct reader *r, const char *path, int depth);

/* "Include FILE": relative to the directory of the including file. */
static int _include(struct reader *r, const char *name,
		    const struct slurm_text_line *at, int depth)
{
	char *dir, *path;
	int rc;

	if (depth >= SLURM_TEXT_MAX_INCLUDE_DEPTH)
		return errbuf_at(r->err, r->errlen, at->file,
				 (unsigned long) at->line, "Include",
				 "Include nested over %d deep (a loop?)",
				 SLURM_TEXT_MAX_INCLUDE_DEPTH);
	if (name[0] == '/') {
		path = strdup(name);
	} else {
		dir = strdup(at->file);
		path = NULL;
		if (dir && asprintf(&path, "%s/%s", dirname(dir), name) < 0)
			path = NULL;
		free(dir);
	}
	if (!path)
		return errbuf_fail(r->err, r->errlen, "out of memory");
	rc = _load_file(r, path, depth + 1);
	free(path);
	return rc;
}

static int _line(struct reader *r, char *line,
		 const struct slurm_text_line *at, int depth)
{
	struct word w[WORD_MAX];
	int n;

	if (_split(line, w, &n))
		return errbuf_at(r->err, r->errlen, at->file,
				 (unsigned long) at->line, NULL,
				 "an open quote, or over %d words", WORD_MAX);
	if (!n)
		return 0;
	if (!w[0].value && !strcasecmp(w[0].key, "Include")) {
		if (n != 2 || w[1].value)
			return errbuf_at(r->err, r->errlen, at->file,
					 (unsigned long) at->line, "Include",
					 "expected 'Include FILE'");
		return _include(r, w[1].key, at, depth);
	}
	if (!w[0].value)
		return 0;	/* slurmctld judges what it does not parse */
	if (!strcasecmp(w[0].key, "NodeName"))
		return _nodes_line(r, w, at);
	if (!strcasecmp(w[0].key, "PartitionName"))
		return _partition_line(r, w, n, at);
	if (!strcasecmp(w[0].key, "NodeSet") ||
	    !strcasecmp(w[0].key, "FrontendName") ||
	    !strcasecmp(w[0].key, "DownNodes") ||
	    !strcasecmp(w[0].key, "SlurmctldHost"))
		return 0;
	return _settings_line(r, w, n, at);
}

static char *_keep_file(struct slurm_text *t, const char *path)
{
	char **grown = _grow(t->files, t->nfiles, sizeof(*grown));

	if (!grown)
		return NULL;
	t->files = grown;
	if (!(grown[t->nfiles] = strdup(path)))
		return NULL;
	return grown[t->nfiles++];
}

static int _load_file(struct reader *r, const char *path, int depth)
{
	char *text = text_load(path, r->err, r->errlen);
	struct slurm_text_line at = { .line = 0 };
	char *line, *next;
	int rc = 0;

	if (!text)
		return -1;
	if (!(at.file = _keep_file(r->t, path))) {
		free(text);
		return errbuf_fail(r->err, r->errlen, "out of memory");
	}
	for (line = text; !rc && line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		at.line++;
		rc = _line(r, line, &at, depth);
	}
	free(text);
	return rc;
}

int slurm_text_load(const char *path, struct slurm_text *out, char *err,
		    size_t errlen)
{
	struct reader r = { .t = out, .err = err, .errlen = errlen };

	memset(out, 0, sizeof(*out));
	if (errlen)
		err[0] = '\0';
	if (_load_file(&r, path, 0)) {
		slurm_text_free(out);
		return -1;
	}
	return 0;
}

void slurm_text_free(struct slurm_text *t)
{
	struct slurm_text_setting *settings[] = {
		&t->select_type, &t->select_type_parameters, &t->preempt_mode,
		&t->preempt_type, &t->plugstack_config,
	};

	for (size_t i = 0; i < t->nnodes; i++)
		free(t->nodes[i].hostlist);
	for (size_t i = 0; i < t->npartitions; i++)
		free(t->partitions[i].name);
	for (size_t i = 0; i < sizeof(settings) / sizeof(settings[0]); i++)
		free(settings[i]->value);
	for (size_t i = 0; i < t->nfiles; i++)
		free(t->files[i]);
	free(t->nodes);
	free(t->partitions);
	free(t->files);
	memset(t, 0, sizeof(*t));
}
