/*
 * kids.c - see kids.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kids.h"

#define MAX_KIDS 32

static pid_t _kids[MAX_KIDS];
static int _nkids;
static unsigned _lifetime;	/* s; 0: none */
static pid_t _guardian = -1;
static int _guardian_to = -1, _guardian_from = -1;

void kids_sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000,
			       .tv_nsec = (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* ------------------------------------------------------------ children */

void kids_set_lifetime(unsigned seconds)
{
	_lifetime = seconds;
}

void kids_die_with(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	if (_lifetime)
		alarm(_lifetime);
}

void kids_ready_note(int fd, int note)
{
	if (write(fd, &note, sizeof(note)) != sizeof(note))
		_exit(1);
	close(fd);
}

void kids_ready(int fd)
{
	kids_ready_note(fd, getpid());
}

/* A free place in _kids (one reaped, or a new one), or -1. */
static int _free_slot(void)
{
	for (int i = 0; i < _nkids; i++)
		if (!_kids[i])
			return i;
	return _nkids < MAX_KIDS ? _nkids++ : -1;
}

pid_t kids_spawn(void (*body)(int fd), int *note)
{
	pid_t parent = getpid(), pid;
	int fds[2], value = -1, slot = _free_slot();

	if (note)
		*note = -1;
	if (slot < 0 || pipe(fds))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		kids_die_with(parent);
		/* Only the test may hold the guardian's pipes (EOF ends it). */
		if (_guardian_to >= 0)
			close(_guardian_to);
		if (_guardian_from >= 0)
			close(_guardian_from);
		close(fds[0]);
		body(fds[1]);
		_exit(0);
	}
	close(fds[1]);
	if (pid > 0) {
		_kids[slot] = pid;
		if (read(fds[0], &value, sizeof(value)) != sizeof(value)) {
			kids_reap(pid);
			pid = -1;
		}
	}
	close(fds[0]);
	if (note && pid > 0)
		*note = value;
	return pid;
}

void kids_kill(pid_t pid)
{
	if (pid > 0)
		kill(pid, SIGKILL);
}

void kids_reap(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	for (int i = 0; i < _nkids; i++)
		if (_kids[i] == pid)
			_kids[i] = 0;
}

void kids_reap_all(void)
{
	for (int i = 0; i < _nkids; i++)
		kids_reap(_kids[i]);
	_nkids = 0;
}

void kids_body_sleep(int fd)
{
	kids_ready(fd);
	for (;;)
		pause();
}

pid_t kids_dead_pid(void)
{
	pid_t pid = kids_spawn(kids_body_sleep, NULL);

	kids_reap(pid);
	return pid;
}

void kids_spin(void)
{
	volatile unsigned long n = 0;

	for (;;)
		n++;
}

void *kids_thread_spin(void *arg)
{
	(void)arg;
	kids_spin();
}

void *kids_thread_sleep(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

/* ------------------------------------------------------------ guardian */

struct restore_req {
	struct proc_id id;
	struct boost_saved saved;
};

static void _guardian_loop(kids_restore_fn restore, int in, int out)
{
	struct restore_req req;

	while (read(in, &req, sizeof(req)) == sizeof(req)) {
		int rc = restore(&req.id, &req.saved);

		if (write(out, &rc, sizeof(rc)) != sizeof(rc))
			break;
	}
	_exit(0);
}

void kids_guardian_start(kids_restore_fn restore)
{
	pid_t parent = getpid();
	int to[2], from[2];

	if (pipe(to) || pipe(from))
		return;
	fflush(stdout);
	_guardian = fork();
	if (_guardian == 0) {
		kids_die_with(parent);
		alarm(0);	/* it ends with the test, not before */
		close(to[1]);
		close(from[0]);
		_guardian_loop(restore, to[0], from[1]);
	}
	close(to[0]);
	close(from[1]);
	_guardian_to = to[1];
	_guardian_from = from[0];
}

int kids_guardian_restore(const struct proc_id *id,
			  const struct boost_saved *saved)
{
	struct restore_req req;
	int rc = -99;

	/* By member into a zeroed request: the padding of the caller's id
	 * is never written to the pipe (valgrind would say uninitialised). */
	memset(&req, 0, sizeof(req));
	req.id.pid = id->pid;
	req.id.start_ticks = id->start_ticks;
	req.saved = *saved;
	if (write(_guardian_to, &req, sizeof(req)) != sizeof(req) ||
	    read(_guardian_from, &rc, sizeof(rc)) != sizeof(rc))
		return -99;
	return rc;
}

void kids_guardian_stop(void)
{
	pid_t done = 0;

	if (_guardian_to >= 0)
		close(_guardian_to);
	if (_guardian_from >= 0)
		close(_guardian_from);
	_guardian_to = _guardian_from = -1;
	if (_guardian <= 0)
		return;
	/* It exits on EOF; a test must not hang if it cannot. */
	for (int i = 0; i < 2500 && !done; i++) {
		done = waitpid(_guardian, NULL, WNOHANG);
		if (!done)
			kids_sleep_ms(2);
	}
	if (!done) {
		kill(_guardian, SIGKILL);
		waitpid(_guardian, NULL, 0);
	}
	_guardian = -1;
}

/* ------------------------------------------------------------ readings */

unsigned long long kids_cpu_ns(pid_t pid)
{
	char path[64];
	unsigned long long ns = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%llu", &ns) != 1)
			ns = 0;
		fclose(f);
	}
	return ns;
}

int kids_last_cpu(void)
{
	cpu_set_t set;
	int last = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			last = c;
	return last;
}
