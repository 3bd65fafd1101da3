# lib/cosched_opts - parsing and validation of --coalloc=SIZES and
# --cosched=MODE (pure C, no Slurm headers).  Linked by the cosched SPANK
# plugin now; the select plugin and the node agent read the recorded values
# back with it later.
#
# SPDX-License-Identifier: GPL-2.0-or-later

LIBCOSCHED_OPTS := $(O)/lib/libcosched_opts.a
$(eval $(call static_lib,$(LIBCOSCHED_OPTS),lib/cosched_opts/cosched_opts.c))
TARGETS += $(LIBCOSCHED_OPTS)

$(eval $(call unit_test,cosched_opts/test_cosched_opts,testsuite/unit/cosched_opts/test_cosched_opts.c,$(LIBCOSCHED_OPTS),))
