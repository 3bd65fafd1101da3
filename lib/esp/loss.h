/*
 * loss.h - where an ESP run lost efficiency: the processor-seconds
 * P*T - W (W = sum of size * planned seconds, the work E divides) broken
 * down by cause.
 *
 * Every idle processor-instant of [0, T] gets one cause, tried in this
 * order on its node:
 *
 *   launch        a job that will run on the node was submitted and all
 *                 its nodes were free (the last earlier job on any of them
 *                 had ended), but its esp-work had not begun: slurmctld's
 *                 scheduling pass, the launch RPC, prolog, slurmstepd, the
 *                 batch script, and the previous job's way out after its
 *                 esp-work ended.
 *   row_switch    a started job holding the node is stopped (a gang row
 *                 swapped out, a preemption): the switch itself and the
 *                 nodes only a swapped-out row uses.
 *   z_drain       a full-configuration job is waiting: the machine drains
 *                 for it.
 *   idle_waiting  jobs wait but none can use the node (blocked by the
 *                 policy, or waiting for other nodes: fragmentation).
 *   tail          after the last job started, nothing waits: too few
 *                 jobs left to fill the machine.
 *   other         nothing submitted waits (before the next submission).
 *
 * "other" also takes what is not idle time: the jobs' running time beyond
 * their planned seconds (esp-work's ticks, and jobs a cut-short run did
 * not complete, whose work W leaves out), so that the causes add up to
 * total = P*T - W exactly.
 *
 * Processors are counted per node as P / (distinct nodes in the log):
 * exact on whole-node allocations of equal nodes (the embedded cluster's
 * one-CPU nodes), an estimate otherwise.  When a started job's node list
 * cannot be read (cut to fit the log line), nodes are not known: every
 * cause but other is 0 and by_node is false.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ESP_LOSS_H
#define ESP_LOSS_H

#include <stdbool.h>
#include <stddef.h>

struct esp_run;

/* In the order results.json lists them. */
enum esp_loss_cause {
	ESP_LOSS_IDLE_WAITING,
	ESP_LOSS_ROW_SWITCH,
	ESP_LOSS_LAUNCH,
	ESP_LOSS_TAIL,
	ESP_LOSS_Z_DRAIN,
	ESP_LOSS_OTHER,
	ESP_LOSS_NCAUSES
};

/* The causes' names in results.json, the summary and the table. */
extern const char *const esp_loss_names[ESP_LOSS_NCAUSES];

struct esp_loss {
	double cause[ESP_LOSS_NCAUSES];	/* processor-seconds */
	double total;			/* P*T - W */
	bool by_node;
};

/*
 * A stretch of [0, T] over which nothing changes: the processors running
 * jobs, and the idle ones by cause (idle[ESP_LOSS_OTHER] counts only idle
 * processors).  For the chronology's shading.
 */
struct esp_loss_segment {
	double from, to;
	double running;
	double idle[ESP_LOSS_NCAUSES];
};

/*
 * The breakdown of run over [0, T] with work W.  Returns 0, or -1 when
 * out of memory (out all zero but total and other).  With segs, also
 * *segs (free() it) and *nsegs, in time order.
 */
int esp_loss_compute(const struct esp_run *run, double T, double W,
		     struct esp_loss *out, struct esp_loss_segment **segs,
		     size_t *nsegs);

#endif /* ESP_LOSS_H */
