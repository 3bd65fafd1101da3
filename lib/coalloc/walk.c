/*
 * walk.c - when select/coalloc walks slurmctld's job table again
 * (see walk.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "coalloc/walk.h"

bool coalloc_walk_due(const struct coalloc_walk_seen *seen, int64_t stamp,
		      int64_t count, int64_t now)
{
	if (!stamp || !seen->stamp || stamp != seen->stamp ||
	    count != seen->count)
		return true;
	if (now == seen->clock)
		return false;
	return seen->clock <= seen->stamp ||
	       now - seen->clock >= COALLOC_WALK_AT_LEAST_EVERY;
}
