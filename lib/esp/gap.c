/*
 * gap.c - whether a gap in esp-work's clock readings was a stop
 * (see gap.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "esp/gap.h"

#define MSEC 1000000LL

bool esp_gap_is_stop(const struct esp_gap *g)
{
	if (g->over <= g->margin)
		return false;
	if (g->cont)
		return true;
	/* never off the CPU of its own accord: preempted or stolen, so
	 * runnable all along, whatever the clock says */
	if (g->blocked == 0)
		return false;
	if (g->waited < 0)
		return g->over > ESP_GAP_BLIND_MS * MSEC;
	return g->over - g->waited > ESP_GAP_FROZEN_MS * MSEC;
}
