/*
 * membus.h - bandwidth-aware gang pairing (MemBUS, 002_*, sections 4-5):
 * which applications of a node run in the next quantum.
 *
 * Every quantum each node (1) selects candidates by Algorithm 2: the first
 * application of its list always, then repeatedly the application whose
 * per-process memory and network bandwidth, averaged over the last w
 * quanta, lie closest (Euclidean distance, Fig. 3) to the remaining
 * bandwidth per remaining processor, while processors remain; (2) the
 * nodes sum their candidate vectors, sort the applications by that sum
 * (ties: list order) and allocate processors in that order; (3) the
 * applications that ran move to the end of the list (Algorithm 1).
 *
 * Pure C, no Slurm or system headers beyond libc: the node agent feeds it
 * samples and the unit tests feed it hand-made ones.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_MEMBUS_H
#define COALLOC_MEMBUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MEMBUS_WINDOW_MAX 64	/* quanta a window may span */

/* Bandwidth of one process in one quantum, bytes per second. */
struct membus_sample {
	double mem;	/* memory bus, including the NIC's DMA */
	double net;	/* network */
};

/* The last w samples of one process (a ring). */
struct membus_window {
	struct membus_sample s[MEMBUS_WINDOW_MAX];
	unsigned w;		/* window length, 1..MEMBUS_WINDOW_MAX */
	unsigned filled;	/* samples held, <= w */
	unsigned next;		/* where the next sample goes */
};

/* An empty window of w quanta; w is clamped to 1..MEMBUS_WINDOW_MAX. */
void membus_window_init(struct membus_window *win, unsigned w);

/* Add the sample of the quantum just ended (the oldest drops out). */
void membus_window_add(struct membus_window *win, struct membus_sample s);

/* Mean of the samples held (0, 0 when empty). */
struct membus_sample membus_window_mean(const struct membus_window *win);

/* One application of a node's list, as the selection sees it. */
struct membus_app {
	uint32_t procs;			/* p_i: its processes on this node */
	struct membus_sample per_proc;	/* mean bandwidth per process */
};

/* Fig. 3: distance of app's needs from the remaining share per CPU. */
double membus_distance(const struct membus_app *app, double mem_rem,
		       double net_rem, uint32_t cpus_rem);

/*
 * Algorithm 2 over apps[0..n) (apps[0] is the head of the list): set
 * selected[i] to 1 for the candidates, 0 for the others, on a node of
 * cpus processors with memory and network capacity mem and net.  The
 * first application is always selected (even when it asks more than
 * cpus: it then runs alone); the loop stops when no processor remains or
 * no unselected application fits.  Returns the number selected.
 */
size_t membus_select(const struct membus_app *apps, size_t n, uint32_t cpus,
		     double mem, double net, uint8_t *selected);

/*
 * The reduction: order[0..n) receives the application indices sorted by
 * totals[] decreasing, ties in list order (a stable sort).
 */
void membus_order(const uint32_t *totals, size_t n, size_t *order);

/*
 * Allocate cpus processors to applications in order (from membus_order):
 * run[i] = 1 for those that fit, taken in order while processors remain.
 * The first in order always runs.  Returns the number that run.
 */
size_t membus_allocate(const struct membus_app *apps, const size_t *order,
		       size_t n, uint32_t cpus, uint8_t *run);

/*
 * Algorithm 1, lines 3-5: the applications that ran (ran[list[k]] != 0)
 * move to the end of the list, each group keeping its order.
 */
void membus_rotate(size_t *list, size_t n, const uint8_t *ran);

#endif /* COALLOC_MEMBUS_H */
