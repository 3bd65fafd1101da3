# shim - libcosched_mpi.so, the PMPI shim the cosched SPANK plugin
# preloads into a step's tasks: it publishes each MPI process's endpoint
# status in a shared page for the node agent and runs the receiver's wait
# policy (busy, SB, SY).  Plus the MPI test program its tests run.
#
# Built with $(CC) and our flags, Open MPI's from pkg-config (or, without
# its .pc file, from $(MPICC) --showme).  Open MPI only: the shim links
# libmpi, so a non-MPI program it is preloaded into loads libmpi too
# (about 1 ms at exec) but never initialises it.
#
# SPDX-License-Identifier: GPL-2.0-or-later

MPICC ?= mpicc
OMPI_CFLAGS := $(shell $(PKG_CONFIG) --cflags ompi 2>/dev/null || \
	$(MPICC) --showme:compile 2>/dev/null)
OMPI_LIBS := $(shell $(PKG_CONFIG) --libs ompi 2>/dev/null || \
	$(MPICC) --showme:link 2>/dev/null)

ifeq ($(strip $(OMPI_LIBS)),)
$(info shim: Open MPI not found (pkg-config ompi, $(MPICC)); libcosched_mpi.so not built)
else

# Hidden by default: the helpers are reached directly, not through the
# PLT/GOT; mpi.h declares the MPI_* calls visible, and the version script
# exports only those.
CFLAGS_shim := $(OMPI_CFLAGS) -fvisibility=hidden

SHIM_SO := $(O)/lib/libcosched_mpi.so
SHIM_SRCS := shim/init.c shim/config.c shim/page.c shim/ranks.c \
	shim/requests.c shim/latency.c shim/wait.c shim/wake.c shim/send.c \
	shim/recv.c shim/complete.c shim/coll.c shim/fortran.c
SHIM_OBJS := $(patsubst %.c,$(O)/%.o,$(SHIM_SRCS))
SHIM_MAP := shim/libcosched_mpi.map

$(SHIM_SO): $(SHIM_OBJS) $(LIBCOSCHED) $(LIBNUM) $(SHIM_MAP)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -shared -Wl,-z,defs \
		-Wl,--version-script=$(SHIM_MAP) \
		-o $@ $(SHIM_OBJS) $(LIBCOSCHED) $(LIBNUM) \
		$(OMPI_LIBS)
TARGETS += $(SHIM_SO)
INSTALL_LIBS += $(SHIM_SO)
INSTALL_MAN += doc/man/cosched_mpi.7

# The MPI program the tests run under the shim, and the TAP script behind
# a small C launcher (valgrind checks the launcher, not bash or mpirun).
SHIM_PING := $(O)/tests/shim/ping
CFLAGS_testsuite/unit/shim := $(OMPI_CFLAGS)
$(eval $(call program,$(SHIM_PING),testsuite/unit/shim/ping.c testsuite/unit/shim/page_print.c,,$(OMPI_LIBS)))

# The Fortran programs (use mpi, use mpi_f08), built by Open MPI's own
# wrapper: mpif90.openmpi where MPICH may own the mpif90 alternative.
MPIF90 ?= $(firstword $(shell command -v mpif90.openmpi mpif90 2>/dev/null))
ifneq ($(MPIF90),)
SHIM_FPING := $(O)/tests/shim/fping $(O)/tests/shim/fping08
# in every release's tree: 15-cosched runs fping under each
TARGETS += $(SHIM_FPING)
# one source: fping08 is it with -DF08
$(SHIM_FPING): $(O)/tests/shim/%: testsuite/unit/shim/fping.F90 \
		$(O)/testsuite/unit/shim/page_print.o
	@mkdir -p $(@D)/mod-$*
	$(MPIF90) -g -O1 -Wall $(if $(filter fping08,$*),-DF08) $(ALL_LDFLAGS) \
		-J $(@D)/mod-$* -o $@ $< $(O)/testsuite/unit/shim/page_print.o
endif

# ping built against MPICH, for the shim preloaded into a program of
# another MPI: it must pass every call through (init.c).
MPICC_MPICH ?= $(shell command -v mpicc.mpich 2>/dev/null)
ifneq ($(MPICC_MPICH),)
SHIM_PING_MPICH := $(O)/tests/shim/ping-mpich
$(SHIM_PING_MPICH): testsuite/unit/shim/ping.c testsuite/unit/shim/page_print.c \
		testsuite/unit/shim/page_print.h lib/cosched/shm.h
	@mkdir -p $(@D)
	$(MPICC_MPICH) -std=gnu11 -g -O1 -Ilib $(ALL_LDFLAGS) -o $@ \
		testsuite/unit/shim/ping.c testsuite/unit/shim/page_print.c
endif
# and fping.F90 against MPICH, which the shim cannot serve: 15-cosched
# runs it under --cosched (the plugin must leave the shim out)
MPIF90_MPICH ?= $(shell command -v mpif90.mpich 2>/dev/null)
ifneq ($(MPIF90_MPICH),)
SHIM_FPING_MPICH := $(O)/tests/shim/fping-mpich
$(SHIM_FPING_MPICH): testsuite/unit/shim/fping.F90 $(O)/testsuite/unit/shim/page_print.o
	@mkdir -p $(@D)/mod-fping-mpich
	$(MPIF90_MPICH) -g -O1 -Wall $(ALL_LDFLAGS) -J $(@D)/mod-fping-mpich -o $@ $< \
		$(O)/testsuite/unit/shim/page_print.o
TARGETS += $(SHIM_FPING_MPICH)
endif

$(eval $(call unit_test,shim/test_shim,$(SCRIPT_TEST),,))
$(O)/tests/shim/test_shim.t: $(SHIM_SO) $(SHIM_PING) $(SHIM_FPING) $(SHIM_PING_MPICH) \
	testsuite/unit/shim/test_shim.sh

endif
