/*
 * sizes.h - what a co-allocated job asks for, --coalloc=REQUEST: its
 * component sizes, the sites an ordered request names, or "flex".  Parsed
 * where the user submits (the SPANK plugin) and again where the job is
 * placed (select/coalloc), by this one parser.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_SIZES_H
#define COALLOC_SIZES_H

#include <stdint.h>
#include <stddef.h>

#include "coalloc/limits.h"

/*
 * At most this many components per job: one per site, so a request the
 * SPANK plugin accepts at submit is one select/coalloc can place.
 */
#define COALLOC_MAX_COMPONENTS COALLOC_MAX_SITES

/*
 * Largest size of one component, in nodes.  Larger than any Slurm cluster
 * yet small enough that the sum of COALLOC_MAX_COMPONENTS sizes fits a
 * uint32_t, so callers can add sizes without overflow checks.
 */
#define COALLOC_MAX_COMPONENT_NODES 1000000u

/*
 * Room for the canonical text of any valid request: each component up to
 * 7 digits, '@', a site name and a comma (the last one's: the terminator).
 */
#define COALLOC_SIZES_TEXT_LEN \
	(COALLOC_MAX_COMPONENTS * (8 + 1 + COALLOC_SITE_NAME_MAX))

/* The name under which the SPANK plugin records the request with the job. */
#define COALLOC_ENV_SIZES "COALLOC_SIZES"	/* e.g. "4,4" or "16@siteA,8" */

/* The keyword of a flexible request: --coalloc=flex. */
#define COALLOC_FLEX_KEYWORD "flex"

/*
 * The request types of Bucur and Epema (the multicluster model; "total"
 * requests are ordinary single-site jobs, without --coalloc).
 */
enum coalloc_request_type {
	COALLOC_REQ_UNORDERED,	/* sizes: the scheduler picks the sites */
	COALLOC_REQ_ORDERED,	/* some components name their site */
	COALLOC_REQ_FLEXIBLE,	/* the job's node count (-N), split over as
				 * few sites as it needs */
};

/* "unordered", "ordered", "flexible"; NULL out of range. */
const char *coalloc_request_type_name(enum coalloc_request_type type);

/* --coalloc as the user gave it, components in the user's order. */
struct coalloc_sizes {
	enum coalloc_request_type type;
	uint32_t count;				/* 1..MAX; 0 when flexible */
	uint32_t nodes[COALLOC_MAX_COMPONENTS];	/* each >= 1 */
	/* ordered: the site component k names, "" when it names none */
	char site[COALLOC_MAX_COMPONENTS][COALLOC_SITE_NAME_MAX + 1];
};

/*
 * Parse --coalloc's value: "flex" (flexible), or comma-separated
 * components, each a decimal size in nodes (1..COALLOC_MAX_COMPONENT_NODES)
 * optionally followed by "@SITE" (ordered when any component names one),
 * at most COALLOC_MAX_COMPONENTS of them and no site named twice.  No
 * signs, no spaces, no empty tokens.  Leading zeros are accepted ("08" is
 * 8); coalloc_format_sizes() gives the canonical text.  Whether a named
 * site exists is the cluster's to say (shape.h).  Returns 0, or -1 with a
 * message in err.
 */
int coalloc_parse_sizes(const char *text, struct coalloc_sizes *sizes,
			char *err, size_t err_len);

/*
 * Write the canonical text of a request ("4,4,8", "16@a,8", "flex").
 * Returns 0, or -1 when sizes is invalid or buf too small (buf is then
 * left an empty string when buf_len > 0).
 */
int coalloc_format_sizes(const struct coalloc_sizes *sizes, char *buf,
			 size_t buf_len);

/*
 * Total nodes over all components (cannot overflow, see above); 0 for a
 * flexible request, whose total is the job's node count.
 */
uint32_t coalloc_sizes_total(const struct coalloc_sizes *sizes);

#endif /* COALLOC_SIZES_H */
