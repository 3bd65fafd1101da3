# mk/slurm-version.mk - the Slurm release to build for: SLURM=SERIES, one
# of the series in mk/slurm-versions (default: the installed 22.05).
#
# The installed release builds into build/release and build/debug as
# always; another into build/release-SERIES and build/debug-SERIES, so
# the two never mix objects.

SLURM ?= 22.05
# (the lines that start with a digit: no '#' in make's $(shell))
SLURM_SUPPORTED := $(shell awk '/^[0-9]/ { print $$1 }' mk/slurm-versions)
ifeq ($(filter $(SLURM),$(SLURM_SUPPORTED)),)
$(error SLURM=$(SLURM) is not supported; supported: $(SLURM_SUPPORTED))
endif
SLURM_UPSTREAM := $(shell awk -v s='$(SLURM)' '$$1 == s { print $$2 }' mk/slurm-versions)
SLURM_ORIGIN := $(shell awk -v s='$(SLURM)' '$$1 == s { print $$3 }' mk/slurm-versions)
ifeq ($(SLURM_ORIGIN),installed)
SLURM_TREE_SUFFIX :=
else
SLURM_TREE_SUFFIX := -$(SLURM)
endif

# Who loads the select plugin (mk/slurm-versions' SELECT): "yes" when
# every command and daemon does (before 25.05), empty when slurmctld alone.
SLURM_SELECT_EVERYWHERE := $(shell awk -v s='$(SLURM)' '$$1 == s && $$4 == "all" { print "yes" }' mk/slurm-versions)

