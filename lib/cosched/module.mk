# lib/cosched - the pure C core of dynamic coscheduling (no Slurm, no MPI
# headers): modes split into wait and reaction parts, the Periodic Boost
# heuristics A-E/A'-E', the ECM/EDM energy models, spin times, one tick
# of the node agent's decision, and --cosched-bw's parser (bw.c).  Linked by the node agent and the MPI
# shim.  Needs no -lm.
#
# SPDX-License-Identifier: GPL-2.0-or-later

LIBCOSCHED := $(O)/lib/libcosched.a
LIBCOSCHED_SRCS := lib/cosched/mode.c lib/cosched/pb.c \
	lib/cosched/energy.c lib/cosched/spin.c lib/cosched/tick.c \
	lib/cosched/pages.c lib/cosched/rundir.c lib/cosched/sockets.c \
	lib/cosched/bw.c lib/cosched/elf_mpi.c
$(eval $(call static_lib,$(LIBCOSCHED),$(LIBCOSCHED_SRCS)))
TARGETS += $(LIBCOSCHED)

# The parsers' messages (mode.c, pb.c, energy.c, pages.c, rundir.c, bw.c) use lib/num's
# errbuf.
LIBCOSCHED_DEPS := $(LIBCOSCHED) $(LIBNUM)

$(eval $(call unit_test,cosched/test_mode,testsuite/unit/cosched/test_mode.c,$(LIBCOSCHED_DEPS),))
$(eval $(call unit_test,cosched/test_mode_names,testsuite/unit/cosched/test_mode_names.c,$(LIBCOSCHED_DEPS),))
$(eval $(call unit_test,cosched/test_pb,testsuite/unit/cosched/test_pb.c,$(LIBCOSCHED_DEPS),))
$(eval $(call unit_test,cosched/test_energy,testsuite/unit/cosched/test_energy.c,$(LIBCOSCHED_DEPS),))
$(eval $(call unit_test,cosched/test_spin,testsuite/unit/cosched/test_spin.c,$(LIBCOSCHED_DEPS),))
$(eval $(call unit_test,cosched/test_bw,testsuite/unit/cosched/test_bw.c,$(LIBCOSCHED_DEPS),))
$(eval $(call unit_test,cosched/test_elf_mpi,testsuite/unit/cosched/test_elf_mpi.c,$(LIBCOSCHED_DEPS),))
$(eval $(call unit_test,cosched/test_tick,testsuite/unit/cosched/test_tick.c,$(LIBCOSCHED_DEPS),))
