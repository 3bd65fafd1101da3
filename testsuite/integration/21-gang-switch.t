#!/bin/bash
# Gang switches under faults.  select/coalloc, Matrix=gang MPL=2, 2 sites
# x 1 node, TimeSlice 25 s.
#
# A switch a node missed is repaired well before the next one.  Two
# all-node ticking jobs A and B; node n2's slurmd is stopped over one
# switch for longer than slurmctld retries a refused connection (about
# 11 s), so the suspend and the resume of that switch never reach it (as
# with a suspend overtaken by the resume after it): n2 goes on running the
# leaving job and keeps the entering one stopped.  The plugin sends every
# suspend and resume again 3 s and 11 s later (lib/coalloc/resend.h); the
# second resend is still being retried when n2's slurmd is back, and the
# node follows the matrix again within seconds, not at the next switch.
# Judged from the jobs' own ticks on n2; n1 is the control.
#
# No job is stopped while srun launches its tasks: a job that starts in
# the running row 3 s before its slice ends keeps running until 10 s
# after its start (the slice is held), where it used to be suspended at
# once, its srun stopped mid-launch.
#
# A reconfiguration to one row resumes the job a switch left suspended.
source "$(dirname "$0")/lib/tap.sh"
source "$(dirname "$0")/lib/overlap.sh"

TS=25
DOWN=15		# seconds n2's slurmd stays down after the switch
REPAIR=$((DOWN + 4))	# its start, and the resend's next connect
# the plugin's SelectType lines are at verbose
SLURM_CLUSTER_DEBUG=verbose cluster_start --select coalloc --sites 2 --nodes-per-site 1 \
	--matrix gang --mpl 2 --time-slice $TS --debug-flags SelectType
LOG=$TEST_DIR/cluster/log/slurmctld.log

started() { [[ $(job_state "$1") =~ ^(RUNNING|SUSPENDED)$ ]]; }
changed() { [[ $(job_state "$a") != "$1" ]]; }
a=$(ticker 3000 -p grid --coalloc=1,1)
b=$(ticker 3000 -p grid --coalloc=1,1)
wait_until 30 started "$a" && wait_until 30 started "$b"
ok $? "two all-node ticking jobs start ($(job_state "$a") $(job_state "$b"))"

# The phase of the rotation: a switch seen now, the next due TS later.
was=$(job_state "$a")
wait_until $((2 * TS)) changed "$was"
ok $? "the rows switch (A: $was -> $(job_state "$a"))"
sleep $((TS - 5))

was=$(job_state "$a")
cluster stop-slurmd 2 > stop-n2.log 2>&1
ok $? "n2's slurmd is stopped before the next switch (A $was)"
wait_until $((TS + 5)) changed "$was"
ok $? "the rows switch while it is down (A: $was -> $(job_state "$a"))"
t2=$EPOCHREALTIME
if [[ $(job_state "$a") == RUNNING ]]; then run=$a stop=$b; else run=$b stop=$a; fi
sleep $DOWN
cluster start-slurmd 2 > start-n2.log 2>&1
ok $? "n2's slurmd is started again, $DOWN s after the switch"

# A suspended job's srun (on n1) forwards its tasks' output only once it
# runs again: the ticks are read after the next switch, and only those
# before it count.
wait_until $((TS + 5)) changed "$(job_state "$a")"
ok $? "the next switch comes on time"
sleep 6
cutoff=$(awk -v t2="$t2" -v ts="$TS" 'BEGIN { printf "%.6f", t2 + ts - 2 }')

# first_tick / last_tick NODE JOB: seconds after the switch of the job's
# first (last) tick on the node before the cutoff, or "none".
ticks_between() {
	awk -v n="$1" -v j="$2" -v t2="$t2" -v c="$cutoff" \
		'$1 == n && $2 == j && $3 == "tick" && $4 > t2 && $4 < c { print $4 - t2 }' tick-*.log
}
first_tick() { ticks_between "$@" | sort -n | head -n1 | grep . || echo none; }
last_tick() { ticks_between "$@" | sort -n | tail -n1 | grep . || echo none; }
within() { [[ $1 != none ]] && awk -v v="$1" -v lim="$2" 'BEGIN { exit !(v <= lim) }'; }
before() { [[ $1 == none ]] || awk -v v="$1" -v lim="$2" 'BEGIN { exit !(v <= lim) }'; }

r1=$(first_tick n1 "$run") s1=$(last_tick n1 "$stop")
within "$r1" 3
ok $? "n1 (control): the entering job ticks within 3 s of the switch ($r1 s)"
before "$s1" 3
ok $? "n1 (control): the leaving job stops within 3 s (last tick: $s1 s)"
r2=$(first_tick n2 "$run") s2=$(last_tick n2 "$stop")
within "$r2" $REPAIR
ok $? "n2, which missed the switch: the entering job ticks within $REPAIR s ($r2 s; without the resends: at the next switch, $TS s)"
[[ $s2 != none ]] && ! before "$s2" 3
ok $? "n2 missed the switch: the leaving job ran on past it (last tick: $s2 s)"
before "$s2" $REPAIR
ok $? "n2: and stops within $REPAIR s"
n=$(grep -c 'again (in case the last was overtaken)' "$LOG")
ok $((n > 0 ? 0 : 1)) "slurmctld's log shows the resends ($n)"

overlaps=$(real_overlaps <(tick_records tick-*.log) |
	awk -v t="$t2" -v r="$REPAIR" '$6 > t + r')
is "$overlaps" "" "after the repair no node ran A and B at once"
scancel "$a" "$b"
wait_until 30 queue_empty
ok $? "the jobs are cancelled"

# ================================================= a start at a slice's end
# Row 1: A on both nodes; row 2: B on n2, n1 free.  C (n1) fits row 2.
a=$(ticker 3000 -p grid --coalloc=1,1)
wait_until 30 started "$a"
b=$(ticker 3000 -p site2)
wait_until 30 started "$b"
ok $? "A on both nodes and B on n2 start, in two rows ($(job_state "$a") $(job_state "$b"))"
b_runs() { [[ $(job_state "$b") == RUNNING ]]; }
b_stops() { [[ $(job_state "$b") != RUNNING ]]; }
wait_until $((2 * TS)) b_stops && wait_until $((2 * TS)) b_runs
ok $? "B's row begins its slice"
sleep $((TS - 3))
c=$(ticker 100 -p site1)
c_started() { [[ $(job_state "$c") =~ ^(RUNNING|SUSPENDED)$ ]]; }
wait_until 10 c_started
ok $? "C starts on n1 in B's row, 3 s before the slice ends ($(job_state "$c"))"
start=$(date -d "$(job_field "$c" StartTime)" +%s)
c_suspended() { [[ $(job_state "$c") == SUSPENDED ]]; }
wait_until $((TS + 10)) c_suspended
held=$(($(date +%s) - start))
ok $((held >= 9 ? 0 : 1)) "C runs at least 9 s before the row is switched ($held s after its start)"
wait_until $((TS + 10)) b_runs
ok $? "the rows go on switching (B running again)"
scancel "$a" "$b" "$c"
wait_until 30 queue_empty

# ================================================= down to one row
# A reconfiguration to Matrix=off right after a switch, its resends still
# due: the time-slicing thread sends the resumes again and then is done
# with them (it used to wake for them at once, for ever: a core spinning
# in slurmctld).
a=$(ticker 3000 -p grid --coalloc=1,1)
b=$(ticker 3000 -p grid --coalloc=1,1)
wait_until 30 started "$a" && wait_until 30 started "$b"
# both steps launched: a job started into the row that is not running is
# suspended before its srun makes its step, and srun then retries on its
# own, slower and slower; the check below is of the resume, not of that
ticked() { grep -q " $1 tick " "tick-$1.log" 2>/dev/null; }
wait_until $((4 * TS)) ticked "$a" && wait_until $((4 * TS)) ticked "$b"
ok $? "A and B both ticked (their steps launched)"
was=$(job_state "$a")
wait_until $((2 * TS)) changed "$was"
ok $? "A and B switch rows again"
sed -i 's/^Policy=.*/Policy=GS AgingTime=3600 Matrix=off/' "$TEST_DIR/cluster/etc/coalloc.conf"
scontrol reconfigure
ctld=$(awk '$1 == "slurmctld" { print $2 }' "$TEST_DIR/cluster/run/pids")
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$ctld/stat"; }
reloaded() { grep -q 'coalloc.conf: 2 sites, .*Matrix=off' "$LOG"; }
wait_until 10 reloaded
ok $? "slurmctld reloads coalloc.conf with Matrix=off"
t0=$(cpu_ticks)
sleep 15
used=$(( ($(cpu_ticks) - t0) * 100 / $(getconf CLK_TCK) ))
ok $((used < 300 ? 0 : 1)) "slurmctld uses $((used / 100)).$((used % 100 / 10)) s of CPU in the 15 s after it (under 3 s)"
# ... and the job the last switch suspended is resumed: no row suspends it
# now (it stayed stopped until an admin resumed it)
both_run() { [[ $(job_state "$a") == RUNNING && $(job_state "$b") == RUNNING ]]; }
wait_until 20 both_run
ok $? "one row: A and B both run ($(job_state "$a") $(job_state "$b"))"
resumed=$EPOCHREALTIME
sleep 5
ticks_since() {	# node job: ticks after the resume
	awk -v n="$1" -v j="$2" -v t="$resumed" \
		'$1 == n && $2 == j && $3 == "tick" && $4 > t' tick-*.log | grep -c .
}
ok $(( $(ticks_since n1 "$a") && $(ticks_since n1 "$b") && $(ticks_since n2 "$a") && $(ticks_since n2 "$b") ? 0 : 1 )) \
	"... and both tick on both nodes ($(ticks_since n1 "$a") $(ticks_since n1 "$b") $(ticks_since n2 "$a") $(ticks_since n2 "$b"))"
grep -q "one row now: resumed 1 job" "$LOG"
ok $? "slurmctld's log says it resumed the job"
scancel "$a" "$b"
wait_until 30 queue_empty

done_testing
