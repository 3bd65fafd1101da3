# lib/esp/sim.mk - the ESP scheduling simulator: libespsim (pure C, on
# libesp's plans and lib/coalloc's matrix), the esp-sim(1) command, its
# unit test, and 'make repro-esp' (Wong et al., Tables IV and V).
#
# SPDX-License-Identifier: GPL-2.0-or-later

ESP_SIM_LIB := $(O)/lib/libespsim.a
$(eval $(call static_lib,$(ESP_SIM_LIB),lib/esp/sim.c))
TARGETS += $(ESP_SIM_LIB)

# libespsim uses the matrix and the plans: it comes before both.
ESP_SIM_LIBS := $(ESP_SIM_LIB) $(ESP_LIB) $(COALLOC_LIB) $(LIBNUM)

ESP_SIM := $(O)/bin/esp-sim
$(eval $(call program,$(ESP_SIM),contribs/esp/esp-sim.c,$(ESP_SIM_LIBS) $(LIBVERSION),$(JSONC_LIBS) -lm))
TARGETS += $(ESP_SIM)
INSTALL_BINS += $(ESP_SIM)
INSTALL_MAN += doc/man/esp-sim.1

# Hand-made plans with known answers; the ESP-1 check reads the mix from
# the source tree when it is there.
$(eval $(call unit_test,esp/test_sim,testsuite/unit/esp/test_sim.c,$(ESP_SIM_LIBS),-lm))

# Table V (and IV) of the paper side by side with the simulator, over
# several seeds: a markdown report and chronology charts (gnuplot) in
# build/repro-esp/; doc/repro-esp.md is a copy of the report whose chart
# links point into build/repro-esp/.
REPRO_ESP_DIR := $(BUILD)/repro-esp
.PHONY: repro-esp
repro-esp: $(ESP_SIM)
	perl contribs/esp/repro-esp.pl --sim $(ESP_SIM) --mix-dir contribs/esp \
		--out $(REPRO_ESP_DIR) --doc doc/repro-esp.md

# esp-sim's options: the queue orders and --aging, refusals named.
$(eval $(call unit_test,esp/test_sim_cli,$(SCRIPT_TEST),,))
$(O)/tests/esp/test_sim_cli.t: $(ESP_SIM) testsuite/unit/esp/test_sim_cli.sh
