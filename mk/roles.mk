# mk/roles.mk - what make install puts on each kind of host: what Slurm
# loads there, for the release built for (mk/slurm-versions' SELECT).
# One table for make install ROLE=, the packages (34-deb checks them
# against it) and slurm-cluster --roles.
#
#   controller  slurmctld: select/coalloc, and from 25.05 on
#               node_features/coalloc, which carries its status to the
#               clients; coalloc-status, the Grafana dashboard and the
#               Prometheus alert rules (contribs/monitoring).
#   compute     slurmd and slurmstepd: the SPANK plugin's node side, the
#               agent (and its systemd units), the MPI shim; from 25.05 on
#               node_features/coalloc (slurmd loads NodeFeaturesPlugins
#               too), before 25.05 select/coalloc (every daemon loads it).
#   login       sbatch, salloc, srun, squeue, scontrol: the SPANK plugin
#               (the options), coalloc-status; before 25.05 select/coalloc
#               (every command loads it).
#   tools       the simulators, ESP and the benchmarks (no Slurm daemon).
#   all         everything (the default).
# ROLE takes several, comma-separated: make install ROLE=controller,login.
#
# SPDX-License-Identifier: GPL-2.0-or-later

ROLES_KNOWN := controller compute login tools

# before 25.05 every host loads the select plugin; after, the status goes
# through node_features/coalloc, which slurmctld and slurmd load
SELECT_EVERY_HOST := $(if $(SLURM_SELECT_EVERYWHERE),select_coalloc.so select_coalloc.8 coalloc.conf.5)
PAIRS_PLUGIN := $(if $(SLURM_SELECT_EVERYWHERE),,node_features_coalloc.so)

ROLE_FILES_controller := select_coalloc.so select_coalloc.8 coalloc.conf.5 \
	$(PAIRS_PLUGIN) coalloc-status coalloc-status.1 monitoring-files
ROLE_FILES_compute := cosched.so cosched.8 coschedd coschedd.8 coschedctl \
	coschedctl.1 libcosched_mpi.so cosched_mpi.7 systemd-units \
	$(PAIRS_PLUGIN) $(SELECT_EVERY_HOST)
ROLE_FILES_login := cosched.so cosched.8 coalloc-status coalloc-status.1 \
	$(SELECT_EVERY_HOST)
ROLE_FILES_tools := coalloc-sim coalloc-sim.1 esp esp.1 esp-driver esp-mixes \
	esp-sim esp-sim.1 esp-work esp-work.1 cosched-bench membench membench.1 \
	netbench netbench.1

# From the command line only: a ROLE of the environment is not ours.
ifneq ($(origin ROLE),command line)
ROLE := all
endif
comma := ,
ROLES := $(subst $(comma), ,$(ROLE))
ifeq ($(strip $(ROLES)),)
$(error ROLE= names no role; roles: all $(ROLES_KNOWN))
endif
ifneq ($(filter-out all $(ROLES_KNOWN),$(ROLES)),)
$(error ROLE=$(ROLE): unknown role '$(firstword $(filter-out all $(ROLES_KNOWN),$(ROLES)))'; roles: all $(ROLES_KNOWN))
endif
ROLE_FILES := $(sort $(foreach r,$(ROLES_KNOWN),$(if $(filter all $(r),$(ROLES)),$(ROLE_FILES_$(r)))))

# $(call for_role,PATHS): those of PATHS the roles get, by file name
for_role = $(foreach f,$(1),$(if $(filter $(notdir $(f)),$(ROLE_FILES)),$(f)))
# $(call role_has,NAME): non-empty when the roles get NAME
role_has = $(filter $(1),$(ROLE_FILES))

# Every installed file has a role: a new one missing here fails the
# build's install, not a site's login node.
ROLE_FILES_ALL := $(sort $(foreach r,$(ROLES_KNOWN),$(ROLE_FILES_$(r))))
role_check = $(foreach f,$(notdir $(INSTALL_PLUGINS) $(INSTALL_BINS) \
	$(INSTALL_SBINS) $(INSTALL_LIBS) $(INSTALL_MAN)),$(if $(filter $(f),$(ROLE_FILES_ALL)),,$(f)))
