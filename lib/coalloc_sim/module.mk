# lib/coalloc_sim - the discrete-event simulation of the co-allocation
# policies on lib/coalloc's engine (pure C, no Slurm): the paper's
# synthetic workload or an SWF trace (workload.c), one policy over one job
# stream (simulate.c).  coalloc-sim (contribs/sim) is its front end, as
# esp-sim is lib/esp's.  Its users link $(COALLOC_LIB) and $(LIBNUM) after
# it, and -lm.
#
# SPDX-License-Identifier: GPL-2.0-or-later

LIBCOALLOC_SIM := $(O)/lib/libcoalloc_sim.a
$(eval $(call static_lib,$(LIBCOALLOC_SIM),lib/coalloc_sim/workload.c lib/coalloc_sim/simulate.c))
TARGETS += $(LIBCOALLOC_SIM)

# The simulator and the select plugin route a job alike (lib/coalloc's
# route.c, the plugin's path from --coalloc text to a queue).
$(eval $(call unit_test,coalloc/test_route,testsuite/unit/coalloc/test_route.c,$(LIBCOALLOC_SIM) $(COALLOC_LIB) $(LIBNUM),-lm))
