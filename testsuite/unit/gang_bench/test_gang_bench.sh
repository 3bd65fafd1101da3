#!/bin/bash
# test_gang_bench.sh - contribs/gang-bench on a small scale: every table
# of both protocols reaches its socket and a sealed one passes the
# receiver's checks (credential, tag, table for that node), the veth sink
# sends them all, and the summary compares the two protocols.  Bad
# options are refused.  Run by $(O)/tests/gang_bench/test_gang_bench.t
# (testsuite/unit/lib/script_test.c); prove runs from the repository root.
# About 2 s.
#
# SPDX-License-Identifier: GPL-2.0-or-later

source testsuite/unit/lib/tap.sh
BENCH=${COALLOC_BUILD:-build/release}/bin/gang-bench
DRIVER=contribs/gang-bench/bench-gang-tables

if [[ $(id -u) != 0 || ! -x /usr/sbin/munged || ! -x $BENCH ]]; then
	echo "1..0 # SKIP needs root, /usr/sbin/munged and $BENCH"
	exit 0
fi

"$DRIVER" --gang-bench "$BENCH" --nodes 64 --passes 2 --repeat 1 > "$TMP/out" 2>&1
ok $? "bench-gang-tables runs at 64 nodes"
line() { grep "^mode=$1 sink=$2 " "$TMP/out"; }
field() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p"; }
for mode in per-node sealed; do
	l=$(line "$mode" loopback)
	is "$(field sent <<< "$l")/$(field received <<< "$l")/$(field refused <<< "$l")" "128/128/0" \
		"$mode over loopback: 2 passes x 64 tables sent and received, none refused"
	l=$(line "$mode" dummy)
	is "$(field sent <<< "$l")/$(field failed <<< "$l")" "128/0" "$mode through the veth: every table sent"
done
is "$(field verified <<< "$(line sealed loopback)")" 128 \
	"every sealed table verified: credential, tag, and a table for the node it reached"
like "$(cat "$TMP/out")" "64 nodes, loopback: median [0-9.]+x" "the summary gives the ratio of the two protocols"
"$DRIVER" --gang-bench "$BENCH" --passes 0 > "$TMP/bad" 2>&1
is "$?" 2 "--passes 0 is refused"
"$BENCH" --munge-socket /nonexistent --nodes 0 > "$TMP/bad" 2>&1
is "$?" 2 "gang-bench refuses --nodes 0"
done_testing
