# Top-level Makefile of the coalloc Slurm plugin suite.
#
# One non-recursive make: each component contributes a module.mk that adds
# to the lists below.  Everything is built under build/ (release and debug
# trees kept apart), the Slurm source under build/slurm-src.
#
#   make            build every component
#   make check      install what is missing, build, run every test (TAP),
#                   with a smoke run of the fuzz targets after the unit tests
#   make DEBUG=1 check-unit   unit tests under ASan/UBSan
#   make valgrind   unit tests under valgrind
#   make bench      benchmarks (ratios measured side by side)
#   make fuzz       libFuzzer targets of the parsers, FUZZ_SECONDS each
#   make install    plugins into Slurm's PluginDir, tools into PREFIX
#
# SPDX-License-Identifier: GPL-2.0-or-later

.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
.SUFFIXES:
SHELL := /bin/bash

BUILD ?= build
DEBUG ?= 0

include mk/slurm-version.mk
include mk/flags.mk

# Lists the module.mk files append to.
TARGETS      :=	# built by 'make'
UNIT_TESTS   :=	# TAP executables run by check-unit
BENCHES      :=	# phony targets run by 'make bench'
INSTALL_PLUGINS :=	# .so files for Slurm's PluginDir
INSTALL_BINS :=	# programs for $(PREFIX)/bin
INSTALL_SBINS :=	# daemons for $(PREFIX)/sbin
INSTALL_LIBS :=	# preloaded libraries for $(PREFIX)/lib/coalloc
INSTALL_MAN  :=	# man pages (section taken from the suffix)
NEEDS_SLURM_SRC :=	# objects that include Slurm's internal headers

include mk/rules.mk
include mk/roles.mk
# Linked by modules included before lib/num/module.mk defines its rule.
LIBNUM := $(O)/lib/libnum.a
LIBVERSION := $(O)/lib/libversion.a
# The one launcher of the unit tests written as bash TAP scripts.
SCRIPT_TEST := testsuite/unit/lib/script_test.c
include mk/deps.mk
include mk/slurm.mk
include $(sort $(wildcard lib/*/module.mk))
include $(sort $(wildcard plugins/*/module.mk))
include $(wildcard agent/module.mk shim/module.mk)
include $(sort $(wildcard contribs/*/module.mk))
include $(sort $(wildcard testsuite/*/module.mk))
# After the modules: the fuzz targets reuse their source lists.
include mk/fuzz.mk
# ... and the version test runs every program they install.
$(O)/tests/version/test_version.t: $(INSTALL_BINS) $(INSTALL_SBINS)

# ---------------------------------------------------------------- rules

$(O)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CFLAGS_$(<D)) -MMD -MP -c -o $@ $<

# Objects that include Slurm's internal headers wait for the configured
# source tree (order-only: its timestamp must not force rebuilds).
$(NEEDS_SLURM_SRC): | $(SLURM_READY)

-include $(shell find $(O) -name '*.d' 2>/dev/null)

.PHONY: all tests check check-after-deps check-unit check-integration test-times valgrind bench \
	install \
	clean distclean
all: $(TARGETS)
tests: $(UNIT_TESTS)

# prove runs the unit tests under valgrind (make valgrind) only.
PROVE ?= prove
PROVE_FLAGS ?=

# The one runner of the TAP files (testsuite/tap/run-tests): JOBS files
# at once, those marked test-alone after the others, one at a time; each
# file's log in build/test-run/logs, the 10 slowest printed at the end.
# JOBS: twice the CPUs (most integration time is waiting on daemons and
# jobs; see doc/testing.md).
CPUS := $(shell nproc)
JOBS ?= $(shell echo $$(( $(CPUS) * 2 )))
# RUN_TESTS_FLAGS: more of the runner's options (--slowest K, --out DIR).
RUN_TESTS_FLAGS ?=
RUN_TESTS = testsuite/tap/run-tests --jobs $(JOBS) $(RUN_TESTS_FLAGS)

check-unit: $(UNIT_TESTS)
	$(RUN_TESTS) $(UNIT_TESTS)

INTEGRATION_TESTS := $(sort $(wildcard testsuite/integration/*.t))
# Against a release other than the installed one 'make check' runs this
# subset (the whole suite twice does not fit CI's time): co-allocation
# over sites, coalloc.conf and reconfigure, every policy and its pending
# reasons, coalloc-status, gang rows, slurmctld restarts with jobs in
# rows, the SPANK options, dynamic coscheduling, ESP, the other release's
# plugin refused, purged pending jobs, the queues kept open by priority
# beside backfill reservations, the layout in accounting, and ordered and
# flexible requests.
INTEGRATION_SUBSET := 01-cluster 02-jobs 05-spank-options 07-coalloc-conf \
	08-sites 09-policies 10-status 11-policy-restart 12-matrix 14-esp \
	15-cosched 27-slurm-mismatch 28-cancel-purged 29-gang-agents 30-reserve \
	35-accounting 36-request-types
# What each release built from source runs: the subset (24.11); with
# slurmctld's faults (the plugin keeps its own state from 25.05 on), the
# exported symbols and the install by role (26.05, the newest); 25.11 a
# smoke test (its slurmctld loads the plugin, which exports what its
# loader looks up).
RELEASE_TESTS_24.11 := $(INTEGRATION_SUBSET)
RELEASE_TESTS_25.11 := 01-cluster 39-select-symbols
RELEASE_TESTS_26.05 := $(INTEGRATION_SUBSET) 18-ctld-faults \
	39-select-symbols 40-roles
# $(call release_tests,SERIES): its files, RELEASE:FILE for the runner
release_tests = $(patsubst %,$(1):testsuite/integration/%.t,$(or $(RELEASE_TESTS_$(1)),$(INTEGRATION_SUBSET)))
ifeq ($(SLURM_ORIGIN),installed)
SLURM_INTEGRATION_TESTS := $(INTEGRATION_TESTS)
else
SLURM_INTEGRATION_TESTS := $(patsubst $(SLURM):%,%,$(call release_tests,$(SLURM)))
endif
# The other supported releases, built from source (mk/slurm-versions).
SLURM_OTHERS := $(shell awk '/^[0-9]/ && $$3 != "installed" { print $$1 }' mk/slurm-versions)

# The embedded cluster loads the release plugins (sanitizer builds cannot
# be loaded into Slurm's uninstrumented daemons), whatever DEBUG says;
# RELEASE:FILE has the runner start that release (COALLOC_SLURM).
check-integration:
	$(MAKE) DEBUG=0 all
	$(RUN_TESTS) $(addprefix $(SLURM):,$(SLURM_INTEGRATION_TESTS))

# The whole suite from a fresh machine: packages, every release's Slurm
# (each built from source once, then cached) and our build for it, then
# one run of every test: the unit tests and the fuzz smoke run once, the
# integration suite on the installed Slurm, the subset on every other
# release, all at once (JOBS files at a time).
# Every unit test source is built and run: one whose module.mk never put
# its .t in UNIT_TESTS (the agent's back ends called agent_test before it
# was defined: eight tests silently dropped) stops make check.
UNIT_TEST_NAMES := $(sort $(basename $(patsubst testsuite/unit/%,%,\
	$(wildcard testsuite/unit/*/test_*.c testsuite/unit/*/test_*.sh))))
UNLISTED_TESTS := $(filter-out $(patsubst $(O)/tests/%.t,%,$(UNIT_TESTS)),\
	$(UNIT_TEST_NAMES))

# The lists are made by a make started after deps: on a fresh machine the
# first one parsed the module.mk files before Open MPI was installed, and
# its lists lack the shim's tests.
check: deps
	+$(MAKE) check-after-deps

check-after-deps:
	@test -z "$(UNLISTED_TESTS)" || { echo "make check: unit tests no module.mk builds: $(UNLISTED_TESTS)" >&2; exit 1; }
	$(MAKE) slurm-src
	@# The other releases' builds side by side: each has long serial
	@# stretches (configure, linking, make install) the others fill.
	@# All are waited for, so that a failed one leaves none running on.
	@pids=; for s in $(SLURM_OTHERS); do \
		$(MAKE) SLURM=$$s slurm-src & pids="$$pids $$!"; done; \
		rc=0; for p in $$pids; do wait $$p || rc=1; done; exit $$rc
	$(MAKE) -j$(CPUS) DEBUG=0 all tests
	@set -e; for s in $(SLURM_OTHERS); do $(MAKE) -j$(CPUS) SLURM=$$s DEBUG=0 all; done
	$(RUN_TESTS) $(UNIT_TESTS) $(FUZZ_SMOKE_TEST) $(INTEGRATION_TESTS) \
		$(foreach s,$(SLURM_OTHERS),$(call release_tests,$(s)))

# The timing table of doc/testing.md from the last run's build/test-run/
# times.tsv (after a fresh-clone .ci/run).
test-times:
	testsuite/tap/run-tests --update-doc

VALGRIND ?= valgrind --quiet --error-exitcode=99 --leak-check=full \
	--errors-for-leak-kinds=definite,indirect --track-origins=yes
valgrind: $(UNIT_TESTS)
	@[ "$(DEBUG)" != 1 ] || { echo "valgrind: use a release build (no DEBUG=1)" >&2; exit 2; }
	$(PROVE) $(PROVE_FLAGS) --exec '$(VALGRIND)' $(UNIT_TESTS)

bench: $(BENCHES)

PREFIX  ?= /usr/local
DESTDIR ?=
# make install ROLE=controller|compute|login|tools (several: comma-
# separated; default all): what each kind of host needs (mk/roles.mk).
install: all
	$(if $(strip $(role_check)),$(error mk/roles.mk gives no role to: $(strip $(role_check))))
	$(call install_files,0755,$(call for_role,$(INSTALL_PLUGINS)),$(PLUGINDIR))
	$(call install_files,0755,$(call for_role,$(INSTALL_BINS)),$(PREFIX)/bin)
	$(call install_files,0755,$(call for_role,$(INSTALL_SBINS)),$(PREFIX)/sbin)
	$(call install_files,0644,$(call for_role,$(INSTALL_LIBS)),$(PREFIX)/lib/coalloc)
	@for m in $(call for_role,$(INSTALL_MAN)); do \
		s=$${m##*.}; install -d $(DESTDIR)$(PREFIX)/share/man/man$$s; \
		install -m 0644 $(O)/man/$${m##*/} $(DESTDIR)$(PREFIX)/share/man/man$$s/; \
	done

# $(call install_files,MODE,FILES,DIR): FILES into DESTDIR/DIR, if any
install_files = $(if $(2),install -d $(DESTDIR)$(3) && install -m $(1) $(2) $(DESTDIR)$(3))

clean:
	rm -rf $(BUILD)/release $(BUILD)/debug $(BUILD)/test

# Also forgets the configured Slurm source.
distclean: clean
	rm -rf $(BUILD)
