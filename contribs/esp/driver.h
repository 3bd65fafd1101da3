/*
 * driver.h - esp-driver: the subcommands behind esp(1).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ESP_DRIVER_H
#define ESP_DRIVER_H

#include <stdbool.h>
#include <stddef.h>

#include "esp/plan.h"

#define ESP_LOG_NAME "esp.log"
#define ESP_MAX_EXTRA 16
/* A job Slurm says runs whose esp-work has not renewed its alive file
 * for this long is stopped: the run ends (esp-driver run --stall). */
#define ESP_STALL_DEFAULT 60.0

struct run_opts {
	const char *mix_path;
	const char *out;		/* the run's directory */
	const char *partition;		/* general jobs; NULL: default */
	const char *z_partition;	/* full-configuration jobs */
	const char *work;		/* esp-work's path */
	const char *label;		/* names the configuration */
	bool per_cpu;			/* -n SIZE instead of -N SIZE */
	bool burn;			/* esp-work --burn */
	bool quiet;			/* no progress line */
	double timeout;			/* wall seconds, 0: 4 T_min + 120 */
	double stall;			/* wall seconds, 0: not checked */
	double immediate, tie;		/* Z rule 1, see runlog.h */
	struct esp_plan_opts plan;
	const char *extra[ESP_MAX_EXTRA];	/* more sbatch arguments */
	size_t nextra;
};

/* esp-driver run: submit, wait, analyze.  Returns an exit status. */
int esp_cmd_run(const struct run_opts *o);

/* esp-driver analyze: results from DIR/esp.log.  Returns an exit status. */
int esp_cmd_analyze(const char *dir, const char *label, double immediate,
		    double tie);

/* esp-driver table: side-by-side results of several runs. */
int esp_cmd_table(const char *out, char *const dirs[], size_t ndirs);

/* Wall-clock now, seconds since the epoch with microseconds. */
double esp_now(void);

#endif /* ESP_DRIVER_H */
