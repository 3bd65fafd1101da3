/*
 * resend.h - when to tell a job's nodes again what slurmctld believes.
 *
 * slurmctld delivers each suspend or resume in an agent thread of its
 * own, and drops it when the node does not answer within about 10 s (no
 * retry); slurmd handles each in a thread of its own, in the order the
 * threads take the job's lock.  When slurmctld's agent falls behind (a
 * reconfiguration holds its locks) it delivers its backlog at once, and a
 * suspend and the resume sent seconds after it reach a node within a
 * millisecond, in either order (slurmd debug logs of 18-ctld-faults.t).
 * The node then keeps the job stopped while slurmctld has it running:
 * 4 of 16 nodes stayed stopped for 4 minutes in a fresh-clone run.  slurmd
 * also holds a suspend that arrives before the job's launch on the node
 * for up to 9 s, and takes the same operation twice harmlessly.  So after
 * every suspend or resume the plugin sends the operation slurmctld then
 * believes again, once soon and once past that 9 s hold: the last word a
 * node hears is the newest.
 *
 * A plain table, no Slurm headers: the plugin asks it what is due and
 * checks each against slurmctld's job state itself.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_RESEND_H
#define COALLOC_RESEND_H

#include <stddef.h>
#include <stdint.h>

#include "coalloc/idmap.h"

enum coalloc_resend_op {
	COALLOC_RESEND_SUSPEND,
	COALLOC_RESEND_RESUME,
};

/* Seconds after an operation at which it is sent again: 11 is past
 * slurmd's 9 s launch hold and its 1 s wait steps. */
#define COALLOC_RESEND_STEPS 2
extern const int64_t coalloc_resend_after[COALLOC_RESEND_STEPS];

struct coalloc_resend_item {
	uint32_t job;
	enum coalloc_resend_op op;
};

struct coalloc_resend_entry {
	uint32_t job;
	enum coalloc_resend_op op;
	int64_t sent;		/* when the operation itself was sent */
	unsigned step;		/* resends done */
};

struct coalloc_resend {
	struct coalloc_idmap map;	/* job id -> index in v */
	struct coalloc_resend_entry *v;
	size_t n, cap;
};

int coalloc_resend_init(struct coalloc_resend *r);
void coalloc_resend_free(struct coalloc_resend *r);

/* Operation 'op' was sent for 'job' at 'now': its resends start over
 * (a newer operation replaces an older one's).  0 or -ENOMEM. */
int coalloc_resend_note(struct coalloc_resend *r, uint32_t job,
			enum coalloc_resend_op op, int64_t now);

/* Drop a job's resends (it left, or its state changed behind us). */
void coalloc_resend_forget(struct coalloc_resend *r, uint32_t job);

/* Drop every job's resends (the matrix no longer switches rows). */
void coalloc_resend_clear(struct coalloc_resend *r);

/* The resends due at 'now', at most 'cap' into 'out', in no particular
 * order; each is counted as done (a pass late by more than one step sends
 * once), and an entry with none left is dropped.  Returns how many were
 * written; the rest stay due. */
size_t coalloc_resend_due(struct coalloc_resend *r, int64_t now,
			  struct coalloc_resend_item *out, size_t cap);

/* Seconds from 'now' to the next resend (0: one is due), or -1: none. */
int64_t coalloc_resend_wait(const struct coalloc_resend *r, int64_t now);

static inline size_t coalloc_resend_count(const struct coalloc_resend *r)
{
	return r->n;
}

#endif /* COALLOC_RESEND_H */
