/*
 * order.h - the order in which a queue offers its waiting jobs
 * (coalloc.conf's QueueOrder=), shared by the policy engine (engine.c)
 * and the ESP simulator (lib/esp/sim.c), so both start the same jobs.
 *
 *   fcfs      Bucur and Epema's queues: only the head may start; when it
 *             does not fit, everything behind it waits (the default);
 *   firstfit  the jobs in queue order, each started when it fits: no
 *             head-of-queue blocking, no reservation for a job that
 *             cannot start now;
 *   smallest  the jobs by processors asked, fewest first, ties in queue
 *             order, each started when it fits.
 *
 * No order uses run times (ESP gives none).  Under firstfit and smallest
 * a wide job can wait for as long as narrow ones keep arriving: the
 * engine's aging (AgingTime) bounds that, as it bounds a held queue's
 * wait (engine.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_ORDER_H
#define COALLOC_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum coalloc_queue_order {
	COALLOC_ORDER_FCFS,
	COALLOC_ORDER_FIRSTFIT,
	COALLOC_ORDER_SMALLEST,
	COALLOC_ORDER_COUNT
};

/* A waiting job as an order sees it. */
struct coalloc_order_key {
	uint32_t procs;		/* processors asked, all components */
	uint64_t seq;		/* its place in the queue (arrival), unique */
	uint32_t ref;		/* the caller's: which job this is */
};

/* "fcfs", "firstfit", "smallest"; "?" for an unknown value. */
const char *coalloc_order_name(enum coalloc_queue_order order);

/* A name as coalloc_order_name() prints it, in any case: 0, or -EINVAL. */
int coalloc_order_parse(const char *name, enum coalloc_queue_order *order);

/* Every name, for messages: "fcfs, firstfit or smallest". */
const char *coalloc_order_names(void);

/* Whether a head that does not fit holds back the jobs behind it. */
bool coalloc_order_head_blocks(enum coalloc_queue_order order);

/* Whether the order differs from queue order (the jobs must be sorted). */
bool coalloc_order_sorts(enum coalloc_queue_order order);

/* qsort-style: < 0 when a is offered before b. */
int coalloc_order_cmp(enum coalloc_queue_order order,
		      const struct coalloc_order_key *a,
		      const struct coalloc_order_key *b);

/*
 * Sort keys[0..n) into the order's offering order (fcfs and firstfit: by
 * seq alone).  seq being unique, the result is the same on every run.
 */
void coalloc_order_sort(enum coalloc_queue_order order,
			struct coalloc_order_key *keys, size_t n);

#endif
