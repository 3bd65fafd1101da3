# lib/num - strict number parsing shared by every component (pure C).
# LIBNUM is defined in the Makefile, before the modules, since modules
# included earlier than this one link it.
#
# SPDX-License-Identifier: GPL-2.0-or-later

$(eval $(call static_lib,$(LIBNUM),lib/num/num.c))
TARGETS += $(LIBNUM)

$(eval $(call unit_test,num/test_num,testsuite/unit/num/test_num.c,$(LIBNUM),))
