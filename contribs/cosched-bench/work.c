/*
 * work.c - calibrated spin and blocking I/O of cosched-bench (work.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "work.h"

#define CAL_CHUNK_CPU_S 0.01	/* a calibration chunk: 10 ms of CPU */
#define CAL_ROUNDS 5

double work_clock(int clock_id)
{
	struct timespec ts;

	clock_gettime((clockid_t)clock_id, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void work_spin(uint64_t loops)
{
	uint64_t x = 0x2545f4914f6cdd1dULL;
	uint64_t i;

	for (i = 0; i < loops; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		/* keeps the loop: the compiler must assume x is used */
		__asm__ __volatile__("" : "+r"(x));
	}
}

/* Thread CPU seconds that N loops take. */
static double spin_cpu_seconds(uint64_t n)
{
	double t0 = work_clock(CLOCK_THREAD_CPUTIME_ID);

	work_spin(n);
	return work_clock(CLOCK_THREAD_CPUTIME_ID) - t0;
}

/*
 * The median of a few chunks, timed on the thread's CPU clock so that
 * time the thread spends descheduled does not count.
 */
double work_calibrate_spin(void)
{
	double rate[CAL_ROUNDS];
	uint64_t n = 1 << 14;
	double t;
	int i;

	while ((t = spin_cpu_seconds(n)) < CAL_CHUNK_CPU_S && n < (1ULL << 40))
		n *= 2;
	for (i = 0; i < CAL_ROUNDS; i++) {
		t = spin_cpu_seconds(n);
		rate[i] = t > 0 ? n / (t * 1e6) : 0;
	}
	qsort(rate, CAL_ROUNDS, sizeof(rate[0]), cmp_double);
	return rate[CAL_ROUNDS / 2];
}

uint64_t work_loops(double us, double rate)
{
	double n = us * rate;

	return n > 0 ? (uint64_t)llround(n) : 0;
}

static void sleep_ns(long ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000L,
			       .tv_nsec = ns % 1000000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

void work_io_init(struct work_io *io)
{
	io->owed_us = 0;
	io->blocks = 0;
	io->schedstat_fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	if (io->schedstat_fd >= 0 && work_run_delay_ns(io->schedstat_fd) < 0) {
		close(io->schedstat_fd);
		io->schedstat_fd = -1;
	}
}

void work_io_fini(struct work_io *io)
{
	if (io->schedstat_fd >= 0)
		close(io->schedstat_fd);
	io->schedstat_fd = -1;
}

/* schedstat: "cpu_time_ns run_delay_ns timeslices". */
long long work_run_delay_ns(int fd)
{
	char buf[128];
	unsigned long long cpu, delay;
	ssize_t n;

	if (fd < 0)
		return -1;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu", &cpu, &delay) != 2)
		return -1;
	return (long long)delay;
}

void work_io(struct work_io *io, double us)
{
	long long delay0, delay1;
	double t0, served_us;

	io->owed_us += us;
	if (io->owed_us <= 0)
		return;
	delay0 = work_run_delay_ns(io->schedstat_fd);
	t0 = work_clock(CLOCK_MONOTONIC);
	sleep_ns(io->owed_us >= 0.001 ? (long)(io->owed_us * 1000) : 1);
	served_us = (work_clock(CLOCK_MONOTONIC) - t0) * 1e6;
	delay1 = work_run_delay_ns(io->schedstat_fd);
	if (delay0 >= 0 && delay1 >= delay0)
		served_us -= (delay1 - delay0) / 1e3;
	io->owed_us -= served_us > 0 ? served_us : 0;
	io->blocks++;
}
