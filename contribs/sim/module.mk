# contribs/sim - coalloc-sim, the front end of the discrete-event
# simulator of the co-allocation policies (lib/coalloc_sim on lib/coalloc),
# its benchmark, its CLI tests and the 'make repro-coalloc' report.
#
# SPDX-License-Identifier: GPL-2.0-or-later

CFLAGS_contribs/sim := $(JSONC_CFLAGS)

COALLOC_SIM := $(O)/bin/coalloc-sim
COALLOC_SIM_SRCS := contribs/sim/main.c contribs/sim/output.c
$(eval $(call program,$(COALLOC_SIM),$(COALLOC_SIM_SRCS),$(LIBCOALLOC_SIM) $(COALLOC_LIB) $(LIBNUM) $(LIBVERSION),$(JSONC_LIBS) -lm))
TARGETS += $(COALLOC_SIM)
INSTALL_BINS += $(COALLOC_SIM)
INSTALL_MAN += doc/man/coalloc-sim.1

# The benchmark: one decision pass over 10,000 queued jobs on 4 x 256
# (a 1,024-node cluster) and 4 x 1,024 processors, against a plain FCFS
# pass over the same jobs.
COALLOC_BENCH := $(O)/bin/bench_coalloc
$(eval $(call program,$(COALLOC_BENCH),contribs/sim/bench_coalloc.c,$(COALLOC_LIB) $(LIBNUM) $(LIBVERSION),-lm))
.PHONY: bench-coalloc
bench-coalloc: $(COALLOC_BENCH)
	$(COALLOC_BENCH) --procs 256
	$(COALLOC_BENCH)
BENCHES += bench-coalloc

# CLI tests: a bash TAP script behind the unit tests' one launcher
# (testsuite/unit/lib/script_test.c: valgrind checks it, not bash); it
# runs the simulator of this build mode.
$(eval $(call unit_test,coalloc/test_sim_cli,$(SCRIPT_TEST),,))
$(O)/tests/coalloc/test_sim_cli.t: $(COALLOC_SIM) testsuite/unit/coalloc/test_sim_cli.sh
# The verdict rules of the report (CoallocVerdict.pm), Perl behind the
# same launcher.
$(eval $(call unit_test,coalloc/test_verdict,$(SCRIPT_TEST),,))
$(O)/tests/coalloc/test_verdict.t: testsuite/unit/coalloc/test_verdict.sh \
	testsuite/unit/coalloc/test_verdict.pl contribs/sim/CoallocVerdict.pm

# The paper's ten cases (Table 1) near saturation: a markdown report with
# a table and gnuplot charts in build/repro-coalloc/.
REPRO_COALLOC_DIR := $(BUILD)/repro-coalloc
.PHONY: repro-coalloc
repro-coalloc: $(COALLOC_SIM)
	perl contribs/sim/repro-coalloc.pl --sim $(COALLOC_SIM) \
		--out $(REPRO_COALLOC_DIR)
