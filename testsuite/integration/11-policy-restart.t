#!/bin/bash
# slurmctld restarts under a policy: running co-allocated jobs keep their
# nodes, pending jobs keep their queues and their order, no job is lost
# and no node runs two jobs.
source "$(dirname "$0")/lib/tap.sh"
source "$(dirname "$0")/lib/overlap.sh"
cluster_start --select coalloc --policy LS-DO

TASK='echo "$SLURMD_NODENAME $SLURM_JOB_ID start $(date +%s.%N)"; sleep $T; echo "$SLURMD_NODENAME $SLURM_JOB_ID end $(date +%s.%N)"'
job() {	# seconds sbatch-args...
	local t=$1; shift
	submit "$@" -o task-%j.log --export=ALL,T="$t" --wrap "srun bash -c '$TASK'"
}

big=$(job 15 -p site1 --coalloc=4,4,4)	# sites 1-3 full
wait_until 30 running "$big"
is "$(job_state "$big")" RUNNING "a 3-component job runs"
nodes=$(job_field "$big" NodeList)
q1=$(job 2 -p site1 -N 4)	# site1's queue: waits for the whole site
q2=$(job 1 -p site1 -N 1)	# behind it: FCFS keeps it waiting until q1 ends
l4=$(job 15 -p site4 -N 4)	# site4: runs now
wait_until 30 running "$l4"
# l4's tasks started before the restart (on 24.11 a step created while
# slurmctld restarts waits about a minute for the nodes to register)
tasks_started() { (($(grep -c " $1 start " "task-$1.log" 2>/dev/null) == $2)); }
wait_until 30 tasks_started "$l4" 4
wait_until 15 evaluated "$q1"; wait_until 15 evaluated "$q2"
is "$(job_state "$q1") $(job_state "$q2")" "PENDING PENDING" "site1's queue holds two jobs"

cluster restart-ctld > restart.log 2>&1
ok $? "slurmctld restarted"
is "$(job_state "$big")" RUNNING "the co-allocated job still runs"
is "$(job_field "$big" NodeList)" "$nodes" "on the same nodes"
like "$(scontrol show job "$big" | grep -o 'SystemComment=[^ ]*')" \
     "coalloc:site1:n\[1-4\];site2:n\[5-8\];site3:n\[9-12\]" "its layout is kept"
is "$(job_state "$q1") $(job_state "$q2")" "PENDING PENDING" "the queued jobs still wait"
extra=$(job 1 -p site2 -N 1)	# site2 is full until big ends
wait_until 15 evaluated "$extra"
is "$(job_state "$extra")" PENDING "a new site2 job waits: the restarted plugin knows site2 is full"

wait_until 120 job_done "$big"
wait_until 60 job_done "$q2"
wait_until 60 job_done "$extra"
wait_until 60 job_done "$l4"
states=$(for j in "$big" "$q1" "$q2" "$l4" "$extra"; do job_state "$j"; done | sort | uniq -c | sed 's/^ *//')
is "$states" "5 COMPLETED" "every job completes"
q1_end=$(awk '$3 == "end" {print $4}' task-"$q1".log | sort -n | tail -n1)
q2_start=$(awk '$3 == "start" {print $4}' task-"$q2".log | sort -n | head -n1)
ok $(awk -v e="$q1_end" -v s="$q2_start" 'BEGIN {exit !(s >= e)}' && echo 0 || echo 1) \
   "site1's queue kept its order across the restart (q2 started after q1 ended)"
is "$(task_overlaps task-*.log)" "" "no node ran two jobs at once"

done_testing
