# agent/bw - the bandwidth sources and capacity probes of the node
# agent's MemBUS mode (perf, resctrl, sock_diag, STREAM-like and loopback
# probes) and their unit test.  Included from agent/module.mk, into
# libcoschedd.a.
#
# SPDX-License-Identifier: GPL-2.0-or-later

LIBCOSCHEDD_SRCS += $(addprefix agent/bw/,bw.c bw_util.c bw_perf.c \
	bw_resctrl.c bw_tcp.c bw_probe.c)
CFLAGS_agent/bw := $(AGENT_CFLAGS)

# Forks a memory-walking child (perf and resctrl, where they exist),
# moves bytes over loopback TCP and runs both probes briefly: ~1 s.
$(eval $(call agent_test,test_bw,testsuite/unit/agent/test_bw.c))
