/*
 * engine_fixture.h - what the engine's unit tests share.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TEST_ENGINE_FIXTURE_H
#define TEST_ENGINE_FIXTURE_H

#include "coalloc/coalloc.h"

/* A running job with one component on one site (outside the queues). */
static inline int running(struct coalloc_engine *e, uint32_t id,
			  unsigned site, uint32_t size)
{
	struct coalloc_request r = { .id = id, .ncomp = 1, .queue = 0 };
	uint16_t s = (uint16_t)site;

	r.size[0] = size;
	return coalloc_engine_add_running(e, &r, &s);
}

#endif
