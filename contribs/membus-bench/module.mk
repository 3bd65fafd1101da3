# contribs/membus-bench - the microbenchmarks of the MemBUS experiments:
# membench, which walks a block larger than the caches with stride 1
# (membench-min) or one cache line (membench-max) to load the memory bus,
# and netbench, all-to-all MPI traffic to load the network.  Both run
# until a wall-time limit or a stop signal and log cumulative counts
# periodically, from which a driver reads the attained throughput.
#
#   build/release/bin/membench --variant max --seconds 10 --log mb.log
#   mpirun -np 2 --mca btl tcp,self build/release/bin/netbench --seconds 10
#
# SPDX-License-Identifier: GPL-2.0-or-later

MEMBUS_BENCH_MPI_CFLAGS := $(shell pkg-config --cflags ompi 2>/dev/null)
MEMBUS_BENCH_MPI_LIBS := $(shell pkg-config --libs ompi 2>/dev/null || echo -lmpi)

# Only netbench.c includes mpi.h; the include path is harmless to the rest.
CFLAGS_contribs/membus-bench := $(MEMBUS_BENCH_MPI_CFLAGS)

MEMBENCH := $(O)/bin/membench
NETBENCH := $(O)/bin/netbench
MEMBUS_BENCH_COMMON := contribs/membus-bench/common.c

$(eval $(call program,$(MEMBENCH),contribs/membus-bench/membench.c $(MEMBUS_BENCH_COMMON),$(LIBNUM) $(LIBVERSION),))
$(eval $(call program,$(NETBENCH),contribs/membus-bench/netbench.c $(MEMBUS_BENCH_COMMON),$(LIBNUM) $(LIBVERSION),$(MEMBUS_BENCH_MPI_LIBS)))
TARGETS += $(MEMBENCH) $(NETBENCH)
INSTALL_BINS += $(MEMBENCH) $(NETBENCH)

# Unit tests, on the programs of this build mode: membench run directly
# (valgrind checks the test, not the walk it starts); netbench under
# mpirun, a bash TAP script behind a small C launcher (so valgrind checks
# the launcher, not bash and mpirun).
CFLAGS_testsuite/unit/membus_bench := -DMEMBENCH_PATH='"$(MEMBENCH)"'
$(eval $(call unit_test,membus_bench/test_membench,testsuite/unit/membus_bench/test_membench.c,,))
$(O)/tests/membus_bench/test_membench.t: $(MEMBENCH)
$(eval $(call unit_test,membus_bench/test_netbench,$(SCRIPT_TEST),,))
$(O)/tests/membus_bench/test_netbench.t: $(NETBENCH) \
	testsuite/unit/membus_bench/test_netbench.sh
INSTALL_MAN += doc/man/membench.1 doc/man/netbench.1
# bench-membus: its computations (MembusBench.pm, in Perl) and its command
# line (bad values refused, --plan), bash TAP scripts behind the same
# launcher.
$(eval $(call unit_test,membus_bench/test_bench_membus,$(SCRIPT_TEST),,))
$(O)/tests/membus_bench/test_bench_membus.t: \
	testsuite/unit/membus_bench/test_bench_membus.sh \
	testsuite/unit/membus_bench/test_bench_membus.pl \
	contribs/membus-bench/MembusBench.pm
$(eval $(call unit_test,membus_bench/test_bench_membus_cli,$(SCRIPT_TEST),,))
$(O)/tests/membus_bench/test_bench_membus_cli.t: \
	testsuite/unit/membus_bench/test_bench_membus_cli.sh \
	contribs/membus-bench/bench-membus $(COSCHEDCTL)

# 'make bench-membus': the MemBUS throughput benchmark (section 6, Fig. 4),
# membench jobs on a one-node, two-CPU embedded cluster (W1, W2) and
# netbench jobs on two nodes (W3) under Linux and under --cosched=membus,
# or the coordinator's failure on four nodes (--takeover).  Like
# bench-cosched it loads the release build into the cluster whatever
# DEBUG says, and it is not in BENCHES (about 4.5 minutes by default).
# BENCH_OUT overrides the results directory.  Method and results in
# doc/bench-membus.md; --plan prints the batches and the expected time.
#
#   make bench-membus
#   make bench-membus BENCH_MEMBUS_FLAGS=--quick
#   make bench-membus BENCH_MEMBUS_FLAGS='--seconds 20 --repeat 4'
#   make bench-membus BENCH_MEMBUS_FLAGS='--workloads W3 --seconds 20 --repeat 10'
#   make bench-membus BENCH_MEMBUS_FLAGS='--takeover --takeover-seconds 60 --repeat 6'
BENCH_MEMBUS_FLAGS ?=
ifeq ($(DEBUG),0)
BENCH_MEMBUS_BUILD :=
else
BENCH_MEMBUS_BUILD := $(MAKE) DEBUG=0 all
endif

.PHONY: bench-membus
bench-membus: all
	$(BENCH_MEMBUS_BUILD)
	contribs/membus-bench/bench-membus --build-dir $(BUILD)/release \
		--out "$${BENCH_OUT:-$(BUILD)/bench-membus/$$(date +%Y%m%d-%H%M%S)}" \
		$(BENCH_MEMBUS_FLAGS)
