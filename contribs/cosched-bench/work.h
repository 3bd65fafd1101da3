/*
 * work.h - the computation and I/O of a cosched-bench iteration.
 *
 * Computation is CPU work: a spin loop whose speed is calibrated on the
 * thread's CPU clock, so a task that is descheduled takes longer in wall
 * time but does the same work.  I/O is a task blocked, as on a disk: a
 * sleep, accounted so that I/O phases add up to the modelled time.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHED_BENCH_WORK_H
#define COSCHED_BENCH_WORK_H

#include <stdint.h>

/* Seconds on a clock (CLOCK_MONOTONIC, CLOCK_THREAD_CPUTIME_ID, ...). */
double work_clock(int clock_id);

/* Spin LOOPS iterations of integer arithmetic. */
void work_spin(uint64_t loops);

/* Spin loops per microsecond of this thread's CPU time. */
double work_calibrate_spin(void);

/* The loop count for US microseconds at RATE loops per microsecond. */
uint64_t work_loops(double us, double rate);

/*
 * I/O owed but not yet slept.  A sleep lasts longer than its request (the
 * timer and the wake-up: tens of microseconds, hundreds in a VM), so the
 * time a sleep really served is taken off the debt and the next request
 * is shorter, or skipped while the debt is paid ahead: the total stays
 * the modelled one and phases shorter than a wake-up are slept together.
 * Time spent runnable but waiting for the CPU after the wake-up (another
 * job's turn: the thread's run_delay in /proc/thread-self/schedstat) is
 * not I/O and is not served.
 */
struct work_io {
	int schedstat_fd;	/* -1: unknown, a sleep serves its wall time */
	double owed_us;		/* modelled I/O not slept yet (< 0: ahead) */
	uint64_t blocks;	/* sleeps done */
};

/* Start with no debt; open the calling thread's schedstat if there is one. */
void work_io_init(struct work_io *io);
void work_io_fini(struct work_io *io);

/* Owe US more microseconds of I/O; sleep off what is owed. */
void work_io(struct work_io *io, double us);

/* Nanoseconds the thread behind FD has waited on a run queue; -1. */
long long work_run_delay_ns(int fd);

#endif /* COSCHED_BENCH_WORK_H */
