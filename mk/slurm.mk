# mk/slurm.mk - the Slurm to build against, and its configured source tree.
#
# Plugins that use Slurm's internal API compile against the source of the
# exact build the daemons run (config.h included):
#  - the installed release: Debian's source of the installed package,
#    configured as Debian did (mk/slurm-src.sh), in build/slurm-src;
#  - another (mk/slurm-versions): built from Debian 13's upstream tarball
#    into a cache (mk/slurm-build.sh); build/slurm-SERIES links to it, with
#    the configured, built source in src/ and the installed tree in prefix/.

MULTIARCH := $(shell dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -dumpmachine)
ifeq ($(SLURM_ORIGIN),installed)
SLURM_SRC      := $(BUILD)/slurm-src
SLURM_READY    := $(SLURM_SRC)/config.h
SLURM_FETCH    := mk/slurm-src.sh $(SLURM_SRC)
SLURM_PUBLIC_CPPFLAGS :=
SLURM_PUBLIC_LIBS := -lslurm
# Debian's slurmctld looks here by default; override for other builds.
PLUGINDIR ?= /usr/lib/$(MULTIARCH)/slurm-wlm
else
SLURM_HOME     := $(BUILD)/slurm-$(SLURM)
SLURM_SRC      := $(SLURM_HOME)/src
SLURM_READY    := $(SLURM_HOME)/.coalloc-built
SLURM_FETCH    := mk/slurm-build.sh $(SLURM) $(SLURM_HOME)
SLURM_PUBLIC_CPPFLAGS := -I$(SLURM_HOME)/prefix/include
SLURM_PUBLIC_LIBS := -L$(SLURM_HOME)/prefix/lib \
	-Wl,-rpath,$(abspath $(SLURM_HOME))/prefix/lib -lslurm
PLUGINDIR ?= $(abspath $(SLURM_HOME))/prefix/lib/slurm
endif
SLURM_CONFIG_H := $(SLURM_SRC)/config.h
SLURM_INTERNAL_CPPFLAGS := -I$(SLURM_SRC) -I$(SLURM_SRC)/slurm

.PHONY: slurm-src
slurm-src:
	@$(SLURM_FETCH)

$(SLURM_READY):
	@$(SLURM_FETCH)
