# agent - the node agent of dynamic coscheduling: coschedd (one per Slurm
# node, started on demand by the cosched SPANK plugin or by a service
# manager) and coschedctl (status).  See coschedd(8), coschedctl(1).
#
# The agent is a library, libcoschedd.a, as flux-core builds its modules:
# coschedd is its main() (coschedd.c) linked against it, and its tests
# link the same library.  The core (requests, jobs, the tick, state,
# guardian, status) sits in agent/; each back end in a folder of its own
# with its internal header and module.mk: boost/ (nice, cgroup weights,
# rt), bw/ (MemBUS bandwidth sources and probes), freeze/ (cgroup freezer
# or signals), membus/ (the MemBUS quanta, coordinator and messages).
# host/ is the floor under them all: the /proc readers and the cgroup
# helpers (proc.c, cgroup.c).  The back ends include host/ and nothing
# of the core above them; membus/ includes the core (agent.h), which
# includes none of it: no folder includes back (mk/include-cycles.pl).
#
# SPDX-License-Identifier: GPL-2.0-or-later

# Files in the folders include by path from agent/ ("host/proc.h").
AGENT_CFLAGS := $(JSONC_CFLAGS) -Iagent
CFLAGS_agent := $(AGENT_CFLAGS)
CFLAGS_agent/host := $(AGENT_CFLAGS)

LIBCOSCHEDD := $(O)/lib/libcoschedd.a
# What a program linking libcoschedd.a needs after it.  The libraries by
# path: their module.mk files may come later.
LIBCOSCHEDD_DEPS := $(LIBCOSCHED_PROTO) $(O)/lib/libcosched.a \
	$(O)/lib/libmembus.a $(O)/lib/libpromtext.a $(LIBVERSION) $(LIBNUM)
LIBCOSCHEDD_LDLIBS := -lcgroup -lmunge -pthread $(JSONC_LIBS) -lm

# A test of a part of the agent: $(call agent_test,NAME,SOURCES): its
# sources (the test and its helpers) linked against libcoschedd.a.
# Defined, with the library's names above, before the back ends'
# module.mk files, which call it: after them it expanded to nothing
# there, and their eight tests were neither built nor run.
define agent_test
$$(eval $$(call unit_test,agent/$(1),$(2),$$(LIBCOSCHEDD) $$(LIBCOSCHEDD_DEPS),$$(LIBCOSCHEDD_LDLIBS)))
endef

# The back ends: each adds its sources to LIBCOSCHEDD_SRCS.
LIBCOSCHEDD_SRCS := $(addprefix agent/,log.c conf.c server.c jobs.c \
	state.c sched.c status.c guardian.c arrivals.c closer.c gang.c \
	switch.c metrics.c host/proc.c host/cgroup.c)
include agent/boost/module.mk agent/bw/module.mk agent/freeze/module.mk \
	agent/membus/module.mk
$(eval $(call static_lib,$(LIBCOSCHEDD),$(LIBCOSCHEDD_SRCS)))

COSCHEDD := $(O)/sbin/coschedd
$(eval $(call program,$(COSCHEDD),agent/coschedd.c,$(LIBCOSCHEDD) $(LIBCOSCHEDD_DEPS),$(LIBCOSCHEDD_LDLIBS)))
TARGETS += $(COSCHEDD)
INSTALL_SBINS += $(COSCHEDD)

COSCHEDCTL := $(O)/bin/coschedctl
$(eval $(call program,$(COSCHEDCTL),agent/coschedctl.c,$(LIBCOSCHED_PROTO) $(LIBCOSCHED_PROTO_DEPS) $(LIBVERSION),))
TARGETS += $(COSCHEDCTL)
INSTALL_BINS += $(COSCHEDCTL)

# The tests include the agent's headers ("proc.h", "boost/boost.h").
CFLAGS_testsuite/unit/agent += -Iagent

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
$(eval $(call agent_test,test_state,testsuite/unit/agent/test_state.c $(AGENT_HARNESS)))
$(O)/tests/agent/test_state.t: | $(COSCHEDD)

# Forged and replayed registrations, a reused pid (needs root; runs the
# coschedd built here in a PID namespace of its own).
$(eval $(call agent_test,test_register,testsuite/unit/agent/test_register.c $(AGENT_HARNESS)))
$(O)/tests/agent/test_register.t: | $(COSCHEDD)

# The guardian outlives a Slurm-shaped step group and is replaced when it
# dies (needs root and cgroup v1 freezer, pids and cpu; runs coschedd).
$(eval $(call unit_test,agent/test_guardian,testsuite/unit/agent/test_guardian.c $(AGENT_HARNESS),$(AGENT_HARNESS_LIBS),))
$(O)/tests/agent/test_guardian.t: | $(COSCHEDD)
# boost=rt on every restore path (SIGSTOP, SIGKILL, restart, end,
# SIGTERM) and the node's safety under it (needs root and RT throttling;
# runs the coschedd built here).
# (kids.c, of agent/boost/module.mk, for the CPU readings test_boost_rt
# takes.)
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
FUSE3_CFLAGS := $(shell $(PKG_CONFIG) --cflags fuse3 2>/dev/null)
FUSE3_LIBS := $(shell $(PKG_CONFIG) --libs fuse3 2>/dev/null || echo -lfuse3)
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

# MemBUS peer addresses and refusals (a private munged when root).
$(eval $(call agent_test,test_peer,testsuite/unit/agent/test_peer.c testsuite/unit/agent/fixture.c))

# MemBUS messages that reach a real coschedd (root, a private munged).
$(eval $(call agent_test,test_membus_peers,testsuite/unit/agent/test_membus_peers.c testsuite/unit/agent/agent_harness.c testsuite/unit/agent/fixture.c testsuite/unit/agent/peer_fixture.c))
$(O)/tests/agent/test_membus_peers.t: | $(COSCHEDD)

# Gang rows switched by a real coschedd, this test as slurmctld (root, a
# private munged).
$(eval $(call agent_test,test_gang_agent,testsuite/unit/agent/test_gang_agent.c testsuite/unit/agent/agent_harness.c testsuite/unit/agent/fixture.c testsuite/unit/agent/peer_fixture.c))
$(O)/tests/agent/test_gang_agent.t: | $(COSCHEDD)
