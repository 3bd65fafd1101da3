# lib/progress - the progress line of long runs: rewritten in place on a
# terminal, a line every few seconds otherwise (pure C).
#
# SPDX-License-Identifier: GPL-2.0-or-later

LIBPROGRESS := $(O)/lib/libprogress.a
$(eval $(call static_lib,$(LIBPROGRESS),lib/progress/progress.c))
TARGETS += $(LIBPROGRESS)

$(eval $(call unit_test,progress/test_progress,testsuite/unit/progress/test_progress.c,$(LIBPROGRESS),))
