/*
 * cosched_opts.h - the user-facing co-allocation/coscheduling request:
 * --coalloc=SIZES, --cosched=MODE and --cosched-bw=mem=RATE,net=RATE,
 * parsed and validated without any Slurm header.
 *
 * The SPANK plugin validates at submit time with these functions; the
 * select plugin (slurmctld) and the node agent parse the recorded values
 * (COALLOC_SIZES, COSCHED_MODE, see doc/man/cosched.8) with the same
 * code, so what was accepted at submit time is what they read back.
 *
 * Every parser writes a one-line message naming the offending token into
 * a caller buffer (COSCHED_ERR_LEN bytes are always enough to hold it
 * untruncated) and returns -1; on success it returns 0 and leaves the
 * buffer alone.  Outputs are only written on success.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_COSCHED_OPTS_H
#define COALLOC_COSCHED_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "coalloc/limits.h"

/*
 * At most this many components per job: one per site, so a request the
 * SPANK plugin accepts at submit is one select/coalloc can place.
 */
#define COSCHED_MAX_COMPONENTS COALLOC_MAX_SITES

/*
 * Largest size of one component, in nodes.  Larger than any Slurm cluster
 * yet small enough that the sum of COSCHED_MAX_COMPONENTS sizes fits a
 * uint32_t, so callers can add sizes without overflow checks.
 */
#define COSCHED_MAX_COMPONENT_NODES 1000000u

/* Room for any message the parsers write (inputs are quoted abridged). */
#define COSCHED_ERR_LEN 256

/*
 * Room for the canonical text of any valid size list:
 * each component up to 7 digits and a comma (the last one's: the
 * terminator).
 */
#define COSCHED_SIZES_TEXT_LEN (COSCHED_MAX_COMPONENTS * 8)

/*
 * The names under which the SPANK plugin records a request with the job
 * (spank_job_control_setenv): canonical values only, and only for the
 * options the user gave.  See doc/man/cosched.8 for where they show up.
 */
#define COSCHED_ENV_SIZES "COALLOC_SIZES"	/* e.g. "4,4" */
#define COSCHED_ENV_MODE "COSCHED_MODE"		/* e.g. "pb-sb" */

/* The component sizes of --coalloc, in the order the user gave them. */
struct cosched_sizes {
	uint32_t count;				/* 1..COSCHED_MAX_COMPONENTS */
	uint32_t nodes[COSCHED_MAX_COMPONENTS];	/* each >= 1 */
};

/*
 * The coscheduling modes of the roadmap.  The order is part of the ABI
 * between our components only through the names: never store the number,
 * store cosched_mode_name().
 */
enum cosched_mode {
	COSCHED_MODE_NONE,	/* no coscheduling: change nothing */
	COSCHED_MODE_SB,
	COSCHED_MODE_SY,
	COSCHED_MODE_DCS,
	COSCHED_MODE_PB,
	COSCHED_MODE_PB_SB,
	COSCHED_MODE_PB_SY,
	COSCHED_MODE_DCS_SB,
	COSCHED_MODE_DCS_SY,
	COSCHED_MODE_ECM,
	COSCHED_MODE_EDM,
	COSCHED_MODE_MEMBUS,
	COSCHED_MODE_COUNT	/* not a mode: the number of modes */
};

/*
 * Parse SIZES: comma-separated decimal component sizes in nodes, each
 * 1..COSCHED_MAX_COMPONENT_NODES, at most COSCHED_MAX_COMPONENTS of them.
 * No signs, no spaces, no empty tokens (so no leading or trailing comma).
 * Leading zeros are accepted ("08" is 8); cosched_format_sizes() gives the
 * canonical text.
 */
/* printf into a caller's error buffer (ignored when err is NULL). */
void cosched_set_err(char *err, size_t err_len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

int cosched_parse_sizes(const char *text, struct cosched_sizes *sizes,
			char *err, size_t err_len);

/*
 * Write the canonical text of a size list ("4,4,8") into buf.
 * Returns 0, or -1 when sizes is invalid or buf too small (buf is then
 * left an empty string when buf_len > 0).
 */
int cosched_format_sizes(const struct cosched_sizes *sizes, char *buf,
			 size_t buf_len);

/* Total nodes over all components (cannot overflow, see above). */
uint32_t cosched_sizes_total(const struct cosched_sizes *sizes);

/* Parse MODE, one of the names of cosched_mode_name(), case-insensitive. */
int cosched_parse_mode(const char *text, enum cosched_mode *mode,
		       char *err, size_t err_len);

/* The canonical (lower-case) name of a mode, NULL when out of range. */
const char *cosched_mode_name(enum cosched_mode mode);

/* Every mode name, comma-separated, in enum order (for help texts). */
const char *cosched_mode_names(void);

/* ---- --cosched-bw (cosched_bw.c; its users link lib/num too) ---- */

/*
 * Largest declared rate, bytes per second per process (1000T): beyond any
 * machine, and small enough that the canonical text stays short and every
 * value is a whole number a double holds exactly.
 */
#define COSCHED_BW_MAX 1e15

/* Room for the canonical text of any valid hint ("mem=N,net=N"). */
#define COSCHED_BW_TEXT_LEN 48

/*
 * The bandwidth a membus job declares per process, in bytes per second,
 * for the node agent to use when it cannot measure its processes.
 * Each field counts only when its _set flag is.
 */
struct cosched_bw {
	double mem;	/* memory bus */
	double net;	/* network */
	bool mem_set, net_set;
};

/*
 * Parse mem=RATE,net=RATE: either item or both, in any order, each at most
 * once, comma-separated, keys in lower case, no spaces.  RATE is a
 * number >= 0 with an optional decimal suffix k/K, M, G or T (num_parse_rate:
 * "600M" is 6e8), at most COSCHED_BW_MAX, rounded to whole bytes per second.
 */
int cosched_parse_bw(const char *text, struct cosched_bw *bw, char *err,
		     size_t err_len);

/*
 * The canonical text of a hint into buf: "mem=600000000,net=40000000",
 * whole numbers, mem first, only the items set.  Returns 0, or -1 when
 * nothing is set, a value is out of range or buf is too small (buf is then
 * left an empty string when buf_len > 0).
 */
int cosched_format_bw(const struct cosched_bw *bw, char *buf, size_t buf_len);

#endif /* COALLOC_COSCHED_OPTS_H */
