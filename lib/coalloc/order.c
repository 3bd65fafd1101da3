/*
 * order.c - queue orders (see order.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdlib.h>
#include <strings.h>

#include "coalloc/order.h"

static const struct {
	const char *name;
	bool head_blocks;	/* fcfs: the head holds the others back */
	bool by_size;		/* smallest: sorted by processors first */
} orders[COALLOC_ORDER_COUNT] = {
	[COALLOC_ORDER_FCFS] = { "fcfs", true, false },
	[COALLOC_ORDER_FIRSTFIT] = { "firstfit", false, false },
	[COALLOC_ORDER_SMALLEST] = { "smallest", false, true },
};

static bool known(enum coalloc_queue_order order)
{
	return (unsigned)order < COALLOC_ORDER_COUNT;
}

const char *coalloc_order_name(enum coalloc_queue_order order)
{
	return known(order) ? orders[order].name : "?";
}

int coalloc_order_parse(const char *name, enum coalloc_queue_order *order)
{
	for (unsigned i = 0; name && i < COALLOC_ORDER_COUNT; i++) {
		if (!strcasecmp(name, orders[i].name)) {
			*order = (enum coalloc_queue_order)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *coalloc_order_names(void)
{
	return "fcfs, firstfit or smallest";
}

bool coalloc_order_head_blocks(enum coalloc_queue_order order)
{
	return !known(order) || orders[order].head_blocks;
}

bool coalloc_order_sorts(enum coalloc_queue_order order)
{
	return known(order) && orders[order].by_size;
}

int coalloc_order_cmp(enum coalloc_queue_order order,
		      const struct coalloc_order_key *a,
		      const struct coalloc_order_key *b)
{
	if (coalloc_order_sorts(order) && a->procs != b->procs)
		return a->procs < b->procs ? -1 : 1;
	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	return 0;
}

static int cmp_fifo(const void *a, const void *b)
{
	return coalloc_order_cmp(COALLOC_ORDER_FIRSTFIT, a, b);
}

static int cmp_smallest(const void *a, const void *b)
{
	return coalloc_order_cmp(COALLOC_ORDER_SMALLEST, a, b);
}

void coalloc_order_sort(enum coalloc_queue_order order,
			struct coalloc_order_key *keys, size_t n)
{
	if (n > 1)
		qsort(keys, n, sizeof(*keys),
		      coalloc_order_sorts(order) ? cmp_smallest : cmp_fifo);
}
