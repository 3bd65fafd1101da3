/*
 * sizes.c - parsing of --coalloc=REQUEST (sizes.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "coalloc/site_name.h"
#include "coalloc/sizes.h"
#include "num/errbuf.h"

/*
 * Messages quote the user's input, which may be arbitrarily long: tokens
 * and whole lists are cut to these lengths (with "...") so every message
 * fits ERRBUF_LEN and stays readable on one line.
 */
#define QUOTE_TOKEN_MAX 24
#define QUOTE_LIST_MAX 64


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
			too_large = value > COALLOC_MAX_COMPONENT_NODES;
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
	struct errbuf_quote qt = errbuf_quote(len, QUOTE_TOKEN_MAX);
	struct errbuf_quote ql = errbuf_quote(strlen(text), QUOTE_LIST_MAX);
	char why[64];

	switch (problem) {
	case SIZE_EMPTY:
		errbuf_set(err, err_len,
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
			 COALLOC_MAX_COMPONENT_NODES);
		break;
	case SIZE_OK:
	default:
		snprintf(why, sizeof(why), "invalid");
		break;
	}
	errbuf_set(err, err_len,
		 "--coalloc: bad component size '%.*s%s' (token %u of \"%.*s%s\"): %s",
		 qt.len, tok, qt.more, index, ql.len, text, ql.more, why);
}

static void _too_many_err(char *err, size_t err_len, const char *text,
			  const char *tok, size_t len, unsigned int index)
{
	struct errbuf_quote qt = errbuf_quote(len, QUOTE_TOKEN_MAX);
	struct errbuf_quote ql = errbuf_quote(strlen(text), QUOTE_LIST_MAX);

	errbuf_set(err, err_len,
		 "--coalloc: too many components: '%.*s%s' is token %u of \"%.*s%s\", at most %u are allowed",
		 qt.len, tok, qt.more, index, ql.len, text, ql.more,
		 COALLOC_MAX_COMPONENTS);
}

static void _site_err(char *err, size_t err_len, const char *text,
		      const char *site, size_t len, unsigned int index,
		      const char *why)
{
	struct errbuf_quote qs = errbuf_quote(len, QUOTE_TOKEN_MAX);
	struct errbuf_quote ql = errbuf_quote(strlen(text), QUOTE_LIST_MAX);

	errbuf_set(err, err_len,
		 "--coalloc: bad site name '%.*s%s' (component %u of \"%.*s%s\"): %s",
		 qs.len, site, qs.more, index, ql.len, text, ql.more, why);
}

/* The component that already names this site, or 0. */
static unsigned int _site_named_by(const struct coalloc_sizes *parsed,
				   const char *site, size_t len)
{
	for (uint32_t k = 0; k < parsed->count; k++)
		if (strlen(parsed->site[k]) == len &&
		    !memcmp(parsed->site[k], site, len))
			return k + 1;
	return 0;
}

/*
 * One component, "SIZE" or "SIZE@SITE", of len bytes at tok, appended to
 * parsed.  Returns 0 or -1 with the message in err.
 */
static int _parse_component(const char *text, const char *tok, size_t len,
			    struct coalloc_sizes *parsed, char *err,
			    size_t err_len)
{
	unsigned int index = parsed->count + 1, twice;
	const char *at = memchr(tok, '@', len);
	size_t size_len = at ? (size_t)(at - tok) : len;
	enum size_problem problem;
	uint32_t nodes = 0;

	if (parsed->count == COALLOC_MAX_COMPONENTS) {
		_too_many_err(err, err_len, text, tok, len, index);
		return -1;
	}
	problem = _parse_size_token(tok, size_len, &nodes);
	if (problem == SIZE_EMPTY && at) {
		struct errbuf_quote ql = errbuf_quote(strlen(text),
						      QUOTE_LIST_MAX);

		errbuf_set(err, err_len,
			 "--coalloc: component %u of \"%.*s%s\" has no size before '@' (expected SIZE@SITE, e.g. 16@siteA)",
			 index, ql.len, text, ql.more);
		return -1;
	}
	if (problem != SIZE_OK) {
		_size_token_err(err, err_len, text, tok, size_len, index,
				problem);
		return -1;
	}
	if (at) {
		const char *site = at + 1;
		size_t site_len = len - size_len - 1;
		const char *why = coalloc_site_name_problem(site, site_len);

		if (why) {
			_site_err(err, err_len, text, site, site_len, index, why);
			return -1;
		}
		twice = _site_named_by(parsed, site, site_len);
		if (twice) {
			errbuf_set(err, err_len,
				 "--coalloc: site '%.*s' is named by components %u and %u: a job has at most one component per site",
				 (int)site_len, site, twice, index);
			return -1;
		}
		memcpy(parsed->site[parsed->count], site, site_len);
		parsed->site[parsed->count][site_len] = '\0';
		parsed->type = COALLOC_REQ_ORDERED;
	}
	parsed->nodes[parsed->count++] = nodes;
	return 0;
}

int coalloc_parse_sizes(const char *text, struct coalloc_sizes *sizes,
			char *err, size_t err_len)
{
	struct coalloc_sizes parsed;
	const char *tok = text;

	if (!text || !*text) {
		errbuf_set(err, err_len,
			 "--coalloc: no component sizes given (expected e.g. --coalloc=4,4, --coalloc=16@siteA,8 or --coalloc=flex)");
		return -1;
	}
	memset(&parsed, 0, sizeof(parsed));
	if (!strcmp(text, COALLOC_FLEX_KEYWORD)) {
		parsed.type = COALLOC_REQ_FLEXIBLE;
		goto done;
	}
	for (;;) {
		size_t len = strcspn(tok, ",");

		if (_parse_component(text, tok, len, &parsed, err, err_len))
			return -1;
		if (!tok[len])
			break;
		tok += len + 1;
	}
done:
	if (sizes)
		*sizes = parsed;
	return 0;
}

const char *coalloc_request_type_name(enum coalloc_request_type type)
{
	static const char *const names[] = {
		[COALLOC_REQ_UNORDERED] = "unordered",
		[COALLOC_REQ_ORDERED] = "ordered",
		[COALLOC_REQ_FLEXIBLE] = "flexible",
	};

	if ((unsigned)type >= sizeof(names) / sizeof(names[0]))
		return NULL;
	return names[type];
}

static bool _sizes_valid(const struct coalloc_sizes *sizes)
{
	if (!sizes)
		return false;
	if (sizes->type == COALLOC_REQ_FLEXIBLE)
		return sizes->count == 0;
	if (!sizes->count || sizes->count > COALLOC_MAX_COMPONENTS)
		return false;
	for (uint32_t i = 0; i < sizes->count; i++) {
		if (!sizes->nodes[i] ||
		    sizes->nodes[i] > COALLOC_MAX_COMPONENT_NODES ||
		    (sizes->site[i][0] &&
		     coalloc_site_name_problem(sizes->site[i],
					       strlen(sizes->site[i]))))
			return false;
	}
	return true;
}

int coalloc_format_sizes(const struct coalloc_sizes *sizes, char *buf,
			 size_t buf_len)
{
	size_t used = 0;

	if (!buf || !buf_len)
		return -1;
	buf[0] = '\0';
	if (!_sizes_valid(sizes))
		return -1;
	if (sizes->type == COALLOC_REQ_FLEXIBLE) {
		if (buf_len <= strlen(COALLOC_FLEX_KEYWORD))
			return -1;
		strcpy(buf, COALLOC_FLEX_KEYWORD);
		return 0;
	}
	for (uint32_t i = 0; i < sizes->count; i++) {
		const char *site = sizes->site[i];
		int n = snprintf(buf + used, buf_len - used, "%s%u%s%s",
				 i ? "," : "", (unsigned int)sizes->nodes[i],
				 site[0] ? "@" : "", site);

		if (n < 0 || (size_t)n >= buf_len - used) {
			buf[0] = '\0';
			return -1;
		}
		used += (size_t)n;
	}
	return 0;
}

uint32_t coalloc_sizes_total(const struct coalloc_sizes *sizes)
{
	uint32_t total = 0;

	if (!_sizes_valid(sizes))
		return 0;
	for (uint32_t i = 0; i < sizes->count; i++)
		total += sizes->nodes[i];
	return total;
}
