/*
 * worker.c - the plugin's three threads in slurmctld (timeslice.c,
 * gang_tables.c, status.c) are one pattern: started once, woken early by
 * a kick from whoever changed what they act on, asked to stop and joined.
 * Each keeps only its own loop; this file keeps the rest.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <pthread.h>
#include <sys/prctl.h>

#include "select_coalloc.h"
#include "slurm_compat.h"

/* The thread named on every release (ps -L, /proc/PID/task/TID/comm), so
 * that its CPU can be told apart in slurmctld (contribs/gang-bench). */
static void *_named(void *arg)
{
	struct coalloc_worker *w = arg;

	(void)prctl(PR_SET_NAME, w->name, 0, 0, 0);
	return w->main(w);
}

void coalloc_worker_start(struct coalloc_worker *w)
{
	slurm_mutex_lock(&w->mutex);
	if (!w->running) {
		w->stopping = false;
		w->kicked = false;
		coalloc_thread_create(w->name, &w->thread, _named, w);
		w->running = true;
	}
	slurm_mutex_unlock(&w->mutex);
}

void coalloc_worker_stop(struct coalloc_worker *w)
{
	slurm_mutex_lock(&w->mutex);
	if (!w->running) {
		slurm_mutex_unlock(&w->mutex);
		return;
	}
	w->stopping = true;
	slurm_cond_broadcast(&w->cond);
	slurm_mutex_unlock(&w->mutex);
	pthread_join(w->thread, NULL);
	slurm_mutex_lock(&w->mutex);
	w->running = false;
	slurm_mutex_unlock(&w->mutex);
}

bool coalloc_worker_running(struct coalloc_worker *w)
{
	bool running;

	slurm_mutex_lock(&w->mutex);
	running = w->running;
	slurm_mutex_unlock(&w->mutex);
	return running;
}

/* Called with other locks held or not: only the worker's is taken. */
void coalloc_worker_kick(struct coalloc_worker *w)
{
	slurm_mutex_lock(&w->mutex);
	w->kicked = true;
	slurm_cond_signal(&w->cond);
	slurm_mutex_unlock(&w->mutex);
}

bool coalloc_worker_wait(struct coalloc_worker *w,
			 const struct timespec *until)
{
	if (!w->kicked && !w->stopping)
		pthread_cond_timedwait(&w->cond, &w->mutex, until);
	return !w->stopping;
}

struct timespec coalloc_worker_in_ms(unsigned ms)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_sec += ms / 1000;
	t.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	return t;
}

bool coalloc_worker_take_kick(struct coalloc_worker *w)
{
	bool kicked = w->kicked;

	w->kicked = false;
	return kicked;
}
