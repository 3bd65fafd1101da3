#!/bin/bash
# The Ousterhout matrix of select/coalloc end to end on 4 sites x 4 nodes
# (one CPU each), queues grid (global, Policy=GS) and site1..site4:
#  - Matrix=gang MPL=2: two all-node jobs alternate every TimeSlice, the
#    one outside the active row SUSPENDED, and no node ever runs both (the
#    second waits for its row's turn to start); a job whose nodes are free in
#    the other row is replicated there and never suspended; the rows
#    survive a slurmctld restart;
#  - PreemptPartition: a job of the partition preempt starts at once in
#    the priority row, suspending the jobs under it until it ends; while
#    it waits for a COMPLETING node, a job of another partition does not
#    start before it (PreemptHold), which it does with PreemptHold=0;
#  - Matrix=local MPL=2: two jobs per node, none suspended, a third waits.
# Job states are sampled from squeue once a second (R, S, PD, ...).
#
# test-alone: the jobs sleep 14 to 30 s against a 6 s TimeSlice, and the
# samples must catch each row's turn; in a run 4 files at a time (fresh
# clone, 2026-11-28) a switch came about 10 s late and B was never seen
# SUSPENDED (test 17).
source "$(dirname "$0")/lib/tap.sh"
source "$(dirname "$0")/lib/overlap.sh"

plan 48

BASE=$TEST_DIR
rm -rf "$BASE"
TS=6	# the gang TimeSlice, seconds
ALL=--coalloc=4,4,4,4	# every node of the 4 sites

suspended() { test "$(job_state "$1")" = SUSPENDED; }
started() { [[ $(job_state "$1") =~ ^(RUNNING|SUSPENDED)$ ]]; }
all_started() { local j; for j; do started "$j" || return 1; done; }
all_running() { local j; for j; do running "$j" || return 1; done; }
all_done() { local j; for j; do job_done "$j" || return 1; done; }
states() { local j; for j; do job_state "$j"; done | sort | uniq -c | sed 's/^ *//' | paste -sd' '; }
gang() { submit -p grid "$@" -o /dev/null; }

# sample [-first] SECS JOB...: once a second, one line with the squeue
# state of each job in the order given ("R S"; "-" once squeue no longer
# lists it), for at most SECS seconds or until every job is gone (with
# -first: until the first one is).  Samples squeue cannot give (slurmctld
# restarting) are left out.
sample() {
	local first=
	[[ $1 == -first ]] && { first=1; shift; }
	local end=$((SECONDS + $1)) out line j st; shift
	while ((SECONDS < end)); do
		if out=$(squeue -h -o '%i %t' 2>/dev/null); then
			line=
			for j; do
				st=$(awk -v j="$j" '$1 == j {print $2}' <<< "$out")
				line+=" ${st:--}"
			done
			echo "${line# }"
			[[ $line =~ ^(\ -)+$ ]] && break
			[[ -n $first && $line == " -"* ]] && break
		fi
		sleep 1
	done
}
# count FILE REGEX: how many samples match
count() { grep -cE "$2" "$1" || true; }
# seen FILE N STATE: how many samples show STATE in column N
seen() { awk -v n="$2" -v s="$3" '$n == s {c++} END {print c + 0}' "$1"; }
# How often the running one of a pair changed in a sample file of 2 columns.
switches() {
	awk '$1 == "R" && $2 == "S" {r = "a"} $1 == "S" && $2 == "R" {r = "b"}
	     r != "" && r != last {if (last != "") c++; last = r}
	     END {print c + 0}' "$1"
}

# section marks where a scenario starts; section_failed: whether one of
# its tests failed (its samples are then shown).
section() { _section_failed=$_tap_failed; }
section_failed() { ((_tap_failed > _section_failed)); }

# phase NAME start-options...: this phase's own cluster (the previous one
# stopped), under $BASE/NAME.
phase() {
	local name=$1; shift
	if [[ -n ${_cluster_started:-} ]]; then
		((_tap_failed == 0)) || diag "cluster logs: $TEST_DIR/cluster/log"
		cluster stop > /dev/null 2>&1
	fi
	TEST_DIR=$BASE/$name
	cluster_start --select coalloc "$@"
}

# ================================================= gang, MPL=2, TimeSlice
phase gang --matrix gang --mpl 2 --time-slice "$TS"
like "$(grep '^Policy=' "$TEST_DIR/cluster/etc/coalloc.conf")" \
     "^Policy=GS AgingTime=3600 Matrix=gang MPL=2 TimeSlice=$TS\$" "gang cluster up"

# --- Two all-node jobs alternate.
section
# ticking in their batch scripts on n1: B's ticks would show it running
# there beside A from the moment slurmd starts it
a=$(ticker --batch 100 -p grid "$ALL")	# 20 s of running time each
b=$(ticker --batch 100 -p grid "$ALL")
wait_until 20 all_started "$a" "$b"
ok $? "gang: two all-node jobs both start, one per row ($(job_state "$a") $(job_state "$b"))"
is "$(job_field "$a" NodeList) $(job_field "$b" NodeList)" "n[1-16] n[1-16]" \
   "  both hold all 16 nodes"
sample 45 "$a" "$b" > gang-pair.samples
is "$(count gang-pair.samples '^R R$')" 0 "gang: the two are never RUNNING together"
ok $(( $(seen gang-pair.samples 1 R) > 0 && $(seen gang-pair.samples 1 S) > 0 ? 0 : 1 )) \
   "  A is seen RUNNING and SUSPENDED ($(seen gang-pair.samples 1 R) R, $(seen gang-pair.samples 1 S) S)"
ok $(( $(seen gang-pair.samples 2 R) > 0 && $(seen gang-pair.samples 2 S) > 0 ? 0 : 1 )) \
   "  B is seen RUNNING and SUSPENDED ($(seen gang-pair.samples 2 R) R, $(seen gang-pair.samples 2 S) S)"
ok $(( $(switches gang-pair.samples) >= 2 ? 0 : 1 )) \
   "  the active row changes every ${TS} s ($(switches gang-pair.samples) switches in $(wc -l < gang-pair.samples) samples)"
wait_until 30 all_done "$a" "$b"
is "$(states "$a" "$b")" "2 COMPLETED" "  both complete"
# the jobs' own ticks: B does not run beside A until the suspend reaches it
overlaps=$(real_overlaps <(tick_records tick-"$a".log tick-"$b".log))
is "$overlaps" "" "  and no node ran both at once (tick records, overlaps of 0.5 s or more)"
section_failed && diag "samples (A B):" "$(paste -sd, gang-pair.samples)"

# --- A job whose nodes are free in both rows runs in both.
wait_until 30 queue_empty
section
# A and B last 30 s: each row's slice is held 10 s after a start in it
# (LAUNCH_GRACE), so B starts 10 s after A and holds A off for 10 s
# more; with 20 s A's sleep was over when it was resumed, and B's
# suspension lasted only until A's end was processed: a sample once a
# second caught it or not (B seen suspended 0 times in a run beside a
# loaded machine).
a=$(gang --coalloc=4,4,4 --wrap 'sleep 30')	# row 0: sites 1-3
b=$(gang --coalloc=4,4,4 --wrap 'sleep 30')	# row 1: sites 1-3
r=$(gang -N 4 --wrap 'sleep 14')		# row 0 on site4, and row 1
wait_until 20 all_started "$a" "$b" "$r"
ok $? "replica: three jobs start ($(job_state "$a") $(job_state "$b") $(job_state "$r"))"
is "$(job_field "$a" NodeList) $(job_field "$b" NodeList)" "n[1-12] n[1-12]" \
   "  the two 3-site jobs share sites 1-3 in two rows"
is "$(job_field "$r" NodeList)" "n[13-16]" "  the 4-node job is on site4"
# coalloc-status: per node the job of each row; n13 holds r and its replica
matrix_of() {
	"$BUILD_DIR/bin/coalloc-status" --json | perl -MJSON::PP -e '
		my $s = decode_json(join "", <STDIN>);
		my %n = map { $_->{name} => $_ } @{$s->{nodes}};
		my $cell = sub { join "/", map { $_->{job} . ($_->{replica} ? "+" : "") }
					 @{$n{$_[0]}{cells}} };
		printf "%d %s %s\n", $s->{rows}, $cell->("n1"), $cell->("n13");'
}
matrix_ok() { local m; m=$(matrix_of); [[ $m == "2 $a/$b $r/$r+" || $m == "2 $a/$b $r+/$r" ]]; }
wait_until 10 matrix_ok
ok $? "coalloc-status --json: 2 rows, A and B on n1, R and its replica on n13 ($(matrix_of))"
like "$("$BUILD_DIR/bin/coalloc-status")" "ROW 1.*" "  and the text shows the rows"
sample 25 "$a" "$b" "$r" > replica.samples
is "$(seen replica.samples 3 S)" 0 "replica: the replicated job is never SUSPENDED"
ok $(( $(seen replica.samples 3 R) > 0 ? 0 : 1 )) "  it is seen RUNNING ($(seen replica.samples 3 R) samples)"
ok $(( $(seen replica.samples 1 S) > 0 && $(seen replica.samples 2 S) > 0 ? 0 : 1 )) \
   "  while the 3-site jobs alternate (A $(seen replica.samples 1 S) S, B $(seen replica.samples 2 S) S)"
is "$(count replica.samples '^R R ')" 0 "  and are never RUNNING together"
wait_until 40 all_done "$a" "$b" "$r"
is "$(states "$a" "$b" "$r")" "3 COMPLETED" "  all three complete"
section_failed && diag "samples (A B R):" "$(paste -sd, replica.samples)"

# --- The rows survive a slurmctld restart.
wait_until 30 queue_empty
section
a=$(gang "$ALL" --wrap 'sleep 30')
b=$(gang "$ALL" --wrap 'sleep 30')
wait_until 20 all_started "$a" "$b"
ok $? "restart: two all-node jobs start ($(job_state "$a") $(job_state "$b"))"
sample 8 "$a" "$b" > restart-before.samples
cluster restart-ctld > restart.log 2>&1
ok $? "slurmctld restarted mid-run"
is "$(job_field "$a" NodeList) $(job_field "$b" NodeList)" "n[1-16] n[1-16]" \
   "  both jobs keep their nodes"
is "$(grep -cE "^job ($a|$b) [01]$" "$TEST_DIR/cluster/state/coalloc_state")" 2 \
   "  their rows were saved in StateSaveLocation/coalloc_state"
sample 45 "$a" "$b" > restart-after.samples
is "$(count restart-before.samples '^R R$')+$(count restart-after.samples '^R R$')" "0+0" \
   "restart: the two are never RUNNING together, before or after"
ok $(( $(seen restart-after.samples 1 R) > 0 && $(seen restart-after.samples 2 R) > 0 ? 0 : 1 )) \
   "  they still alternate after it (A $(seen restart-after.samples 1 R) R, B $(seen restart-after.samples 2 R) R)"
wait_until 30 all_done "$a" "$b"
is "$(states "$a" "$b")" "2 COMPLETED" "  both complete"
JOBCOMP=$TEST_DIR/cluster/log/jobcomp.log
is "$(grep -c 'JobState=COMPLETED' "$JOBCOMP")/$(grep -c '^' "$JOBCOMP")" 7/7 \
   "jobcomp: the 7 jobs of the gang cluster, suspended or not, ended COMPLETED"
section_failed && diag "samples (A B):" "$(paste -sd, restart-before.samples)" \
	"after restart: $(paste -sd, restart-after.samples)"

# ================================================= preemption
# A long TimeSlice: the gang rotation stays out of the way.
phase preempt --matrix gang --mpl 2 --time-slice 120 --preempt
like "$(grep '^PartitionName=preempt' "$TEST_DIR/cluster/etc/slurm.conf")" \
     "OverSubscribe=FORCE:3" "preempt cluster up with partition preempt"
section

a=$(gang "$ALL" --wrap 'sleep 30')
wait_until 20 running "$a"
ok $? "preempt: an all-node job runs"
t0=$SECONDS
p=$(submit -p preempt -N 16 -o /dev/null --wrap 'sleep 10')
wait_until 15 running "$p"
ok $? "preempt: a 16-node job of partition preempt starts at once ($((SECONDS - t0)) s)"
wait_until 5 suspended "$a"
ok $? "  the job under it is SUSPENDED ($(job_state "$a"))"
sample -first 30 "$p" "$a" > preempt.samples
is "$(count preempt.samples '^R R$')" 0 "  and stays so while it runs"
wait_until 20 job_done "$p"
is "$(job_state "$p")" COMPLETED "the preempting job completes"
wait_until 15 running "$a"
ok $? "  the suspended job RESUMES ($(job_state "$a"))"
wait_until 30 job_done "$a"
is "$(job_state "$a")" COMPLETED "  and completes"
section_failed && diag "samples (P A):" "$(paste -sd, preempt.samples)"

# --- PreemptHold: a preempting job that waits for a COMPLETING node.
# A cancelled job whose processes ignore SIGTERM keeps n16 COMPLETING
# until KillWait (5 s) ends with SIGKILL: Slurm starts no job there
# meanwhile, so the 16-node preempting job waits; a 1-node job wanting
# n1 is submitted behind it.  Slurm's main pass keeps the waiting job's
# partition nodes from lower jobs, but backfill without a reservation
# for it (bf_min_age_reserve, as ESP runs; a pass a second here) starts
# the small job: what failed ESP's first Z rule in a CI run.
# hold_round LABEL: the states of the two, sampled every 0.5 s until the
# preempting job starts, into LABEL.hold.
hold_round() {
	local k p s end=$((SECONDS + 25))
	k=$(submit -p debug -w n16 -o /dev/null --wrap 'trap "" TERM; sleep 120')
	wait_until 20 running "$k" || diag "$1: the TERM-ignoring job did not start"
	scancel "$k"
	wait_until 5 eval '[[ $(squeue -h -j '"$k"' -o %T) == COMPLETING ]]'
	p=$(submit -p preempt -N 16 -o /dev/null --wrap 'sleep 2')
	s=$(submit -p debug -w n1 -o /dev/null --wrap 'sleep 4')
	: > "$1.hold"
	while ((SECONDS < end)); do
		echo "$(job_state "$p") $(job_state "$s")" >> "$1.hold"
		[[ $(job_state "$p") == PENDING ]] || break
		sleep 0.5
	done
	wait_until 40 all_done "$p" "$s"
}
section
sed -i 's/^SchedulerParameters=.*/&,bf_interval=1,bf_min_age_reserve=2592000/' \
	"$TEST_DIR/cluster/etc/slurm.conf"
scontrol reconfigure
wait_until 10 eval '[[ $(scontrol show config | grep -c "bf_interval=1,") == 1 ]]' ||
	diag "backfill's interval not reconfigured"
hold_round default
ok $(( $(grep -c '^PENDING' default.hold) >= 2 ? 0 : 1 )) \
   "PreemptHold: the preempting job waits while n16 is COMPLETING ($(grep -c '^PENDING' default.hold) samples)"
is "$(grep -c '^PENDING RUNNING' default.hold)" 0 \
   "  a job of another partition wanting n1 does not start before it (PreemptHold=10)"
[[ $(tail -n 1 default.hold) != PENDING* ]]
ok $? "  the preempting job starts once n16 is free"
sed -i 's/PreemptPartition=preempt/& PreemptHold=0/' "$TEST_DIR/cluster/etc/coalloc.conf"
scontrol reconfigure
wait_until 20 grep -q 'PreemptHold=0$' "$TEST_DIR/cluster/log/slurmctld.log"
ok $? "PreemptHold=0 read at reconfigure"
hold_round off
ok $(( $(grep -c '^PENDING RUNNING' off.hold) > 0 ? 0 : 1 )) \
   "  without the hold, the 1-node job starts while the preempting one waits (the race the hold closes)"
section_failed && diag "samples (P S), default: $(paste -sd, default.hold)" \
	"off: $(paste -sd, off.hold)"

# ================================================= local, MPL=2
phase local --matrix local --mpl 2
like "$(grep '^Policy=' "$TEST_DIR/cluster/etc/coalloc.conf")" \
     "Matrix=local MPL=2" "local cluster up"
section
a=$(gang "$ALL" --wrap 'sleep 15')
b=$(gang "$ALL" --wrap 'sleep 15')
c=$(gang "$ALL" --wrap 'sleep 5')
wait_until 20 all_running "$a" "$b"
ok $? "local: two all-node jobs RUNNING at once"
is "$(job_field "$a" NodeList) $(job_field "$b" NodeList)" "n[1-16] n[1-16]" \
   "  on the same 16 nodes"
wait_until 15 evaluated "$c"
is "$(job_state "$c")" PENDING "  a third waits: MPL=2 jobs per node"
sample 40 "$a" "$b" "$c" > local.samples
is "$(count local.samples '(^| )S( |$)')" 0 "local: no job is ever SUSPENDED"
is "$(count local.samples '^R R R$')" 0 "  never three at once"
ok $(( $(seen local.samples 3 R) > 0 ? 0 : 1 )) "  the third runs once one ends"
wait_until 30 all_done "$a" "$b" "$c"
is "$(states "$a" "$b" "$c")" "3 COMPLETED" "  all three complete"
section_failed && diag "samples (A B C):" "$(paste -sd, local.samples)"

done_testing
