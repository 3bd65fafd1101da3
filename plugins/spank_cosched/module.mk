# plugins/spank_cosched - the cosched SPANK plugin (cosched.so): the
# --coalloc, --cosched and --cosched-* options of sbatch/salloc/srun,
# validated at submit time and recorded with the job, and the node side
# (the shim, the node agent, membus peers).  See doc/man/cosched.8.
#
# Uses only the installed public <slurm/spank.h> and <slurm/slurm.h>
# (sites.c looks its calls up at run time), never the Slurm source;
# only the symbols in cosched.map are exported.
#
# SPDX-License-Identifier: GPL-2.0-or-later

SPANK_COSCHED_SRCS := $(addprefix plugins/spank_cosched/,\
	cosched.c options.c submit.c stepd.c layout.c peers.c \
	preload.c preload_value.c sites.c)
SPANK_COSCHED_OBJS := $(patsubst %.c,$(O)/%.o,$(SPANK_COSCHED_SRCS))
SPANK_COSCHED_SO   := $(O)/plugins/cosched.so
# <slurm/spank.h> of the Slurm built for (SLURM=); the installed one's is
# in /usr/include.
NEEDS_SLURM_SRC += $(SPANK_COSCHED_OBJS)

SPANK_COSCHED_LIBS := $(LIBCOSCHED_PROTO) $(O)/lib/libcosched.a \
	$(COALLOC_LIB) $(LIBNUM) $(LIBVERSION)

CFLAGS_plugins/spank_cosched = $(SLURM_PUBLIC_CPPFLAGS)

$(SPANK_COSCHED_SO): $(SPANK_COSCHED_OBJS) $(SPANK_COSCHED_LIBS) \
		plugins/spank_cosched/cosched.map
	@mkdir -p $(@D)
	$(CC) -shared $(ALL_LDFLAGS) \
		-Wl,--version-script=plugins/spank_cosched/cosched.map \
		-o $@.tmp $(SPANK_COSCHED_OBJS) $(SPANK_COSCHED_LIBS)
	@# rename, never overwrite: running daemons have the old file mapped
	mv -f $@.tmp $@

TARGETS += $(SPANK_COSCHED_SO)
INSTALL_PLUGINS += $(SPANK_COSCHED_SO)
INSTALL_MAN += doc/man/cosched.8

# LD_PRELOAD's composition (preload_value.c) has no Slurm dependency:
# tested alone.
$(eval $(call unit_test,spank_cosched/test_preload,testsuite/unit/spank_cosched/test_preload.c plugins/spank_cosched/preload_value.c,,))
CFLAGS_testsuite/unit/spank_cosched := -Iplugins/spank_cosched
