# tap.sh - what the bash TAP scripts of the unit tests share (sourced;
# they run from the repository root, started by the one launcher
# testsuite/unit/lib/script_test.c, so that valgrind checks it, not bash).
#
#   ok, is, like, skip, done_testing, ...   testsuite/tap/tap.sh
#   TMP                                     a private directory, removed at exit
#   command_fails                           a refusal: exit and message
#
# SPDX-License-Identifier: GPL-2.0-or-later

source testsuite/tap/tap.sh
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# command_fails "description" "pattern" command args...: the command exits
# non-zero and its stderr matches pattern (grep); stderr goes to the
# diagnostics.
command_fails() {
	local desc=$1 pat=$2 rc
	shift 2
	"$@" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	[ $rc -ne 0 ]
	ok $? "$desc: non-zero exit ($rc)"
	grep -q -- "$pat" "$TMP/err"
	ok $? "$desc: the error names the problem"
	[ -s "$TMP/err" ] && sed 's/^/# /' "$TMP/err" >&2
}
