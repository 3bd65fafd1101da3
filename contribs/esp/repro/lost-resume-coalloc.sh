#!/bin/bash
# lost-resume-coalloc.sh - lost-resume.sh's pattern (suspend, resume,
# suspend, resume, faster than slurmd carries out a suspend), driven by
# select/coalloc's own row switching: do its rows leave a job stopped
# while Slurm says it runs?
#
#   [GUARD=yes|no] contribs/esp/repro/lost-resume-coalloc.sh [ROUNDS] [PORT_BASE]
#
# Starts a 4-node embedded cluster with select/coalloc Matrix=gang MPL=2
# TimeSlice=1 (GangGuard=yes unless GUARD=no, which leaves the rows to
# Slurm's suspend and resume alone).  Each batch of rounds runs one
# `sleep` job per node in the first row (A), then one per node in the
# second (B): B's start suspends A.  The plugin ends no slice within 10 s
# of the start of a job the switch would stop (timeslice.c, LAUNCH_GRACE:
# slurmd holds back a suspend during a launch), and from then on it
# suspends one row and resumes the other every second, while slurmd
# takes at least 2 s to carry out a suspend (SIGTSTP, 2 s, SIGSTOP): the
# suspends and resumes of one job overtake each other there.  After
# SWITCHES seconds (default 16: the grace, then about 6 switches) the B
# jobs are cancelled; the A jobs' row is then the only one, and runs.  8 s later
# each A job is one round: squeue says R and its process is not stopped
# (T), or the resume was lost.  Rounds are counted per node, so 4 at a
# time.  Prints one line per round and a count, and with the guard how
# many lost resumes the node agents repaired (agent/gang.c, "continued");
# exits 1 when a job was left stopped, 0 otherwise.
#
# Needs root and the cgroup v1 freezer (the agents), as the integration
# tests; do not run it beside them (the same node and job names).
#
# SPDX-License-Identifier: GPL-2.0-or-later
set -uo pipefail

ROUNDS=${1:-50}
PORT_BASE=${2:-38500}
SWITCHES=${SWITCHES:-16}
NODES=4
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
CLUSTER=$REPO/testsuite/cluster/slurm-cluster
BUILD_DIR=${BUILD_DIR:-$REPO/build/release}
CTL=$BUILD_DIR/bin/coschedctl
DIR=$(mktemp -d /tmp/lost-resume-coalloc.XXXXXX)
trap '"$CLUSTER" stop --dir "$DIR/cluster" >/dev/null 2>&1; rm -rf "$DIR"' EXIT

guard=(--gang-guard)
[[ ${GUARD:-yes} == no ]] && guard=()
"$CLUSTER" start --sites 1 --nodes-per-site "$NODES" --select coalloc \
	--matrix gang --mpl 2 --time-slice 1 "${guard[@]}" \
	--dir "$DIR/cluster" --port-base "$PORT_BASE" \
	>"$DIR/start.log" 2>&1 || { cat "$DIR/start.log"; exit 2; }
eval "$("$CLUSTER" env --dir "$DIR/cluster")"

# The state letter of the job's sleep (proc_state).
# shellcheck source=contribs/esp/repro/proc-state.sh
source "$REPO/contribs/esp/repro/proc-state.sh"

state() { squeue -h -j "$1" -o %t 2>/dev/null; }
submit() { sbatch --parsable -p debug -N 1 -o /dev/null --wrap 'exec sleep 600'; }
# every job of the list past PD (R or S)
all_started() {
	local j
	for j in "$@"; do
		[[ $(state "$j") =~ ^(R|S)$ && $(proc_state "$j") != - ]] || return 1
	done
}
wait_for() {	# tries command...
	local n=$1
	shift
	while ((n-- > 0)); do "$@" && return 0; sleep 0.2; done
	return 1
}

continued() {	# the agents' count of lost resumes repaired, all nodes
	local sum=0 i v
	for ((i = 1; i <= NODES; i++)); do
		v=$("$CTL" --run-dir "$DIR/cluster/run/cosched" --node "n$i" status --json 2>/dev/null |
			python3 -c "import json, sys; g = json.load(sys.stdin)['gang'] or {}; print(g.get('continued', 0))" 2>/dev/null)
		sum=$((sum + ${v:-0}))
	done
	echo "$sum"
}

lost=0 round=0 switches=0
while ((round < ROUNDS)); do
	a=() b=()
	for ((i = 0; i < NODES; i++)); do a+=("$(submit)"); done
	wait_for 150 all_started "${a[@]}" || echo "note: the A jobs did not all start"
	for ((i = 0; i < NODES; i++)); do b+=("$(submit)"); done
	wait_for 150 all_started "${b[@]}" || echo "note: the B jobs did not all start"
	# what slurmctld says of the first A job, twice a second: its
	# suspends and resumes (the pattern must really happen)
	seen=0 was=$(state "${a[0]}")
	for ((t = 0; t < 2 * SWITCHES; t++)); do
		sleep 0.5
		now=$(state "${a[0]}")
		[[ $now == "$was" ]] || seen=$((seen + 1))
		was=$now
	done
	switches=$((switches + seen))
	scancel "${b[@]}"
	sleep 8
	for j in "${a[@]}"; do
		((round < ROUNDS)) || break
		round=$((round + 1))
		slurm=$(state "$j") proc=$(proc_state "$j")
		verdict=ok
		if [[ $slurm != R || $proc == T || $proc == - ]]; then
			verdict="LEFT STOPPED"
			lost=$((lost + 1))
		fi
		echo "round $round: job $j: squeue $slurm, process $proc: $verdict"
	done
	scancel "${a[@]}"
	wait_for 100 eval '[[ -z $(squeue -h -o %i) ]]'
done
repaired=
[[ ${GUARD:-yes} == no ]] || repaired=", lost resumes the agents repaired: $(continued)"
echo "jobs left stopped: $lost of $ROUNDS rounds (select/coalloc, TimeSlice=1, GangGuard=${GUARD:-yes}, Slurm $(scontrol -V | cut -d' ' -f2)); suspends and resumes seen by squeue: $switches on the batches' first A job$repaired"
((lost == 0))
