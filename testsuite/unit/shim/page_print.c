/*
 * page_print.c - prints an MPI process's own shared page as the node agent
 * reads it, for the shim's test programs (ping.c in C, fping.F90 in
 * Fortran through print_page_f):
 *   page rank=R key=value ...     or     nopage rank=R
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cosched/shm.h"
#include "page_print.h"

#define U(field) (unsigned long long)atomic_load(&s->field)

void print_page(int rank)
{
	const char *dir = getenv("COSCHED_PAGE_DIR");
	const struct cosched_shm *s = MAP_FAILED;
	char path[4096];
	int fd = -1;

	if (dir) {
		snprintf(path, sizeof(path), "%s/%d", dir, rank);
		fd = open(path, O_RDONLY | O_NOFOLLOW);
	}
	if (fd >= 0)
		s = mmap(NULL, sizeof(*s), PROT_READ, MAP_SHARED, fd, 0);
	if (s == MAP_FAILED || s->magic != COSCHED_SHM_MAGIC) {
		printf("nopage rank=%d\n", rank);
		goto out;
	}
	printf("page rank=%d pid_ok=%d page_rank=%d version=%u size=%u "
	       "wait_kind=%u latency_ns=%llu spin_ns=%llu in_recv=%llu "
	       "in_comm=%llu yielding=%llu blocked=%llu msgs_received=%llu "
	       "msgs_consumed=%llu bytes_received=%llu msgs_sent=%llu "
	       "bytes_sent=%llu spins_satisfied=%llu blocks=%llu yields=%llu "
	       "msgs_arrived=%llu arrive_seq=%llu heartbeat=%d wake_mode=%llu "
	       "wake_socks=%llu wakes_local=%llu wakes_remote=%llu "
	       "wakes_timeout=%llu collectives=%llu\n",
	       rank, s->pid == getpid(), s->rank, s->version, s->size,
	       s->wait_kind, (unsigned long long)s->latency_ns,
	       (unsigned long long)s->spin_ns, U(in_recv), U(in_comm),
	       U(yielding), U(blocked), U(msgs_received), U(msgs_consumed),
	       U(bytes_received), U(msgs_sent), U(bytes_sent),
	       U(spins_satisfied), U(blocks), U(yields), U(msgs_arrived),
	       U(arrive_seq), atomic_load(&s->heartbeat_ns) >= s->start_ns,
	       U(wake_mode), U(wake_socks), U(wakes_local), U(wakes_remote),
	       U(wakes_timeout), U(collectives));
	munmap((void *)s, sizeof(*s));
out:
	if (fd >= 0)
		close(fd);
	fflush(stdout);
}

/* Fortran: call print_page_f(rank), bind(C) in the programs. */
void print_page_f(const int *rank)
{
	print_page(*rank);
}
