# contribs/esp/esp-work.mk - esp-work, the job program of the ESP test
# (T seconds of running time, suspended time not counted, start/suspend/end
# lines in the run log), and its unit test.  Included by
# contribs/esp/module.mk.
#
# SPDX-License-Identifier: GPL-2.0-or-later

ESP_WORK := $(O)/bin/esp-work
# libesp for the rule that tells a stop from a wait (lib/esp/gap.h),
# libnum for its strict number parsing.
$(eval $(call program,$(ESP_WORK),contribs/esp/esp-work.c,$(ESP_LIB) $(LIBNUM) $(LIBVERSION),-lm))
TARGETS += $(ESP_WORK)
INSTALL_BINS += $(ESP_WORK)
INSTALL_MAN += doc/man/esp-work.1

# The test runs the esp-work of its own build mode.  A target-specific
# variable, not CFLAGS_testsuite/unit/esp, which the directory's other tests
# share; 'override' so that a CFLAGS given on the command line still gets it.
$(eval $(call unit_test,esp/test_esp_work,testsuite/unit/esp/test_esp_work.c,,))
$(O)/testsuite/unit/esp/test_esp_work.o: override CFLAGS += \
	-DESP_WORK_PATH='"$(ESP_WORK)"'
$(O)/tests/esp/test_esp_work.t: $(ESP_WORK)
