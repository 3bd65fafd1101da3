/*
 * wait.c - how a receiver waits (Zhang et al. sections 2.4.1-2.4.2) and what it
 * publishes meanwhile.
 *
 * Busy waiting calls MPI's own blocking call.  SB and SY poll with the
 * non-blocking variant for the spin time, the time a message from a
 * coscheduled sender needs; past it the sender is likely descheduled, so
 * SB sleeps until the arrival itself wakes it (wake.c: data on one of its
 * TCP sockets, or a same-host sender's notice), and SY yields the CPU on
 * every poll, with yielding set so the node agent can lower this process
 * and boost one with a pending message.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <sched.h>

#include "cosched/spin.h"
#include "shim.h"

/* One wait, from the first poll to completion. */
struct wait_run {
	uint64_t start_ns;
	bool blocked;		/* counted in blocks */
	bool yielded;		/* counted in yields */
};

void shim_comm_enter(void)
{
	shim_set_flag(&shim.page->in_comm, 1);
}

void shim_comm_leave(void)
{
	shim_set_flag(&shim.page->in_comm, 0);
}

static void wait_enter(int src, int tag, uint64_t now)
{
	struct cosched_shm *page = shim.page;

	atomic_store_explicit(&page->wait_src, src, memory_order_relaxed);
	atomic_store_explicit(&page->wait_tag, tag, memory_order_relaxed);
	atomic_store_explicit(&page->awaited_arrived, 0, memory_order_relaxed);
	atomic_store_explicit(&page->heartbeat_ns, now, memory_order_relaxed);
	/* release: a sender seeing in_recv sees what it waits for */
	shim_set_flag(&page->in_comm, 1);
	shim_set_flag(&page->in_recv, 1);
}

static void wait_leave(const struct wait_run *run)
{
	struct cosched_shm *page = shim.page;
	uint64_t now = shim_now_ns();

	shim_set_flag(&page->in_recv, 0);
	shim_set_flag(&page->yielding, 0);
	shim_set_flag(&page->blocked, 0);
	shim_set_flag(&page->awaited_arrived, 0);
	shim_set_flag(&page->in_comm, 0);
	atomic_store_explicit(&page->heartbeat_ns, now, memory_order_relaxed);
	if (!run->blocked && !run->yielded && now - run->start_ns < shim.spin_ns)
		shim_count(&page->spins_satisfied, 1);
}

/*
 * SB past the spin time: announce the sleep (and how a sender wakes it),
 * take the sequence number, poll once more (a message that came in
 * between would otherwise be slept through), then sleep.  A same-host
 * sender bumps arrive_seq, then reads blocked: it either sees the flag
 * and wakes us (a datagram stays queued until we wait; the futex compares
 * the number) or its message is there for the last poll.
 */
static int wait_block(struct shim_poll *poll, struct wait_run *run,
		      int *done)
{
	struct cosched_shm *page = shim.page;
	uint32_t seen;
	int rc;

	atomic_store(&page->blocked, shim_wake_blocked_kind());
	seen = atomic_load(&page->arrive_seq);
	rc = poll->test(poll, done);
	if (rc == MPI_SUCCESS && !*done) {
		if (!run->blocked) {
			run->blocked = true;
			shim_count(&page->blocks, 1);
		}
		shim_wake_sleep(seen);
	}
	atomic_store(&page->blocked, 0);
	return rc;
}

static void wait_yield(struct wait_run *run)
{
	if (!run->yielded) {
		run->yielded = true;
		shim_set_flag(&shim.page->yielding, 1);
		shim_count(&shim.page->yields, 1);
	}
	sched_yield();
}

static int wait_poll(struct shim_poll *poll, struct wait_run *run)
{
	int done = 0;
	int rc;

	for (;;) {
		uint64_t now;

		rc = poll->test(poll, &done);
		if (rc != MPI_SUCCESS || done)
			return rc;
		now = shim_now_ns();
		atomic_store_explicit(&shim.page->heartbeat_ns, now,
				      memory_order_relaxed);
		switch (cosched_spin_decide(shim.cfg.wait, now - run->start_ns,
					    shim.spin_ns)) {
		case COSCHED_ACT_SPIN:
			break;
		case COSCHED_ACT_BLOCK:
			rc = wait_block(poll, run, &done);
			if (rc != MPI_SUCCESS || done)
				return rc;
			break;
		case COSCHED_ACT_YIELD:
			wait_yield(run);
			break;
		}
	}
}

/*
 * Wait for what poll waits for, as a receiver awaiting src/tag (world
 * rank and tag, or COSCHED_SHM_ANY).  Returns MPI's return code.
 */
int shim_wait(struct shim_poll *poll, int src, int tag)
{
	struct wait_run run = { .start_ns = shim_now_ns() };
	int rc;

	wait_enter(src, tag, run.start_ns);
	if (shim.cfg.wait == COSCHED_WAIT_BUSY)
		rc = poll->call(poll);
	else
		rc = wait_poll(poll, &run);
	wait_leave(&run);
	return rc;
}

uint64_t shim_wait_busy_enter(void)
{
	uint64_t now = shim_now_ns();

	wait_enter(COSCHED_SHM_ANY, COSCHED_SHM_ANY, now);
	return now;
}

void shim_wait_busy_leave(uint64_t start_ns)
{
	struct wait_run run = { .start_ns = start_ns };

	wait_leave(&run);
}

/*
 * A receive completed with this status (in the communicator of map):
 * count it, and as consumed when its sender shares this host (its page
 * is where it counted the arrival).  Empty statuses (MPI_PROC_NULL, an
 * inactive request) and cancelled receives are no message.
 */
void shim_account_recv(const MPI_Status *status,
		       const struct shim_rank_map *map)
{
	struct cosched_shm *page = shim.page;
	MPI_Count bytes = 0;
	int cancelled = 0;

	if (status->MPI_SOURCE < 0)
		return;
	if (PMPI_Test_cancelled(status, &cancelled) != MPI_SUCCESS ||
	    cancelled)
		return;
	/* the status holds a byte count: MPI_BYTE reads it whatever the type */
	if (PMPI_Get_elements_x(status, MPI_BYTE, &bytes) != MPI_SUCCESS ||
	    bytes < 0)
		bytes = 0;
	shim_count(&page->msgs_received, 1);
	shim_count(&page->bytes_received, (uint64_t)bytes);
	if (shim_peer_page(shim_rank_to_world(map, status->MPI_SOURCE)))
		shim_count(&page->msgs_consumed, 1);
}

/*
 * A request that was saved before a wait or test is complete: if it was a
 * tracked receive, count it (status NULL: it failed or was freed).
 */
void shim_recv_completed(MPI_Request saved, const MPI_Status *status)
{
	struct shim_recv_req req;

	if (!shim_reqs_take(saved, &req))
		return;
	if (status && !req.collective)
		shim_account_recv(status, req.map);
	shim_rank_map_drop(req.map);
}
