/*
 * bw.h - --cosched-bw=mem=RATE,net=RATE, the bandwidth a
 * membus job declares, parsed and validated without any Slurm header.
 * The other options have their parsers beside what they mean:
 * --coalloc=SIZES in lib/coalloc (sizes.h), --cosched=MODE in
 * lib/cosched (mode.h).
 *
 * The SPANK plugin validates at submit time with these functions; the
 * node agent parses the recorded value (COSCHED_BW, see
 * doc/man/cosched.8) with the same code, so what was accepted at submit
 * time is what it reads back.  Like every parser of the suite it writes
 * a one-line message naming the offending item into a caller buffer
 * (ERRBUF_LEN bytes are always enough, num/errbuf.h) and returns -1; on
 * success it returns 0 and leaves the buffer alone.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHED_BW_H
#define COSCHED_BW_H

#include <stdbool.h>
#include <stddef.h>

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

#endif /* COSCHED_BW_H */
