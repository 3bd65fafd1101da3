# lib/cosched_opts - parsing and validation of --coalloc=SIZES,
# --cosched=MODE and --cosched-bw=mem=RATE,net=RATE (pure C, no Slurm
# headers).  Linked by the cosched SPANK plugin, the select plugin, the MPI
# shim and cosched-bench.  cosched_bw.c needs lib/num: only the users of
# cosched_parse_bw/cosched_format_bw link $(LIBNUM) after this library.
#
# SPDX-License-Identifier: GPL-2.0-or-later

LIBCOSCHED_OPTS := $(O)/lib/libcosched_opts.a
$(eval $(call static_lib,$(LIBCOSCHED_OPTS),lib/cosched_opts/cosched_opts.c lib/cosched_opts/cosched_bw.c))
TARGETS += $(LIBCOSCHED_OPTS)

$(eval $(call unit_test,cosched_opts/test_cosched_opts,testsuite/unit/cosched_opts/test_cosched_opts.c,$(LIBCOSCHED_OPTS),))
$(eval $(call unit_test,cosched_opts/test_cosched_bw,testsuite/unit/cosched_opts/test_cosched_bw.c,$(LIBCOSCHED_OPTS) $(LIBNUM),))
