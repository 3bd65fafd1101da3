/*
 * mix.c - ESP mix files (Key=Value, strict) and the scaling rule.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "esp/mix.h"
#include "num/num.h"
#include "num/text.h"
#include "num/errbuf.h"

/* What one line may set; `seen` catches a key given twice. */
enum {
	K_MIX, K_PROCESSORS, K_CLASS, K_SIZE, K_FRACTION, K_COUNT, K_TIME,
	K_LIGHT, K_NKEYS
};
static const char *const key_names[K_NKEYS] = {
	"Mix", "Processors", "Class", "Size", "Fraction", "Count", "Time",
	"Light",
};

struct line_ctx {
	const char *file;
	unsigned lineno;
	char *err;
	size_t errlen;
};

/* A message about the line being read (errbuf_at), then -1. */
#define _fail(lc, key, ...) \
	errbuf_at((lc)->err, (lc)->errlen, (lc)->file, (lc)->lineno, (key), \
		  __VA_ARGS__)

static int _key_index(const char *key)
{
	for (int i = 0; i < K_NKEYS; i++)
		if (!strcmp(key, key_names[i]))
			return i;
	return -1;
}

static bool _valid_name(const char *s)
{
	if (!*s || strlen(s) >= ESP_NAME_MAX)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("-_", *s))
			return false;
	return true;
}

/* A finite number > 0, the whole string. */
static int _positive(const struct line_ctx *lc, const char *key,
		     const char *val, double *out)
{
	if (num_parse_double(val, out) || *out <= 0)
		return _fail(lc, key, "'%s' is not a positive number", val);
	return 0;
}

/*
 * Times are seconds between a millisecond and about 115 days, fractions
 * at least one processor in a billion: beyond them a scaled time
 * overflows to infinity or a mix's minimum time underflows to 0.
 */
#define TIME_MIN_S 1e-3
#define TIME_MAX_S 1e7
#define FRACTION_MIN 1e-9

static int _seconds(const struct line_ctx *lc, const char *key,
		    const char *val, double *out)
{
	if (_positive(lc, key, val, out))
		return -1;
	if (*out < TIME_MIN_S || *out > TIME_MAX_S)
		return _fail(lc, key, "'%s' is outside %g..%g seconds", val,
			     TIME_MIN_S, TIME_MAX_S);
	return 0;
}

static int _count(const struct line_ctx *lc, const char *val, unsigned *out)
{
	uint64_t v;

	if (num_parse_u64(val, &v) || v < 1 || v > 100000)
		return _fail(lc, "Count", "'%s' is not a count (1-100000)",
			     val);
	*out = (unsigned)v;
	return 0;
}

/* The values one line gave, before they are checked together. */
struct line_vals {
	bool seen[K_NKEYS];
	char *val[K_NKEYS];
};

static int _split_line(const struct line_ctx *lc, char *line,
		       struct line_vals *lv)
{
	char *save = NULL;

	memset(lv, 0, sizeof(*lv));
	for (char *tok = strtok_r(line, " \t\r", &save); tok;
	     tok = strtok_r(NULL, " \t\r", &save)) {
		char *eq = strchr(tok, '=');
		int k;

		if (!eq)
			return _fail(lc, NULL, "'%s' is not Key=Value", tok);
		*eq = '\0';
		k = _key_index(tok);
		if (k < 0)
			return _fail(lc, tok, "unknown key (known: Mix, "
				     "Processors, Class, Size, Fraction, "
				     "Count, Time, Light)");
		if (lv->seen[k])
			return _fail(lc, tok, "given twice on the line");
		if (!eq[1])
			return _fail(lc, tok, "empty value");
		lv->seen[k] = true;
		lv->val[k] = eq + 1;
	}
	return 0;
}

static int _only(const struct line_ctx *lc, const struct line_vals *lv,
		 const int *allowed, size_t nallowed, const char *what)
{
	for (int k = 0; k < K_NKEYS; k++) {
		bool ok = false;

		if (!lv->seen[k])
			continue;
		for (size_t i = 0; i < nallowed; i++)
			ok |= allowed[i] == k;
		if (!ok)
			return _fail(lc, key_names[k], "not allowed on a %s "
				     "line", what);
	}
	return 0;
}

static int _mix_line(const struct line_ctx *lc, const struct line_vals *lv,
		     struct esp_mix *mix)
{
	static const int allowed[] = { K_MIX, K_PROCESSORS };

	if (_only(lc, lv, allowed, 2, "Mix="))
		return -1;
	if (mix->name[0])
		return _fail(lc, "Mix", "a second Mix= line");
	if (!_valid_name(lv->val[K_MIX]))
		return _fail(lc, "Mix", "'%s' is not a name (letters, "
			     "digits, '-', '_')", lv->val[K_MIX]);
	if (lv->seen[K_PROCESSORS] &&
	    _positive(lc, "Processors", lv->val[K_PROCESSORS],
		      &mix->processors))
		return -1;
	snprintf(mix->name, sizeof(mix->name), "%s", lv->val[K_MIX]);
	return 0;
}

/* A class's share of the machine, however given, is at least
 * FRACTION_MIN (a Size tiny beside a huge Processors= would make it 0). */
static int _fraction_not_tiny(const struct line_ctx *lc, const char *key,
			      const char *text, double fraction)
{
	if (fraction >= FRACTION_MIN)
		return 0;
	return _fail(lc, key, "'%s' is less than %g of the machine", text,
		     FRACTION_MIN);
}

static int _class_fraction(const struct line_ctx *lc,
			   const struct line_vals *lv,
			   const struct esp_mix *mix, double *fraction)
{
	double size;

	if (lv->seen[K_SIZE] == lv->seen[K_FRACTION])
		return _fail(lc, "Class", "give exactly one of Size= and "
			     "Fraction=");
	if (lv->seen[K_FRACTION]) {
		if (_positive(lc, "Fraction", lv->val[K_FRACTION], fraction))
			return -1;
		if (*fraction > 1)
			return _fail(lc, "Fraction", "'%s' is more than the "
				     "whole machine", lv->val[K_FRACTION]);
		return _fraction_not_tiny(lc, "Fraction", lv->val[K_FRACTION],
					  *fraction);
	}
	if (mix->processors <= 0)
		return _fail(lc, "Size", "needs Processors= on the Mix= line");
	if (_positive(lc, "Size", lv->val[K_SIZE], &size))
		return -1;
	if (size > mix->processors)
		return _fail(lc, "Size", "%s is more than Processors=%g",
			     lv->val[K_SIZE], mix->processors);
	*fraction = size / mix->processors;
	return _fraction_not_tiny(lc, "Size", lv->val[K_SIZE], *fraction);
}

static int _class_line(const struct line_ctx *lc, const struct line_vals *lv,
		       struct esp_mix *mix)
{
	static const int allowed[] = { K_CLASS, K_SIZE, K_FRACTION, K_COUNT,
				       K_TIME, K_LIGHT };
	struct esp_class c = { .light = 0 };

	if (_only(lc, lv, allowed, 6, "Class="))
		return -1;
	if (!mix->name[0])
		return _fail(lc, "Class", "before the Mix= line");
	if (!_valid_name(lv->val[K_CLASS]))
		return _fail(lc, "Class", "'%s' is not a name (letters, "
			     "digits, '-', '_')", lv->val[K_CLASS]);
	for (size_t i = 0; i < mix->nclasses; i++)
		if (!strcmp(mix->classes[i].name, lv->val[K_CLASS]))
			return _fail(lc, "Class", "'%s' given twice",
				     lv->val[K_CLASS]);
	if (mix->nclasses == ESP_MAX_CLASSES)
		return _fail(lc, "Class", "more than %d classes",
			     ESP_MAX_CLASSES);
	if (!lv->seen[K_COUNT] || !lv->seen[K_TIME])
		return _fail(lc, "Class", "needs Count= and Time=");
	snprintf(c.name, sizeof(c.name), "%s", lv->val[K_CLASS]);
	if (_class_fraction(lc, lv, mix, &c.fraction) ||
	    _count(lc, lv->val[K_COUNT], &c.count) ||
	    _seconds(lc, "Time", lv->val[K_TIME], &c.seconds))
		return -1;
	if (lv->seen[K_LIGHT] &&
	    _seconds(lc, "Light", lv->val[K_LIGHT], &c.light))
		return -1;
	/* Fractions like 81/512 are written rounded (0.1582): only the
	 * whole machine is a Z class. */
	c.full = fabs(c.fraction - 1.0) < 1e-9;
	if (c.full)
		c.fraction = 1.0;
	mix->classes[mix->nclasses++] = c;
	return 0;
}

static int _parse_line(const struct line_ctx *lc, char *line,
		       struct esp_mix *mix)
{
	struct line_vals lv;

	if (_split_line(lc, line, &lv))
		return -1;
	if (lv.seen[K_MIX])
		return _mix_line(lc, &lv, mix);
	if (lv.seen[K_CLASS])
		return _class_line(lc, &lv, mix);
	for (int k = 0; k < K_NKEYS; k++)
		if (lv.seen[k])
			return _fail(lc, key_names[k], "a line starts with "
				     "Mix= or Class=");
	return 0;
}

/* Checks over the whole file: a name, classes, Light for all or none. */
static int _check_mix(const char *file, struct esp_mix *mix, char *err,
		      size_t errlen)
{
	size_t nlight = 0;

	if (!mix->name[0]) {
		snprintf(err, errlen, "%s: no Mix= line", file);
		return -1;
	}
	if (!mix->nclasses) {
		snprintf(err, errlen, "%s: no Class= line", file);
		return -1;
	}
	for (size_t i = 0; i < mix->nclasses; i++)
		nlight += mix->classes[i].light > 0;
	if (nlight && nlight != mix->nclasses) {
		snprintf(err, errlen, "%s: key 'Light': given for %zu of %zu "
			 "classes (all or none)", file, nlight,
			 mix->nclasses);
		return -1;
	}
	mix->has_light = nlight > 0;
	return 0;
}

int esp_mix_parse(const char *text, const char *file, struct esp_mix *mix,
		  char *err, size_t errlen)
{
	struct line_ctx lc = { .file = file, .err = err, .errlen = errlen };
	char *copy = strdup(text), *save = NULL, *line;
	int rc = -1;

	memset(mix, 0, sizeof(*mix));
	if (text_check(text, strlen(text), file, err, errlen)) {
		free(copy);
		return -1;
	}
	if (!copy) {
		snprintf(err, errlen, "%s: out of memory", file);
		return -1;
	}
	/* strtok_r would merge empty lines and lose the line numbers. */
	for (line = copy; line; line = save) {
		char *hash;

		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		lc.lineno++;
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		if (_parse_line(&lc, line, mix))
			goto fail;
	}
	rc = _check_mix(file, mix, err, errlen);
fail:
	free(copy);
	if (rc)
		memset(mix, 0, sizeof(*mix));
	return rc;
}

int esp_mix_load(const char *path, struct esp_mix *mix, char *err,
		 size_t errlen)
{
	char *text = text_load(path, err, errlen);
	int rc;

	memset(mix, 0, sizeof(*mix));
	if (!text)
		return -1;
	rc = esp_mix_parse(text, path, mix, err, errlen);
	free(text);
	return rc;
}

size_t esp_mix_jobs(const struct esp_mix *mix)
{
	size_t n = 0;

	for (size_t i = 0; i < mix->nclasses; i++)
		n += mix->classes[i].count;
	return n;
}

size_t esp_mix_full_jobs(const struct esp_mix *mix)
{
	size_t n = 0;

	for (size_t i = 0; i < mix->nclasses; i++)
		if (mix->classes[i].full)
			n += mix->classes[i].count;
	return n;
}

static double _class_seconds(const struct esp_class *c, bool light)
{
	return light ? c->light : c->seconds;
}

double esp_mix_min_time(const struct esp_mix *mix, bool light)
{
	double t = 0;

	for (size_t i = 0; i < mix->nclasses; i++)
		t += mix->classes[i].count * mix->classes[i].fraction *
		     _class_seconds(&mix->classes[i], light);
	return t;
}

struct esp_scaled esp_class_scale(const struct esp_class *c, uint32_t procs,
				  bool light)
{
	double exact = c->fraction * procs;
	double size = c->full ? procs : fmax(1.0, fmin(procs, round(exact)));

	return (struct esp_scaled){
		.size = (uint32_t)size,
		.seconds = _class_seconds(c, light) * exact / size,
	};
}
