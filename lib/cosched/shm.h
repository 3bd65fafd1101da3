/*
 * shm.h - the page one MPI process shares with its node agent and with the
 * other processes of its job on the same host: the endpoint status of the
 * ULN model in Zhang et al. (in-receive flag, arrived and consumed
 * messages).
 *
 * Created by the MPI shim (libcosched_mpi.so) in MPI_Init as the file
 * RUN_DIR/pages/JOB.STEP/RANK, mode 0600, owned by the job's user, in the
 * step's directory that slurmstepd made for that user and no other can
 * enter (pages.h); mapped shared by the shim.  Read by the node agent
 * (root), which opens it without blocking or following links, keeps it
 * only when it is a regular file of the job's user with one link and
 * exactly this size, and then reads it with pread into a copy every tick
 * (never a mapping: a file truncated under it cannot raise SIGBUS).  It
 * validates magic, version, size, rank and pid before trusting anything
 * in the copy, and treats every field as advisory: a wrong value can only
 * change how the job's own processes are boosted, within the agent's
 * limits.  A copy may tear a field the shim is writing at that moment:
 * one tick's advisory view, as wrong as a value the user wrote on purpose.
 *
 * Senders on the same host map their receivers' pages and play the NIC of
 * the paper: they count the message as arrived (arrive_seq) and raise
 * awaited_arrived when it is the message the receiver waits for; a
 * peer's page is mapped only when it is a regular file of the same user
 * with exactly this size.  When blocked says the receiver sleeps in SB,
 * they also wake it: one datagram to its wake socket (pages.h) or, when
 * it could not make one, a futex wake on arrive_seq.  Messages from other
 * hosts are not counted here; the agent sees them in the socket queues,
 * and an SB sleeper is woken by its own TCP sockets becoming readable.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_COSCHED_SHM_H
#define COALLOC_COSCHED_SHM_H

#include <stdatomic.h>
#include <stdint.h>

#define COSCHED_SHM_MAGIC 0x43534831u	/* "CSH1" */
/*
 * 2: the page moved from /dev/shm to the step's directory (pages.h)
 * 3: SB sleeps on sockets (blocked says how); the wake counters
 * 4: collectives (the shim waits in them as in receives)
 */
#define COSCHED_SHM_VERSION 4u
#define COSCHED_SHM_ANY (-1)		/* wait_src / wait_tag wildcard */

/* blocked: how an SB receiver sleeps, so a same-host sender can wake it */
#define COSCHED_SHM_BLOCKED_FUTEX 1u	/* on arrive_seq (the fallback) */
#define COSCHED_SHM_BLOCKED_SOCKET 2u	/* on its wake socket and TCP sockets */

/* wake_mode: what ends an SB sleep besides the safety timeout */
enum cosched_wake_mode {
	COSCHED_WAKE_NONE = 0,		/* not SB, or not slept yet */
	COSCHED_WAKE_FUTEX = 1,		/* same-host notices; 1 ms timeout */
	COSCHED_WAKE_LOCAL = 2,		/* wake socket only; 1 ms timeout */
	COSCHED_WAKE_ARRIVALS = 3,	/* wake socket and own TCP sockets */
};

struct cosched_shm {
	/* set once at creation */
	uint32_t magic;
	uint32_t version;
	uint32_t size;			/* sizeof(struct cosched_shm) */
	int32_t pid;
	int32_t rank;
	uint32_t job_id;
	uint32_t step_id;
	uint32_t wait_kind;		/* enum cosched_wait of the shim */
	uint64_t start_ns;		/* CLOCK_MONOTONIC at MPI_Init */
	uint64_t latency_ns;		/* measured one-way latency, 0: none */
	uint64_t spin_ns;		/* spin time in use */

	/* written by the process itself */
	_Atomic uint32_t in_recv;	/* inside a receive or wait */
	_Atomic uint32_t in_comm;	/* inside any communication call */
	_Atomic uint32_t yielding;	/* SY: spun past spin_ns, still waiting */
	_Atomic uint32_t blocked;	/* SB: asleep, COSCHED_SHM_BLOCKED_* */
	_Atomic int32_t wait_src;	/* rank awaited, COSCHED_SHM_ANY */
	_Atomic int32_t wait_tag;	/* tag awaited, COSCHED_SHM_ANY */
	_Atomic uint64_t heartbeat_ns;	/* CLOCK_MONOTONIC, each poll */
	_Atomic uint64_t msgs_consumed;	/* received, from same-host senders */
	_Atomic uint64_t msgs_received;	/* received, all senders */
	_Atomic uint64_t bytes_received;
	_Atomic uint64_t msgs_sent;
	_Atomic uint64_t bytes_sent;
	_Atomic uint64_t spins_satisfied; /* waits done within the spin time */
	_Atomic uint64_t blocks;	/* SB: times it blocked */
	_Atomic uint64_t yields;	/* SY: times it yielded */

	/* written by same-host senders */
	_Atomic uint32_t arrive_seq;	/* +1 per message; futex word */
	_Atomic uint32_t awaited_arrived;
	_Atomic uint64_t msgs_arrived;
	_Atomic uint64_t arrived_ns;	/* CLOCK_MONOTONIC of the last one */

	/* version 3, written by the process itself: how SB sleeps ended */
	_Atomic uint32_t wake_mode;	/* enum cosched_wake_mode */
	_Atomic uint32_t wake_socks;	/* TCP sockets watched, last scan */
	_Atomic uint64_t wakes_local;	/* by a same-host sender's notice */
	_Atomic uint64_t wakes_remote;	/* by data on an own TCP socket */
	_Atomic uint64_t wakes_timeout;	/* by the safety timeout */

	/* version 4, written by the process itself */
	_Atomic uint64_t collectives;	/* collective calls, blocking or not */
};

/* Pending (arrived, unconsumed) messages from same-host senders. */
static inline uint64_t cosched_shm_pending(const struct cosched_shm *s)
{
	uint64_t arrived = atomic_load(&s->msgs_arrived);
	uint64_t consumed = atomic_load(&s->msgs_consumed);

	return arrived > consumed ? arrived - consumed : 0;
}

#endif /* COALLOC_COSCHED_SHM_H */
