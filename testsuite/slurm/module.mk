# Slurm's own testsuite against the embedded cluster, select/linear versus
# select/coalloc (testsuite/slurm/run-slurm-testsuite; the selection and the
# reasons for what is left out are in testsuite/slurm/tests.list for 22.05.8,
# tests-24.11.list for 24.11.5, tests-26.05.list for 26.05.3).  SLURM= picks
# the release (its testsuite, daemons and our build for it); from 25.11 the
# tarball has no expect/python testsuite and SLURM_TESTSUITE=DIR names a
# testsuite/ tree of upstream's master (doc/slurm-testsuite.md).  Slow
# (about 15 minutes): not part of 'make check'.  Fails when a selected test
# passes with select/linear but not with select/coalloc.
#
#   make check-slurm-testsuite [SLURM=24.11] [SLURM_TESTSUITE_FLAGS='--only test1\.']
#   make check-slurm-testsuite SLURM=26.05 SLURM_TESTSUITE=DIR
#
# SPDX-License-Identifier: GPL-2.0-or-later

SLURM_TESTSUITE_FLAGS ?= --parallel

.PHONY: check-slurm-testsuite
check-slurm-testsuite:
	$(MAKE) slurm-src
	$(MAKE) DEBUG=0 all
	testsuite/slurm/run-slurm-testsuite --slurm $(SLURM) --select both $(SLURM_TESTSUITE_FLAGS)
