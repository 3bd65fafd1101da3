/*
 * bw_internal.h - what the files of the agent's bandwidth sources share
 * (bw.c, bw_perf.c, bw_resctrl.c, bw_tcp.c, bw_probe.c); bw.h is their
 * interface to the rest of the agent.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHED_AGENT_BW_INTERNAL_H
#define COSCHED_AGENT_BW_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "bw.h"

/* CLOCK_MONOTONIC in seconds. */
double bw_now(void);

/* First line of a small file into buf (newline removed); 0 or -1. */
int bw_read_line(const char *path, char *buf, size_t len);

/* Whether path has a line whose last tab-separated word is word. */
bool bw_file_has_word(const char *path, const char *word);

/* Whether each source works here, and why not (bw_detect's parts). */
void bw_perf_detect(struct bw_sources *have);
void bw_resctrl_detect(struct bw_sources *have);
void bw_tcp_detect(struct bw_sources *have);

#endif /* COSCHED_AGENT_BW_INTERNAL_H */
