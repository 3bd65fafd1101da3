/*
 * test_search.c - num_least_true() against a linear scan: the same answer
 * for every boundary in small and large ranges, only arguments inside the
 * range tested, and at most 2 + ceil(log2(n)) tests.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdint.h>

#include "num/search.h"
#include "tap.h"

struct probe {
	uint32_t boundary;	/* first k that holds */
	uint32_t lo, hi;
	unsigned calls;
	bool outside;		/* a k outside [lo, hi] was tested */
};

static bool _at_or_past(uint32_t k, void *arg)
{
	struct probe *p = arg;

	p->calls++;
	if (k < p->lo || k > p->hi)
		p->outside = true;
	return k >= p->boundary;
}

static unsigned _log2_ceil(uint32_t n)
{
	unsigned bits = 0;

	while ((1ULL << bits) < n)
		bits++;
	return bits;
}

/* every boundary from below lo to past hi: as a linear scan, in budget */
static bool _sweep(uint32_t lo, uint32_t hi, unsigned *worst)
{
	unsigned budget = 2 + _log2_ceil(hi - lo + 1);

	*worst = 0;
	for (uint32_t b = lo ? lo - 1 : 0; b <= hi + 1; b++) {
		struct probe p = { .boundary = b, .lo = lo, .hi = hi };
		uint32_t want = b < lo ? lo : b;
		uint32_t got = num_least_true(lo, hi, _at_or_past, &p);

		if (got != want || p.outside || p.calls > budget)
			return false;
		if (p.calls > *worst)
			*worst = p.calls;
	}
	return true;
}

int main(void)
{
	struct probe none = { .boundary = UINT32_MAX, .lo = 0, .hi = 1023 };
	struct probe empty = { .boundary = 0, .lo = 5, .hi = 4 };
	unsigned worst;

	ok(_sweep(0, 0, &worst), "range [0,0]: every boundary as a scan");
	ok(_sweep(0, 1, &worst), "range [0,1]");
	ok(_sweep(3, 9, &worst), "range [3,9]");
	ok(_sweep(0, 1024, &worst), "range [0,1024]: every boundary");
	ok(worst <= 12, "  at most 12 tests for 1,025 values (%u; a scan takes up to 1,025)", worst);
	ok(_sweep(1, 10000, &worst), "range [1,10000]");
	ok(worst <= 16, "  at most 16 tests (%u)", worst);
	is_int(num_least_true(0, 1023, _at_or_past, &none), 1024,
	   "no k holds: hi + 1");
	is_int(none.calls, 2, "  after two tests (lo and hi)");
	is_int(num_least_true(5, 4, _at_or_past, &empty), 5, "lo > hi: lo");
	is_int(empty.calls, 0, "  without a test");
	return done_testing();
}
