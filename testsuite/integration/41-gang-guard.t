#!/bin/bash
# Gang rows that never overlap (GangGuard=yes): select/coalloc
# Matrix=gang MPL=2, TimeSlice=2, on 4 sites x 4 nodes, the rows switched
# by slurmctld's suspend and resume and guarded by the node agents.
#
# slurmd holds a suspend back while the job's launch on the node
# completes (up to 9 s) and carries out the entering row's resume at
# once; unguarded, the leaving row's job then ran beside the entering
# one for seconds (17 episodes of 1 s or more in a run like this one,
# 2026-11).  Guarded, each node's agent freezes the leaving row before it
# thaws the entering one, and slurmctld sends the tables before it starts
# the entering row's jobs.
#
# Short jobs (1 to 3 s) of 2 to 10 nodes, a step of ticks every 0.1 s on each node
# and ticks in the batch script from the job's start, are submitted in
# waves until 20 row switches have gone by, so that launches cross
# switches.  Every tick record of every node is then compared: no two
# jobs ever ticked at once on one node, not even for a tick.
#
# TEST_GANG_GUARD=no runs the same without the guard, for comparison
# (its overlaps are then expected, and reported).
#
# test-serial: coschedd-cgroups  the node agents' cgroups are
# coschedd/NODE/JOB.STEP, and every embedded cluster names its nodes n1,
# n2, ... and its jobs from 1: two clusters' agents would share groups.
source "$(dirname "$0")/lib/tap.sh"
source "$(dirname "$0")/lib/overlap.sh"

CTL=$BUILD_DIR/bin/coschedctl
[[ -x $CTL && -x $BUILD_DIR/sbin/coschedd ]] || skip_all "coschedd is missing: run make"
[[ -w /sys/fs/cgroup/freezer ]] || skip_all "no writable cgroup v1 freezer"

TS=2
SWITCHES=20
GUARD=--gang-guard
[[ ${TEST_GANG_GUARD:-yes} == no ]] && GUARD=
# the plugin's SelectType lines ("row N active") are at verbose
SLURM_CLUSTER_DEBUG=verbose cluster_start --select coalloc --matrix gang \
	--mpl 2 --time-slice $TS $GUARD --debug-flags SelectType
LOG=$TEST_DIR/cluster/log/slurmctld.log
RUN_DIR=$TEST_DIR/cluster/run/cosched

# Ticks every 0.1 s of running time: N in the step on every node, and in
# the batch script on the first node from the job's start.
TICK100='for ((i = 0; i < N; i++)); do echo "$SLURMD_NODENAME $SLURM_JOB_ID tick $EPOCHREALTIME"; sleep 0.1; done'
short_job() {	# NODES TICKS
	submit -p debug -N "$1" -o "tick-%j.log" --export=ALL,N="$2" \
		--wrap "bash -c '$TICK100' & srun bash -c '$TICK100'; wait"
}
switches() { grep -c 'row [0-9]* active' "$LOG"; }

RANDOM=41	# the same jobs every run
jobs=() wave=0
declare -A size ticks
start=$(switches)
while (( $(switches) - start < SWITCHES && wave < 150 )); do
	for ((k = 0; k < 2; k++)); do
		n=$((2 + RANDOM % 9)) t=$((10 + RANDOM % 21))
		j=$(short_job "$n" "$t")
		jobs+=("$j") size[$j]=$n ticks[$j]=$t
	done
	wave=$((wave + 1))
	sleep 2
done
seen=$(( $(switches) - start ))
ok $((seen >= SWITCHES ? 0 : 1)) "$seen row switches while ${#jobs[@]} short jobs were submitted in $wave waves"

all_done() { local j; for j in "${jobs[@]}"; do job_done "$j" || return 1; done; }
wait_until 600 all_done
ok $? "every job ends"
completed=0
for j in "${jobs[@]}"; do [[ $(job_state "$j") == COMPLETED ]] && completed=$((completed + 1)); done
is "$completed" "${#jobs[@]}" "  all of them COMPLETED"

# N ticks per node in the step plus N in the batch script
short=0
for j in "${jobs[@]}"; do
	want=$(( (size[$j] + 1) * ticks[$j] ))
	got=$(grep -c " tick " "tick-$j.log" 2>/dev/null)
	[[ $got == "$want" ]] || { short=$((short + 1)); diag "job $j: $got ticks, $want wanted"; }
done
is "$short" 0 "  every job ticked all its ticks, on every node"

overlaps=$(task_overlaps <(tick_records tick-*.log))
episodes=$(grep -c . <<< "$overlaps")
[[ -z $overlaps ]] && episodes=0
long=$(real_overlaps <(tick_records tick-*.log) | grep -c .)
diag "episodes of two jobs ticking at once on a node: $episodes ($long of 0.5 s or more)${GUARD:+ (guarded)}"
[[ -z $overlaps ]] || diag "$overlaps"
if [[ -n $GUARD ]]; then
	is "$episodes" 0 "no node ever ran two jobs at once (tick records of every node, every tick)"
	gang() { "$CTL" --run-dir "$RUN_DIR" --node "$1" status --json 2>/dev/null |
		python3 -c "import json, sys; g = json.load(sys.stdin)['gang'] or {}; print(g.get('$2', 0))" 2>/dev/null; }
	tables=$(gang n1 tables)
	ok $(( ${tables:-0} > 0 ? 0 : 1 )) "  n1's agent took guard tables ($tables)"
	# resumes slurmd lost, which the agents repaired (agent/gang.c)
	continued=0
	for ((i = 1; i <= 16; i++)); do continued=$((continued + $(gang "n$i" continued || echo 0))); done
	diag "steps the agents continued after a lost resume: $continued"
else
	skip 2 "TEST_GANG_GUARD=no: the comparison run ($episodes episodes)"
fi

done_testing
