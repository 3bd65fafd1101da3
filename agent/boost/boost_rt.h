/*
 * boost_rt.h - the kernel side of the rt boost mechanism (boost_rt.c):
 * checks, saving a process's policy, and putting every thread of it at
 * SCHED_RR or back.  boost.c builds the mechanism on these (the nice of
 * a demotion and of children comes from its nice code).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef COSCHEDD_BOOST_RT_H
#define COSCHEDD_BOOST_RT_H

#include <stdbool.h>
#include <stddef.h>

#include "boost.h"
#include "host/proc.h"

/* The kernel's RT throttling: sched_rt_runtime_us (-1: off) and
 * sched_rt_period_us.  0, or -1 when they cannot be read. */
int boost_rt_throttle(long long *runtime_us, long long *period_us);

/*
 * Whether rt can be used: the throttling is on, RT_RUNTIME_SHARE is off
 * (boost_rt_share_check on boost_rt_features_files) and this thread may
 * set SCHED_RR (tried on itself, then put back).  0, or -1 with a
 * message naming the setting.
 */
int boost_rt_check(char *err, size_t err_len);

/* The debugfs files that list the scheduler features, NULL-terminated. */
extern const char *const boost_rt_features_files[];

/*
 * Whether the kernel lets RT threads borrow runtime (RT_RUNTIME_SHARE),
 * so that the throttling no longer bounds a boosted thread on its CPU.
 * features: the text of the features file, or NULL when unreadable;
 * release: uname's (NULL: unknown).  Readable: refused when it names
 * RT_RUNTIME_SHARE (not NO_RT_RUNTIME_SHARE).  Unreadable: allowed from
 * Linux 5.10 (the feature is off by default there), refused before.
 * 0, or -1 with a message.
 */
int boost_rt_share_verdict(const char *release, const char *features,
			   char *err, size_t err_len);

/* boost_rt_share_verdict on this kernel's release and the first readable
 * of files (NULL-terminated). */
int boost_rt_share_check(const char *const *features_files, char *err,
			 size_t err_len);

/* Record the policy of id's main thread in saved.  -1 with a message
 * when it is gone or any of its threads is real-time already (a boost
 * at BOOST_RT_PRIORITY would lower it). */
int boost_rt_save(const struct proc_id *id, struct boost_saved *saved,
		  char *err, size_t err_len);

/* Whether saved holds a policy restore may give: a normal one
 * (SCHED_OTHER, _BATCH, _IDLE) at priority 0. */
bool boost_rt_saved_ok(const struct boost_saved *saved);

/*
 * Every thread of id: rt, SCHED_RR BOOST_RT_PRIORITY with
 * SCHED_RESET_ON_FORK; else saved's policy, priority and flag, and nice.
 * 0, or -1 (errno) when id is gone or a thread refused.
 */
int boost_rt_apply(const struct proc_id *id, const struct boost_saved *saved,
		   bool rt, int nice);

/* Whether pid's main thread runs SCHED_RR now (the guardian's count). */
bool boost_rt_running_rr(pid_t pid);

#endif /* COSCHEDD_BOOST_RT_H */
