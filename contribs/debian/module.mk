# contribs/debian - 'make deb': Debian binary packages built by
# dpkg-buildpackage (debhelper) for the installed Slurm, into build/deb:
#   coalloc-select     select_coalloc.so and coalloc-status: every host
#                      (Slurm 22.05 loads the select plugin in every
#                      command and daemon); the exact Slurm build
#   coalloc-slurmctld  the controller: coalloc-select and an example
#                      coalloc.conf
#   coalloc-cosched    cosched.so, coschedd, coschedctl, the MPI shim, a
#                      plugstack.conf.d snippet, the systemd units: every
#                      compute node and login host; same Slurm release
#                      series, and coalloc-select
#   coalloc-tools      simulators, ESP, benchmarks: no Slurm daemon needed
# Split by where each part runs (mk/roles.mk; 34-deb checks that a
# host's packages hold what make install gives its role), so that a
# laptop running the simulators needs no Slurm at all.
# The package version is VERSION's (native); the tree is copied (without
# build/ and .git) to build/deb/coalloc-VERSION, this folder becomes its
# debian/, and the configured Slurm source of this build is linked in.
#
# SPDX-License-Identifier: GPL-2.0-or-later

DEB_DIR := $(BUILD)/deb
DEB_TREE := $(DEB_DIR)/coalloc-$(COALLOC_VERSION)
DEB_ARCH := $(shell dpkg-architecture -qDEB_HOST_ARCH 2>/dev/null)
DEB_PACKAGES := coalloc-select coalloc-slurmctld coalloc-cosched coalloc-tools
DEB_FILES := $(foreach p,$(DEB_PACKAGES),$(DEB_DIR)/$(p)_$(COALLOC_VERSION)_$(DEB_ARCH).deb)

.PHONY: deb
deb: deps
	$(MAKE) slurm-src
	@[ "$(SLURM_ORIGIN)" = installed ] || { echo "make deb: packages are for the installed Slurm, not SLURM=$(SLURM)" >&2; exit 2; }
	rm -rf $(DEB_DIR)
	mkdir -p $(DEB_TREE)/build
	tar -c --exclude=./build --exclude=./.git . | tar -x -C $(DEB_TREE)
	cp -r contribs/debian $(DEB_TREE)/debian
	ln -s $(abspath $(SLURM_SRC)) $(DEB_TREE)/build/slurm-src
	printf '%s\n\n  * %s\n\n -- %s  %s\n' \
		'coalloc ($(COALLOC_VERSION)) unstable; urgency=medium' \
		'Built from the tree by make deb.' \
		'coalloc developers <root@localhost>' "$$(date -R)" \
		> $(DEB_TREE)/debian/changelog
	cd $(DEB_TREE) && dpkg-buildpackage -b -us -uc -j2 > ../build.log 2>&1 || \
		{ tail -n 40 ../build.log; exit 1; }
	@ls $(DEB_FILES)
