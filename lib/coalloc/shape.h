/*
 * shape.h - a parsed --coalloc request checked against a cluster's sites:
 * named sites resolved to indices, a flexible request given its total,
 * and everything a job could never get refused with a message.  The
 * SPANK plugin runs it at submit (with the sites slurmctld reports) and
 * select/coalloc at every placement, so both say the same thing.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_SHAPE_H
#define COALLOC_SHAPE_H

#include <stddef.h>
#include <stdint.h>

#include "coalloc/placement.h"
#include "coalloc/sizes.h"

/* The sites of a cluster, as the checks need them. */
struct coalloc_site_list {
	unsigned count;
	char name[COALLOC_MAX_SITES][COALLOC_SITE_NAME_MAX + 1];
	uint32_t nodes[COALLOC_MAX_SITES];
};

/*
 * Resolve sizes on sites into shape (components largest first, their
 * sites carried along).  flex_total is the job's node count, used only
 * by a flexible request.  Refused, with a message in err: an unknown
 * site, a component larger than the site it names, more components than
 * sites, components that do not fit on distinct sites of an empty
 * cluster, a flexible total of 0 or larger than all sites together.
 * Returns 0 or -1.
 */
int coalloc_shape_resolve(const struct coalloc_sizes *sizes,
			  const struct coalloc_site_list *sites,
			  uint32_t flex_total, struct coalloc_shape *shape,
			  char *err, size_t err_len);

/*
 * The site list's text for the controller's key pair CoallocSites,
 * "name=nodes,name=nodes", and its strict parser.  Return 0 or -1.
 */
#define COALLOC_SITES_KEY "CoallocSites"
/* Room for the text of any site list: name, '=', 10 digits, ','. */
#define COALLOC_SITE_LIST_TEXT_LEN \
	(COALLOC_MAX_SITES * (COALLOC_SITE_NAME_MAX + 12))
int coalloc_site_list_format(const struct coalloc_site_list *sites,
			     char *buf, size_t len);
int coalloc_site_list_parse(const char *text, struct coalloc_site_list *sites);

#endif /* COALLOC_SHAPE_H */
