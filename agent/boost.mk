# agent/boost.mk - the /proc readers and the boost mechanisms of the node
# agent coschedd (agent/proc.c, agent/boost.c on the cgroup v1 and v2 helpers
# of agent/cgroup.c) and their unit tests.
# Included from agent/module.mk, which links AGENT_BOOST_SRCS into
# coschedd with AGENT_BOOST_LDLIBS.
#
# SPDX-License-Identifier: GPL-2.0-or-later

AGENT_BOOST_SRCS := agent/proc.c agent/boost.c agent/boost_rt.c agent/cgroup.c
AGENT_BOOST_LDLIBS := -lcgroup

# The tests include "proc.h" and "boost.h" from agent/.
CFLAGS_testsuite/unit/agent += -Iagent

# Their children (forked, reaped, the restore guardian) and what they
# read back (CPU time, the CPU to pin to): testsuite/unit/agent/kids.c.
AGENT_KIDS := testsuite/unit/agent/kids.c

# Both tests fork children and start threads; test_boost moves them
# between cgroups (skipped where the cpu hierarchy is not writable).
$(eval $(call unit_test,agent/test_proc,testsuite/unit/agent/test_proc.c $(AGENT_KIDS) agent/proc.c,,-pthread))
$(eval $(call unit_test,agent/test_boost,testsuite/unit/agent/test_boost.c $(AGENT_KIDS) $(AGENT_BOOST_SRCS),$(LIBNUM),$(AGENT_BOOST_LDLIBS) -pthread))
# The rt mechanism: save and restore of policies, refusals (a private
# mount namespace, an unprivileged child) and the RT-throttling safety
# test (an RT spinner and an ordinary one pinned to one CPU, 2 s; root).
$(eval $(call unit_test,agent/test_boost_rt,testsuite/unit/agent/test_boost_rt.c $(AGENT_KIDS) $(AGENT_BOOST_SRCS),$(LIBNUM),$(AGENT_BOOST_LDLIBS) -pthread))
