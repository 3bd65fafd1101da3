/*
 * fuzz_cosched_opts.c - the values of the user options --coalloc=REQUEST,
 * --cosched=MODE, --cosched-bw=mem=RATE,net=RATE and --cosched-pb=H
 * (lib/cosched/bw.c, lib/cosched/pb.c), which any user hands to the SPANK
 * plugin, and which slurmctld and the agent read back; and the sites
 * slurmctld reports (CoallocSites), which the SPANK plugin reads.
 *
 * The first byte picks the option, the rest is its value.  Promises
 * checked: an error is a message and leaves the output untouched; a
 * value accepted is within its limits, and its canonical text parses
 * back to the same value (what the plugin records is what the others
 * read); a request checked against sites fits them empty, or is refused
 * with a message.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fuzz.h"

#include <math.h>

#include "cosched/pb.h"
#include "cosched/bw.h"
#include "num/errbuf.h"
#include "coalloc/shape.h"
#include "coalloc/sizes.h"
#include "cosched/mode.h"

#define UNTOUCHED 0xa5

static bool _untouched(const void *p, size_t len)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < len; i++)
		if (b[i] != UNTOUCHED)
			return false;
	return true;
}

/* Sites every parsed request is also checked against (shape.c). */
static const struct coalloc_site_list fuzz_sites = {
	.count = 3, .name = { "a", "siteB", "c-1" }, .nodes = { 16, 8, 4 },
};

static void _sizes(const char *text)
{
	struct coalloc_sizes s, again;
	struct coalloc_shape shape;
	struct coalloc_fit fit;
	char err[ERRBUF_LEN], buf[COALLOC_SIZES_TEXT_LEN];
	uint64_t sum = 0;

	memset(&s, UNTOUCHED, sizeof(s));
	if (coalloc_parse_sizes(text, &s, err, sizeof(err))) {
		FUZZ_CHECK(fuzz_message_ok(err, sizeof(err)));
		FUZZ_CHECK(_untouched(&s, sizeof(s)));
		return;
	}
	FUZZ_CHECK(s.type == COALLOC_REQ_FLEXIBLE ? s.count == 0 :
		   s.count >= 1 && s.count <= COALLOC_MAX_COMPONENTS);
	for (uint32_t i = 0; i < s.count; i++) {
		FUZZ_CHECK(s.nodes[i] >= 1 &&
			   s.nodes[i] <= COALLOC_MAX_COMPONENT_NODES);
		FUZZ_CHECK(strlen(s.site[i]) <= COALLOC_SITE_NAME_MAX);
		FUZZ_CHECK(!s.site[i][0] || s.type == COALLOC_REQ_ORDERED);
		sum += s.nodes[i];
	}
	FUZZ_CHECK(coalloc_sizes_total(&s) == sum);
	FUZZ_CHECK(!coalloc_format_sizes(&s, buf, sizeof(buf)));
	FUZZ_CHECK(!coalloc_parse_sizes(buf, &again, err, sizeof(err)));
	FUZZ_CHECK(again.type == s.type && again.count == s.count &&
		   !memcmp(again.nodes, s.nodes, s.count * sizeof(s.nodes[0])) &&
		   !memcmp(again.site, s.site, s.count * sizeof(s.site[0])));
	/* a resolved request fits the empty sites; a refused one says why */
	if (coalloc_shape_resolve(&s, &fuzz_sites, (uint32_t)sum % 40, &shape,
				  err, sizeof(err))) {
		FUZZ_CHECK(fuzz_message_ok(err, sizeof(err)));
		return;
	}
	FUZZ_CHECK(coalloc_shape_fit(fuzz_sites.nodes, fuzz_sites.count,
				     &shape, -1, &fit));
	FUZZ_CHECK(fit.ncomp >= 1 && fit.ncomp <= fuzz_sites.count);
	for (unsigned k = 0; k < fit.ncomp; k++)
		FUZZ_CHECK(fit.site[k] < fuzz_sites.count &&
			   fit.size[k] <= fuzz_sites.nodes[fit.site[k]]);
}

/* The CoallocSites key pair: what slurmctld says is read strictly. */
static void _site_list(const char *text)
{
	struct coalloc_site_list sites;
	char buf[COALLOC_SITE_LIST_TEXT_LEN];

	if (coalloc_site_list_parse(text, &sites))
		return;
	FUZZ_CHECK(sites.count >= 1 && sites.count <= COALLOC_MAX_SITES);
	FUZZ_CHECK(!coalloc_site_list_format(&sites, buf, sizeof(buf)));
}

static void _mode(const char *text)
{
	enum cosched_mode mode, again;
	char err[ERRBUF_LEN];
	const char *name;

	memset(&mode, UNTOUCHED, sizeof(mode));
	if (cosched_parse_mode(text, &mode, err, sizeof(err))) {
		FUZZ_CHECK(fuzz_message_ok(err, sizeof(err)));
		FUZZ_CHECK(_untouched(&mode, sizeof(mode)));
		return;
	}
	name = cosched_mode_name(mode);
	FUZZ_CHECK(name && !strcasecmp(name, text));
	FUZZ_CHECK(!cosched_parse_mode(name, &again, err, sizeof(err)) &&
		   again == mode);
}

static bool _whole_rate(double v)
{
	return v >= 0 && v <= COSCHED_BW_MAX && v == floor(v);
}

static void _bw(const char *text)
{
	struct cosched_bw bw, again;
	char err[ERRBUF_LEN], buf[COSCHED_BW_TEXT_LEN];

	memset(&bw, UNTOUCHED, sizeof(bw));
	if (cosched_parse_bw(text, &bw, err, sizeof(err))) {
		FUZZ_CHECK(fuzz_message_ok(err, sizeof(err)));
		FUZZ_CHECK(_untouched(&bw, sizeof(bw)));
		return;
	}
	FUZZ_CHECK(bw.mem_set || bw.net_set);
	FUZZ_CHECK(!bw.mem_set || _whole_rate(bw.mem));
	FUZZ_CHECK(!bw.net_set || _whole_rate(bw.net));
	FUZZ_CHECK(!cosched_format_bw(&bw, buf, sizeof(buf)));
	FUZZ_CHECK(!cosched_parse_bw(buf, &again, err, sizeof(err)));
	FUZZ_CHECK(again.mem_set == bw.mem_set && again.net_set == bw.net_set);
	FUZZ_CHECK(!bw.mem_set || again.mem == bw.mem);
	FUZZ_CHECK(!bw.net_set || again.net == bw.net);
}

static void _pb(const char *text)
{
	struct cosched_pb_rule rule, again;
	char err[ERRBUF_LEN];
	const char *name;

	memset(&rule, UNTOUCHED, sizeof(rule));
	if (cosched_pb_parse(text, &rule, err, sizeof(err))) {
		FUZZ_CHECK(fuzz_message_ok(err, sizeof(err)));
		FUZZ_CHECK(_untouched(&rule, sizeof(rule)));
		return;
	}
	name = cosched_pb_name(&rule);
	FUZZ_CHECK(name && !strcasecmp(name, text));
	FUZZ_CHECK(!cosched_pb_parse(name, &again, err, sizeof(err)));
	FUZZ_CHECK(again.heuristic == rule.heuristic && again.fair == rule.fair);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static void (*const option[])(const char *) = { _sizes, _mode, _bw, _pb,
							 _site_list };
	char *text;

	if (!size)
		return 0;
	text = fuzz_text(data + 1, size - 1);
	option[data[0] % (sizeof(option) / sizeof(option[0]))](text);
	free(text);
	return 0;
}
