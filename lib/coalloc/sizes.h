/*
 * sizes.h - the component sizes of a co-allocated job, --coalloc=SIZES:
 * parsed where the user submits (the SPANK plugin) and again where the
 * job is placed (select/coalloc), by this one parser.
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
 * Room for the canonical text of any valid size list:
 * each component up to 7 digits and a comma (the last one's: the
 * terminator).
 */
#define COALLOC_SIZES_TEXT_LEN (COALLOC_MAX_COMPONENTS * 8)

/* The name under which the SPANK plugin records the sizes with the job. */
#define COALLOC_ENV_SIZES "COALLOC_SIZES"	/* e.g. "4,4" */

/* The component sizes of --coalloc, in the order the user gave them. */
struct coalloc_sizes {
	uint32_t count;				/* 1..COALLOC_MAX_COMPONENTS */
	uint32_t nodes[COALLOC_MAX_COMPONENTS];	/* each >= 1 */
};

/*
 * Parse SIZES: comma-separated decimal component sizes in nodes, each
 * 1..COALLOC_MAX_COMPONENT_NODES, at most COALLOC_MAX_COMPONENTS of them.
 * No signs, no spaces, no empty tokens (so no leading or trailing comma).
 * Leading zeros are accepted ("08" is 8); coalloc_format_sizes() gives the
 * canonical text.  Returns 0, or -1 with a message in err.
 */
int coalloc_parse_sizes(const char *text, struct coalloc_sizes *sizes,
			char *err, size_t err_len);

/*
 * Write the canonical text of a size list ("4,4,8") into buf.
 * Returns 0, or -1 when sizes is invalid or buf too small (buf is then
 * left an empty string when buf_len > 0).
 */
int coalloc_format_sizes(const struct coalloc_sizes *sizes, char *buf,
			 size_t buf_len);

/* Total nodes over all components (cannot overflow, see above). */
uint32_t coalloc_sizes_total(const struct coalloc_sizes *sizes);

#endif /* COALLOC_SIZES_H */
