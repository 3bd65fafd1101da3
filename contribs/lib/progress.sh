# contribs/lib/progress.sh - the progress line of the benchmark scripts,
# sourced by them: the rule of lib/progress (C) for bash.  On a terminal
# one line rewritten in place at every update; otherwise a line every
# PROGRESS_EVERY_S seconds (the C header's value, read from it), each to
# stderr; PROGRESS_QUIET=1 (--quiet): nothing.
#
#   progress_show [--force] TEXT...   show the line (when due)
#   progress_end                      close a line left on a terminal
#
# SPDX-License-Identifier: GPL-2.0-or-later

PROGRESS_EVERY_S=$(awk '$1 == "#define" && $2 == "PROGRESS_EVERY_S" { printf "%d", $3 }' \
	"$(dirname "${BASH_SOURCE[0]}")/../../lib/progress/progress.h")
: "${PROGRESS_EVERY_S:=10}"
PROGRESS_QUIET=${PROGRESS_QUIET:-}
_progress_next=0
_progress_on_screen=

progress_show() {
	local force=
	[[ ${1:-} != --force ]] || { force=1; shift; }
	[[ -z $PROGRESS_QUIET ]] || return 0
	if [[ -t 2 ]]; then
		printf '\r%s\033[K' "$*" >&2
		_progress_on_screen=1
	elif [[ -n $force ]] || ((SECONDS >= _progress_next)); then
		printf '%s\n' "$*" >&2
		_progress_next=$((SECONDS + PROGRESS_EVERY_S))
	fi
	return 0
}

progress_end() {
	[[ -z $_progress_on_screen ]] || printf '\n' >&2
	_progress_on_screen=
	return 0
}
