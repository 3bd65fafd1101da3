/*
 * test_nodepick.c - node-exclusive selection.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdbool.h>
#include <string.h>

#include "nodepick/nodepick.h"
#include "tap.h"

#define N 8

/* Build the node arrays from strings: 'u' usable, 'r' required+usable,
 * 'R' required but not usable, '.' not usable. */
struct fixture {
	bool usable[N], required[N], chosen[N];
	uint32_t cpus[N];
	struct nodepick_nodes nodes;
};

static void setup(struct fixture *f, const char *map, uint32_t cpus)
{
	memset(f, 0, sizeof(*f));
	for (size_t i = 0; i < N; i++) {
		f->usable[i] = map[i] == 'u' || map[i] == 'r';
		f->required[i] = map[i] == 'r' || map[i] == 'R';
		f->cpus[i] = cpus;
	}
	f->nodes = (struct nodepick_nodes){ N, f->usable, f->required, f->cpus };
}

/* The chosen set as a string of '1'/'0' for readable assertions. */
static const char *chosen_str(const struct fixture *f)
{
	static char buf[N + 1];

	for (size_t i = 0; i < N; i++)
		buf[i] = f->chosen[i] ? '1' : '0';
	buf[N] = '\0';
	return buf;
}

static int pick(struct fixture *f, uint32_t min, uint32_t max, uint32_t want,
		uint64_t cpus, bool contig, struct nodepick_result *res)
{
	struct nodepick_request req = { min, max, want, cpus, contig };

	return nodepick_exclusive(&req, &f->nodes, f->chosen, res);
}

int main(void)
{
	struct fixture f;
	struct nodepick_result res;

	setup(&f, "uuuuuuuu", 1);
	is_int(pick(&f, 3, 3, 3, 3, false, &res), 0, "3 of 8 free nodes");
	is_str(chosen_str(&f), "11100000", "lowest indices first");
	is_int(res.nodes, 3, "result counts nodes");
	is_int(res.cpus, 3, "result counts cpus");

	setup(&f, "u.u.u.uu", 1);
	is_int(pick(&f, 1, 0, 0, 4, false, &res), 0,
	       "-n 4 on one-CPU nodes takes 4 nodes");
	is_str(chosen_str(&f), "10101010", "skips busy nodes");

	setup(&f, "uu......", 1);
	is_int(pick(&f, 3, 3, 3, 3, false, &res), -1, "too few free nodes");
	is_str(chosen_str(&f), "00000000", "chosen untouched on failure");

	setup(&f, "uuuuuuuu", 4);
	is_int(pick(&f, 1, 2, 0, 12, false, &res), -1,
	       "CPU demand above max nodes' CPUs fails");
	is_int(pick(&f, 1, 4, 0, 12, false, &res), 0,
	       "CPU demand met within max nodes");
	is_int(res.nodes, 3, "stops once CPUs are met");

	setup(&f, "uuuuuuuu", 1);
	is_int(pick(&f, 2, 6, 4, 1, false, &res), 0, "desired count");
	is_int(res.nodes, 4, "takes the desired count when free");
	setup(&f, "uuu.....", 1);
	is_int(pick(&f, 2, 6, 4, 1, false, &res), 0,
	       "fewer than desired but at least min");
	is_int(res.nodes, 3, "takes what there is");

	setup(&f, "uuuuurur", 1);
	is_int(pick(&f, 3, 3, 0, 1, false, &res), 0, "required nodes");
	is_str(chosen_str(&f), "10000101", "required first, then lowest");
	setup(&f, "uuuuuRuu", 1);
	is_int(pick(&f, 1, 0, 0, 1, false, &res), -1,
	       "a busy required node fails");
	setup(&f, "uurrruuu", 1);
	is_int(pick(&f, 2, 2, 0, 1, false, &res), -1,
	       "more required nodes than max fails");

	setup(&f, "uu.uuu.u", 1);
	is_int(pick(&f, 3, 3, 0, 1, true, &res), 0, "contiguous");
	is_str(chosen_str(&f), "00011100", "first window large enough");
	setup(&f, "uu.uu.uu", 1);
	is_int(pick(&f, 3, 3, 0, 1, true, &res), -1,
	       "no window large enough");
	setup(&f, "uuuuuuru", 1);
	is_int(pick(&f, 2, 2, 0, 1, true, &res), 0,
	       "contiguous with a required node");
	is_str(chosen_str(&f), "00000110", "window holds the required node");
	setup(&f, "ruuuuuur", 1);
	is_int(pick(&f, 1, 4, 0, 1, true, &res), -1,
	       "required nodes too far apart for max");

	setup(&f, "uuuuuuuu", 1);
	is_int(pick(&f, 4, 2, 0, 1, false, &res), -1, "min above max fails");
	is_int(pick(&f, 0, 0, 0, 0, false, &res), 0,
	       "empty request still gets one node");
	is_int(res.nodes, 1, "exactly one");

	return done_testing();
}
