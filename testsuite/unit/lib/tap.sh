# tap.sh - what the bash TAP scripts of the unit tests share (sourced;
# they run from the repository root, started by the one launcher
# testsuite/unit/lib/script_test.c, so that valgrind checks it, not bash).
#
#   ok, is, like, skip, done_testing, ...   testsuite/tap/tap.sh
#   TMP                                     a private directory, removed at exit
#
# SPDX-License-Identifier: GPL-2.0-or-later

source testsuite/tap/tap.sh
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
