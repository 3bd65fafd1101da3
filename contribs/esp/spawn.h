/*
 * spawn.h - run Slurm's commands (sbatch, squeue, scancel) for the ESP
 * driver: argv only, no shell, stdout captured.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ESP_SPAWN_H
#define ESP_SPAWN_H

#include <stddef.h>

/*
 * Run argv[0] (looked up in PATH) with stdin from /dev/null; its stdout
 * goes to out (NUL-terminated, truncated to outlen), its stderr to ours.
 * Returns the exit status (0-255), or -1 when it could not run or died of
 * a signal.
 */
int esp_spawn(char *const argv[], char *out, size_t outlen);

#endif /* ESP_SPAWN_H */
