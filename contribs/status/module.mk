# contribs/status - coalloc-status(1): sites, queues and the matrix as
# select/coalloc sees them (from the plugin's status file).

CFLAGS_contribs/status := $(SLURM_PUBLIC_CPPFLAGS) $(JSONC_CFLAGS)
COALLOC_STATUS := $(O)/bin/coalloc-status
$(eval $(call program,$(COALLOC_STATUS),contribs/status/coalloc-status.c,$(LIBVERSION),$(JSONC_LIBS) $(SLURM_PUBLIC_LIBS)))
NEEDS_SLURM_SRC += $(O)/contribs/status/coalloc-status.o
TARGETS += $(COALLOC_STATUS)
INSTALL_BINS += $(COALLOC_STATUS)
INSTALL_MAN += doc/man/coalloc-status.1
