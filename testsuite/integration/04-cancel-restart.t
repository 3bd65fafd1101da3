#!/bin/bash
# scancel frees a job's nodes; restarting slurmctld keeps running jobs and
# select/coalloc rebuilds which nodes they hold, also when its state file
# is not wholly its own (rejected whole, with file and line).
source "$(dirname "$0")/lib/tap.sh"
source "$(dirname "$0")/lib/overlap.sh"
cluster_start --select coalloc

idle_nodes() { nodes_in idle; }

# --- scancel
long=$(submit -N 12 -o /dev/null --wrap 'sleep 300')
wait_until 30 running "$long"
is "$(job_state "$long")" RUNNING "12-node job runs"
big=$(submit -N 16 -o big.out --wrap 'srun hostname | wc -l')
wait_until 15 evaluated "$big"
is "$(job_state "$big")" PENDING "16-node job waits for the nodes"
scancel "$long"
wait_until 30 job_done "$long"
is "$(job_state "$long")" CANCELLED "scancel cancels the running job"
wait_until 60 job_done "$big"
is "$(job_state "$big")" COMPLETED "its nodes go to the waiting 16-node job"
is "$(tr -d ' ' < big.out)" 16 "which ran on all 16 nodes"
wait_until 30 eval 'test "$(idle_nodes)" = 16'
is "$(idle_nodes)" 16 "all nodes idle again"

# --- slurmctld restart with a job running
TASK='echo "$SLURMD_NODENAME $SLURM_JOB_ID start $(date +%s.%N)"; sleep $T; echo "$SLURMD_NODENAME $SLURM_JOB_ID end $(date +%s.%N)"'
keep=$(submit -N 4 -o task-%j.log --export=ALL,T=12 --wrap "srun bash -c '$TASK'")
wait_until 30 running "$keep"
nodes_before=$(job_field "$keep" NodeList)
cluster restart-ctld > restart.log 2>&1
ok $? "slurmctld restarted"
is "$(job_state "$keep")" RUNNING "the job still runs after the restart"
is "$(job_field "$keep" NodeList)" "$nodes_before" "on the same nodes"

# After the restart the plugin must know those 4 nodes are taken: a 12-node
# job fits beside them right away, a 16-node job waits for them.  The
# 12-node one first: the ordinary partition keeps backfill reservations
# (bf_min_prio_reserve), so a 16-node job queued ahead of it would hold
# every node, and a job without a time limit could not start before it.
rest=$(submit -N 12 -o task-%j.log --export=ALL,T=1 --wrap "srun bash -c '$TASK'")
all=$(submit -N 16 -o task-%j.log --export=ALL,T=1 --wrap "srun bash -c '$TASK'")
wait_until 60 job_done "$rest"
is "$(job_state "$rest")" COMPLETED "12-node job ran beside the recovered job"
ok $(running "$keep" && echo 0 || echo 1) "while the recovered job was still running"
wait_until 90 job_done "$keep"
is "$(job_state "$keep")" COMPLETED "the recovered job completes"
wait_until 60 job_done "$all"
is "$(job_state "$all")" COMPLETED "the 16-node job runs after it"
is "$(task_overlaps task-*.log)" "" "no node ran two jobs at once across the restart"

# --- a corrupt state file: rejected whole and named, no job lost.  Its
# header was matched by prefix and lines were cut at 256 bytes.
state=$TEST_DIR/cluster/state/coalloc_state
ctld_log=$TEST_DIR/cluster/log/slurmctld.log
hold=$(submit -N 2 -o /dev/null --wrap 'sleep 300')
wait_until 30 running "$hold"
restart_with_state() {	# the state file's text: slurmctld restarts on it
	printf '%s' "$1" > "$state"
	mkdir "$state.new"	# the save at shutdown cannot replace it
	cluster restart-ctld > restart-state.log 2>&1
	rmdir "$state.new"
}
restart_with_state "# select/coalloc state 10"$'\n'"job $hold 0"$'\n'
like "$(grep 'state file rejected' "$ctld_log" | tail -n 1)" \
     "$state line 1: not the header '# select/coalloc state 1': state file rejected" \
     "a header that only begins like ours rejects the state file"
is "$(job_state "$hold")" RUNNING "  and the job still runs"
restart_with_state "# select/coalloc state 1"$'\n'"job $hold 0$(printf '%0300d' 0)"$'\n'
like "$(grep 'state file rejected' "$ctld_log" | tail -n 1)" \
     "$state line 2: line too long \(more than 255 bytes\): state file rejected" \
     "a line over 255 bytes rejects the state file"
is "$(job_state "$hold")" RUNNING "  and the job still runs"
scancel "$hold"
whole=$(submit -N 16 -o /dev/null --wrap true)
wait_until 60 job_done "$whole"
is "$(job_state "$whole")" COMPLETED "  its nodes are free for a 16-node job once it ends"

done_testing
