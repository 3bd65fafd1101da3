#!/bin/bash
# test_layers.sh - mk/include-cycles.pl on this tree: no include cycle
# between files or folders, and lib/ includes nothing above it; and on
# small trees made here, that it finds a folder cycle, a file cycle and
# an include up from lib/.  Run by $(O)/tests/build/test_layers.t
# (testsuite/unit/lib/script_test.c); prove runs from the repository
# root.  About a second.
#
# SPDX-License-Identifier: GPL-2.0-or-later

source testsuite/unit/lib/tap.sh
CYCLES=$PWD/mk/include-cycles.pl

out=$(perl "$CYCLES" . 2>&1)
ok $? "this tree: no cycle, nothing up from lib/ ($out)"

# tree NAME FILE=TEXT...: a git repository with those files
tree() {
	local dir=$TMP/$1 f
	shift
	mkdir -p "$dir"
	git -C "$dir" init -q
	for f in "$@"; do
		mkdir -p "$dir/$(dirname "${f%%=*}")"
		printf '%b' "${f#*=}" > "$dir/${f%%=*}"
	done
	git -C "$dir" add -A
	echo "$dir"
}

# finds NAME "what" PATTERN FILE=TEXT...: the script exits 1 on that
# tree and its output names the fault
finds() {
	local name=$1 what=$2 pat=$3 d out
	shift 3
	d=$(tree "$name" "$@")
	out=$(perl "$CYCLES" "$d")
	is $? 1 "$what: found"
	like "$out" "$pat" "... and named"
}

finds folders "two folders that include each other" "folder cycle: agent agent/boost" \
	'agent/a.h=#include "boost/b.h"\n' 'agent/boost/b.h=#include "c.h"\n' \
	'agent/boost/c.h=#include "a.h"\n'
finds files "two headers that include each other" "file cycle: lib/x/a.h lib/x/b.h" \
	'lib/x/a.h=#include "b.h"\n' 'lib/x/b.h=#include "a.h"\n'
finds up "lib/ including the agent" "up from lib/: lib/x/a.c -> agent/agent.h" \
	'lib/x/a.c=#include "agent.h"\n' 'agent/agent.h=/* */\n'
d=$(tree clean 'lib/x/a.c=#include "x/a.h"\n#include <stdio.h>\n' 'lib/x/a.h=/* */\n')
out=$(perl "$CYCLES" "$d")
is $? 0 "a tree without any: exit 0 ($out)"
done_testing
