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

d=$(tree folders 'agent/a.h=#include "boost/b.h"\n' 'agent/boost/b.h=#include "c.h"\n' \
	'agent/boost/c.h=#include "a.h"\n')
out=$(perl "$CYCLES" "$d")
is $? 1 "two folders that include each other: found"
like "$out" "folder cycle: agent agent/boost" "... and named"
d=$(tree files 'lib/x/a.h=#include "b.h"\n' 'lib/x/b.h=#include "a.h"\n')
out=$(perl "$CYCLES" "$d")
is $? 1 "two headers that include each other: found"
like "$out" "file cycle: lib/x/a.h lib/x/b.h" "... and named"
d=$(tree up 'lib/x/a.c=#include "agent.h"\n' 'agent/agent.h=/* */\n')
out=$(perl "$CYCLES" "$d")
is $? 1 "lib/ including the agent: found"
like "$out" "up from lib/: lib/x/a.c -> agent/agent.h" "... and named"
d=$(tree clean 'lib/x/a.c=#include "x/a.h"\n#include <stdio.h>\n' 'lib/x/a.h=/* */\n')
out=$(perl "$CYCLES" "$d")
is $? 0 "a tree without any: exit 0 ($out)"
done_testing
