# agent/membus - the node agent's MemBUS mode (Koukis and Koziris): the
# quanta and the steps' freezing (membus.c), the coordinator's election
# and takeover (membus_coord.c), its status (membus_status.c), and the
# messages between agents (mbmsg.c, a leaf parser and formatter: its unit
# test and the fuzz harness take it alone, as MBMSG_SRCS).  Included from
# agent/module.mk, into libcoschedd.a.
#
# SPDX-License-Identifier: GPL-2.0-or-later

MBMSG_SRCS := agent/membus/mbmsg.c
LIBCOSCHEDD_SRCS += $(addprefix agent/membus/,membus.c membus_coord.c \
	membus_status.c) $(MBMSG_SRCS)
CFLAGS_agent/membus := $(AGENT_CFLAGS)

# mbmsg_roundtrip(data, len) (mbmsg.h: < 0 is a bug) for the unit test;
# fuzz_mbmsg compiles MBMSG_SRCS with libcosched_proto's sources.
MBMSG_LDLIBS := $(JSONC_LIBS)
$(eval $(call agent_test,test_mbmsg,testsuite/unit/agent/test_mbmsg.c))
