# plugins/select_coalloc - the select/coalloc Slurm plugin.
#
# Compiled against the configured Slurm source (internal headers and the
# exact config.h); only the symbols in select_coalloc.map are exported.

SELECT_COALLOC_SRCS := $(addprefix plugins/select_coalloc/,\
	select_coalloc.c entry_select_data.c entry_2205.c entry_2505.c \
	slurm_conf_check.c file_replace.c job_request.c job_resources.c job_test.c node_usage.c \
	nodeinfo.c queues.c sites.c slurm_compat.c state.c status.c \
	timeslice.c gang_tables.c timers.c job_env.c release_order.c \
	preempt_hold.c worker.c) compat/slurm_release.c
SELECT_COALLOC_OBJS := $(patsubst %.c,$(O)/%.o,$(SELECT_COALLOC_SRCS))
SELECT_COALLOC_SO   := $(O)/plugins/select_coalloc.so

CFLAGS_plugins/select_coalloc := $(SLURM_INTERNAL_CPPFLAGS) $(JSONC_CFLAGS)
# the plugins' release check, built against the same Slurm
CFLAGS_compat := $(SLURM_INTERNAL_CPPFLAGS)
NEEDS_SLURM_SRC += $(SELECT_COALLOC_OBJS)

SELECT_COALLOC_LIBS := $(LIBNODEPICK) $(LIBCOALLOC_CONF) $(LIBCOALLOC_CONF_DEPS) \
	$(LIBCOSCHED_PROTO) $(LIBCOSCHED_PROTO_DEPS) $(COALLOC_LIB) \
	$(O)/lib/libcosched.a $(LIBCOALLOC_STATUS) $(LIBNUM) $(LIBVERSION)

$(SELECT_COALLOC_SO): $(SELECT_COALLOC_OBJS) $(SELECT_COALLOC_LIBS) \
		plugins/select_coalloc/select_coalloc.map
	@mkdir -p $(@D)
	@# -z lazy (after ALL_LDFLAGS' -z now): a build for another Slurm
	@# release must load far enough for slurm_compat.c's constructor to
	@# name both releases; Slurm's loader uses RTLD_LAZY for the same reason
	@# the soname lets node_features/coalloc find us (compat/ctld_pairs.h)
	$(CC) -shared $(ALL_LDFLAGS) -Wl,-z,lazy -Wl,-soname,select_coalloc.so \
		-Wl,--version-script=plugins/select_coalloc/select_coalloc.map \
		-o $@.tmp $(SELECT_COALLOC_OBJS) $(SELECT_COALLOC_LIBS) $(JSONC_LIBS) \
		-lmunge
	@# rename, never overwrite: running daemons have the old file mapped
	mv -f $@.tmp $@

TARGETS += $(SELECT_COALLOC_SO)
INSTALL_PLUGINS += $(SELECT_COALLOC_SO)
INSTALL_MAN += doc/man/select_coalloc.8
