/*
 * test_membus.c - MemBUS selection with injected samples: window
 * averaging, the distance of Fig. 3, heavy applications paired with
 * light ones, the first application always scheduled, never more
 * processors than the node has, the reduction order, and every
 * application running within a few quanta under list rotation.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>

#include "membus/membus.h"
#include "tap.h"

static struct membus_app app(uint32_t procs, double mem, double net)
{
	return (struct membus_app){ procs, { mem, net } };
}

static void test_window(void)
{
	struct membus_window win;
	struct membus_sample m;

	membus_window_init(&win, 2);
	m = membus_window_mean(&win);
	ok(m.mem == 0 && m.net == 0, "an empty window averages 0");
	membus_window_add(&win, (struct membus_sample){ 10, 1 });
	m = membus_window_mean(&win);
	is_double(m.mem, 10, 1e-12, "one sample: its value");
	membus_window_add(&win, (struct membus_sample){ 20, 3 });
	m = membus_window_mean(&win);
	is_double(m.mem, 15, 1e-12, "w=2: mean memory of two quanta");
	is_double(m.net, 2, 1e-12, "w=2: mean network of two quanta");
	membus_window_add(&win, (struct membus_sample){ 40, 5 });
	m = membus_window_mean(&win);
	is_double(m.mem, 30, 1e-12, "the oldest sample drops out");
	is_double(m.net, 4, 1e-12, "  for the network too");
	membus_window_init(&win, 0);
	is_int(win.w, 1, "w=0 is taken as 1");
	membus_window_init(&win, 1000);
	is_int(win.w, MEMBUS_WINDOW_MAX, "w is capped");
}

static void test_distance(void)
{
	struct membus_app a = app(1, 100, 10);

	is_double(membus_distance(&a, 400, 40, 2), sqrt(100.0 * 100 + 10 * 10),
		  1e-9, "distance to (M_rem/P_rem, N_rem/P_rem), Fig. 3");
	ok(isinf(membus_distance(&a, 400, 40, 0)), "no processor left: infinite");
}

static void test_pairing(void)
{
	/* P=2, M=1000 MB/s: heavy 900 and 850, light 50 and 60 */
	struct membus_app heavy_first[] = {
		app(1, 900, 0), app(1, 850, 0), app(1, 50, 0), app(1, 60, 0),
	};
	struct membus_app light_first[] = {
		app(1, 50, 0), app(1, 900, 0), app(1, 850, 0), app(1, 60, 0),
	};
	uint8_t sel[4];

	is_int((int)membus_select(heavy_first, 4, 2, 1000, 100, sel), 2,
	       "two applications fill two processors");
	ok(sel[0] && !sel[1] && !sel[2] && sel[3],
	   "the heavy head is paired with the light one nearest the 100 MB/s left (%d%d%d%d)",
	   sel[0], sel[1], sel[2], sel[3]);
	membus_select(light_first, 4, 2, 1000, 100, sel);
	ok(sel[0] && sel[1] && !sel[2] && !sel[3],
	   "a light head is paired with the heavy one nearest the 950 MB/s left (%d%d%d%d)",
	   sel[0], sel[1], sel[2], sel[3]);
}

static void test_network_dimension(void)
{
	/* memory equal, network decides: 80 MB/s of 100 left after the head */
	struct membus_app apps[] = {
		app(1, 100, 20), app(1, 100, 10), app(1, 100, 75),
	};
	uint8_t sel[3];

	membus_select(apps, 3, 2, 1000, 100, sel);
	ok(sel[0] && !sel[1] && sel[2], "the network bandwidth counts too");
}

static void test_first_always(void)
{
	struct membus_app apps[] = { app(3, 10, 0), app(1, 10, 0) };
	uint8_t sel[2];

	is_int((int)membus_select(apps, 2, 2, 1000, 100, sel), 1,
	       "a head asking more than P runs alone");
	ok(sel[0] && !sel[1], "  and is selected");
	struct membus_app hog[] = { app(1, 5000, 500), app(1, 1, 0) };
	membus_select(hog, 2, 2, 1000, 100, sel);
	ok(sel[0], "the head runs even beyond the bus capacity");
	ok(sel[1], "  and the processor left still gets an application");
}

static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

static void test_never_more_than_p(void)
{
	int bad = 0, cases = 0;
	uint32_t seed = 7;

	for (int c = 0; c < 300; c++) {
		struct membus_app apps[8];
		uint8_t sel[8];
		uint32_t cpus = 1 + lcg(&seed) % 8, used = 0;
		size_t n = 1 + lcg(&seed) % 8;

		for (size_t i = 0; i < n; i++)
			apps[i] = app(1 + lcg(&seed) % cpus, lcg(&seed) % 1000,
				      lcg(&seed) % 100);
		membus_select(apps, n, cpus, 2000, 200, sel);
		for (size_t i = 0; i < n; i++)
			used += sel[i] ? apps[i].procs : 0;
		bad += used > cpus || !sel[0];
		cases++;
	}
	is_int(bad, 0, "%d random nodes: never more processors than P, head always in", cases);
}

static void test_order_and_allocate(void)
{
	uint32_t totals[] = { 1, 3, 3, 0, 2 };
	size_t order[5];
	struct membus_app apps[] = {
		app(1, 0, 0), app(2, 0, 0), app(2, 0, 0), app(1, 0, 0), app(1, 0, 0),
	};
	uint8_t run[5];

	membus_order(totals, 5, order);
	ok(order[0] == 1 && order[1] == 2 && order[2] == 4 && order[3] == 0 &&
	   order[4] == 3, "sorted by popularity, ties in list order (%zu %zu %zu %zu %zu)",
	   order[0], order[1], order[2], order[3], order[4]);
	is_int((int)membus_allocate(apps, order, 5, 3, run), 2,
	       "3 processors: the 2-process app, then the next that fits");
	ok(run[1] && !run[2] && run[4] && !run[0] && !run[3],
	   "  app 1 (2 procs) and app 4 (1 proc); app 2 no longer fits");
}

static void test_rotation_runs_everyone(void)
{
	struct membus_app apps[4] = {
		app(1, 900, 0), app(1, 850, 0), app(1, 50, 0), app(1, 60, 0),
	};
	size_t list[4] = { 0, 1, 2, 3 };
	int last_ran[4] = { -1, -1, -1, -1 }, worst_gap = 0;

	for (int q = 0; q < 12; q++) {
		struct membus_app view[4];
		uint8_t sel[4], ran[4] = { 0 };

		for (size_t k = 0; k < 4; k++)
			view[k] = apps[list[k]];
		membus_select(view, 4, 2, 1000, 100, sel);
		for (size_t k = 0; k < 4; k++) {
			if (!sel[k])
				continue;
			ran[list[k]] = 1;
			if (q - last_ran[list[k]] > worst_gap)
				worst_gap = q - last_ran[list[k]];
			last_ran[list[k]] = q;
		}
		membus_rotate(list, 4, ran);
	}
	for (int i = 0; i < 4; i++)
		if (11 - last_ran[i] > worst_gap)
			worst_gap = 11 - last_ran[i];
	ok(worst_gap <= 3, "every application runs at least once in 3 quanta (worst gap %d)",
	   worst_gap);
}

static void test_rotate(void)
{
	size_t list[5] = { 4, 0, 3, 1, 2 };
	uint8_t ran[5] = { 1, 0, 0, 1, 0 };	/* apps 0 and 3 ran */

	membus_rotate(list, 5, ran);
	ok(list[0] == 4 && list[1] == 1 && list[2] == 2 && list[3] == 0 &&
	   list[4] == 3, "the apps that ran go to the end in order (%zu %zu %zu %zu %zu)",
	   list[0], list[1], list[2], list[3], list[4]);
}

int main(void)
{
	test_window();
	test_distance();
	test_pairing();
	test_network_dimension();
	test_first_always();
	test_never_more_than_p();
	test_order_and_allocate();
	test_rotation_runs_everyone();
	test_rotate();
	return done_testing();
}
