# contribs/status - coalloc-status(1): sites, queues and the matrix as
# select/coalloc sees them (from the plugin's status file), as text, JSON
# or metrics for node-exporter (prometheus.c); the JSON is read with
# lib/coalloc_status.

CFLAGS_contribs/status := $(SLURM_PUBLIC_CPPFLAGS) $(JSONC_CFLAGS)
COALLOC_STATUS := $(O)/bin/coalloc-status
$(eval $(call program,$(COALLOC_STATUS),contribs/status/coalloc-status.c contribs/status/prometheus.c contribs/status/check.c,$(LIBCOALLOC_STATUS) $(LIBCOALLOC_CONF) $(LIBCOALLOC_CONF_DEPS) $(COALLOC_LIB) $(LIBNUM) $(LIBPROMTEXT) $(LIBVERSION),$(JSONC_LIBS) $(SLURM_PUBLIC_LIBS) -lm))
NEEDS_SLURM_SRC += $(O)/contribs/status/coalloc-status.o
TARGETS += $(COALLOC_STATUS)
INSTALL_BINS += $(COALLOC_STATUS)
INSTALL_MAN += doc/man/coalloc-status.1

# --check on good and bad configuration files (check.c)
$(eval $(call unit_test,coalloc_status/test_check,$(SCRIPT_TEST),,))
$(O)/tests/coalloc_status/test_check.t: testsuite/unit/coalloc_status/test_check.sh \
	$(COALLOC_STATUS)
