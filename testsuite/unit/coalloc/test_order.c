/*
 * test_order.c - the queue orders (lib/coalloc/order.c) and the engine
 * under each: fcfs blocks behind a head that does not fit, firstfit and
 * smallest start any job that fits, in their sequence; aging bounds a
 * wide job's wait; a submission re-opens a queue that had nothing that
 * fits; and, on random streams, no pass leaves a job that fits waiting.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdarg.h>

#include "coalloc/coalloc.h"
#include "engine_fixture.h"
#include "coalloc/order.h"
#include "tap.h"

#define G COALLOC_QUEUE_GLOBAL
#define FCFS COALLOC_ORDER_FCFS
#define FIRSTFIT COALLOC_ORDER_FIRSTFIT
#define SMALLEST COALLOC_ORDER_SMALLEST

static struct coalloc_engine *mk(enum coalloc_policy p, unsigned nsites,
				 uint32_t procs, enum coalloc_queue_order order,
				 double aging)
{
	struct coalloc_config cfg;

	coalloc_config_init(&cfg, p, nsites, procs);
	cfg.aging_wait = aging;
	cfg.order = order;
	return coalloc_engine_create(&cfg);
}

static int submit(struct coalloc_engine *e, uint32_t id, int queue, double t,
		  uint32_t size)
{
	struct coalloc_request r = { .id = id, .ncomp = 1, .queue = queue,
				     .submit_time = t };

	r.size[0] = size;
	return coalloc_engine_submit(e, &r);
}

/* The ids a pass starts, as "3 4" ("" for none). */
static const char *pass(struct coalloc_engine *e, double now)
{
	static char buf[256];
	const struct coalloc_start *st;
	size_t n = coalloc_engine_schedule(e, now, &st), len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && len < sizeof(buf) - 12; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%u",
					i ? " " : "", st[i].id);
	return buf;
}

static void test_names(void)
{
	enum coalloc_queue_order o;
	int all = 1;

	for (int i = 0; i < COALLOC_ORDER_COUNT; i++)
		if (coalloc_order_parse(coalloc_order_name(i), &o) || (int)o != i)
			all = 0;
	ok(all, "every order name parses back to itself");
	ok(!coalloc_order_parse("FirstFit", &o) && o == FIRSTFIT,
	   "names in any case");
	is_int(coalloc_order_parse("first-fit", &o), -EINVAL, "unknown name");
	is_int(coalloc_order_parse("", &o), -EINVAL, "empty name");
	is_str(coalloc_order_name(COALLOC_ORDER_COUNT), "?", "unknown value");
	ok(coalloc_order_head_blocks(FCFS) && !coalloc_order_head_blocks(FIRSTFIT) &&
	   !coalloc_order_head_blocks(SMALLEST), "only fcfs blocks behind its head");
}

static void test_sort(void)
{
	struct coalloc_order_key k[5] = {
		{ 4, 10, 0 }, { 1, 11, 1 }, { 2, 12, 2 }, { 1, 13, 3 }, { 4, 9, 4 },
	};
	struct coalloc_order_key f[5];
	char got[32];

	memcpy(f, k, sizeof(k));
	coalloc_order_sort(SMALLEST, k, 5);
	snprintf(got, sizeof(got), "%u %u %u %u %u", k[0].ref, k[1].ref,
		 k[2].ref, k[3].ref, k[4].ref);
	is_str(got, "1 3 2 4 0", "smallest: fewest processors first, ties by arrival");
	coalloc_order_sort(FIRSTFIT, f, 5);
	snprintf(got, sizeof(got), "%u %u %u %u %u", f[0].ref, f[1].ref,
		 f[2].ref, f[3].ref, f[4].ref);
	is_str(got, "4 0 1 2 3", "firstfit: arrival order");
}

/* One site of 8, 6 busy: A (4) heads the queue, then B (2), C (1), D (1). */
static struct coalloc_engine *blocked_head(enum coalloc_queue_order order)
{
	struct coalloc_engine *e = mk(COALLOC_POLICY_GS, 1, 8, order,
				      COALLOC_AGING_OFF);

	running(e, 100, 0, 6);
	submit(e, 1, G, 0, 4);
	submit(e, 2, G, 1, 2);
	submit(e, 3, G, 2, 1);
	submit(e, 4, G, 3, 1);
	return e;
}

static void test_orders(void)
{
	struct coalloc_engine *e = blocked_head(FCFS);
	char why[256];

	is_str(pass(e, 5), "", "fcfs: nothing starts behind a head that does not fit");
	is_int(coalloc_engine_why(e, 2, 5, NULL, 0), COALLOC_WHY_NOT_HEAD,
	       "fcfs: B waits behind the head");
	coalloc_engine_destroy(e);

	e = blocked_head(FIRSTFIT);
	is_str(pass(e, 5), "2", "firstfit: B, the first that fits, starts");
	is_int(coalloc_engine_why(e, 3, 5, why, sizeof(why)), COALLOC_WHY_QUEUE_DISABLED,
	       "firstfit: C waits because nothing left fits, not behind a head");
	is_str(why, "global queue disabled: none of its jobs fit (QueueOrder=firstfit); enabled again at the next departure or submission",
	       "  and squeue says so");
	coalloc_engine_depart(e, 2);
	is_str(pass(e, 6), "3 4", "firstfit: after B, C and D in arrival order");
	coalloc_engine_depart(e, 100);
	is_str(pass(e, 7), "1", "firstfit: A once there is room");
	coalloc_engine_destroy(e);

	e = blocked_head(SMALLEST);
	is_int(coalloc_engine_why(e, 1, 5, why, sizeof(why)), COALLOC_WHY_NO_ROOM,
	       "smallest, before a pass: A lacks room");
	is_str(why, "in global queue; 1 component(s), largest 4, do not fit now",
	       "  not 'head of': the order lets others pass it");
	is_str(pass(e, 5), "3 4", "smallest: C and D, the fewest processors, first");
	coalloc_engine_depart(e, 3);
	is_str(pass(e, 6), "", "smallest: 1 idle, B (2) and A (4) wait");
	coalloc_engine_depart(e, 4);
	is_str(pass(e, 7), "2", "smallest: B before A");
	coalloc_engine_destroy(e);
}

/* Aging bounds the wait of a wide job that narrow ones keep passing. */
static void test_aging_bound(void)
{
	struct coalloc_engine *e = mk(COALLOC_POLICY_GS, 1, 8, SMALLEST, 10);

	running(e, 100, 0, 6);
	submit(e, 1, G, 0, 4);
	submit(e, 2, G, 1, 1);
	is_str(pass(e, 2), "2", "before AgingTime a narrow job passes the wide one");
	submit(e, 3, G, 11, 1);
	is_str(pass(e, 11), "", "the wide job has waited AgingTime: the site drains for it");
	is_int(coalloc_engine_why(e, 3, 11, NULL, 0), COALLOC_WHY_AGING_DRAIN,
	       "the narrow job says it waits for the starving one");
	coalloc_engine_depart(e, 100);
	is_str(pass(e, 12), "1 3", "once there is room the starving job starts first");
	coalloc_engine_destroy(e);
}

/* A submission re-opens a queue that had nothing that fits. */
static void test_submit_reopens(void)
{
	struct coalloc_engine *f = mk(COALLOC_POLICY_LS_DO, 2, 4, FIRSTFIT,
				      COALLOC_AGING_OFF);
	struct coalloc_engine *c = mk(COALLOC_POLICY_LS_DO, 2, 4, FCFS,
				      COALLOC_AGING_OFF);

	running(f, 100, 0, 3);
	running(c, 100, 0, 3);
	submit(f, 1, 0, 0, 2);
	submit(c, 1, 0, 0, 2);
	pass(f, 1);
	pass(c, 1);
	ok(!coalloc_engine_queue_enabled(f, 0), "firstfit: nothing fits: the queue is disabled");
	submit(f, 2, 0, 2, 1);
	submit(c, 2, 0, 2, 1);
	ok(coalloc_engine_queue_enabled(f, 0), "firstfit: a new job re-opens it");
	is_str(pass(f, 3), "2", "firstfit: the new job that fits starts without a departure");
	is_str(pass(c, 3), "", "fcfs: the queue waits for a departure");
	coalloc_engine_destroy(f);
	coalloc_engine_destroy(c);
}

/* xorshift, for the random streams */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * Whether a waiting request fits the engine's idle processors now, worked
 * out here, not by the engine: components on distinct sites, largest
 * component on the site with the most idle (Worst Fit is exact for this);
 * a local queue's job on its own site.
 */
static int fits_now(const struct coalloc_engine *e,
		    const struct coalloc_request *r)
{
	uint32_t idle[4], size[COALLOC_MAX_SITES];

	if (r->queue != G)
		return r->size[0] <= coalloc_engine_idle(e, (unsigned)r->queue);
	for (unsigned i = 0; i < 4; i++)
		idle[i] = coalloc_engine_idle(e, i);
	memcpy(size, r->size, sizeof(size));
	for (unsigned a = 0; a < 4; a++)		/* both descending */
		for (unsigned b = a + 1; b < 4; b++) {
			if (idle[b] > idle[a]) { uint32_t t = idle[a]; idle[a] = idle[b]; idle[b] = t; }
			if (b < r->ncomp && size[b] > size[a]) { uint32_t t = size[a]; size[a] = size[b]; size[b] = t; }
		}
	for (unsigned k = 0; k < r->ncomp; k++)
		if (size[k] > idle[k])
			return 0;
	return 1;
}

/*
 * Random streams on 4 sites of 8 under GS and LS-DO: after every pass no
 * waiting job fits (the order left nothing startable), and the same
 * stream gives the same starts twice.
 */
#define STREAM_JOBS 1024
enum { WAITING = 1, RUNNING, GONE };

static void stream(enum coalloc_policy p, enum coalloc_queue_order order,
		   uint64_t seed, uint64_t *digest, int *maximal)
{
	struct coalloc_engine *e = mk(p, 4, 8, order, COALLOC_AGING_OFF);
	static struct coalloc_request req[STREAM_JOBS];
	static int state[STREAM_JOBS];
	uint32_t next_id = 1;

	memset(state, 0, sizeof(state));
	*digest = 1469598103934665603ULL;
	*maximal = 1;
	for (int step = 0; step < 400; step++) {
		const struct coalloc_start *st;
		size_t n;

		for (int k = (int)(rnd(&seed) % 3); k > 0 && next_id < STREAM_JOBS; k--) {
			struct coalloc_request *r = &req[next_id];

			memset(r, 0, sizeof(*r));
			r->id = next_id;
			r->submit_time = step;
			r->ncomp = p == COALLOC_POLICY_GS ? 1 + (unsigned)(rnd(&seed) % 3) : 1;
			for (unsigned c = 0; c < r->ncomp; c++)
				r->size[c] = 1 + (uint32_t)(rnd(&seed) % 8);
			r->queue = p == COALLOC_POLICY_GS ? G : (int)(rnd(&seed) % 4);
			if (coalloc_engine_submit(e, r) == 0)
				state[next_id] = WAITING;
			next_id++;
		}
		if (rnd(&seed) % 2) {
			uint32_t id = 1 + (uint32_t)(rnd(&seed) % next_id);

			for (; id < next_id && state[id] != RUNNING; id++)
				;
			if (id < next_id && coalloc_engine_depart(e, id) == 0)
				state[id] = GONE;
		}
		n = coalloc_engine_schedule(e, step, &st);
		for (size_t i = 0; i < n; i++) {
			state[st[i].id] = RUNNING;
			*digest = (*digest ^ st[i].id) * 1099511628211ULL;
		}
		for (uint32_t id = 1; id < next_id; id++)
			if (state[id] == WAITING && fits_now(e, &req[id]))
				*maximal = 0;
	}
	coalloc_engine_destroy(e);
}

static void test_streams(void)
{
	static const enum coalloc_policy policies[] = {
		COALLOC_POLICY_GS, COALLOC_POLICY_LS_DO,
	};

	for (unsigned pi = 0; pi < 2; pi++) {
		for (int o = FIRSTFIT; o <= SMALLEST; o++) {
			int all_max = 1, same = 1;

			for (uint64_t seed = 1; seed <= 20; seed++) {
				uint64_t d1, d2;
				int m1, m2;

				stream(policies[pi], o, seed * 7919, &d1, &m1);
				stream(policies[pi], o, seed * 7919, &d2, &m2);
				all_max &= m1;
				same &= d1 == d2;
			}
			ok(all_max, "%s, %s: after every pass of 20 streams no waiting job fits",
			   coalloc_policy_name(policies[pi]), coalloc_order_name(o));
			ok(same, "%s, %s: the same stream starts the same jobs",
			   coalloc_policy_name(policies[pi]), coalloc_order_name(o));
		}
	}
}

/* A job said ELIGIBLE starts at the next pass: a starving head passes the
 * policy's hold, the jobs behind it do not. */
static void test_starving_hold(void)
{
	struct coalloc_engine *e = mk(COALLOC_POLICY_GP, 2, 10, FIRSTFIT, 10);
	struct coalloc_request g = { .id = 50, .ncomp = 2, .queue = G,
				     .submit_time = 16 };

	running(e, 100, 0, 10);
	g.size[0] = g.size[1] = 10;
	coalloc_engine_submit(e, &g);	/* holds the local queues (GP) */
	submit(e, 1, 0, 0, 2);
	submit(e, 2, 0, 15, 2);
	pass(e, 3);
	coalloc_engine_depart(e, 100);
	is_int(coalloc_engine_why(e, 1, 20, NULL, 0), COALLOC_WHY_ELIGIBLE,
	       "GP, firstfit: the starving head passes the hold");
	is_int(coalloc_engine_why(e, 2, 20, NULL, 0),
	       COALLOC_WHY_HELD_GLOBAL_NONEMPTY,
	       "  the job behind it is held, not eligible");
	is_str(pass(e, 20), "1", "  and the pass starts the head only");
	coalloc_engine_destroy(e);
}

/* LS-DO under firstfit: a queue re-opened by a submission and closed
 * again keeps the place of its first disabling. */
static void test_ls_do_stamps(void)
{
	struct coalloc_engine *e = mk(COALLOC_POLICY_LS_DO, 3, 4, FIRSTFIT,
				      COALLOC_AGING_OFF);

	running(e, 100, 0, 4);
	running(e, 101, 1, 4);
	running(e, 102, 2, 3);
	submit(e, 1, 0, 0, 1);
	pass(e, 1);			/* queue 0 disabled first */
	submit(e, 2, 1, 0, 1);
	pass(e, 1);			/* then queue 1 */
	submit(e, 3, 0, 0, 1);
	pass(e, 1);			/* queue 0 re-opened, closed again */
	coalloc_engine_depart(e, 102);	/* LS-DO: queue 0, then queue 1 */
	running(e, 103, 2, 4);
	coalloc_engine_depart(e, 100);
	coalloc_engine_depart(e, 101);
	is_str(pass(e, 2), "1 2 3", "LS-DO, firstfit: queue 0 keeps its first place");
	coalloc_engine_destroy(e);
}

int main(void)
{
	test_names();
	test_sort();
	test_orders();
	test_aging_bound();
	test_submit_reopens();
	test_starving_hold();
	test_ls_do_stamps();
	test_streams();
	return done_testing();
}
