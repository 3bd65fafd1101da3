# lib/version - the suite's one version string, from the top-level VERSION
# file, and the --version every program answers (pure C).  LIBVERSION is
# defined in the Makefile, beside LIBNUM, for modules included earlier.
#
# SPDX-License-Identifier: GPL-2.0-or-later

COALLOC_VERSION := $(strip $(file < VERSION))
# Debian's version rules: a digit first, then letters, digits and .+~-
ifneq ($(shell [[ '$(COALLOC_VERSION)' =~ ^[0-9][0-9A-Za-z.+~-]*$$ ]] && echo ok),ok)
$(error VERSION must hold the suite's version (a digit, then letters, digits and .+~-), not '$(COALLOC_VERSION)')
endif

$(eval $(call static_lib,$(LIBVERSION),lib/version/version.c))
TARGETS += $(LIBVERSION)
$(O)/lib/version/version.o: override CFLAGS += -DCOALLOC_VERSION='"$(COALLOC_VERSION)"'
$(O)/lib/version/version.o: VERSION

$(eval $(call unit_test,version/test_version,testsuite/unit/version/test_version.c,$(LIBVERSION),))
# The benchmarks' and the harness's scripts, run from the tree.
VERSION_SCRIPTS := contribs/bench-sched/bench-sched \
	contribs/cosched-bench/bench-cosched contribs/membus-bench/bench-membus \
	testsuite/cluster/slurm-cluster
# Every installed program, and those scripts, answer --version: the test runs each of them.
# '=', not ':=': the lists are complete only once every module is read
# (the Makefile adds the programs as the test's prerequisites then).
CFLAGS_testsuite/unit/version = -DVERSION_FILE='"$(CURDIR)/VERSION"' \
	-DVERSION_BIN_DIR='"$(O)/bin"' \
	-DVERSION_PROGRAMS='"$(strip $(INSTALL_BINS) $(INSTALL_SBINS) $(VERSION_SCRIPTS))"'
$(O)/testsuite/unit/version/test_version.o: VERSION

# The man pages as installed (make install takes these): every footer
# names the suite and its version, "coalloc @VERSION@" in doc/man.
MAN_PAGES := $(sort $(wildcard doc/man/*.[0-9]))
MAN_BUILT := $(patsubst doc/man/%,$(O)/man/%,$(MAN_PAGES))
$(O)/man/%: doc/man/% VERSION
	@mkdir -p $(@D)
	sed 's/@VERSION@/$(COALLOC_VERSION)/g' $< > $@.tmp && mv -f $@.tmp $@
TARGETS += $(MAN_BUILT)
# ... checked: one footer everywhere, the version in it, no groff warning
$(eval $(call unit_test,version/test_man,$(SCRIPT_TEST),,))
$(O)/tests/version/test_man.t: testsuite/unit/version/test_man.sh $(MAN_BUILT)
