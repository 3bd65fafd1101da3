#!/bin/bash
# test_table.sh - esp-driver table on results.json files written here:
# the per-run table, the loss shares, and over several seeds the mean E
# with its interval and the difference paired against the best built-in.
# Run by $(O)/tests/esp/test_table.t (testsuite/unit/lib/script_test.c); prove runs from the
# repository root.
#
# SPDX-License-Identifier: GPL-2.0-or-later

DRIVER=${ESP_DRIVER:-${COALLOC_BUILD:-build/release}/bin/esp-driver}
source testsuite/unit/lib/tap.sh

LIN="select/linear, sched/backfill"
CT="select/cons_tres, sched/backfill, suspend preemption"
CO="select/coalloc, gang rows MPL 2, slice 35s, preemption"

result() {	# dir label seed E [finished missing]
	mkdir -p "$1"
	cat >"$1/results.json" <<JSON
{ "label": "$2", "seed": $3, "efficiency": $4, "processors": 32.0,
  "min_time": 420.0, "elapsed": 600.0, "efficiency_with_reboot": $4,
  "z_first_immediate": true, "z_second_within_90": true,
  "completed": 82, "jobs": 82, "finished": ${5:-true}, "missing": ${6:-0},
  "loss": { "idle_waiting": 960.0, "row_switch": 0.0, "launch": 192.0,
            "tail": 1920.0, "z_drain": 0.0, "other": 0.0, "total": 3072.0 } }
JSON
}

plan 28

# one seed: no seed summary; loss shares of P*T = 19200
result "$TMP/one/co" "$CO" 1 0.84
"$DRIVER" table "$TMP/one/co" >"$TMP/one.md"
ok $? "one run: table printed"
grep -q '| select/coalloc, gang rows MPL 2, slice 35s, preemption | 0.050 | 0.000 | 0.010 | 0.100 | 0.000 | 0.000 | 0.160 |' "$TMP/one.md"
ok $? "one run: the loss as shares of P*T"
! grep -q 'Over the seeds' "$TMP/one.md"
ok $? "one run: no seed summary"

# three seeds (as in test_compare.c): coalloc 0.80 0.85 0.84 (mean 0.83,
# sd sqrt(0.0007): +- 4.303 * 0.0153 = 0.066), cons_tres 0.75 0.77 0.79,
# linear 0.70 0.74 0.72 (differences -0.05 -0.03 -0.07: +- 0.050)
e_co=(0.80 0.85 0.84) e_ct=(0.75 0.77 0.79) e_lin=(0.70 0.74 0.72)
dirs=()
for s in 1 2 3; do
	result "$TMP/m/lin/$s" "$LIN" "$s" "${e_lin[s-1]}"
	result "$TMP/m/ct/$s" "$CT" "$s" "${e_ct[s-1]}"
	result "$TMP/m/co/$s" "$CO" "$s" "${e_co[s-1]}"
	dirs+=("$TMP/m/lin/$s" "$TMP/m/ct/$s" "$TMP/m/co/$s")
done
"$DRIVER" table --output "$TMP/m.md" "${dirs[@]}" 2>"$TMP/err"
ok $? "three seeds: table written"
grep -q "| $CO | 3 | 0.830 +- 0.066 | +0.060 +- 0.043 | 3 |" "$TMP/m.md"
ok $? "coalloc: mean E, and +0.060 +- 0.043 against the best built-in"
grep -q "| $CT (best built-in) | 3 | 0.770 +- 0.050 | 0 | 0 |" "$TMP/m.md"
ok $? "cons_tres named the best built-in"
grep -q "| $LIN | 3 | 0.720 +- 0.050 | -0.050 +- 0.050 | 3 |" "$TMP/m.md"
ok $? "linear: -0.050 against it"

# an incomplete run counts as a run but not in E
result "$TMP/m/co/4" "$CO" 4 0.30 false 5
"$DRIVER" table "${dirs[@]}" "$TMP/m/co/4" >"$TMP/inc.md"
grep -q "| $CO | 4 | 0.830 +- 0.066 | +0.060 +- 0.043 | 3 |" "$TMP/inc.md"
ok $? "an incomplete run leaves E and the pairs alone"

"$DRIVER" table "$TMP/nowhere" >/dev/null 2>"$TMP/err"
[ $? -ne 0 ] && grep -q "nowhere/results.json" "$TMP/err"
ok $? "a missing results.json: error naming it"

# esp-driver analyze of a run that ended early (a stalled job): exit 1,
# one line on stderr saying so, nothing else: under valgrind, when there
# is one, so that printing an unset error buffer (it printed garbage in
# a CI run) is caught even when the stack happens to hold zeros
# (not a DEBUG=1 build: ASan and valgrind do not mix; ASan has no
# uninitialised reads to report anyway)
VG=()
command -v valgrind >/dev/null && ! ldd "$DRIVER" 2>/dev/null | grep -q libasan &&
	VG=(valgrind -q --error-exitcode=99)
mkdir -p "$TMP/early"
cat >"$TMP/early/esp.log" <<LOG
1795535190.898943 test mix=esp1 procs=16 work=2880.011 min_time=180.000 reboot=26.020 seed=1 compress=0.012390
1795535190.909804 submit job=1 name=nqclarge-8.2 size=1 block=1 full=0 seconds=27.221
1795535190.919976 submit job=2 name=paratec-256.1 size=8 block=1 full=0 seconds=9.254
1795535193.680128 start job=2 nodes=n[2-9]
1795535193.680702 start job=1 nodes=n1
1795535203.680702 end job=2 run=9.254 suspended=0.000
1795535206.574569 stalled job=1 age=12.897
1795535206.794201 abort
LOG
"${VG[@]}" "$DRIVER" analyze --out "$TMP/early" >"$TMP/early.out" 2>"$TMP/early.err"
ok $(($? != 1)) "analyze of a run that ended early: exit 1${VG:+ (under valgrind)}"
[ "$(cat "$TMP/early.err")" = "esp: 1 job(s) did not complete" ]
ok $? "  and only that on stderr: $(head -c 200 "$TMP/early.err" | tr -c '[:print:]\n' '?' | tr '\n' '|')"

# the front end refuses bad configurations before any cluster starts
ESP=contribs/esp/esp
out=$(ESP_BIN=$(dirname "$DRIVER") "$ESP" compare --configs linear+agents --out "$TMP/no" 2>&1)
[ "$out" = "esp: error: --configs: 'linear+agents': only coalloc has rows the agents switch" ]
ok $? "esp compare: +agents is coalloc's only ($out)"
out=$(ESP_BIN=$(dirname "$DRIVER") "$ESP" run --time-slice 2.5 --out "$TMP/no" 2>&1)
[ "$out" = "esp: error: --time-slice must be whole seconds or milliseconds (200ms), not '2.5'" ]
ok $? "esp run: a time slice in seconds or milliseconds ($out)"
[ ! -e "$TMP/no" ]
ok $? "  and nothing started"
out=$(ESP_BIN=$(dirname "$DRIVER") "$ESP" compare --configs cons_tres+norows --out "$TMP/no" 2>&1)
[ "$out" = "esp: error: --configs: 'cons_tres+norows': only coalloc has rows to switch off" ]
ok $? "esp compare: +norows is coalloc's only ($out)"
out=$(ESP_BIN=$(dirname "$DRIVER") "$ESP" run --rows off --time-slice 2 --out "$TMP/no" 2>&1)
[ "$out" = "esp: error: --time-slice needs gang rows, not --rows off" ]
ok $? "esp run: no time slice without rows ($out)"
out=$(ESP_BIN=$(dirname "$DRIVER") "$ESP" run --rows none --out "$TMP/no" 2>&1)
[ "$out" = "esp: error: --rows must be gang or off, not 'none'" ]
ok $? "esp run: --rows is gang or off ($out)"
out=$(ESP_BIN=$(dirname "$DRIVER") "$ESP" compare --configs linear+smallest --out "$TMP/no" 2>&1)
[ "$out" = "esp: error: --configs: 'linear+smallest': only coalloc has queue orders" ]
ok $? "esp compare: +smallest is coalloc's only ($out)"
out=$(ESP_BIN=$(dirname "$DRIVER") "$ESP" compare --configs coalloc+norows+sjf --out "$TMP/no" 2>&1)
[[ $out == "esp: error: --configs: 'coalloc+norows+sjf': after + comes "* ]]
ok $? "esp compare: an unknown variant among several is named ($out)"
out=$(ESP_BIN=$(dirname "$DRIVER") "$ESP" compare --configs linear+favorsmall,coalloc+favorsmall --out "$TMP/no" 2>&1)
[ "$out" = "esp: error: --configs: 'coalloc+favorsmall': 'favorsmall' tunes a built-in (coalloc has queue orders)" ]
ok $? "esp compare: +favorsmall tunes a built-in only ($out)"
out=$(ESP_BIN=$(dirname "$DRIVER") "$ESP" run --queue-order sjf --out "$TMP/no" 2>&1)
[ "$out" = "esp: error: --queue-order must be slurm, fcfs, firstfit or smallest, not 'sjf'" ]
ok $? "esp run: --queue-order names an order ($out)"
out=$(ESP_BIN=$(dirname "$DRIVER") "$ESP" run --swap --aging 60 --out "$TMP/no" 2>&1)
[ "$out" = "esp: error: --aging needs --queue-order fcfs, firstfit or smallest" ]
ok $? "esp run: --aging only with a queue order ($out)"
[ ! -e "$TMP/no" ]
ok $? "  and nothing started"

# what each configuration starts (--dry-run: nothing is started)
dry() { ESP_BIN=$(dirname "$DRIVER") "$ESP" "$@" --out "$TMP/dry" --dry-run 2>&1; }
out=$(dry run --select coalloc)
[[ $out == *"--sites 1 --nodes-per-site 32 "*"--policy GS --queue-order smallest"*"--matrix off --preempt; select/coalloc, one job per node, QueueOrder=smallest, preemption; partitions grid, preempt" ]]
ok $? "esp run --select coalloc: QueueOrder=smallest, one job per node ($out)"
out=$(dry run --select coalloc --swap)
[[ $out == *"--sites 4 --nodes-per-site 8 "*"--matrix gang --mpl 2 --time-slice "*"; select/coalloc, gang rows MPL 2, slice "*"s, preemption; partitions debug, preempt" && $out != *queue-order* ]]
ok $? "  --swap: the T3E's gang rows in Slurm's order ($out)"
out=$(dry run --select coalloc --time-slice 200ms)
[[ $out == *"--matrix gang --mpl 2 --time-slice 200ms"*"QueueOrder=smallest"* ]]
ok $? "  --time-slice: gang rows ($out)"
out=$(dry compare --configs coalloc,coalloc+swap,coalloc+agents,linear+favorsmall)
[[ $(grep -c "would start" <<<"$out") == 4 && $(grep -c "matrix gang" <<<"$out") == 2 &&
   $out == *"select/linear, sched/backfill, PriorityFavorSmall"* ]]
ok $? "esp compare: coalloc, +swap, +agents and a built-in ($out)"
[ ! -e "$TMP/dry" ]
ok $? "  and nothing started, no directory made"

done_testing
