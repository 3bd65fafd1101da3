# lib/membus - bandwidth-aware gang pairing (MemBUS, Algorithms 1-2 and
# Fig. 3 of the MemBUS paper): window averages, the per-node selection,
# the reduction order and the allocation.  Pure C; the node agent will
# drive it.
#
# SPDX-License-Identifier: GPL-2.0-or-later

LIBMEMBUS := $(O)/lib/libmembus.a
$(eval $(call static_lib,$(LIBMEMBUS),lib/membus/membus.c))
TARGETS += $(LIBMEMBUS)

$(eval $(call unit_test,membus/test_membus,testsuite/unit/membus/test_membus.c,$(LIBMEMBUS),-lm))
