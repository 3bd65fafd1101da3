# plugins/node_features_coalloc - node_features/coalloc, the companion
# that shows select/coalloc's status to Slurm's clients from Slurm 25.05
# on (compat/ctld_pairs.h).  Before 25.05 select/coalloc does so itself
# and this plugin is not built.  Compiled against the configured Slurm
# source, like select/coalloc; only the symbols in its map are exported.
#
# SPDX-License-Identifier: GPL-2.0-or-later

ifeq ($(SLURM_SELECT_EVERYWHERE),)
NODE_FEATURES_COALLOC_SRCS := \
	plugins/node_features_coalloc/node_features_coalloc.c \
	compat/slurm_release.c
NODE_FEATURES_COALLOC_OBJS := $(patsubst %.c,$(O)/%.o,$(NODE_FEATURES_COALLOC_SRCS))
NODE_FEATURES_COALLOC_SO := $(O)/plugins/node_features_coalloc.so

CFLAGS_plugins/node_features_coalloc := $(SLURM_INTERNAL_CPPFLAGS)
NEEDS_SLURM_SRC += $(NODE_FEATURES_COALLOC_OBJS)

$(NODE_FEATURES_COALLOC_SO): $(NODE_FEATURES_COALLOC_OBJS) $(LIBVERSION) \
		plugins/node_features_coalloc/node_features_coalloc.map
	@mkdir -p $(@D)
	@# -z lazy: a build for another release gets as far as the
	@# constructor that names both (as select/coalloc's)
	$(CC) -shared $(ALL_LDFLAGS) -Wl,-z,lazy \
		-Wl,--version-script=plugins/node_features_coalloc/node_features_coalloc.map \
		-o $@.tmp $(NODE_FEATURES_COALLOC_OBJS) $(LIBVERSION) -ldl
	mv -f $@.tmp $@

TARGETS += $(NODE_FEATURES_COALLOC_SO)
INSTALL_PLUGINS += $(NODE_FEATURES_COALLOC_SO)
endif
