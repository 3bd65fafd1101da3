/*
 * page.c - the shared pages: this process's own (created in MPI_Init,
 * unlinked in MPI_Finalize or at exit) and those of the same-host
 * receivers it sends to, where it plays the NIC of the ULN model: it
 * counts the message as arrived, raises awaited_arrived when it is the one
 * the receiver waits for, and wakes a receiver asleep in SB.
 *
 * Peer pages are opened lazily, once per rank: a rank whose page cannot be
 * opened (another host, or no shim there) is remembered as such, so the
 * cost of a send to it is one array load.  The cache is lock-free because
 * several threads may send at once.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "shim.h"

/* The cache entry of a rank whose page cannot be had. */
static struct cosched_shm peer_unavailable;
static _Atomic(struct cosched_shm *) *peers;

static void page_name(char *buf, uint32_t job, uint32_t step, int rank)
{
	snprintf(buf, SHIM_PAGE_NAME_LEN, COSCHED_SHM_PREFIX "%u.%u.%d", job,
		 step, rank);
}

/* Map a page by name, NULL unless it has at least the size we know. */
static struct cosched_shm *page_map(const char *name, int oflag, int prot)
{
	struct cosched_shm *page = NULL;
	struct stat st;
	void *p;
	int fd = shm_open(name, oflag, 0);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || st.st_size < (off_t)sizeof(*page))
		goto out;
	p = mmap(NULL, sizeof(*page), prot, MAP_SHARED, fd, 0);
	if (p != MAP_FAILED)
		page = p;
out:
	close(fd);
	return page;
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
 */
static bool page_is_stale(const char *name)
{
	struct cosched_shm *old = page_map(name, O_RDONLY, PROT_READ);
	bool stale = true;

	if (!old)
		return true;
	if (old->magic == COSCHED_SHM_MAGIC && old->pid > 0 &&
	    (kill(old->pid, 0) == 0 || errno != ESRCH))
		stale = false;
	munmap(old, sizeof(*old));
	return stale;
}

static int page_open_new(const char *name)
{
	int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);

	if (fd < 0 && errno == EEXIST && page_is_stale(name)) {
		shm_unlink(name);
		fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
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

	page_name(shim.page_name, shim.cfg.job_id, shim.cfg.step_id,
		  shim.world_rank);
	fd = page_open_new(shim.page_name);
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
	shm_unlink(shim.page_name);
	close(fd);
fail:
	shim_warn("cannot create shared page %s: %s; coscheduling off",
		  shim.page_name, strerror(errno));
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
		shm_unlink(shim.page_name);
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
static struct cosched_shm *peer_open(int rank)
{
	char name[SHIM_PAGE_NAME_LEN];
	struct cosched_shm *page, *expected = NULL;

	page_name(name, shim.cfg.job_id, shim.cfg.step_id, rank);
	page = page_map(name, O_RDWR, PROT_READ | PROT_WRITE);
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
		page = peer_open(world_rank);
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
 * (arrive_seq up, then blocked read here; blocked set, then arrive_seq
 * read in the receiver) guarantees a sleeper is woken or does not sleep.
 */
void shim_notify_arrival(int world_dest, int tag)
{
	struct cosched_shm *peer = shim_peer_page(world_dest);

	if (!peer)
		return;
	/* several senders: atomic adds */
	atomic_fetch_add_explicit(&peer->msgs_arrived, 1, memory_order_relaxed);
	atomic_store_explicit(&peer->arrived_ns, shim_now_ns(),
			      memory_order_relaxed);
	if (peer_awaits(peer, tag))
		shim_set_flag(&peer->awaited_arrived, 1);
	atomic_fetch_add(&peer->arrive_seq, 1);
	if (atomic_load(&peer->blocked))
		syscall(SYS_futex, (uint32_t *)&peer->arrive_seq, FUTEX_WAKE,
			INT_MAX, NULL, NULL, 0);
}
