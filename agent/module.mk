# agent - the node agent of dynamic coscheduling: coschedd (one per Slurm
# node, started on demand by the cosched SPANK plugin or by a service
# manager) and coschedctl (status).  See coschedd(8), coschedctl(1).
#
# SPDX-License-Identifier: GPL-2.0-or-later

CFLAGS_agent := $(JSONC_CFLAGS)

COSCHEDD := $(O)/sbin/coschedd
COSCHEDD_SRCS := $(addprefix agent/,coschedd.c log.c conf.c server.c jobs.c \
	state.c sched.c status.c guardian.c proc.c boost.c boost_rt.c membus.c \
	membus_coord.c membus_status.c mbmsg.c bw.c bw_util.c bw_perf.c \
	bw_resctrl.c bw_tcp.c bw_probe.c freeze.c freeze_util.c \
	freeze_signal.c freeze_cgroup.c cgroup.c arrivals.c closer.c gang.c switch.c \
	metrics.c)
# The libraries by path: their module.mk files may come later.
COSCHEDD_LIBS := $(LIBCOSCHED_PROTO) $(O)/lib/libcosched.a $(O)/lib/libmembus.a \
	$(LIBNUM)
$(eval $(call program,$(COSCHEDD),$(COSCHEDD_SRCS),$(COSCHEDD_LIBS) $(O)/lib/libopenmetrics.a $(LIBVERSION),-lcgroup -lmunge -pthread $(JSONC_LIBS) -lm))
TARGETS += $(COSCHEDD)
INSTALL_SBINS += $(COSCHEDD)

COSCHEDCTL := $(O)/bin/coschedctl
$(eval $(call program,$(COSCHEDCTL),agent/coschedctl.c,$(LIBCOSCHED_PROTO) $(LIBCOSCHED_PROTO_DEPS) $(LIBVERSION),))
TARGETS += $(COSCHEDCTL)
INSTALL_BINS += $(COSCHEDCTL)

-include agent/boost.mk
-include agent/bw.mk
-include agent/freeze.mk
INSTALL_MAN += doc/man/coschedd.8 doc/man/coschedctl.1

# The tests that run the coschedd built here (they need root) share
# testsuite/unit/agent/agent_harness.c: finding, starting and asking it.
AGENT_HARNESS := testsuite/unit/agent/agent_harness.c
AGENT_HARNESS_LIBS := $(LIBCOSCHED_PROTO) $(LIBCOSCHED_PROTO_DEPS)

# The agent as a program.
$(eval $(call unit_test,agent/test_coschedd,testsuite/unit/agent/test_coschedd.c $(AGENT_HARNESS),$(AGENT_HARNESS_LIBS),))
$(O)/tests/agent/test_coschedd.t: | $(COSCHEDD)

# The state file under faults: a full run directory (a tmpfs of its own
# in a private mount namespace), a corrupt file, what signals stopped
# (needs root; it runs the coschedd built here).
$(eval $(call unit_test,agent/test_state,testsuite/unit/agent/test_state.c $(AGENT_HARNESS) agent/proc.c,$(AGENT_HARNESS_LIBS),))
$(O)/tests/agent/test_state.t: | $(COSCHEDD)

# Forged and replayed registrations, a reused pid (needs root; runs the
# coschedd built here in a PID namespace of its own).
$(eval $(call unit_test,agent/test_register,testsuite/unit/agent/test_register.c $(AGENT_HARNESS) agent/proc.c,$(AGENT_HARNESS_LIBS),$(JSONC_LIBS)))
$(O)/tests/agent/test_register.t: | $(COSCHEDD)

# The guardian outlives a Slurm-shaped step group and is replaced when it
# dies (needs root and cgroup v1 freezer, pids and cpu; runs coschedd).
$(eval $(call unit_test,agent/test_guardian,testsuite/unit/agent/test_guardian.c $(AGENT_HARNESS),$(AGENT_HARNESS_LIBS),))
$(O)/tests/agent/test_guardian.t: | $(COSCHEDD)
# boost=rt on every restore path (SIGSTOP, SIGKILL, restart, end,
# SIGTERM) and the node's safety under it (needs root and RT throttling;
# runs the coschedd built here).
# (kids.c, of agent/boost.mk, for the CPU readings test_boost_rt takes.)
$(eval $(call unit_test,agent/test_rt_agent,testsuite/unit/agent/test_rt_agent.c $(AGENT_HARNESS) $(AGENT_KIDS),$(AGENT_HARNESS_LIBS),))
$(O)/tests/agent/test_rt_agent.t: | $(COSCHEDD)
# The shim's pages as the agent meets them: FIFO, truncation, other users
# (needs root; it runs the coschedd built here).
$(eval $(call unit_test,agent/test_pages,testsuite/unit/agent/test_pages.c $(AGENT_HARNESS),$(AGENT_HARNESS_LIBS),$(JSONC_LIBS)))
$(O)/tests/agent/test_pages.t: | $(COSCHEDD)
# Where the agent logs: syslog, stderr, a file (needs root; runs the
# coschedd built here in a private mount namespace with its own /dev/log).
$(eval $(call unit_test,agent/test_syslog,testsuite/unit/agent/test_syslog.c $(AGENT_HARNESS),$(AGENT_HARNESS_LIBS),$(JSONC_LIBS)))
$(O)/tests/agent/test_syslog.t: | $(COSCHEDD)
CFLAGS_testsuite/unit/agent += $(JSONC_CFLAGS)

# Arrivals from other hosts: TCP connections of registered children
# watched by epoll, counted, never kept open (needs root; runs coschedd).
$(eval $(call unit_test,agent/test_arrivals,testsuite/unit/agent/test_arrivals.c $(AGENT_HARNESS),$(AGENT_HARNESS_LIBS),$(JSONC_LIBS)))
$(O)/tests/agent/test_arrivals.t: | $(COSCHEDD)

# The same under attack from a job's owner with a FUSE mount of its own
# (stallfs, a file system that leaves its requests unanswered, mounted
# through fusermount3 as an ordinary user): the agent keeps answering and
# one user's stuck close holds no other user's (needs root; runs coschedd).
FUSE3_CFLAGS := $(shell pkg-config --cflags fuse3 2>/dev/null)
FUSE3_LIBS := $(shell pkg-config --libs fuse3 2>/dev/null || echo -lfuse3)
$(O)/testsuite/unit/agent/stallfs.o: ALL_CFLAGS += $(FUSE3_CFLAGS)
$(eval $(call program,$(O)/tests/agent/stallfs,testsuite/unit/agent/stallfs.c,,$(FUSE3_LIBS)))
$(eval $(call unit_test,agent/test_arrivals_fuse,testsuite/unit/agent/test_arrivals_fuse.c $(AGENT_HARNESS),$(AGENT_HARNESS_LIBS),$(JSONC_LIBS)))
$(O)/tests/agent/test_arrivals_fuse.t: | $(COSCHEDD) $(O)/tests/agent/stallfs
# The same user with its FUSE mount over its step's page directory or a
# page: the agent never walks into it (needs root; runs coschedd).
$(eval $(call unit_test,agent/test_pages_fuse,testsuite/unit/agent/test_pages_fuse.c $(AGENT_HARNESS),$(AGENT_HARNESS_LIBS),$(JSONC_LIBS)))
$(O)/tests/agent/test_pages_fuse.t: | $(COSCHEDD) $(O)/tests/agent/stallfs

# Out of descriptors (a small RLIMIT_NOFILE and idle clients), the agent
# rests its listener instead of spinning (needs root; runs coschedd).
$(eval $(call unit_test,agent/test_emfile,testsuite/unit/agent/test_emfile.c $(AGENT_HARNESS),$(AGENT_HARNESS_LIBS),))
$(O)/tests/agent/test_emfile.t: | $(COSCHEDD)

# The MemBUS messages' parser and formatter, alone: for the unit test and
# a fuzz harness.  Link $(MBMSG_LIBS) $(MBMSG_LDLIBS) and call
# mbmsg_roundtrip(data, len) (mbmsg.h: < 0 is a bug); a harness that
# compiles its own objects (-fsanitize=fuzzer) takes MBMSG_SRCS plus the
# sources of libcosched_proto and what it needs (cosched_node_name_ok).
MBMSG_SRCS := agent/mbmsg.c
LIBMBMSG := $(O)/lib/libmbmsg.a
MBMSG_LIBS := $(LIBMBMSG) $(LIBCOSCHED_PROTO) $(LIBCOSCHED_PROTO_DEPS)
MBMSG_LDLIBS := $(JSONC_LIBS)
$(eval $(call static_lib,$(LIBMBMSG),$(MBMSG_SRCS)))
$(eval $(call unit_test,agent/test_mbmsg,testsuite/unit/agent/test_mbmsg.c,$(MBMSG_LIBS),$(MBMSG_LDLIBS)))

# MemBUS peer addresses and refusals (a private munged when root).
$(eval $(call unit_test,agent/test_peer,testsuite/unit/agent/test_peer.c testsuite/unit/agent/fixture.c lib/cosched_proto/peer.c,,-lmunge))

# MemBUS messages that reach a real coschedd (root, a private munged).
$(eval $(call unit_test,agent/test_membus_peers,testsuite/unit/agent/test_membus_peers.c testsuite/unit/agent/agent_harness.c testsuite/unit/agent/fixture.c testsuite/unit/agent/peer_fixture.c lib/cosched_proto/peer.c,$(MBMSG_LIBS),-lmunge $(MBMSG_LDLIBS)))
$(O)/tests/agent/test_membus_peers.t: | $(COSCHEDD)

# Gang rows switched by a real coschedd, this test as slurmctld (root, a
# private munged).
$(eval $(call unit_test,agent/test_gang_agent,testsuite/unit/agent/test_gang_agent.c testsuite/unit/agent/agent_harness.c testsuite/unit/agent/fixture.c testsuite/unit/agent/peer_fixture.c lib/cosched_proto/peer.c,$(LIBCOSCHED_PROTO) $(LIBCOSCHED_PROTO_DEPS),-lmunge $(JSONC_LIBS)))
$(O)/tests/agent/test_gang_agent.t: | $(COSCHEDD)
