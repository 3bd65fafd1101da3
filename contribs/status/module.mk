# contribs/status - coalloc-status(1): sites, queues and the matrix as
# select/coalloc sees them (from the plugin's status file).

CFLAGS_contribs/status := $(JSONC_CFLAGS)
COALLOC_STATUS := $(O)/bin/coalloc-status
$(eval $(call program,$(COALLOC_STATUS),contribs/status/coalloc-status.c,,$(JSONC_LIBS) -lslurm))
TARGETS += $(COALLOC_STATUS)
INSTALL_BINS += $(COALLOC_STATUS)
INSTALL_MAN += doc/man/coalloc-status.1
