/*
 * rng.c - xoshiro256** with splitmix64 seeding.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>

#include "coalloc/rng.h"
#include "num/splitmix.h"

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void coalloc_rng_seed(struct coalloc_rng *rng, uint64_t seed)
{
	uint64_t x = seed;

	/* splitmix64 never yields an all-zero xoshiro state in four draws */
	for (int i = 0; i < 4; i++)
		rng->s[i] = splitmix64(&x);
}

uint64_t coalloc_rng_next(struct coalloc_rng *rng)
{
	uint64_t *s = rng->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double coalloc_rng_uniform(struct coalloc_rng *rng)
{
	/* the top 53 bits give every representable multiple of 2^-53 */
	return (double)(coalloc_rng_next(rng) >> 11) * 0x1.0p-53;
}

uint32_t coalloc_rng_below(struct coalloc_rng *rng, uint32_t n)
{
	/* Lemire's multiply-shift; the bias for n < 2^32 is below 2^-32 */
	return (uint32_t)(((coalloc_rng_next(rng) >> 32) * (uint64_t)n) >> 32);
}

double coalloc_rng_exponential(struct coalloc_rng *rng, double mean)
{
	/* 1 - u lies in (0, 1], so the logarithm is finite */
	return -mean * log(1.0 - coalloc_rng_uniform(rng));
}
