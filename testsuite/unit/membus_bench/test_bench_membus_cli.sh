#!/bin/bash
# test_bench_membus_cli.sh - bench-membus's command line: a bad value of
# every option of the network workload and the takeover run (and of the
# older ones) is refused with a message naming the option and a non-zero
# exit, before anything runs; good ones with --plan print the batches and
# the expected time, exit 0 and start nothing.  Run by
# $(O)/tests/membus_bench/test_bench_membus_cli.t
# (testsuite/unit/lib/script_test.c); prove runs from the repository root.
#
# SPDX-License-Identifier: GPL-2.0-or-later

BENCH=contribs/membus-bench/bench-membus
source testsuite/unit/lib/tap.sh
# the settings table through this build's coschedctl
export BUILD_DIR=$COALLOC_BUILD

# fails_with "description" "pattern" args...: non-zero exit, stderr matches
fails_with() { command_fails "$1" "$2" "$BENCH" --plan "${@:3}"; }

# plans "description" "pattern" args...: exit 0, stdout matches (grep -E)
plans() {
	local desc=$1 pat=$2 rc
	shift 2
	"$BENCH" --plan "$@" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	is "$rc" 0 "$desc: exit 0"
	grep -Eq -- "$pat" "$TMP/out"
	ok $? "$desc: the plan says so" || sed 's/^/# /' "$TMP/out" "$TMP/err" >&2
}

plan 57
fails_with "unknown workload" "unknown workload 'W4'" --workloads W4
fails_with "a workload twice" "W1 given twice" --workloads W1,W3,W1
fails_with "empty workloads" "--workloads: empty" --workloads ''
fails_with "an empty item" "has an empty item" --workloads W1,,W3
fails_with "lower case" "unknown workload 'w3'" --workloads w3
fails_with "--takeover with --workloads" "--takeover runs on its own" --takeover --workloads W1
fails_with "W3 on one host" "W3 needs each node a host of its own" --workloads W3 --same-host
fails_with "--takeover on one host" "--takeover needs each node a host of its own" --takeover --same-host
fails_with "net bytes 0" "--net-bytes: '0'" --net-bytes 0
fails_with "net bytes over netbench's limit" "--net-bytes: at most 67108864" --net-bytes 67108865
fails_with "light bytes not a number" "--light-bytes: '1k'" --light-bytes 1k
fails_with "light compute negative" "--light-compute: '-1'" --light-compute -1
fails_with "light compute over 10 s" "--light-compute: '10000001'" --light-compute 10000001
fails_with "takeover seconds too short" "--takeover-seconds: from 12" --takeover --takeover-seconds 11
fails_with "takeover seconds not a number" "--takeover-seconds: '4x'" --takeover-seconds 4x
fails_with "repeat over 10" "--repeat: at most 10" --repeat 11
fails_with "unknown option" "unknown option '--nodes'" --nodes 4
# the quantum's default and limits are the settings table's
read -r _ q_dflt q_lo q_hi _ < <("$COALLOC_BUILD/bin/coschedctl" settings membus_quantum_ms)
fails_with "quantum below the plugin's lowest" \
	"--quantum-ms: from $q_lo to $q_hi (the plugin's membus_quantum_ms)" --quantum-ms $((q_lo - 1))
fails_with "quantum above its highest" "--quantum-ms: from $q_lo" --quantum-ms $((q_hi + 1))

plans "the defaults" "workloads W1,W2, 4 repetition" 
plans "the default quantum: the plugin's" "quantum $q_dflt ms" 
plans "W3 alone" "network alone, pairs and mixes \\(2 nodes\\): 8 batches of 6 s" --workloads W3
plans "W3 shared" "W3 shared \\(2 nodes\\): 12 batches of 20 s" --workloads W3 --seconds 20 --repeat 6
plans "all three" "W1,W2 shared \\(1 node\\): 8 batches" --workloads W3,W1,W2 --repeat 2 --net-bytes 65536 --light-bytes 1 --light-compute 0
plans "takeover" "takeover \\(4 nodes, kill after 16 s\\): 4 batches of 40 s" --takeover
plans "takeover, quick" "kill after 8 s\\): 1 batches of 20 s" --takeover --quick
plans "takeover, 60 s" "kill after 24 s\\): 6 batches of 60 s" --takeover --takeover-seconds 60 --repeat 6
# without a coschedctl, one error that says why, and the exit is the
# script's own (not read's end of input under set -e)
BUILD_DIR=$TMP/nobuild "$BENCH" --plan > /dev/null 2> "$TMP/err"
is "$?" 1 "no coschedctl: exit 1"
is "$(wc -l < "$TMP/err")+$(grep -c 'coschedctl is missing' "$TMP/err")" "1+1" \
	"  one error, naming coschedctl ($(head -c 200 "$TMP/err"))"
"$BENCH" --plan --workloads W3 --out "$TMP/never" > /dev/null 2>&1
[[ ! -e $TMP/never ]]
ok $? "--plan runs nothing (no output directory made)"
