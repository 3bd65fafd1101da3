# Tests of the build's own scripts (mk/): how a Slurm release's source is
# found and checked before anything is configured.
#
# SPDX-License-Identifier: GPL-2.0-or-later

$(eval $(call unit_test,build/test_slurm_fetch,$(SCRIPT_TEST),,))
$(O)/tests/build/test_slurm_fetch.t: testsuite/unit/build/test_slurm_fetch.sh mk/slurm-build.sh
# The include graph: no cycle between files or folders, nothing included
# up from lib/ (mk/include-cycles.pl).
$(eval $(call unit_test,build/test_layers,$(SCRIPT_TEST),,))
$(O)/tests/build/test_layers.t: testsuite/unit/build/test_layers.sh mk/include-cycles.pl
# make check's plan: made after the packages are installed.
$(eval $(call unit_test,build/test_check_plan,$(SCRIPT_TEST),,))
$(O)/tests/build/test_check_plan.t: testsuite/unit/build/test_check_plan.sh Makefile mk/deps.mk
# The integration tests' blocks of ports: one each, none shared.
$(eval $(call unit_test,build/test_ports,$(SCRIPT_TEST),,))
$(O)/tests/build/test_ports.t: testsuite/unit/build/test_ports.sh \
	testsuite/integration/lib/ports.sh mk/slurm-versions
