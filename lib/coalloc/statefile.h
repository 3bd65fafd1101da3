/*
 * statefile.h - the text of select/coalloc's state file
 * (StateSaveLocation/coalloc_state), read strictly and without Slurm
 * headers.  Written by the plugin as:
 *
 *   # select/coalloc state 1        the header, exactly
 *   active ROW                      the matrix's active row, at most once
 *   job ID ROW                      a job's matrix row, once per job
 *   queue Q disabled HEAD           a queue the policy had disabled,
 *                                   and the job at its head then
 *
 * each line ending in a newline, numbers whole and decimal.  A queue
 * line without HEAD (0.9 and before) is read with head 0, which no job
 * has: the plugin then leaves that queue enabled (see
 * coalloc_engine_disable_queue).  Anything
 * else (another header, a line longer than COALLOC_STATEFILE_LINE_MAX, a
 * NUL byte, a number out of range, a duplicate) makes the whole file
 * corrupt: the plugin then rebuilds from slurmctld's job records rather
 * than restore half of it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_STATEFILE_H
#define COALLOC_STATEFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "coalloc/engine.h"

#define COALLOC_STATEFILE_HEADER "# select/coalloc state 1"

/* Longest line, newline excluded (the writer's are under 40 bytes). */
#define COALLOC_STATEFILE_LINE_MAX 255

/* Largest row number read (a matrix has at most MPL + 1 rows). */
#define COALLOC_STATEFILE_MAX_ROW 1024

struct coalloc_statefile_job {
	uint32_t id;
	uint32_t row;
};

struct coalloc_statefile_queue {
	int queue;		/* COALLOC_QUEUE_GLOBAL or a site */
	uint32_t head;		/* its head job when saved; 0: not said */
};

struct coalloc_statefile {
	bool has_active;
	uint32_t active;
	struct coalloc_statefile_job *jobs;	/* malloc'd */
	size_t njobs;
	struct coalloc_statefile_queue queues[COALLOC_MAX_SITES + 1];
	size_t nqueues;
};

/*
 * Parse len bytes of a state file's text into st.  Returns 0, or -1 with
 * "line N: what" in err and st empty.  Free st with
 * coalloc_statefile_free() either way.
 */
int coalloc_statefile_parse(const char *text, size_t len,
			    struct coalloc_statefile *st, char *err,
			    size_t errlen);

void coalloc_statefile_free(struct coalloc_statefile *st);

#endif /* COALLOC_STATEFILE_H */
