# lib/membus - bandwidth-aware gang pairing (MemBUS, Algorithms 1-2 and
# Fig. 3 of the MemBUS paper): window averages, the per-node selection,
# the coordinator's tally of candidate vectors, the reduction order and
# each node's allocation.  Pure C, driven by the node agent coschedd.
#
# SPDX-License-Identifier: GPL-2.0-or-later

LIBMEMBUS := $(O)/lib/libmembus.a
$(eval $(call static_lib,$(LIBMEMBUS),lib/membus/membus.c lib/membus/reduce.c))
TARGETS += $(LIBMEMBUS)

$(eval $(call unit_test,membus/test_membus,testsuite/unit/membus/test_membus.c,$(LIBMEMBUS),-lm))
$(eval $(call unit_test,membus/test_reduce,testsuite/unit/membus/test_reduce.c,$(LIBMEMBUS),-lm))
