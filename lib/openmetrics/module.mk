# lib/openmetrics - metrics in the OpenMetrics text format, for the
# --prometheus output of the status tools (pure C).
#
# SPDX-License-Identifier: GPL-2.0-or-later

LIBOPENMETRICS := $(O)/lib/libopenmetrics.a
$(eval $(call static_lib,$(LIBOPENMETRICS),lib/openmetrics/openmetrics.c))
TARGETS += $(LIBOPENMETRICS)

$(eval $(call unit_test,openmetrics/test_openmetrics,testsuite/unit/openmetrics/test_openmetrics.c,$(LIBOPENMETRICS),-lm))
