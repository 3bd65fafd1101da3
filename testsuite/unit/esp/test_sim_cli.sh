#!/bin/bash
# test_sim_cli.sh - esp-sim's queue orders (select/coalloc's QueueOrder=):
# --policy firstfit and smallest run ESP-1 and are labelled so; --aging
# bounds the wait and is refused where it means nothing; smallest beats
# FCFS on ESP-1 at 32 processors over 10 seeds (the simulation behind
# QueueOrder=smallest).
# Run by $(O)/tests/esp/test_sim_cli.t (testsuite/unit/lib/script_test.c);
# prove runs from the repository root.  About 1 s.
#
# SPDX-License-Identifier: GPL-2.0-or-later

source testsuite/unit/lib/tap.sh
SIM=${ESP_SIM:-${COALLOC_BUILD:-build/release}/bin/esp-sim}
[[ -x $SIM ]] || { echo "Bail out! no esp-sim built"; exit 255; }
MIX=contribs/esp/esp1.mix

# e POLICY [options]: mean E over seeds 1..10 at 32 processors, Z preempting
e() {
	local p=$1; shift
	"$SIM" --mix "$MIX" --procs 32 --seeds 10 --preempt --policy "$p" "$@" |
		awk 'END { for (i = 1; i <= NF; i++) if ($i ~ /^0\.[0-9]+$/) { print $i; exit } }'
}

out=$("$SIM" --mix "$MIX" --procs 32 --policy smallest --preempt 2>&1)
ok $? "--policy smallest runs"
like "$out" "smallest first \+ preempt" "  and is labelled 'smallest first'"
out=$("$SIM" --mix "$MIX" --procs 32 --policy firstfit --aging 3600 --preempt 2>&1)
like "$out" "first fit, aging 3600 s \+ preempt" "--policy firstfit --aging: labelled with the bound"
command_fails "--aging with bff" "only with --policy firstfit or smallest" \
	"$SIM" --mix "$MIX" --policy bff --aging 60
command_fails "--aging negative" "expected seconds >= 0" \
	"$SIM" --mix "$MIX" --policy smallest --aging -1
command_fails "--launch negative" "expected seconds >= 0" \
	"$SIM" --mix "$MIX" --policy smallest --launch -2
command_fails "an unknown policy" "firstfit, smallest or all" \
	"$SIM" --mix "$MIX" --policy sjf

fcfs=$(e fcfs) smallest=$(e smallest) firstfit=$(e firstfit) bounded=$(e smallest --aging 1800)
ok $(awk -v a="$smallest" -v b="$fcfs" 'BEGIN { exit !(a > b + 0.05) }'; echo $?) \
	"ESP-1, 32 processors, 10 seeds: smallest first ($smallest) beats FCFS ($fcfs) by over 0.05"
ok $(awk -v a="$smallest" -v b="$firstfit" 'BEGIN { exit !(a > b) }'; echo $?) \
	"  and first fit ($firstfit)"
ok $(awk -v a="$bounded" -v b="$smallest" 'BEGIN { exit !(a < b) }'; echo $?) \
	"  a bound of 1800 s costs ($bounded): the site drains for the starving job"
done_testing
