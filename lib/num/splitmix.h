/*
 * splitmix.h - splitmix64 (Steele, Lea and Flood, "Fast splittable
 * pseudorandom number generators", OOPSLA 2014): a small, well-mixed
 * 64-bit stream, used to seed the simulators' xoshiro256** (lib/coalloc
 * rng.c) and as cosched-bench's per-rank stream.  Header-only: one
 * definition, no library to link.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_NUM_SPLITMIX_H
#define COALLOC_NUM_SPLITMIX_H

#include <stdint.h>

/* The next value of the stream whose state is *state. */
static inline uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

#endif /* COALLOC_NUM_SPLITMIX_H */
