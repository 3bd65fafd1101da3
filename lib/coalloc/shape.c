/*
 * shape.c - a --coalloc request checked against the sites (shape.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coalloc/shape.h"
#include "coalloc/site_name.h"
#include "num/errbuf.h"

static int _site_index(const struct coalloc_site_list *sites, const char *name)
{
	for (unsigned s = 0; s < sites->count; s++)
		if (!strcmp(sites->name[s], name))
			return (int)s;
	return -1;
}

/* "a (16), b (8)" for messages; cut with "..." when long. */
static const char *_site_names(const struct coalloc_site_list *sites,
			       char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned s = 0; s < sites->count && used < len; s++) {
		int n = snprintf(buf + used, len - used, "%s%s (%u)",
				 s ? ", " : "", sites->name[s],
				 (unsigned int)sites->nodes[s]);

		if (n < 0 || (size_t)n >= len - used) {
			if (len > 4)
				strcpy(buf + len - 4, "...");
			break;
		}
		used += (size_t)n;
	}
	return buf;
}

static int _resolve_flexible(const struct coalloc_site_list *sites,
			     uint32_t total, struct coalloc_shape *shape,
			     char *err, size_t err_len)
{
	uint64_t all = 0;

	for (unsigned s = 0; s < sites->count; s++)
		all += sites->nodes[s];
	if (!total)
		return errbuf_fail(err, err_len,
				   "--coalloc=flex: the job asks for no nodes");
	if (total > all)
		return errbuf_fail(err, err_len,
				   "--coalloc=flex: the job asks for %u nodes, the sites have %llu together",
				   (unsigned int)total, (unsigned long long)all);
	shape->total = total;
	return 0;
}

/* Components, their named sites resolved; refuses what no site can hold. */
static int _resolve_components(const struct coalloc_sizes *sizes,
			       const struct coalloc_site_list *sites,
			       struct coalloc_shape *shape, char *err,
			       size_t err_len)
{
	char names[256];

	if (sizes->count > sites->count)
		return errbuf_fail(err, err_len,
				   "--coalloc: %u components, but the cluster has %u site(s): %s",
				   (unsigned int)sizes->count, sites->count,
				   _site_names(sites, names, sizeof(names)));
	shape->ncomp = sizes->count;
	for (uint32_t k = 0; k < sizes->count; k++) {
		int s = COALLOC_SITE_ANY;

		if (sizes->site[k][0]) {
			s = _site_index(sites, sizes->site[k]);
			if (s < 0)
				return errbuf_fail(err, err_len,
						   "--coalloc: component %u names site '%s', which this cluster does not have (its sites: %s)",
						   (unsigned int)k + 1, sizes->site[k],
						   _site_names(sites, names, sizeof(names)));
			if (sizes->nodes[k] > sites->nodes[s])
				return errbuf_fail(err, err_len,
						   "--coalloc: component %u asks for %u nodes of site '%s', which has %u",
						   (unsigned int)k + 1,
						   (unsigned int)sizes->nodes[k],
						   sizes->site[k],
						   (unsigned int)sites->nodes[s]);
		}
		shape->size[k] = sizes->nodes[k];
		shape->site[k] = (int16_t)s;
	}
	coalloc_sort_largest_first(shape->size, shape->site, shape->ncomp);
	return 0;
}

int coalloc_shape_resolve(const struct coalloc_sizes *sizes,
			  const struct coalloc_site_list *sites,
			  uint32_t flex_total, struct coalloc_shape *shape,
			  char *err, size_t err_len)
{
	struct coalloc_fit fit;
	char names[256];

	memset(shape, 0, sizeof(*shape));
	if (!sizes || !sites || !sites->count ||
	    sites->count > COALLOC_MAX_SITES)
		return errbuf_fail(err, err_len,
				   "--coalloc: the cluster has no sites");
	shape->type = sizes->type;
	if (sizes->type == COALLOC_REQ_FLEXIBLE)
		return _resolve_flexible(sites, flex_total, shape, err,
					 err_len);
	if (_resolve_components(sizes, sites, shape, err, err_len))
		return -1;
	if (!coalloc_shape_fit(sites->nodes, sites->count, shape, -1, &fit))
		return errbuf_fail(err, err_len,
				   "--coalloc: the components do not fit on distinct sites even with every node free (sites: %s)",
				   _site_names(sites, names, sizeof(names)));
	return 0;
}

/* ------------------------------------------------------------ key pair */

int coalloc_site_list_format(const struct coalloc_site_list *sites,
			     char *buf, size_t len)
{
	size_t used = 0;

	if (!buf || !len)
		return -1;
	buf[0] = '\0';
	for (unsigned s = 0; sites && s < sites->count; s++) {
		int n = snprintf(buf + used, len - used, "%s%s=%u",
				 s ? "," : "", sites->name[s],
				 (unsigned int)sites->nodes[s]);

		if (n < 0 || (size_t)n >= len - used) {
			buf[0] = '\0';
			return -1;
		}
		used += (size_t)n;
	}
	return 0;
}

/* One "name=nodes" of len bytes into entry s; 0 or -1. */
static int _parse_site(const char *tok, size_t len,
		       struct coalloc_site_list *sites)
{
	const char *eq = memchr(tok, '=', len);
	size_t name_len = eq ? (size_t)(eq - tok) : 0;
	char digits[12];
	char *end;
	unsigned long nodes;

	if (!eq || coalloc_site_name_problem(tok, name_len) ||
	    sites->count == COALLOC_MAX_SITES)
		return -1;
	len -= name_len + 1;
	if (!len || len >= sizeof(digits) || eq[1] < '0' || eq[1] > '9')
		return -1;
	memcpy(digits, eq + 1, len);
	digits[len] = '\0';
	nodes = strtoul(digits, &end, 10);
	if (*end || !nodes || nodes > UINT32_MAX)
		return -1;
	memcpy(sites->name[sites->count], tok, name_len);
	sites->name[sites->count][name_len] = '\0';
	sites->nodes[sites->count++] = (uint32_t)nodes;
	return 0;
}

int coalloc_site_list_parse(const char *text, struct coalloc_site_list *sites)
{
	struct coalloc_site_list parsed = { 0 };

	if (!text || !*text || !sites)
		return -1;
	for (;;) {
		size_t len = strcspn(text, ",");

		if (_parse_site(text, len, &parsed))
			return -1;
		if (!text[len])
			break;
		text += len + 1;
	}
	*sites = parsed;
	return 0;
}
