# agent/freeze.mk - how the node agent freezes and thaws whole job steps
# for its MemBUS mode (agent/freeze*.c: the cgroup v1 freezer through
# libcgroup and agent/cgroup.c, else SIGSTOP/SIGCONT) and its unit test.
# Included from agent/module.mk, which links AGENT_FREEZE_SRCS into
# coschedd with AGENT_FREEZE_LDLIBS (agent/proc.c comes with
# AGENT_BOOST_SRCS there).
#
# SPDX-License-Identifier: GPL-2.0-or-later

AGENT_FREEZE_SRCS := agent/freeze.c agent/freeze_util.c agent/freeze_signal.c \
	agent/freeze_cgroup.c agent/cgroup.c
AGENT_FREEZE_LDLIBS := -lcgroup

# Slurm's names of a job's group (job_<id>, a 26.05 SLUID) and the
# clean-path rule: pure functions of agent/cgroup.c.
$(eval $(call unit_test,agent/test_cgroup_names,testsuite/unit/agent/test_cgroup_names.c agent/cgroup.c,$(LIBNUM),-lcgroup))

# Forks spinning children and freezes them; the cgroup part is skipped
# where the freezer hierarchy is not writable.
# (agent_harness.c for its small file helpers, lib/cosched_proto for its
# client.)
FREEZE_TEST_HELPERS := testsuite/unit/agent/agent_harness.c
FREEZE_TEST_LIBS := $(LIBCOSCHED_PROTO) $(LIBCOSCHED_PROTO_DEPS)
$(eval $(call unit_test,agent/test_freeze,testsuite/unit/agent/test_freeze.c agent/proc.c $(AGENT_FREEZE_SRCS) $(FREEZE_TEST_HELPERS),$(FREEZE_TEST_LIBS),$(AGENT_FREEZE_LDLIBS)))

# The cgroup v2 mechanisms of freeze.c and boost.c: freezing for real on
# a cgroup2 mount the test makes (root, a private mount namespace), and
# cpu.weight against a directory tree that mimics cgroupfs.
$(eval $(call unit_test,agent/test_cgroup2,testsuite/unit/agent/test_cgroup2.c agent/proc.c agent/boost.c agent/boost_rt.c $(AGENT_FREEZE_SRCS) $(FREEZE_TEST_HELPERS),$(FREEZE_TEST_LIBS),$(AGENT_FREEZE_LDLIBS) -pthread))

# The guardian's promise on v2: a membus agent killed mid-quantum is
# thawed, an in-place weight put back (root; a cgroup2 mount of its own;
# runs the coschedd built here).
$(eval $(call unit_test,agent/test_guardian_v2,testsuite/unit/agent/test_guardian_v2.c $(FREEZE_TEST_HELPERS),$(FREEZE_TEST_LIBS),))
$(O)/tests/agent/test_guardian_v2.t: | $(COSCHEDD)
