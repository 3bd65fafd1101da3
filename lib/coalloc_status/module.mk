# lib/coalloc_status - select/coalloc's status JSON, both ends (pure C,
# json-c): the node table and the public form (CoallocStatus, without job
# ids under PrivateData=jobs) the plugin writes, and what coalloc-status
# reads.
#
# SPDX-License-Identifier: GPL-2.0-or-later

CFLAGS_lib/coalloc_status := $(JSONC_CFLAGS)
CFLAGS_testsuite/unit/coalloc_status := $(JSONC_CFLAGS)

LIBCOALLOC_STATUS := $(O)/lib/libcoalloc_status.a
$(eval $(call static_lib,$(LIBCOALLOC_STATUS),lib/coalloc_status/write.c lib/coalloc_status/read.c))
TARGETS += $(LIBCOALLOC_STATUS)

$(eval $(call unit_test,coalloc_status/test_status_json,testsuite/unit/coalloc_status/test_status_json.c,$(LIBCOALLOC_STATUS),$(JSONC_LIBS)))
