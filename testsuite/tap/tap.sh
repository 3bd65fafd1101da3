# tap.sh - TAP for the bash tests, the unit scripts' and the integration
# tests' alike (sourced; the C tests have tap.h beside this file).
#
#   plan N                 the plan, first
#   ok STATUS TEXT         a test: passes when STATUS is 0; returns it
#   is GOT WANT TEXT       passes when GOT is WANT, else shows both
#   like GOT REGEX TEXT    passes when GOT matches REGEX
#   unlike GOT REGEX TEXT  passes when it does not
#   skip N REASON          N tests skipped
#   todo STATUS TEXT WHY   a known failure, reported but not counted
#   diag TEXT...           a comment on stderr
#   skip_all REASON, bail_out REASON
#   done_testing           the plan, last, when none was given; its
#                          status says whether every test passed
#
# Counts: $_tap_n tests, $_tap_failed failed.
#
# SPDX-License-Identifier: GPL-2.0-or-later

_tap_n=0
_tap_failed=0
_tap_planned=

plan() { _tap_planned=$1; echo "1..$1"; }
diag() { local l; while IFS= read -r l; do echo "# $l" >&2; done <<< "$*"; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
bail_out() { echo "Bail out! $*"; exit 255; }

ok() {	# status description
	_tap_n=$((_tap_n + 1))
	if [[ $1 == 0 ]]; then
		echo "ok $_tap_n - $2"
	else
		echo "not ok $_tap_n - $2"
		_tap_failed=$((_tap_failed + 1))
	fi
	return "$1"
}

is() {	# got want description
	if [[ $1 == "$2" ]]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diag "  got: '$1'" "  want: '$2'"
		return 1
	fi
}

like() {	# got regex description
	if [[ $1 =~ $2 ]]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diag "  got: '$1'" "  want match: /$2/"
		return 1
	fi
}

unlike() {	# got regex description
	if [[ $1 =~ $2 ]]; then
		ok 1 "$3"
		diag "  got: '$1'" "  must not match: /$2/"
		return 1
	fi
	ok 0 "$3"
}

skip() {	# count reason
	local i
	for ((i = 0; i < $1; i++)); do
		_tap_n=$((_tap_n + 1))
		echo "ok $_tap_n # SKIP $2"
	done
}

# A known failure, reported but not counted (TAP's TODO).
todo() {	# status description reason
	_tap_n=$((_tap_n + 1))
	if [[ $1 == 0 ]]; then echo "ok $_tap_n - $2 # TODO $3"
	else echo "not ok $_tap_n - $2 # TODO $3"; fi
}

done_testing() {
	[[ -n $_tap_planned ]] || echo "1..$_tap_n"
	((_tap_failed == 0))
}
