/*
 * cosched_opts.c - parsing of --coalloc=SIZES and --cosched=MODE (see
 * cosched_opts.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cosched_opts/cosched_opts.h"

/*
 * Messages quote the user's input, which may be arbitrarily long: tokens
 * and whole lists are cut to these lengths (with "...") so every message
 * fits COSCHED_ERR_LEN and stays readable on one line.
 */
#define QUOTE_TOKEN_MAX 24
#define QUOTE_LIST_MAX 64

static const char *const mode_names[COSCHED_MODE_COUNT] = {
	[COSCHED_MODE_NONE]	= "none",
	[COSCHED_MODE_SB]	= "sb",
	[COSCHED_MODE_SY]	= "sy",
	[COSCHED_MODE_DCS]	= "dcs",
	[COSCHED_MODE_PB]	= "pb",
	[COSCHED_MODE_PB_SB]	= "pb-sb",
	[COSCHED_MODE_PB_SY]	= "pb-sy",
	[COSCHED_MODE_DCS_SB]	= "dcs-sb",
	[COSCHED_MODE_DCS_SY]	= "dcs-sy",
	[COSCHED_MODE_ECM]	= "ecm",
	[COSCHED_MODE_EDM]	= "edm",
	[COSCHED_MODE_MEMBUS]	= "membus",
};

/* Kept in step with mode_names[] by the unit test. */
static const char all_mode_names[] =
	"none, sb, sy, dcs, pb, pb-sb, pb-sy, dcs-sb, dcs-sy, ecm, edm, membus";

void cosched_set_err(char *err, size_t err_len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !err_len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, err_len, fmt, ap);
	va_end(ap);
}

/* A quotable view of len bytes of s: the length to print and a suffix. */
struct quote {
	int len;
	const char *more;
};

static struct quote _quote(size_t len, size_t max)
{
	if (len <= max)
		return (struct quote){ (int)len, "" };
	return (struct quote){ (int)(max - 3), "..." };
}

/* ------------------------------------------------------------- sizes */

/* What can be wrong with one token of SIZES. */
enum size_problem {
	SIZE_OK,
	SIZE_EMPTY,
	SIZE_NOT_DECIMAL,
	SIZE_ZERO,
	SIZE_TOO_LARGE,
};

static enum size_problem _parse_size_token(const char *tok, size_t len,
					   uint32_t *nodes)
{
	uint32_t value = 0;
	bool too_large = false;

	if (!len)
		return SIZE_EMPTY;
	for (size_t i = 0; i < len; i++) {
		if (tok[i] < '0' || tok[i] > '9')
			return SIZE_NOT_DECIMAL;
		/* Keep scanning once too large: a later 'x' is the real
		 * problem and should be reported as such. */
		if (!too_large) {
			value = value * 10 + (uint32_t)(tok[i] - '0');
			too_large = value > COSCHED_MAX_COMPONENT_NODES;
		}
	}
	if (too_large)
		return SIZE_TOO_LARGE;
	if (!value)
		return SIZE_ZERO;
	*nodes = value;
	return SIZE_OK;
}

static void _size_token_err(char *err, size_t err_len, const char *text,
			    const char *tok, size_t len, unsigned int index,
			    enum size_problem problem)
{
	struct quote qt = _quote(len, QUOTE_TOKEN_MAX);
	struct quote ql = _quote(strlen(text), QUOTE_LIST_MAX);
	char why[64];

	switch (problem) {
	case SIZE_EMPTY:
		cosched_set_err(err, err_len,
			 "--coalloc: empty component size (token %u of \"%.*s%s\"): stray comma",
			 index, ql.len, text, ql.more);
		return;
	case SIZE_NOT_DECIMAL:
		snprintf(why, sizeof(why), "not a positive decimal integer");
		break;
	case SIZE_ZERO:
		snprintf(why, sizeof(why), "sizes must be at least 1");
		break;
	case SIZE_TOO_LARGE:
		snprintf(why, sizeof(why), "larger than the maximum of %u nodes",
			 COSCHED_MAX_COMPONENT_NODES);
		break;
	case SIZE_OK:
	default:
		snprintf(why, sizeof(why), "invalid");
		break;
	}
	cosched_set_err(err, err_len,
		 "--coalloc: bad component size '%.*s%s' (token %u of \"%.*s%s\"): %s",
		 qt.len, tok, qt.more, index, ql.len, text, ql.more, why);
}

static void _too_many_err(char *err, size_t err_len, const char *text,
			  const char *tok, size_t len, unsigned int index)
{
	struct quote qt = _quote(len, QUOTE_TOKEN_MAX);
	struct quote ql = _quote(strlen(text), QUOTE_LIST_MAX);

	cosched_set_err(err, err_len,
		 "--coalloc: too many components: '%.*s%s' is token %u of \"%.*s%s\", at most %u are allowed",
		 qt.len, tok, qt.more, index, ql.len, text, ql.more,
		 COSCHED_MAX_COMPONENTS);
}

int cosched_parse_sizes(const char *text, struct cosched_sizes *sizes,
			char *err, size_t err_len)
{
	struct cosched_sizes parsed = { 0 };
	const char *tok = text;

	if (!text || !*text) {
		cosched_set_err(err, err_len,
			 "--coalloc: no component sizes given (expected e.g. --coalloc=4,4)");
		return -1;
	}
	for (;;) {
		size_t len = strcspn(tok, ",");
		unsigned int index = parsed.count + 1;
		enum size_problem problem;
		uint32_t nodes = 0;

		if (parsed.count == COSCHED_MAX_COMPONENTS) {
			_too_many_err(err, err_len, text, tok, len, index);
			return -1;
		}
		problem = _parse_size_token(tok, len, &nodes);
		if (problem != SIZE_OK) {
			_size_token_err(err, err_len, text, tok, len, index,
					problem);
			return -1;
		}
		parsed.nodes[parsed.count++] = nodes;
		if (!tok[len])
			break;
		tok += len + 1;
	}
	if (sizes)
		*sizes = parsed;
	return 0;
}

static bool _sizes_valid(const struct cosched_sizes *sizes)
{
	if (!sizes || !sizes->count || sizes->count > COSCHED_MAX_COMPONENTS)
		return false;
	for (uint32_t i = 0; i < sizes->count; i++) {
		if (!sizes->nodes[i] ||
		    sizes->nodes[i] > COSCHED_MAX_COMPONENT_NODES)
			return false;
	}
	return true;
}

int cosched_format_sizes(const struct cosched_sizes *sizes, char *buf,
			 size_t buf_len)
{
	size_t used = 0;

	if (!buf || !buf_len)
		return -1;
	buf[0] = '\0';
	if (!_sizes_valid(sizes))
		return -1;
	for (uint32_t i = 0; i < sizes->count; i++) {
		int n = snprintf(buf + used, buf_len - used, "%s%u",
				 i ? "," : "", (unsigned int)sizes->nodes[i]);

		if (n < 0 || (size_t)n >= buf_len - used) {
			buf[0] = '\0';
			return -1;
		}
		used += (size_t)n;
	}
	return 0;
}

uint32_t cosched_sizes_total(const struct cosched_sizes *sizes)
{
	uint32_t total = 0;

	if (!_sizes_valid(sizes))
		return 0;
	for (uint32_t i = 0; i < sizes->count; i++)
		total += sizes->nodes[i];
	return total;
}

/* ------------------------------------------------------------- modes */

int cosched_parse_mode(const char *text, enum cosched_mode *mode,
		       char *err, size_t err_len)
{
	struct quote qt;

	if (!text || !*text) {
		cosched_set_err(err, err_len,
			 "--cosched: no mode given (expected one of: %s)",
			 all_mode_names);
		return -1;
	}
	for (int m = 0; m < COSCHED_MODE_COUNT; m++) {
		if (!strcasecmp(text, mode_names[m])) {
			if (mode)
				*mode = (enum cosched_mode)m;
			return 0;
		}
	}
	qt = _quote(strlen(text), QUOTE_TOKEN_MAX);
	cosched_set_err(err, err_len,
		 "--cosched: unknown mode '%.*s%s' (expected one of: %s)",
		 qt.len, text, qt.more, all_mode_names);
	return -1;
}

const char *cosched_mode_name(enum cosched_mode mode)
{
	if ((int)mode < 0 || mode >= COSCHED_MODE_COUNT)
		return NULL;
	return mode_names[mode];
}

const char *cosched_mode_names(void)
{
	return all_mode_names;
}
