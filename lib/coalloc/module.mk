# lib/coalloc - the pure C co-allocation core (no Slurm headers): queue
# policies, Worst Fit placement, the Ousterhout matrix, the site limit
# (limits.h), --coalloc's requests (sizes.c) and their check against
# the sites (shape.c), and the waiting preempting jobs (hold.c).  Linked by the simulator
# (contribs/sim), the select plugin and the SPANK plugin; statefile.c,
# sizes.c and shape.c need lib/num: their users link $(LIBNUM) after.
#
# SPDX-License-Identifier: GPL-2.0-or-later

COALLOC_LIB := $(O)/lib/libcoalloc.a
COALLOC_SRCS := lib/coalloc/rng.c lib/coalloc/idmap.c lib/coalloc/policy.c \
	lib/coalloc/placement.c lib/coalloc/engine.c lib/coalloc/matrix.c \
	lib/coalloc/statefile.c lib/coalloc/resend.c lib/coalloc/reason.c \
	lib/coalloc/sizes.c lib/coalloc/site_name.c lib/coalloc/shape.c \
	lib/coalloc/hold.c lib/coalloc/order.c lib/coalloc/route.c \
	lib/coalloc/walk.c

$(eval $(call static_lib,$(COALLOC_LIB),$(COALLOC_SRCS)))
TARGETS += $(COALLOC_LIB)

# Unit and property tests (TAP), sources under testsuite/unit/coalloc/.
$(eval $(call unit_test,coalloc/test_engine,testsuite/unit/coalloc/test_engine.c,$(COALLOC_LIB),-lm))
$(eval $(call unit_test,coalloc/test_matrix,testsuite/unit/coalloc/test_matrix.c,$(COALLOC_LIB),-lm))
# statefile.c reads numbers with lib/num: its users link $(LIBNUM) after.
$(eval $(call unit_test,coalloc/test_statefile,testsuite/unit/coalloc/test_statefile.c,$(COALLOC_LIB) $(LIBNUM),))
$(eval $(call unit_test,coalloc/test_resend,testsuite/unit/coalloc/test_resend.c,$(COALLOC_LIB),))
$(eval $(call unit_test,coalloc/test_walk,testsuite/unit/coalloc/test_walk.c,$(COALLOC_LIB),))
$(eval $(call unit_test,coalloc/test_props,testsuite/unit/coalloc/test_props.c,$(COALLOC_LIB),-lm))
$(eval $(call unit_test,coalloc/test_sizes,testsuite/unit/coalloc/test_sizes.c,$(COALLOC_LIB) $(LIBNUM),))
$(eval $(call unit_test,coalloc/test_shape,testsuite/unit/coalloc/test_shape.c,$(COALLOC_LIB) $(LIBNUM),))
$(eval $(call unit_test,coalloc/test_hold,testsuite/unit/coalloc/test_hold.c,$(COALLOC_LIB),))
$(eval $(call unit_test,coalloc/test_order,testsuite/unit/coalloc/test_order.c,$(COALLOC_LIB),-lm))
