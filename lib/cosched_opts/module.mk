# lib/cosched_opts - parsing and validation of --cosched-bw=mem=RATE,
# net=RATE (pure C, no Slurm headers): the SPANK plugin, the node agent
# and cosched-bench link it, and $(LIBNUM) after it.  --coalloc's sizes
# are lib/coalloc's (sizes.c), --cosched's modes lib/cosched's (mode.c).
#
# SPDX-License-Identifier: GPL-2.0-or-later

LIBCOSCHED_OPTS := $(O)/lib/libcosched_opts.a
$(eval $(call static_lib,$(LIBCOSCHED_OPTS),lib/cosched_opts/cosched_bw.c))
TARGETS += $(LIBCOSCHED_OPTS)

$(eval $(call unit_test,cosched_opts/test_cosched_bw,testsuite/unit/cosched_opts/test_cosched_bw.c,$(LIBCOSCHED_OPTS) $(LIBNUM),))
