# agent/bw.mk - the bandwidth sources and capacity probes of the node
# agent's MemBUS mode (agent/bw*.c: perf, resctrl, sock_diag, STREAM-like
# and loopback probes) and their unit test.  Included from
# agent/module.mk, which links AGENT_BW_SRCS into coschedd with
# AGENT_BW_LDLIBS.
#
# SPDX-License-Identifier: GPL-2.0-or-later

AGENT_BW_SRCS := agent/bw.c agent/bw_util.c agent/bw_perf.c agent/bw_resctrl.c agent/bw_tcp.c \
	agent/bw_probe.c
AGENT_BW_LDLIBS := -pthread

# The test includes "bw.h" from agent/ (boost.mk says so too; twice does
# no harm, and this file does not depend on being included after it).
CFLAGS_testsuite/unit/agent += -Iagent

# Forks a memory-walking child (perf and resctrl, where they exist),
# moves bytes over loopback TCP and runs both probes briefly: ~1 s.
# (bw.c finds a process's sockets with proc.c.)
$(eval $(call unit_test,agent/test_bw,testsuite/unit/agent/test_bw.c $(AGENT_BW_SRCS) agent/proc.c,$(LIBNUM),$(AGENT_BW_LDLIBS)))
