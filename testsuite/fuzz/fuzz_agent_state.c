/*
 * fuzz_agent_state.c - the agent's state file (agent/state.c), read by a
 * restarted agent and by its guardian to put processes back as they were.
 * It lives in the agent's run directory (root's); the fuzzing is for a
 * file left corrupt by a crash, a full disk or a bug, which must never
 * crash the reader: the guardian is what restores a node.
 *
 * The input is the file (a scratch file, fuzz.h).  Promises checked:
 * the count returned is the number of entries passed on, -1 only for a
 * file that is not a state file, and every entry passed on is within the
 * ranges the writer uses (pid > 1, nice -20..19, a known mode and PB
 * rule, NUL-terminated strings, a normal scheduling policy at priority
 * 0: a state file never makes a restore hand out a real-time one).  Entries are only counted here: nothing
 * is restored or thawed.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fuzz.h"

#include "boost/boost_rt.h"
#include "state.h"
#include "cosched/mode.h"

static int _check_entry(const struct state_entry *e, void *arg)
{
	int *seen = arg;

	FUZZ_CHECK(e->id.pid >= 2);
	FUZZ_CHECK(e->rank >= 0);
	FUZZ_CHECK(cosched_mode_name(e->mode) != NULL);
	FUZZ_CHECK(strcmp(cosched_pb_name(&e->pb), "?"));
	FUZZ_CHECK(e->saved.nice >= -20 && e->saved.nice <= 19);
	FUZZ_CHECK(boost_kind_name(e->saved.kind) != NULL);
	FUZZ_CHECK(boost_rt_saved_ok(&e->saved));
	FUZZ_CHECK(strnlen(e->freeze, sizeof(e->freeze)) < sizeof(e->freeze));
	FUZZ_CHECK(strnlen(e->freezer, sizeof(e->freezer)) < sizeof(e->freezer));
	FUZZ_CHECK(strnlen(e->saved.cpu_cgroup, sizeof(e->saved.cpu_cgroup)) <
		   sizeof(e->saved.cpu_cgroup));
	FUZZ_CHECK(strnlen(e->saved.our_cgroup, sizeof(e->saved.our_cgroup)) <
		   sizeof(e->saved.our_cgroup));
	(*seen)++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int seen = 0, n = state_for_each(fuzz_file(data, size),
					 _check_entry, &seen);

	FUZZ_CHECK(n == -1 ? seen == 0 : n == seen);
	return 0;
}
