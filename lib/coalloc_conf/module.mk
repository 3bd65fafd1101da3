# lib/coalloc_conf - strict parser of coalloc.conf (pure C, no Slurm
# headers); the select plugin adds the checks against Slurm's tables.
# reserve.c: the slurm.conf priority rule that keeps queue partitions open.
# layout.c: a job's layout as text and environment (cosched.so reads
# the names of layout.h and links nothing of the parser);
# layout_tag.c: the layout word in a job's AdminComment, for sacct.
# Its users link libcosched_proto (the gang port's default, settings.c)
# and $(LIBNUM) after it (numbers, checked text files).

LIBCOALLOC_CONF := $(O)/lib/libcoalloc_conf.a
$(eval $(call static_lib,$(LIBCOALLOC_CONF),lib/coalloc_conf/coalloc_conf.c lib/coalloc_conf/reserve.c lib/coalloc_conf/layout_tag.c lib/coalloc_conf/layout.c))
TARGETS += $(LIBCOALLOC_CONF)
# lib/cosched_proto/module.mk comes later: its library by path
LIBCOALLOC_CONF_DEPS := $(O)/lib/libcosched_proto.a

$(eval $(call unit_test,coalloc_conf/test_coalloc_conf,testsuite/unit/coalloc_conf/test_coalloc_conf.c,$(LIBCOALLOC_CONF) $(LIBCOALLOC_CONF_DEPS) $(COALLOC_LIB) $(LIBNUM),))
INSTALL_MAN += doc/man/coalloc.conf.5
$(eval $(call unit_test,coalloc_conf/test_reserve,testsuite/unit/coalloc_conf/test_reserve.c,$(LIBCOALLOC_CONF),))
$(eval $(call unit_test,coalloc_conf/test_layout_tag,testsuite/unit/coalloc_conf/test_layout_tag.c,$(LIBCOALLOC_CONF),))
