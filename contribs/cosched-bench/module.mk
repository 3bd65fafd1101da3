# contribs/cosched-bench - the dynamic coscheduling benchmark: the MPI
# job cosched-bench (the paper's job types J1-J6 and patterns nn, aa,
# tree, linear), its tests, and 'make bench-cosched', which runs the
# jobs on a 2-node embedded cluster under every --cosched mode and under
# gang scheduling and prints the slowdowns side by side.  Method and
# results in doc/bench-cosched.md.
#
#   make bench-cosched
#   make bench-cosched BENCH_COSCHED_FLAGS='--quick'
#   make bench-cosched BENCH_COSCHED_FLAGS='--modes none,pb --mpl 2'
#   make bench-cosched-orderings      # the orderings of Zhang et al., ~45 min
#
# Not in BENCHES: 'make bench' stays fast, this takes up to 15 minutes.
#
# SPDX-License-Identifier: GPL-2.0-or-later

COSCHED_BENCH_MPI_CFLAGS := $(shell $(PKG_CONFIG) --cflags ompi 2>/dev/null)
COSCHED_BENCH_MPI_LIBS := $(shell $(PKG_CONFIG) --libs ompi 2>/dev/null || echo -lmpi)

CFLAGS_contribs/cosched-bench := $(COSCHED_BENCH_MPI_CFLAGS)

COSCHED_BENCH := $(O)/bin/cosched-bench
COSCHED_BENCH_SRCS := contribs/cosched-bench/cosched-bench.c \
	contribs/cosched-bench/plan.c contribs/cosched-bench/work.c \
	contribs/cosched-bench/comm.c
$(eval $(call program,$(COSCHED_BENCH),$(COSCHED_BENCH_SRCS),$(O)/lib/libcosched.a $(LIBNUM) $(LIBVERSION),$(COSCHED_BENCH_MPI_LIBS) -lm))
TARGETS += $(COSCHED_BENCH)
INSTALL_BINS += $(COSCHED_BENCH)

# agent-overhead: the node agent's CPU use per mode, one or more coschedd
# builds side by side (doc/bench-cosched.md, "Agent overhead").
AGENT_OVERHEAD := $(O)/bin/agent-overhead
$(eval $(call program,$(AGENT_OVERHEAD),contribs/cosched-bench/agent-overhead.c,$(LIBCOSCHED_PROTO) $(LIBCOSCHED_PROTO_DEPS) $(LIBVERSION),))
TARGETS += $(AGENT_OVERHEAD)

# Unit tests: the plan (options, sizing, skew, spin and I/O arithmetic)
# without MPI; and runs of the program under mpirun, a bash TAP script
# behind a small C launcher (so valgrind checks the launcher, not bash
# and mpirun), on the cosched-bench of this build mode.
CFLAGS_testsuite/unit/cosched_bench := -Icontribs/cosched-bench
$(eval $(call unit_test,cosched_bench/test_plan,testsuite/unit/cosched_bench/test_plan.c contribs/cosched-bench/plan.c contribs/cosched-bench/work.c,$(O)/lib/libcosched.a $(LIBNUM),-lm))
$(eval $(call unit_test,cosched_bench/test_run,$(SCRIPT_TEST),,))
$(O)/tests/cosched_bench/test_run.t: $(COSCHED_BENCH) \
	testsuite/unit/cosched_bench/test_run.sh
# bench-cosched's orderings: the CoV, fairness and Poisson arithmetic
# (CoschedOrderings.pm, in Perl); the options (--dry-run, no cluster).
$(eval $(call unit_test,cosched_bench/test_orderings,$(SCRIPT_TEST),,))
$(O)/tests/cosched_bench/test_orderings.t: testsuite/unit/cosched_bench/test_orderings.sh \
	testsuite/unit/cosched_bench/test_orderings.pl contribs/cosched-bench/CoschedOrderings.pm
$(eval $(call unit_test,cosched_bench/test_bench_cli,$(SCRIPT_TEST),,))
$(O)/tests/cosched_bench/test_bench_cli.t: testsuite/unit/cosched_bench/test_bench_cli.sh \
	contribs/cosched-bench/bench-cosched contribs/cosched-bench/CoschedOrderings.pm

# The benchmark: the embedded cluster loads the release plugins (sanitizer
# builds cannot be loaded into Debian's uninstrumented daemons), whatever
# DEBUG says.  BENCH_OUT overrides the results directory.
BENCH_COSCHED_FLAGS ?=
ifeq ($(DEBUG),0)
BENCH_COSCHED_BUILD :=
else
BENCH_COSCHED_BUILD := $(MAKE) DEBUG=0 all
endif

.PHONY: bench-cosched
bench-cosched: all
	$(BENCH_COSCHED_BUILD)
	contribs/cosched-bench/bench-cosched --build-dir $(BUILD)/release \
		--out "$${BENCH_OUT:-$(BUILD)/bench-cosched/$$(date +%Y%m%d-%H%M%S)}" \
		$(BENCH_COSCHED_FLAGS)

# The orderings of Zhang et al. (doc/bench-cosched.md, "Duration"), three
# runs one after the other into BENCH_OUT/{pb,patterns,load}, about 45
# minutes on this 2-CPU VM (estimates printed by each run; --dry-run):
#   pb        PB heuristics A-E and A'-E' (section 4.9), comm, MPL 2,
#             D = 5 s, slowdown and its CoV: about 6 min;
#   patterns  nn, aa, tree, linear x skew 0 and 20 % (sections 4.4-4.5)
#             for none, sb, dcs, pb (heuristic D) and gang, comm, MPL 2,
#             D = 3 s: about 16 min;
#   load      offered loads 0.5, 0.7, 0.9 (section 4.1), 12 jobs each,
#             none, sb, pb and gang, comm, MPL 2, D = 3 s, streams cut
#             6 x D + 60 s after their last arrival: about 23 min.
# BENCH_COSCHED_FLAGS goes to each run, after these options (it wins).
BENCH_COSCHED_ORDERINGS := contribs/cosched-bench/bench-cosched \
	--build-dir $(BUILD)/release --mpl 2 --workloads comm

.PHONY: bench-cosched-orderings
bench-cosched-orderings: all
	$(BENCH_COSCHED_BUILD)
	out="$${BENCH_OUT:-$(BUILD)/bench-cosched-orderings/$$(date +%Y%m%d-%H%M%S)}" && \
	$(BENCH_COSCHED_ORDERINGS) --out "$$out/pb" --modes pb --pb-heuristics all \
		--no-gang --seconds 5 $(BENCH_COSCHED_FLAGS) && \
	$(BENCH_COSCHED_ORDERINGS) --out "$$out/patterns" --modes none,sb,dcs,pb \
		--pattern nn,aa,tree,linear --skew 0,20 --seconds 3 --max-slowdown 20 \
		$(BENCH_COSCHED_FLAGS) && \
	$(BENCH_COSCHED_ORDERINGS) --out "$$out/load" --modes none,sb,pb \
		--load-curve 0.5,0.7,0.9 --load-jobs 12 --seconds 3 --max-slowdown 6 \
		$(BENCH_COSCHED_FLAGS) && \
	echo "bench-cosched-orderings: $$out/{pb,patterns,load}/table.txt"
