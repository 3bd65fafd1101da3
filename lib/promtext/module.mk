# lib/promtext - metrics in Prometheus' text exposition format (0.0.4),
# which node-exporter's textfile collector and promtool read, for the
# --prometheus output of the status tools (pure C).
#
# SPDX-License-Identifier: GPL-2.0-or-later

LIBPROMTEXT := $(O)/lib/libpromtext.a
$(eval $(call static_lib,$(LIBPROMTEXT),lib/promtext/promtext.c))
TARGETS += $(LIBPROMTEXT)

$(eval $(call unit_test,promtext/test_promtext,testsuite/unit/promtext/test_promtext.c,$(LIBPROMTEXT),-lm))
