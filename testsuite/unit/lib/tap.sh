# tap.sh - what the bash TAP scripts of the unit tests share (sourced;
# they run from the repository root, started by a small C launcher so
# that valgrind checks the launcher, not bash).
#
#   ok STATUS TEXT   a TAP line; counts in $n and $fails
#   TMP              a private directory, removed at exit
#
# SPDX-License-Identifier: GPL-2.0-or-later

n=0
fails=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		fails=$((fails + 1))
	fi
}
