#!/bin/bash
# test_check_plan.sh - make check plans its test run after installing the
# packages.  On a fresh machine the make that installs them parsed the
# module.mk files without Open MPI, so its lists lack the shim's tests:
# they were either dropped from the run or (with the unlisted-tests
# check) stopped make check at once.  Here a stand-in pkg-config and
# mpicc find Open MPI only once a stand-in deps installer has run, and
# make -n check must plan the shim's tests all the same.  Run by
# $(O)/tests/build/test_check_plan.t (testsuite/unit/lib/script_test.c);
# prove runs from the repository root.  A few seconds.
#
# SPDX-License-Identifier: GPL-2.0-or-later

source testsuite/unit/lib/tap.sh

stamp=$TMP/installed
mkdir -p "$TMP/bin"
# the installer: Open MPI is there from now on
printf '#!/bin/sh\ntouch %q\n' "$stamp" > "$TMP/bin/deps"
# pkg-config and mpicc: nothing until then, the real answers after
for tool in pkg-config mpicc; do
	real=$(command -v "$tool") || real=false
	printf '#!/bin/sh\n[ -e %q ] || exit 1\nexec %q "$@"\n' \
		"$stamp" "$real" > "$TMP/bin/$tool"
done
chmod +x "$TMP/bin/"*

plan=$(make -n check O="$TMP/o" DEPS_INSTALL="$TMP/bin/deps" \
	PKG_CONFIG="$TMP/bin/pkg-config" MPICC="$TMP/bin/mpicc" \
	SLURM_OTHERS= 2>&1)
ok $? "make -n check plans the run" || diag "${plan: -2000}"
[ -e "$stamp" ]
ok $? "the installer ran (make -n too)"
unlike "$plan" "no module.mk builds: [a-z]" "no test counted as unlisted"
like "$plan" "tests/shim/test_shim\\.t" "the shim's test is in the run"

done_testing
