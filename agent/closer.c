/*
 * closer.c - one closer thread per user (closer.h says why).
 *
 * A closer's thread reads descriptors from a pipe and closes them; it
 * marks the time it entered close() so that the agent can tell a close
 * that does not return.  What the thread and the agent share lives in a
 * reference-counted block, freed by the last of the two to let go: the
 * agent never waits for a thread (a stuck one may never return), so a
 * thread can outlive its table slot and even the table.
 *
 * A slot is kept while a watched process of its user holds it, and after
 * that while closes are pending (a stuck user keeps its slot, so that it
 * stays stuck when it watches again, and counts against CLOSERS_MAX).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "closer.h"

#define CLOSER_STACK (64 * 1024)

/* What a closer's thread and the agent share. */
struct closer_shared {
	atomic_int refs;		/* the agent's and the thread's */
	atomic_uint_fast64_t done;	/* closes returned */
	atomic_uint_fast64_t busy_since_ns;	/* in close() since, 0: not */
	int queue;			/* the thread's end of the pipe */
};

struct closer {
	bool used;
	uid_t uid;
	unsigned users;			/* watches holding it */
	int queue;			/* our end of the pipe */
	uint64_t given;			/* closes handed over */
	bool overflowed;		/* the pipe was full once: stuck */
	bool stuck;			/* as last said (logged on change) */
	struct closer_shared *sh;
};

struct closers {
	struct closer slot[CLOSERS_MAX];
};

static struct agent_log_limit stuck_log = AGENT_LOG_LIMIT("stuck closes");

static void _shared_put(struct closer_shared *sh)
{
	if (atomic_fetch_sub(&sh->refs, 1) == 1)
		free(sh);
}

/* The thread: close what comes through the pipe, until it ends. */
static void *_run(void *arg)
{
	struct closer_shared *sh = arg;
	int fd;

	while (read(sh->queue, &fd, sizeof(fd)) == (ssize_t)sizeof(fd)) {
		atomic_store(&sh->busy_since_ns, agent_now_ns());
		close(fd);
		atomic_store(&sh->busy_since_ns, 0);
		atomic_fetch_add(&sh->done, 1);
	}
	close(sh->queue);
	_shared_put(sh);
	return NULL;
}

/* Start c's thread, every signal blocked in it (they are the agent's
 * thread's); 0 or -1 with errno. */
static int _start(struct closer *c)
{
	sigset_t all, old;
	pthread_attr_t attr;
	pthread_t t;
	int p[2], rc;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	c->sh = calloc(1, sizeof(*c->sh));
	if (!c->sh || fcntl(p[1], F_SETFL, O_NONBLOCK)) {
		rc = c->sh ? errno : ENOMEM;
		goto fail;
	}
	atomic_init(&c->sh->refs, 2);
	c->sh->queue = p[0];
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, CLOSER_STACK);
	rc = pthread_create(&t, &attr, _run, c->sh);
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!rc) {
		c->queue = p[1];
		return 0;
	}
fail:
	free(c->sh);
	c->sh = NULL;
	close(p[0]);
	close(p[1]);
	errno = rc;
	return -1;
}

/* End c's thread once it has closed what it holds; the slot is free. */
static void _end(struct closer *c)
{
	close(c->queue);	/* the thread reads EOF after the last one */
	_shared_put(c->sh);
	memset(c, 0, sizeof(*c));
}

uint64_t closer_pending(const struct closer *c)
{
	return c ? c->given - atomic_load(&c->sh->done) : 0;
}

/* Slots no watch holds and no close waits on are ended. */
static void _sweep(struct closers *t)
{
	for (size_t i = 0; i < CLOSERS_MAX; i++) {
		struct closer *c = &t->slot[i];

		if (c->used && !c->users && !c->overflowed &&
		    !closer_pending(c))
			_end(c);
	}
}

struct closers *closers_open(void)
{
	return calloc(1, sizeof(struct closers));
}

void closers_close(struct closers *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < CLOSERS_MAX; i++)
		if (t->slot[i].used)
			_end(&t->slot[i]);
	free(t);
}

struct closer *closer_get(struct closers *t, uid_t uid)
{
	struct closer *free_slot = NULL;

	_sweep(t);
	for (size_t i = 0; i < CLOSERS_MAX; i++) {
		struct closer *c = &t->slot[i];

		if (c->used && c->uid == uid) {
			c->users++;
			return c;
		}
		if (!c->used && !free_slot)
			free_slot = c;
	}
	if (!free_slot) {
		errno = EUSERS;
		return NULL;
	}
	if (_start(free_slot))
		return NULL;
	free_slot->used = true;
	free_slot->uid = uid;
	free_slot->users = 1;
	return free_slot;
}

void closer_put(struct closer *c)
{
	if (!c)
		return;
	if (--c->users == 0 && !c->overflowed && !closer_pending(c))
		_end(c);
}

void closer_give(struct closer *c, int fd)
{
	if (c->overflowed)
		return;		/* kept: closing it here could block */
	if (write(c->queue, &fd, sizeof(fd)) == (ssize_t)sizeof(fd)) {
		c->given++;
		return;
	}
	c->overflowed = true;
	agent_log("uid %u: the queue of its closes is full (its closes block): no descriptor is taken from its processes any more",
		  (unsigned)c->uid);
}

/* Whether c is inside a close() that has not returned for long. */
static bool _blocked(const struct closer *c, uint64_t now_ns)
{
	uint64_t since = atomic_load(&c->sh->busy_since_ns);

	return c->overflowed || (since && now_ns > since &&
				 now_ns - since > CLOSER_STUCK_MS * 1000000ull);
}

bool closer_stuck(struct closer *c, uint64_t now_ns)
{
	bool stuck = _blocked(c, now_ns);

	if (stuck != c->stuck && agent_log_allow(&stuck_log)) {
		if (stuck)
			agent_log("uid %u: a close() of a descriptor taken from its processes has not returned for %d ms (a FUSE file or a lingering socket of theirs): no descriptor is taken from them until it does",
				  (unsigned)c->uid, CLOSER_STUCK_MS);
		else
			agent_log("uid %u: its closes return again: its sockets are watched again",
				  (unsigned)c->uid);
	}
	c->stuck = stuck;
	return stuck;
}
