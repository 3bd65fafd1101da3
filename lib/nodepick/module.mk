# lib/nodepick - node-exclusive node selection (pure C, no Slurm headers).

LIBNODEPICK := $(O)/lib/libnodepick.a
$(eval $(call static_lib,$(LIBNODEPICK),lib/nodepick/nodepick.c))
TARGETS += $(LIBNODEPICK)

$(eval $(call unit_test,nodepick/test_nodepick,testsuite/unit/nodepick/test_nodepick.c,$(LIBNODEPICK),))
