/*
 * page.c - the shared pages: this process's own (created in MPI_Init in
 * the step's page directory, unlinked in MPI_Finalize or at exit) and
 * those of the same-host receivers it sends to, where it plays the NIC of
 * the ULN model: it counts the message as arrived, raises awaited_arrived
 * when it is the one the receiver waits for, and wakes a receiver asleep
 * in SB (wake.c).
 *
 * Peer pages are opened lazily, once per rank: a rank whose page cannot be
 * opened (another host, or no shim there) is remembered as such, so the
 * cost of a send to it is one array load.  A peer's page is mapped only
 * when it is a regular file of our own user with one link and exactly the
 * page's size (pages.h), and then only when its header names the rank.  The cache is lock-free because
 * several threads may send at once.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cosched/pages.h"
#include "shim.h"

/* The cache entry of a rank whose page cannot be had. */
static struct cosched_shm peer_unavailable;
static _Atomic(struct cosched_shm *) *peers;

/* The path of rank's page in the step's directory: 0, or -1. */
static int page_path(char *buf, size_t len, int rank)
{
	char name[16];
	int n;

	if (cosched_page_name(rank, name, sizeof(name)))
		return -1;
	n = snprintf(buf, len, "%s/%s", shim.cfg.page_dir, name);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* Map the page at path, NULL unless it passes the checks of pages.h. */
static struct cosched_shm *page_map(const char *path, int access, int prot)
{
	void *p;
	int fd = cosched_page_open(AT_FDCWD, path, access, geteuid());

	if (fd < 0)
		return NULL;
	p = mmap(NULL, sizeof(struct cosched_shm), prot, MAP_SHARED, fd, 0);
	close(fd);
	return p == MAP_FAILED ? NULL : p;
}

static bool page_valid(const struct cosched_shm *page, int rank)
{
	return page->magic == COSCHED_SHM_MAGIC &&
	       page->version == COSCHED_SHM_VERSION &&
	       page->size == sizeof(*page) && page->rank == rank &&
	       page->job_id == shim.cfg.job_id &&
	       page->step_id == shim.cfg.step_id;
}

/*
 * A page left by a process of this step and rank that died without
 * cleaning up (SIGKILL, a requeued step) may be replaced; a live one not.
 * Whatever else has the name (not a page of ours) is junk in our own
 * directory and goes too.
 */
static bool page_is_stale(const char *path)
{
	struct cosched_shm *old = page_map(path, O_RDONLY, PROT_READ);
	bool stale = true;

	if (!old)
		return true;
	if (old->magic == COSCHED_SHM_MAGIC && old->pid > 0 &&
	    (kill(old->pid, 0) == 0 || errno != ESRCH))
		stale = false;
	munmap(old, sizeof(*old));
	return stale;
}

static int page_open_new(const char *path)
{
	const int flags = O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
	int fd = open(path, flags, 0600);

	if (fd < 0 && errno == EEXIST && page_is_stale(path)) {
		unlink(path);
		fd = open(path, flags, 0600);
	}
	return fd;
}

static void page_fill(struct cosched_shm *page)
{
	page->version = COSCHED_SHM_VERSION;
	page->size = sizeof(*page);
	page->pid = getpid();
	page->rank = shim.world_rank;
	page->job_id = shim.cfg.job_id;
	page->step_id = shim.cfg.step_id;
	page->wait_kind = shim.cfg.wait;
	page->start_ns = shim_now_ns();
	atomic_store(&page->wait_src, COSCHED_SHM_ANY);
	atomic_store(&page->wait_tag, COSCHED_SHM_ANY);
	/* readers trust nothing before the magic: publish it last */
	atomic_thread_fence(memory_order_release);
	page->magic = COSCHED_SHM_MAGIC;
}

int shim_page_create(void)
{
	void *p;
	int fd;

	if (page_path(shim.page_path, sizeof(shim.page_path),
		      shim.world_rank)) {
		errno = ENAMETOOLONG;
		goto fail;
	}
	fd = page_open_new(shim.page_path);
	if (fd < 0)
		goto fail;
	if (ftruncate(fd, sizeof(struct cosched_shm)))
		goto fail_unlink;
	p = mmap(NULL, sizeof(struct cosched_shm), PROT_READ | PROT_WRITE,
		 MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		goto fail_unlink;
	close(fd);
	shim.page = p;
	page_fill(shim.page);
	return 0;

fail_unlink:
	unlink(shim.page_path);
	close(fd);
fail:
	shim_warn("cannot create shared page %s: %s; coscheduling off",
		  shim.page_path, strerror(errno));
	return -1;
}

/* Written once, after the measurement; advisory like the rest. */
void shim_page_fill_spin(uint64_t latency_ns, uint64_t spin_ns)
{
	shim.page->latency_ns = latency_ns;
	shim.page->spin_ns = spin_ns;
	atomic_thread_fence(memory_order_release);
}

/* Only the creator removes the name: not a child it forked. */
void shim_page_unlink(void)
{
	if (shim.page && shim.page->pid == getpid())
		unlink(shim.page_path);
}

void shim_page_destroy(void)
{
	if (!shim.page)
		return;
	shim_page_unlink();
	munmap(shim.page, sizeof(*shim.page));
	shim.page = NULL;
}

int shim_peers_init(void)
{
	peers = calloc((size_t)shim.world_size, sizeof(*peers));
	if (!peers)
		return -1;
	atomic_store(&peers[shim.world_rank], shim.page);
	return 0;
}

void shim_peers_release(void)
{
	if (!peers)
		return;
	for (int r = 0; r < shim.world_size; r++) {
		struct cosched_shm *p = atomic_load(&peers[r]);

		if (p && p != &peer_unavailable && p != shim.page)
			munmap(p, sizeof(*p));
	}
	free(peers);
	peers = NULL;
}

/* First send to (or receive from) a rank: find its page, once. */
SHIM_FIRST_USE
static struct cosched_shm *map_peer_page(int rank)
{
	char path[PATH_MAX];
	struct cosched_shm *page = NULL, *expected = NULL;

	if (!page_path(path, sizeof(path), rank))
		page = page_map(path, O_RDWR, PROT_READ | PROT_WRITE);
	if (page && !page_valid(page, rank)) {
		munmap(page, sizeof(*page));
		page = NULL;
	}
	if (!page)
		page = &peer_unavailable;
	if (!atomic_compare_exchange_strong(&peers[rank], &expected, page)) {
		/* another thread got there first: keep its answer */
		if (page != &peer_unavailable)
			munmap(page, sizeof(*page));
		page = expected;
	}
	return page;
}

struct cosched_shm *shim_peer_page(int world_rank)
{
	struct cosched_shm *page;

	if (world_rank < 0 || world_rank >= shim.world_size || !peers)
		return NULL;
	page = atomic_load_explicit(&peers[world_rank], memory_order_acquire);
	if (!page)
		page = map_peer_page(world_rank);
	return page == &peer_unavailable ? NULL : page;
}

static bool peer_awaits(struct cosched_shm *peer, int tag)
{
	int32_t src, wtag;

	if (!atomic_load_explicit(&peer->in_recv, memory_order_acquire))
		return false;
	src = atomic_load_explicit(&peer->wait_src, memory_order_relaxed);
	wtag = atomic_load_explicit(&peer->wait_tag, memory_order_relaxed);
	return (src == COSCHED_SHM_ANY || src == shim.world_rank) &&
	       (wtag == COSCHED_SHM_ANY || wtag == tag);
}

/*
 * Called once the message is handed to MPI (its data or header is in the
 * receiver's queue).  arrive_seq goes up after the counters so that a
 * reader seeing it move sees them; the sequentially consistent pair
 * (arrive_seq up, then blocked read here; blocked set, then a last poll
 * in the receiver) guarantees a sleeper is woken or does not sleep.  The
 * syscall that wakes it is made only when it sleeps.
 */
void shim_notify_arrival(int world_dest, int tag)
{
	struct cosched_shm *peer = shim_peer_page(world_dest);
	uint32_t blocked;

	if (!peer)
		return;
	/* several senders: atomic adds */
	atomic_fetch_add_explicit(&peer->msgs_arrived, 1, memory_order_relaxed);
	atomic_store_explicit(&peer->arrived_ns, shim_now_ns(),
			      memory_order_relaxed);
	if (peer_awaits(peer, tag))
		shim_set_flag(&peer->awaited_arrived, 1);
	atomic_fetch_add(&peer->arrive_seq, 1);
	blocked = atomic_load(&peer->blocked);
	if (blocked)
		shim_wake_notify(peer, world_dest, blocked);
}
