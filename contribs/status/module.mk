# contribs/status - coalloc-status(1): sites, queues and the matrix as
# select/coalloc sees them (from the plugin's status file), as text, JSON
# or metrics for node-exporter (prometheus.c); the JSON is read with
# lib/coalloc_status.

CFLAGS_contribs/status := $(SLURM_PUBLIC_CPPFLAGS) $(JSONC_CFLAGS)
COALLOC_STATUS := $(O)/bin/coalloc-status
$(eval $(call program,$(COALLOC_STATUS),contribs/status/coalloc-status.c contribs/status/prometheus.c,$(LIBCOALLOC_STATUS) $(LIBPROMTEXT) $(LIBVERSION),$(JSONC_LIBS) $(SLURM_PUBLIC_LIBS) -lm))
NEEDS_SLURM_SRC += $(O)/contribs/status/coalloc-status.o
TARGETS += $(COALLOC_STATUS)
INSTALL_BINS += $(COALLOC_STATUS)
INSTALL_MAN += doc/man/coalloc-status.1
