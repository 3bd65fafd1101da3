#!/bin/bash
# The ESP test, compressed, on the embedded cluster under select/coalloc
# as make esp runs it (QueueOrder=smallest, one job per node,
# PreemptPartition for the full-configuration jobs): the run completes
# every job of ESP-1, honours both Z rules, and its efficiency is what its
# own log implies (recomputed here from jobs.csv, independently of the C
# analysis).  A second run, the T3E's gang rows (--swap), interrupted
# after its first block cancels its jobs (they log cancelled=1) and stops
# its cluster.
source "$(dirname "$0")/lib/tap.sh"

ESP=$REPO/contribs/esp/esp
[[ -x $BUILD_DIR/bin/esp-driver && -x $BUILD_DIR/bin/esp-work ]] ||
	skip_all "esp-driver or esp-work is missing: run make"

plan 32

rm -rf "$TEST_DIR"
mkdir -p "$TEST_DIR"
RUN=$TEST_DIR/run
NODES=16

# --- a whole run: 2 minutes of theoretical minimum on 16 nodes
"$ESP" run --mix esp1 --select coalloc --nodes $NODES --minutes 2 --seed 3 \
	--out "$RUN" --port-base "$PORT_BASE" >"$TEST_DIR/run.out" 2>&1
rc=$?
diag "$(cat "$TEST_DIR/run.out")"
is "$rc" 0 "esp run completes (exit 0)"

json() { awk -v k="\"$1\"" -F': *' '$1 ~ k { gsub(/[ ,]/, "", $2); print $2; exit }' "$RUN/results.json"; }
check() { awk "BEGIN { exit !($*) }"; }

is "$(json jobs)" 82 "results.json: 82 jobs"
is "$(json completed)" 82 "all 82 completed"
is "$(json missing)" 0 "none missing"
is "$(json processors)" $NODES "P is the cluster's $NODES nodes"
# on failure, the times a CI log keeps even when it keeps little else:
# the verdict and every job that started near the first Z job's submission
is "$(json z_first_immediate)" true "Z rule 1 holds under select/coalloc" ||
	diag "$(grep 'Z rule 1' "$TEST_DIR/run.out")" \
	     "jobs started within 10 s of it (job,name,block,size,full,seconds,submit,start,...):" \
	     "$(awk -F, -v z="$(json z1_submit)" 'NR > 1 && $8 >= z - 1 && $8 <= z + 10' "$RUN/jobs.csv")"
is "$(json z_second_within_90)" true "Z rule 2 holds under select/coalloc"

# Recompute from jobs.csv: W = sum(size x planned seconds), T = last end,
# busy = sum(size x running seconds).  Columns: job,name,block,size,full,
# seconds,submit,start,end,run,suspended,nodes.
read -r W T BUSY ROWS BAD < <(awk -F, 'NR > 1 {
	w += $4 * $6; busy += $4 * $10; if ($9 > t) t = $9; n++
	if ($8 < $7 || $9 < $8 + 0.95 * $6) bad++
} END { printf "%f %f %f %d %d\n", w, t, busy, n, bad }' "$RUN/jobs.csv")
is "$ROWS" 82 "jobs.csv: a row per job"
is "$BAD" 0 "every job started after its submission and ran its time"
E=$(json efficiency)
check "($E - $W / ($NODES * $T))^2 < 1e-6"
ok $? "E = $E is W / (P T) from the log ($W / ($NODES x $T))"
check "$E > 0 && $E <= $BUSY / ($NODES * $T) + 1e-6 && $BUSY / ($NODES * $T) <= 1.0001"
ok $? "0 < E <= measured utilization ($BUSY / ($NODES x $T)) <= 1"
check "$T >= 120"
ok $? "T ($T s) is not below the theoretical minimum (120 s)"
EREB=$(json efficiency_with_reboot)
check "$EREB < $E && $EREB > 0"
ok $? "E with the reboot ($EREB) is below E"
[[ -s $RUN/utilization.png ]]
ok $? "the utilization chronology is drawn"
# the loss breakdown: its causes add up to P*T - W from jobs.csv
read -r LTOTAL LSUM < <(python3 -c '
import json, sys
l = json.load(open(sys.argv[1]))["loss"]
print(l["total"], sum(v for k, v in l.items() if k not in ("total", "by_node")))' "$RUN/results.json")
check "($LTOTAL - ($NODES * $T - $W))^2 < 1e-2 && ($LSUM - $LTOTAL)^2 < 1e-4"
ok $? "loss: the causes ($LSUM) add up to total = P*T - W ($LTOTAL)"
grep -q "^  lost: *1 - E = " "$TEST_DIR/run.out"
ok $? "the loss shares are printed"
grep -q "Z rule 1 (first full-configuration job at once): PASS" "$TEST_DIR/run.out"
ok $? "the verdicts are printed"
like "$(cat "$TEST_DIR/run.out")" "esp: [0-9]+/82 jobs done, [0-9]+ running, [0-9]+ suspended, [0-9]+ submitted; [0-9]+ s of [0-9]+ s \(theoretical minimum\); busy [0-9]+ %" \
	"progress lines while it runs (not a terminal: one every 10 s)"
# suspended jobs (a Z job preempting; with --swap's gang rows, the row
# off) are not busy
over=$(grep -o 'busy [0-9]* %' "$TEST_DIR/run.out" | awk '$2 > 100' | head -n1)
is "$over" "" "no progress line says busy over 100 % (suspended rows are not busy)"
grep -q "^esp: 82/82 jobs done" "$TEST_DIR/run.out"
ok $? "... the last with every job done"

# The same directory again is refused: one run per directory.
out=$("$ESP" run --select current --procs 4 --out "$RUN" 2>&1)
rc=$?
ok $((rc == 0)) "a second run into the same directory is refused"
like "$out" "esp.log: File exists \(use a new --out directory\)" "... saying why"

# --- an interrupted run: SIGINT after the first block is running
IRUN=$TEST_DIR/interrupted
setsid "$ESP" run --mix esp1 --select coalloc --swap --nodes $NODES --minutes 3 \
	--out "$IRUN" --port-base $((PORT_BASE + 50)) --quiet >"$TEST_DIR/irun.out" 2>&1 &
pid=$!
wait_until 90 grep -q " start " "$IRUN/esp.log" 2>/dev/null
ok $? "the second run's first jobs start"
sleep 3
kill -INT -- -"$pid"	# the whole group, as a terminal's ^C would
wait "$pid"
is "$?" 130 "interrupted: exit 130"
grep -q " cancelled=1" "$IRUN/esp.log"
ok $? "its running jobs were cancelled (esp-work logged cancelled=1)"
"$SLURM_CLUSTER" status --dir "$IRUN/cluster" >/dev/null 2>&1
is "$?" 3 "its cluster is stopped (slurm-cluster status: not running)"
grep -q "jobs done" "$TEST_DIR/irun.out"
is "$?" 1 "--quiet: no progress line"

# --- a job stopped while Slurm says it runs (a lost resume): the run ends
# early, naming it.  select/linear without preemption: nothing resumes it.
SRUN=$TEST_DIR/stalled
setsid "$ESP" run --mix esp1 --select linear --nodes $NODES --minutes 3 \
	--stall 8 --out "$SRUN" --port-base $((PORT_BASE + 70)) \
	>"$TEST_DIR/srun.out" 2>&1 &
pid=$!
wait_until 90 grep -q " start " "$SRUN/esp.log" 2>/dev/null
work=$(pgrep -f -- "--alive $SRUN/alive" | head -n 1)
job=$(tr '\0' '\n' < "/proc/$work/environ" 2>/dev/null | sed -n 's/^SLURM_JOB_ID=//p')
kill -STOP "$work"
stopped_at=$SECONDS
# (checked every 5 s, submissions still going on or not; then the
# cluster stops, which took 20 s in a CI run where a job launched as it
# was torn down kept its slurmd busy until SIGKILL: early is well under
# the run's 3 minutes, not a race with the harness)
wait_until 60 eval '! kill -0 "$pid" 2>/dev/null'
ok $? "a stopped job ends the run early ($((SECONDS - stopped_at)) s after the stop; --stall 8)"
wait "$pid"
is "$?" 1 "  exit 1"
like "$(cat "$TEST_DIR/srun.out")" "esp: job $job \(esp-[^)]+\) has been stopped for [0-9]+ s while Slurm says it runs" \
	"  the job is named: $(grep 'stopped for' "$TEST_DIR/srun.out")"
grep -q " stalled job=$job " "$SRUN/esp.log"
ok $? "  and logged"
"$SLURM_CLUSTER" status --dir "$SRUN/cluster" >/dev/null 2>&1
is "$?" 3 "  its cluster is stopped"
