/*
 * closer.h - closing the descriptors the agent took from a user's
 * processes, one thread per user.
 *
 * close() of such a duplicate can block as long as its owner likes: a
 * socket it gave SO_LINGER, when it closed its own descriptor meanwhile,
 * or a FUSE file of its own swapped in under the descriptor number (the
 * FLUSH is answered, or not, by the user's program).  The agent's thread
 * never closes one: each user (uid) has a closer thread that does
 * nothing but close() what it is handed, so one user's stuck close never
 * holds another user's duplicates open (their closes must reach their
 * peers as before).  A user whose closer has been inside one close() for
 * longer than CLOSER_STUCK_MS is "stuck": the agent takes no descriptor
 * from that user's processes until the close returns.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHEDD_CLOSER_H
#define COSCHEDD_CLOSER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define CLOSERS_MAX 64		/* users with a closer at once */
#define CLOSER_STUCK_MS 100	/* in one close() that long: stuck */

struct closers;			/* the agent's table */
struct closer;			/* one user's */

struct closers *closers_open(void);
/* Ends every closer; a stuck one finishes its close() on its own and
 * then frees what it shares (never waited for). */
void closers_close(struct closers *t);

/* uid's closer, started on first use, referenced until closer_put;
 * NULL (errno set) when CLOSERS_MAX users have one or no thread starts. */
struct closer *closer_get(struct closers *t, uid_t uid);
void closer_put(struct closer *c);	/* NULL: nothing */

/* Hand fd over to be closed.  When the queue is full (only a closer
 * stuck for long fills it) fd is kept open for good, never closed here,
 * and the closer counts as stuck from then on. */
void closer_give(struct closer *c, int fd);

/* Whether c's user may have no descriptor taken now (logged once each
 * time it turns stuck, rate limited). */
bool closer_stuck(struct closer *c, uint64_t now_ns);

/* For tests and status: closes handed over and not yet returned. */
uint64_t closer_pending(const struct closer *c);

#endif /* COSCHEDD_CLOSER_H */
