# lib/coalloc_conf - strict parser of coalloc.conf (pure C, no Slurm
# headers); cluster.c: its checks against slurm.conf's nodes and
# partitions, which the select plugin runs on Slurm's tables and
# coalloc-status --check on slurm.conf read by slurm_text.c.
# reserve.c: the slurm.conf priority rule that keeps queue partitions open.
# layout.c: a job's layout as text and environment (cosched.so reads
# the names of layout.h and links nothing of the parser);
# layout_tag.c: the layout word in a job's AdminComment, for sacct;
# plugstack_check.c: GangPortOffset against cosched.so's gang_port_offset.
# Its users link libcosched_proto (the gang port's default, settings.c;
# cosched.so's arguments, args.c), libcosched and $(LIBNUM) after it
# (LIBCOALLOC_CONF_DEPS, then numbers and checked text files).

LIBCOALLOC_CONF := $(O)/lib/libcoalloc_conf.a
$(eval $(call static_lib,$(LIBCOALLOC_CONF),lib/coalloc_conf/coalloc_conf.c lib/coalloc_conf/cluster.c lib/coalloc_conf/slurm_text.c lib/coalloc_conf/reserve.c lib/coalloc_conf/layout_tag.c lib/coalloc_conf/layout.c \
	lib/coalloc_conf/plugstack_check.c))
TARGETS += $(LIBCOALLOC_CONF)
# lib/cosched_proto/module.mk comes later: its library by path, and what
# it needs (plugstack_check.c reads cosched.so's arguments with its parser)
LIBCOALLOC_CONF_DEPS := $(O)/lib/libcosched_proto.a $(O)/lib/libcosched.a

$(eval $(call unit_test,coalloc_conf/test_coalloc_conf,testsuite/unit/coalloc_conf/test_coalloc_conf.c,$(LIBCOALLOC_CONF) $(LIBCOALLOC_CONF_DEPS) $(COALLOC_LIB) $(LIBNUM),))
INSTALL_MAN += doc/man/coalloc.conf.5
$(eval $(call unit_test,coalloc_conf/test_reserve,testsuite/unit/coalloc_conf/test_reserve.c,$(LIBCOALLOC_CONF),))
$(eval $(call unit_test,coalloc_conf/test_layout_tag,testsuite/unit/coalloc_conf/test_layout_tag.c,$(LIBCOALLOC_CONF),))
$(eval $(call unit_test,coalloc_conf/test_plugstack_check,testsuite/unit/coalloc_conf/test_plugstack_check.c,$(LIBCOALLOC_CONF) $(LIBCOALLOC_CONF_DEPS) $(COALLOC_LIB) $(LIBNUM),))
