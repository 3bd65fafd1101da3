/*
 * rng.h - a small deterministic PRNG (xoshiro256** seeded by splitmix64).
 *
 * The engine and the simulator need reproducible streams for a given seed,
 * independent of libc's rand() and of any other user of it in the process.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_RNG_H
#define COALLOC_RNG_H

#include <stdint.h>

struct coalloc_rng {
	uint64_t s[4];
};

/* Seed the generator; every seed (0 included) gives a usable state. */
void coalloc_rng_seed(struct coalloc_rng *rng, uint64_t seed);

/* Next 64 random bits. */
uint64_t coalloc_rng_next(struct coalloc_rng *rng);

/* Uniform double in [0, 1). */
double coalloc_rng_uniform(struct coalloc_rng *rng);

/* Uniform integer in [0, n); n must be > 0. */
uint32_t coalloc_rng_below(struct coalloc_rng *rng, uint32_t n);

/* Exponentially distributed value with the given mean. */
double coalloc_rng_exponential(struct coalloc_rng *rng, double mean);

#endif /* COALLOC_RNG_H */
