#!/bin/bash
# lost-resume.sh - Slurm's own suspend/resume, quickly alternated, can
# leave a job's processes stopped while squeue says it runs (see
# doc/esp-embedded.md, "The cons_tres baseline").
#
#   [GAP=SECS] contribs/esp/repro/lost-resume.sh [ROUNDS] [PORT_BASE]
#
# Starts a 2-node embedded cluster (select/cons_tres, Slurm's suspend
# preemption, as esp's cons_tres configuration), and ROUNDS times (default
# 20): submits a one-node job, waits for it to run, then sends
# `scontrol suspend; resume; suspend; resume` back to back - what two
# full-configuration jobs of about a second each, one after the other, make
# the gang scheduler send (GAP seconds, default 0, between the first
# resume and the second suspend).  After 8 s it compares what squeue says with
# the state of the job's process; a round where squeue says R and the
# process is stopped (T) is a lost resume.  Prints one line per round and
# a count; exits 1 when at least one resume was lost, 0 otherwise.
#
# SPDX-License-Identifier: GPL-2.0-or-later
set -uo pipefail

ROUNDS=${1:-20}
PORT_BASE=${2:-38000}
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
CLUSTER=$REPO/testsuite/cluster/slurm-cluster
DIR=$(mktemp -d /tmp/lost-resume.XXXXXX)
trap '"$CLUSTER" stop --dir "$DIR/cluster" >/dev/null 2>&1; rm -rf "$DIR"' EXIT

"$CLUSTER" start --sites 1 --nodes-per-site 2 --select cons_tres \
	--slurm-preempt --dir "$DIR/cluster" --port-base "$PORT_BASE" \
	>"$DIR/start.log" 2>&1 || { cat "$DIR/start.log"; exit 2; }
eval "$("$CLUSTER" env --dir "$DIR/cluster")"

# The state letter of the job's sleep (proc_state).
# shellcheck source=contribs/esp/repro/proc-state.sh
source "$REPO/contribs/esp/repro/proc-state.sh"

lost=0
for ((r = 1; r <= ROUNDS; r++)); do
	job=$(sbatch --parsable -p debug -N 1 -o /dev/null --wrap 'exec sleep 600')
	for _ in $(seq 50); do
		[[ $(squeue -h -j "$job" -o %t) == R && $(proc_state "$job") == S ]] && break
		sleep 0.2
	done
	scontrol suspend "$job"; scontrol resume "$job"
	sleep "${GAP:-0}"
	scontrol suspend "$job"; scontrol resume "$job"
	sleep 8
	slurm=$(squeue -h -j "$job" -o %t) proc=$(proc_state "$job")
	verdict=ok
	[[ $slurm == R && $proc == T ]] && { verdict="LOST RESUME"; lost=$((lost + 1)); }
	echo "round $r: job $job: squeue $slurm, process $proc: $verdict"
	scancel "$job"
	sleep 1
done
echo "lost resumes: $lost of $ROUNDS rounds (Slurm $(scontrol -V | cut -d' ' -f2))"
((lost == 0))
