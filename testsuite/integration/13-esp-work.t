#!/bin/bash
# esp-work, the ESP job program, under Slurm: a job suspended with
# scontrol suspend for about 6 s does not count the time stopped (its log
# says so and it ends that much later, in its log and in Slurm's own
# times), while a control job beside it, never suspended, ends on time.
# Both append to one run log, which stays well formed.
source "$(dirname "$0")/lib/tap.sh"

WORK=$BUILD_DIR/bin/esp-work
[[ -x $WORK ]] || skip_all "$WORK is missing: run make"

plan 24

cluster_start --sites 1 --nodes-per-site 2
LOG=$TEST_DIR/run.log
T=10		# running time asked of both jobs
HOLD=6		# seconds between scontrol suspend and resume

# logged JOB EVENT: the job's log lines of that event
logged() { grep -E "^[0-9]+\.[0-9]{6} $2 job=$1( |\$)" "$LOG" 2>/dev/null; }
# field KEY: the value of KEY= in the lines on stdin
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
stamp() { logged "$1" "$2" | head -n1 | cut -d' ' -f1; }
# calc EXPR: awk arithmetic, for the fractional seconds of the log
calc() { awk "BEGIN { print $* }"; }
# true when awk's condition on the numbers holds
check() { awk "BEGIN { exit !($*) }"; }
sq_state() { squeue -h -j "$1" -o %t 2>/dev/null; }
slurm_secs() { date -d "$(job_field "$1" "$2")" +%s; }
started() { [[ $(job_state "$1") == RUNNING ]] && [[ -n $(logged "$1" start) ]]; }

job() { submit -N1 -o "$1.out" --wrap "exec $WORK --seconds $T --log $LOG"; }
a=$(job suspended)
b=$(job control)
wait_until 30 started "$a" && wait_until 30 started "$b"
ok $? "both jobs run and log their start ($a: $(job_state "$a"), $b: $(job_state "$b"))"
like "$(logged "$a" start)" "nodes=$(job_field "$a" NodeList)\$" \
     "  the start line names the job's node"

# --- suspend the first one for HOLD seconds
sleep 2
scontrol suspend "$a"
ok $? "scontrol suspend $a"
t_susp=$SECONDS
wait_until 5 eval 'test "$(sq_state "$a")" = S'
is "$(sq_state "$a")" S "  squeue shows it S"
rest=$((HOLD - (SECONDS - t_susp)))
((rest <= 0)) || sleep "$rest"
is "$(sq_state "$b")" R "  the control job runs on meanwhile"
scontrol resume "$a"
ok $? "scontrol resume $a after ${HOLD} s"
wait_until 5 eval 'test "$(sq_state "$a")" = R'
is "$(sq_state "$a")" R "  squeue shows it R again"

wait_until 40 job_done "$a" && wait_until 40 job_done "$b"
is "$(job_state "$a") $(job_state "$b")" "COMPLETED COMPLETED" "both jobs complete"
is "$(job_field "$a" ExitCode)" 0:0 "  the suspended one with exit code 0"

# --- the suspended job, from its log
susp=$(logged "$a" suspend)
nsusp=$(grep -c . <<< "$susp")
ok $((nsusp >= 1 ? 0 : 1)) "suspended job: $nsusp suspend line(s)"
total=$(awk '{ for (i = 3; i <= NF; i++) { split($i, kv, "=");
		v[kv[1]] = kv[2] } s += v["to"] - v["from"] }
	     END { printf "%.3f", s }' <<< "$susp")
check "$total >= 4.5 && $total <= $HOLD + 1"
ok $? "  stopped ${total} s in all (suspended for ${HOLD} s)"
end=$(logged "$a" end)
run=$(field run <<< "$end")
check "$run >= $T - 1 && $run <= $T + 1"
ok $? "  run=$run, the $T s asked"
check "$(field suspended <<< "$end") - $total < 0.01 && $total - $(field suspended <<< "$end") < 0.01"
ok $? "  end's suspended=$(field suspended <<< "$end") is the sum of the suspend lines"
unlike "$end" "cancelled" "  not cancelled"
wall=$(calc "$(stamp "$a" end) - $(stamp "$a" start)")
check "$wall >= 14"
ok $? "  end - start in the log: $wall s >= 14 (the end moved)"
swall=$(($(slurm_secs "$a" EndTime) - $(slurm_secs "$a" StartTime)))
ok $((swall >= 14 ? 0 : 1)) "  Slurm's EndTime - StartTime: $swall s >= 14"
like "$(cat suspended.out)" "^esp-work: job=$a run=[0-9.]+ suspended=[0-9.]+ wall=" \
     "  the summary line in the job's output"

# --- the control job
is "$(logged "$b" suspend | wc -l)" 0 "control job: no suspend line"
end=$(logged "$b" end)
run=$(field run <<< "$end")
check "$run >= $T - 1 && $run <= $T + 1"
ok $? "  run=$run"
is "$(field suspended <<< "$end")" 0.000 "  suspended=0.000"
wall=$(calc "$(stamp "$b" end) - $(stamp "$b" start)")
check "$wall < 13"
ok $? "  end - start in the log: $wall s < 13"
swall=$(($(slurm_secs "$b" EndTime) - $(slurm_secs "$b" StartTime)))
ok $((swall < 13 ? 0 : 1)) "  Slurm's EndTime - StartTime: $swall s < 13"

# --- the shared log: whole lines only, as lib/esp/runlog.h has them
bad=$(grep -cvE '^[0-9]+\.[0-9]{6} (start job=[0-9]+( restart=[0-9]+)? nodes=[^ ]+|suspend job=[0-9]+( restart=[0-9]+)? from=[0-9]+\.[0-9]{6} to=[0-9]+\.[0-9]{6}|end job=[0-9]+( restart=[0-9]+)? run=[0-9]+\.[0-9]{3} suspended=[0-9]+\.[0-9]{3}( cancelled=1)?)$' "$LOG")
is "$bad" 0 "the run log has only well-formed lines ($(wc -l < "$LOG") lines)"
is "$(wc -l < "$LOG")" $((4 + nsusp)) "  a start and an end per job, plus the suspend lines"

((_tap_failed == 0)) || diag "run log:" "$(cat "$LOG")"
done_testing
