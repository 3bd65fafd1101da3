#!/bin/bash
# The benchmark scripts' progress line (contribs/lib/progress.sh, the rule
# of lib/progress for bash): not on a terminal, a line at the first update
# and then one every PROGRESS_EVERY_S seconds (the C header's value) and
# at a forced one; on a terminal (script(1)) every update rewrites the
# line in place; quiet, nothing.  No cluster.
source "$(dirname "$0")/lib/tap.sh"
plan 5

LIB=$REPO/contribs/lib/progress.sh
EVERY=$(awk '$2 == "PROGRESS_EVERY_S" { printf "%d", $3 }' "$REPO/lib/progress/progress.h")

out=$(bash -c 'source "$1"; echo "$PROGRESS_EVERY_S"' _ "$LIB")
is "$out" "$EVERY" "the interval is lib/progress's ($EVERY s)"

# SECONDS set by hand: the updates at 0, 1, EVERY and, forced, EVERY + 1 s.
out=$(bash -c 'source "$1"; SECONDS=0; progress_show step 1; SECONDS=1
	progress_show step 2; SECONDS=$2; progress_show step 3
	SECONDS=$(($2 + 1)); progress_show --force step 4; progress_end' \
	_ "$LIB" "$EVERY" 2>&1 >/dev/null)
is "$out" $'step 1\nstep 3\nstep 4' "not a terminal: the first, one every $EVERY s, the forced one"

out=$(PROGRESS_QUIET=1 bash -c 'source "$1"; progress_show --force x; progress_end' _ "$LIB" 2>&1)
is "$out" "" "quiet: nothing"

if command -v script >/dev/null; then
	out=$(script -qec "bash -c 'source $LIB; progress_show a longer one; progress_show short; progress_end'" /dev/null | od -An -c | tr -s ' ' | tr -d '\n')
	like "$out" '\\r a l o n g e r o n e 033 \[ K \\r s h o r t 033 \[ K' "a terminal: each update rewrites the line"
	like "$out" 'K \\r \\n$|K \\n$' "... and the end closes it"
else
	ok 0 "# SKIP no script(1) for a terminal"
	ok 0 "# SKIP no script(1) for a terminal"
fi
