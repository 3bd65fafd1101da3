# lib/esp - the ESP utilization test's pure core (no Slurm headers): job
# mixes and their scaling, the run plan (order, blocks, compression), the
# run log and its analysis (efficiency, full-configuration rules,
# utilization chronology); and, in libespsim, the ESP scheduling simulator.
#
# SPDX-License-Identifier: GPL-2.0-or-later

CFLAGS_lib/esp := $(JSONC_CFLAGS)

ESP_LIB := $(O)/lib/libesp.a
ESP_SRCS := lib/esp/mix.c lib/esp/plan.c lib/esp/runlog.c \
	lib/esp/analyze.c lib/esp/output.c lib/esp/hostlist.c lib/esp/loss.c \
	lib/esp/compare.c lib/esp/gap.c
$(eval $(call static_lib,$(ESP_LIB),$(ESP_SRCS)))
TARGETS += $(ESP_LIB)

# Unit tests (TAP), sources under testsuite/unit/esp/.  Plans shuffle with
# lib/coalloc's generator, so libcoalloc comes after libesp.
ESP_LIBS := $(ESP_LIB) $(COALLOC_LIB) $(LIBNUM)
# The mix tests read the shipped mix files wherever the test runs from.
$(O)/testsuite/unit/esp/test_mix.o: CFLAGS += -DESP_MIX_DIR='"$(CURDIR)/contribs/esp"'
$(O)/testsuite/unit/esp/test_plan.o: CFLAGS += -DESP_MIX_DIR='"$(CURDIR)/contribs/esp"'
$(eval $(call unit_test,esp/test_mix,testsuite/unit/esp/test_mix.c,$(ESP_LIBS),-lm))
$(eval $(call unit_test,esp/test_plan,testsuite/unit/esp/test_plan.c,$(ESP_LIBS),-lm))
$(eval $(call unit_test,esp/test_runlog,testsuite/unit/esp/test_runlog.c,$(ESP_LIBS),$(JSONC_LIBS) -lm))
$(eval $(call unit_test,esp/test_loss,testsuite/unit/esp/test_loss.c,$(ESP_LIBS),-lm))
$(eval $(call unit_test,esp/test_compare,testsuite/unit/esp/test_compare.c,$(ESP_LIBS),-lm))
$(eval $(call unit_test,esp/test_gap,testsuite/unit/esp/test_gap.c,$(ESP_LIBS),))

-include lib/esp/sim.mk
