/*
 * membus.h - bandwidth-aware gang pairing (MemBUS, Koukis and Koziris,
 * sections 4-5): which applications of a node run in the next quantum.
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

/* ---- the reduction across nodes (reduce.c) ---- */

#define MEMBUS_ID_LEN 32	/* an application's name, e.g. "JOB.STEP" */

/* What the coordinator learnt of one application this quantum. */
struct membus_tally_app {
	char id[MEMBUS_ID_LEN];
	uint32_t total;		/* S_total: nodes that selected it */
	uint32_t voters;	/* nodes that reported it at all */
	uint32_t nnodes;	/* nodes it spans, as its voters said */
};

/* The coordinator's sum of one quantum's candidate vectors. */
struct membus_tally {
	struct membus_tally_app *apps;	/* in the order first reported */
	size_t n, cap;
};

void membus_tally_init(struct membus_tally *t);
void membus_tally_free(struct membus_tally *t);

/*
 * One node's entry for one application: selected or not, and how many
 * nodes the application spans.  A node reports each application once.
 * Returns 0, or -1 when id is too long or memory runs out.
 */
int membus_tally_add(struct membus_tally *t, const char *id, bool selected,
		     uint32_t nnodes);

/*
 * The decision: order[0..t->n) the applications by S_total decreasing
 * (ties: first reported first), and complete[i] whether every node the
 * application spans reported it, or is gone.  An incomplete one cannot
 * be switched in step on all its nodes (an agent is missing, perhaps
 * only late): it runs everywhere this quantum, so a missing agent never
 * leaves a job stopped.  gone counts the nodes the coordinator knows to
 * have lost their agent (silent for quanta in a row): a gone node runs
 * its steps unmanaged (its guardian thawed them), so waiting for its
 * vote would only stop the pairing on the nodes that still vote.  The
 * coordinator cannot tell which applications a gone node spanned, so it
 * counts for all; one wrongly counted leaves a late node's step paired
 * on the other nodes while the late node runs it throughout, which
 * stops nothing either.
 */
void membus_tally_decide(const struct membus_tally *t, uint32_t gone,
			 size_t *order, uint8_t *complete);

/*
 * A node's share of a decision.  rank[i] is local application i's place
 * in the decided order (smaller first), or -1 when the decision does not
 * name it (it registered after the vote); forced[i] says it runs
 * regardless (incomplete).  Processors go to the ranked applications in
 * order as membus_allocate does; the unranked and the forced run too.
 * Sets run[0..n) and returns how many run.
 */
size_t membus_apply(const struct membus_app *apps, const int *rank,
		    const uint8_t *forced, size_t n, uint32_t cpus,
		    uint8_t *run);

#endif /* COALLOC_MEMBUS_H */
