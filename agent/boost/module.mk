# agent/boost - how the node agent boosts a process and puts it back:
# nice, cgroup v1 cpu.shares and v2 cpu.weight (on agent/host/cgroup.c), and
# the rt mechanism with its budget (boost_rt.c); and their unit tests.
# Included from agent/module.mk, into libcoschedd.a.
#
# SPDX-License-Identifier: GPL-2.0-or-later

LIBCOSCHEDD_SRCS += agent/boost/boost.c agent/boost/boost_rt.c
CFLAGS_agent/boost := $(AGENT_CFLAGS)

# Their children (forked, reaped, the restore guardian) and what they
# read back (CPU time, the CPU to pin to): testsuite/unit/agent/kids.c.
AGENT_KIDS := testsuite/unit/agent/kids.c

# Both tests fork children and start threads; test_boost moves them
# between cgroups (skipped where the cpu hierarchy is not writable).
$(eval $(call agent_test,test_proc,testsuite/unit/agent/test_proc.c $(AGENT_KIDS)))
$(eval $(call agent_test,test_boost,testsuite/unit/agent/test_boost.c $(AGENT_KIDS)))
# The rt mechanism: save and restore of policies, refusals (a private
# mount namespace, an unprivileged child) and the RT-throttling safety
# test (an RT spinner and an ordinary one pinned to one CPU, 2 s; root).
$(eval $(call agent_test,test_boost_rt,testsuite/unit/agent/test_boost_rt.c $(AGENT_KIDS)))
