# contribs/bench-sched - the scheduling-cycle benchmark: sdiag's main
# (and backfill) scheduling cycle with 2,000 pending jobs on a 64-node
# embedded cluster, select/coalloc against select/linear in the same run,
# with the ratios.  Results in $(BUILD)/bench-sched/results.json; method
# and a measured table in doc/bench-sched.md.
#
#   make bench-sched
#   make bench-sched BENCH_SCHED_PLUGINS=linear,coalloc,cons_tres
#   make bench-sched BENCH_SCHED_FLAGS='--window 120'
#
# Needs root (sdiag --reset) and about 5 minutes (7-9 with cons_tres).
#
# SPDX-License-Identifier: GPL-2.0-or-later

BENCH_SCHED_PLUGINS ?= linear,coalloc
BENCH_SCHED_FLAGS ?=

# The embedded cluster loads the release plugins (sanitizer builds cannot
# be loaded into Debian's uninstrumented daemons), whatever DEBUG says.
ifeq ($(DEBUG),0)
BENCH_SCHED_PREREQS := $(SELECT_COALLOC_SO) $(SPANK_COSCHED_SO)
BENCH_SCHED_BUILD :=
else
BENCH_SCHED_PREREQS :=
BENCH_SCHED_BUILD := $(MAKE) DEBUG=0 all
endif

.PHONY: bench-sched
bench-sched: $(BENCH_SCHED_PREREQS)
	$(BENCH_SCHED_BUILD)
	contribs/bench-sched/bench-sched --build-dir $(BUILD)/release \
		--out $(BUILD)/bench-sched --plugins $(BENCH_SCHED_PLUGINS) \
		$(BENCH_SCHED_FLAGS)
BENCHES += bench-sched
