# contribs/esp - the ESP utilization test (Wong et al.): esp(1), the shell
# front end that starts clusters and compares configurations; esp-driver,
# which plans, submits and analyzes a run; esp-work, the job program; the
# mixes; 'make esp', the suite's main command.
#
# SPDX-License-Identifier: GPL-2.0-or-later

CFLAGS_contribs/esp := $(JSONC_CFLAGS)

ESP_DRIVER := $(O)/bin/esp-driver
ESP_DRIVER_SRCS := contribs/esp/esp-driver.c contribs/esp/run.c \
	contribs/esp/report.c contribs/esp/spawn.c
$(eval $(call program,$(ESP_DRIVER),$(ESP_DRIVER_SRCS),$(ESP_LIBS) $(LIBPROGRESS) $(LIBVERSION),$(JSONC_LIBS) -lm))
TARGETS += $(ESP_DRIVER)
INSTALL_BINS += $(ESP_DRIVER)
INSTALL_MAN += doc/man/esp.1

# esp-driver table on results.json files the test writes: a bash TAP
# script behind the unit tests' one launcher (valgrind checks it, not
# bash); the driver of its own build mode.
$(eval $(call unit_test,esp/test_table,$(SCRIPT_TEST),,))
$(O)/tests/esp/test_table.t: $(ESP_DRIVER) testsuite/unit/esp/test_table.sh

-include contribs/esp/esp-work.mk

# The front end and the mixes: esp finds the mixes in ../share/coalloc/esp
# once installed.
INSTALL_BINS += contribs/esp/esp
.PHONY: install-esp
ifneq ($(call role_has,esp-mixes),)
install: install-esp
endif
install-esp: all
	$(call install_files,0644,contribs/esp/esp1.mix contribs/esp/esp2.mix,$(PREFIX)/share/coalloc/esp)

# The suite's main command: from a fresh machine, everything set up, then
# ESP-1 on a 32-node embedded cluster under select/coalloc, compressed to
# a theoretical minimum of ESP_MINUTES (the run takes that over E: about
# 10 minutes).  ESP_OUT overrides the results directory; SLURM=24.11 runs
# it on that release (the harness starts what COALLOC_SLURM names).
ESP_MINUTES ?= 7
.PHONY: esp
esp: deps
	$(MAKE) slurm-src
	$(MAKE) DEBUG=0 all
	out=$${ESP_OUT:-$(BUILD)/esp/esp1-coalloc-$$(date +%Y%m%d-%H%M%S)}; \
	COALLOC_SLURM=$(SLURM) contribs/esp/esp run --mix esp1 --select coalloc --nodes 32 \
		--minutes $(ESP_MINUTES) --out "$$out"
