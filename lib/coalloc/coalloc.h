/*
 * coalloc.h - the whole public API of the co-allocation core.
 *
 *   policy.h     policy names (GS, LS-OR, ..., LQ) and queue routing
 *   placement.h  Worst Fit over distinct sites
 *   engine.h     the decision engine: submit / schedule / depart / why
 *   matrix.h     the Ousterhout matrix (gang and local modes)
 *   rng.h        the deterministic PRNG the engine and simulator share
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_COALLOC_H
#define COALLOC_COALLOC_H

#include "coalloc/policy.h"
#include "coalloc/placement.h"
#include "coalloc/engine.h"
#include "coalloc/matrix.h"
#include "coalloc/rng.h"
#include "coalloc/route.h"

#endif /* COALLOC_COALLOC_H */
