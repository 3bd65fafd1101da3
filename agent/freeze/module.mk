# agent/freeze - how the node agent freezes and thaws whole job steps for
# MemBUS and gang rows (the cgroup v1 freezer through libcgroup and
# agent/host/cgroup.c, cgroup v2's cgroup.freeze, else SIGSTOP/SIGCONT) and
# its unit tests.  Included from agent/module.mk, into libcoschedd.a.
#
# SPDX-License-Identifier: GPL-2.0-or-later

LIBCOSCHEDD_SRCS += $(addprefix agent/freeze/,freeze.c freeze_util.c \
	freeze_signal.c freeze_cgroup.c)
CFLAGS_agent/freeze := $(AGENT_CFLAGS)

# Slurm's names of a job's group (job_<id>, a 26.05 SLUID) and the
# clean-path rule: pure functions of agent/host/cgroup.c.
$(eval $(call agent_test,test_cgroup_names,testsuite/unit/agent/test_cgroup_names.c))

# Forks spinning children and freezes them; the cgroup part is skipped
# where the freezer hierarchy is not writable.  (agent_harness.c for its
# small file helpers.)
FREEZE_TEST_HELPERS := testsuite/unit/agent/agent_harness.c
$(eval $(call agent_test,test_freeze,testsuite/unit/agent/test_freeze.c $(FREEZE_TEST_HELPERS)))

# The cgroup v2 mechanisms of freeze.c and boost.c: freezing for real on
# a cgroup2 mount the test makes (root, a private mount namespace), and
# cpu.weight against a directory tree that mimics cgroupfs.
$(eval $(call agent_test,test_cgroup2,testsuite/unit/agent/test_cgroup2.c $(FREEZE_TEST_HELPERS)))

# The guardian's promise on v2: a membus agent killed mid-quantum is
# thawed, an in-place weight put back (root; a cgroup2 mount of its own;
# runs the coschedd built here).
$(eval $(call unit_test,agent/test_guardian_v2,testsuite/unit/agent/test_guardian_v2.c $(FREEZE_TEST_HELPERS),$(LIBCOSCHED_PROTO) $(LIBCOSCHED_PROTO_DEPS),))
$(O)/tests/agent/test_guardian_v2.t: | $(COSCHEDD)
