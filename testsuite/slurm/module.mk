# Slurm 22.05.8's own testsuite against the embedded cluster, select/linear
# versus select/coalloc (testsuite/slurm/run-slurm-testsuite; the selection
# and the reasons for what is left out are in testsuite/slurm/tests.list).
# Slow (about 10 minutes): not part of 'make check'.  Fails when a selected
# test passes with select/linear but not with select/coalloc.
#
#   make check-slurm-testsuite [SLURM_TESTSUITE_FLAGS='--only test1\.']
#
# SPDX-License-Identifier: GPL-2.0-or-later

SLURM_TESTSUITE_FLAGS ?= --parallel

.PHONY: check-slurm-testsuite
check-slurm-testsuite:
	$(MAKE) slurm-src
	$(MAKE) DEBUG=0 all
	testsuite/slurm/run-slurm-testsuite --select both $(SLURM_TESTSUITE_FLAGS)
