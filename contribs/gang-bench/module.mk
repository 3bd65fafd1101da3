# contribs/gang-bench - what slurmctld's gang tables cost at scale (issue
# 33 part 5): gang-bench sends passes of tables through the library calls
# gang_tables.c makes to UDP sockets that a child receives and verifies;
# bench-gang-tables compares the sealed passes with a credential a node
# at 1,024 and 4,096 nodes (part of 'make bench', about 2 minutes);
# ctld-gang-cost measures the gang thread inside slurmctld on an embedded
# cluster (not in BENCHES: about 10 minutes at 1,024 nodes).  Method and
# results: doc/bench-gang-tables.md.
#
#   make bench-gang-tables
#   make bench-gang-tables BENCH_GANG_FLAGS='--repeat 10 --nodes 4096'
#   contribs/gang-bench/ctld-gang-cost --nodes 1024
#
# SPDX-License-Identifier: GPL-2.0-or-later

GANG_BENCH := $(O)/bin/gang-bench
$(eval $(call program,$(GANG_BENCH),contribs/gang-bench/gang-bench.c,$(LIBCOSCHED_PROTO) $(LIBCOSCHED_PROTO_DEPS),-lmunge))
TARGETS += $(GANG_BENCH)

BENCH_GANG_FLAGS ?=
.PHONY: bench-gang-tables
BENCHES += bench-gang-tables
bench-gang-tables: $(GANG_BENCH)
	contribs/gang-bench/bench-gang-tables --gang-bench $(GANG_BENCH) $(BENCH_GANG_FLAGS)

# Its test: both protocols at 64 nodes, every table received, the sealed
# ones verified, bad options refused (a bash TAP script behind the
# launcher, as bench-membus's).
$(eval $(call unit_test,gang_bench/test_gang_bench,$(SCRIPT_TEST),,))
$(O)/tests/gang_bench/test_gang_bench.t: $(GANG_BENCH) \
	testsuite/unit/gang_bench/test_gang_bench.sh \
	contribs/gang-bench/bench-gang-tables
