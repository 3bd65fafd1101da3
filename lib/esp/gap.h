/*
 * gap.h - whether a gap in esp-work's clock readings was a stop.
 *
 * esp-work cannot see that it is stopped; it sees the clock jump between
 * two readings.  A jump also comes from a wait for a CPU on a busy host
 * and from a hypervisor running another guest on the virtual CPU (steal
 * time).  Neither is a stop by Slurm, and the job counts both as running
 * time, as it would on a node of its own.  The rule tells them apart by
 * what the kernel says about the gap.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ESP_GAP_H
#define ESP_GAP_H

#include <stdbool.h>
#include <stdint.h>

struct esp_gap {
	int64_t over;	/* ns beyond the expected length (the tick asleep, 0 burning) */
	int64_t margin;	/* ns of lateness tolerated in any case */
	int64_t waited;	/* ns runnable but waiting for a CPU, -1 unknown */
	long blocked;	/* times a spinning task left the CPU of its own
			 * accord (voluntary context switches), -1 unknown:
			 * a sleeping one may be frozen in its sleep */
	bool cont;	/* a SIGCONT arrived during it */
};

/*
 * True when the gap was a stop: late by more than the margin and either
 * resumed by SIGCONT, or, unless it never blocked (a freezer or a stop
 * puts a running task to sleep; a wait for a CPU preempts it, and steal
 * leaves it "running"), late by more than ESP_GAP_FROZEN_MS beyond its
 * wait for a CPU, or by more than ESP_GAP_BLIND_MS when that wait is
 * unknown.
 */
bool esp_gap_is_stop(const struct esp_gap *g);

#define ESP_GAP_FROZEN_MS 100
#define ESP_GAP_BLIND_MS 1000

#endif
