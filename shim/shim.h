/*
 * shim.h - internals of libcosched_mpi.so, the PMPI shim that publishes
 * the endpoint status of the ULN model (Zhang et al. section 2.3) in a shared
 * page (lib/cosched/shm.h) and waits for messages the way COSCHED_WAIT
 * says: busy, spin-block (SB) or spin-yield (SY), sections 2.4.1-2.4.2.
 *
 * The shim is preloaded into unmodified programs.  Until MPI_Init has
 * created the page (shim.active), every MPI_X it defines is a plain call
 * of PMPI_X; whatever fails on the way leaves it that way.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COALLOC_SHIM_H
#define COALLOC_SHIM_H

#include <limits.h>
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "cosched/mode.h"
#include "cosched/shm.h"

/* What the environment (the SPANK plugin) asked for. */
struct shim_config {
	bool enabled;		/* under Slurm, publishing not turned off */
	uint32_t job_id;
	uint32_t step_id;
	char page_dir[PATH_MAX];	/* the step's, COSCHED_PAGE_DIR */
	enum cosched_wait wait;
	uint64_t spin_fixed_ns;	/* COSCHED_SPIN_NS, 0: measure */
	double spin_factor;
};

struct shim_state {
	bool active;		/* page published: interpose for real */
	bool threaded;		/* MPI_THREAD_MULTIPLE: lock local tables */
	struct shim_config cfg;
	int world_rank;
	int world_size;
	uint64_t spin_ns;
	struct cosched_shm *page;
	char page_path[PATH_MAX];
};

extern struct shim_state shim;

/*
 * The work of an interposed call when the shim is active, kept out of
 * line so that the call itself stays a test and a jump to PMPI_X when it
 * is not.
 */
#define SHIM_ACTIVE_PATH __attribute__((noinline))

/* What runs once per peer or communicator, out of the per-message path. */
#define SHIM_FIRST_USE __attribute__((noinline, cold))

/* Process-local tables are locked only when several threads call MPI. */
extern pthread_mutex_t shim_mutex;

static inline void shim_lock(void)
{
	if (shim.threaded)
		pthread_mutex_lock(&shim_mutex);
}

static inline void shim_unlock(void)
{
	if (shim.threaded)
		pthread_mutex_unlock(&shim_mutex);
}

static inline uint64_t shim_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * A counter of this process's own page.  One writer unless several
 * threads call MPI, so a plain add is enough and spares a locked
 * instruction; the field stays atomic for the readers.
 */
static inline void shim_count(_Atomic uint64_t *counter, uint64_t n)
{
	if (shim.threaded)
		atomic_fetch_add_explicit(counter, n, memory_order_relaxed);
	else
		atomic_store_explicit(counter,
				      atomic_load_explicit(counter,
							   memory_order_relaxed) + n,
				      memory_order_relaxed);
}

static inline void shim_set_flag(_Atomic uint32_t *flag, uint32_t value)
{
	atomic_store_explicit(flag, value, memory_order_release);
}

/* init.c: the program runs another MPI than the shim's (pass through) */
bool shim_mpi_foreign(void);

/* config.c */
void shim_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void shim_config_load(struct shim_config *cfg);

/* page.c: this process's page and those of same-host peers */
int shim_page_create(void);
void shim_page_fill_spin(uint64_t latency_ns, uint64_t spin_ns);
void shim_page_unlink(void);
void shim_page_destroy(void);
int shim_peers_init(void);
void shim_peers_release(void);
struct cosched_shm *shim_peer_page(int world_rank);
void shim_notify_arrival(int world_dest, int tag);

/* wake.c: what ends an SB sleep */
void shim_wake_init(void);
void shim_wake_unlink(void);
void shim_wake_fini(void);
uint32_t shim_wake_blocked_kind(void);
void shim_wake_sleep(uint32_t seen);
void shim_wake_notify(struct cosched_shm *peer, int dest, uint32_t blocked);

/* ranks.c: communicator ranks to MPI_COMM_WORLD ranks */
struct shim_rank_map;
int shim_ranks_init(void);
void shim_ranks_fini(void);
struct shim_rank_map *shim_rank_map(MPI_Comm comm);
struct shim_rank_map *shim_rank_map_hold(struct shim_rank_map *map);
void shim_rank_map_drop(struct shim_rank_map *map);
int shim_rank_to_world(const struct shim_rank_map *map, int rank);

/* requests.c: pending receive requests, to account them on completion */
struct shim_recv_req {
	struct shim_rank_map *map;	/* held: dropped by the taker */
	int src;			/* world rank or COSCHED_SHM_ANY */
	int tag;			/* tag or COSCHED_SHM_ANY */
	bool collective;		/* a non-blocking collective's: no message */
};
void shim_reqs_track(MPI_Request req, MPI_Comm comm, int source, int tag);
void shim_reqs_track_collective(MPI_Request req, MPI_Comm comm);
bool shim_reqs_peek(MPI_Request req, struct shim_recv_req *out);
bool shim_reqs_take(MPI_Request req, struct shim_recv_req *out);
void shim_reqs_clear(void);

/* latency.c */
uint64_t shim_measure_latency(void);

/* wait.c: the receiver's side of the model */
struct shim_poll {
	/* one non-blocking attempt: PMPI_Test, PMPI_Iprobe... */
	int (*test)(struct shim_poll *poll, int *done);
	/* the blocking call itself, used under busy waiting */
	int (*call)(struct shim_poll *poll);
};
int shim_wait(struct shim_poll *poll, int src, int tag);
/* Busy waiting in a blocking call of MPI's own that waits for anything
 * (a collective): the flags shim_wait sets around poll->call. */
uint64_t shim_wait_busy_enter(void);
void shim_wait_busy_leave(uint64_t start_ns);
void shim_comm_enter(void);
void shim_comm_leave(void);
/* ranks.c: what a receive waits for, as the shared page says it */
int shim_wait_src(const struct shim_rank_map *map, int source);
int shim_wait_tag(int tag);
void shim_account_recv(const MPI_Status *status,
		       const struct shim_rank_map *map);
void shim_recv_completed(MPI_Request saved, const MPI_Status *status);

/* send.c */
void shim_sent(int count, MPI_Datatype type, int dest, int tag,
	       MPI_Comm comm);

#endif /* COALLOC_SHIM_H */
