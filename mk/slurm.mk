# mk/slurm.mk - the installed Slurm, and its configured source tree.
#
# Plugins that use Slurm's internal API compile against the source of the
# exact installed build (config.h included); see mk/slurm-src.sh.

SLURM_SRC      := $(BUILD)/slurm-src
SLURM_CONFIG_H := $(SLURM_SRC)/config.h
SLURM_INTERNAL_CPPFLAGS := -I$(SLURM_SRC) -I$(SLURM_SRC)/slurm
MULTIARCH := $(shell dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -dumpmachine)
# Debian's slurmctld looks here by default; override for other builds.
PLUGINDIR ?= /usr/lib/$(MULTIARCH)/slurm-wlm

.PHONY: slurm-src
slurm-src:
	@mk/slurm-src.sh $(SLURM_SRC)

$(SLURM_CONFIG_H):
	@mk/slurm-src.sh $(SLURM_SRC)
