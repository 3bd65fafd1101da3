# The test runner's own test (testsuite/tap/run-tests): a bash TAP script
# behind the unit tests' one launcher (testsuite/unit/lib/script_test.c).
#
# SPDX-License-Identifier: GPL-2.0-or-later

$(eval $(call unit_test,tap/test_run_tests,$(SCRIPT_TEST),,))
$(O)/tests/tap/test_run_tests.t: testsuite/unit/tap/test_run_tests.sh testsuite/tap/run-tests
