#!/bin/bash
# Ordinary jobs under select/coalloc: node counts, tasks, exclusivity,
# steps, arrays, and what sinfo and scontrol show.
source "$(dirname "$0")/lib/tap.sh"
cluster_start --select coalloc

# Nodes the job's own processes ran on, one srun task per node.
ran_on() { sort -u "$1" | paste -sd, ; }

# 1..16-node jobs: each runs one task per node and must see N distinct nodes.
ids=()
for n in 1 2 3 4 7 8 16; do
	ids+=("$(submit -N "$n" -o "nodes-$n.out" \
		--wrap 'srun bash -c "echo \$SLURMD_NODENAME"')")
done
wait_until 120 queue_empty
ok $? "node-count jobs finish"
i=0
for n in 1 2 3 4 7 8 16; do
	id=${ids[i++]}
	is "$(job_state "$id")" COMPLETED "-N $n completed"
	is "$(job_field "$id" NumNodes)" "$n" "-N $n: scontrol NumNodes"
	is "$(sort -u "nodes-$n.out" | wc -l)" "$n" "-N $n: tasks ran on $n distinct nodes"
done

# -n on one-CPU nodes needs one node per task.
id=$(submit -n 5 -o ntasks.out --wrap 'srun bash -c "echo \$SLURMD_NODENAME"')
wait_until 60 job_done "$id"
is "$(job_field "$id" NumNodes)" 5 "-n 5 gets 5 one-CPU nodes"
is "$(wc -l < ntasks.out)" 5 "-n 5 runs 5 tasks"
is "$(sort -u ntasks.out | wc -l)" 5 "one task per node"

# A job asking for more nodes than exist is refused, not left pending.
out=$(sbatch -N 17 --wrap true 2>&1)
ok $((! $?)) "-N 17 on 16 nodes is refused at submit"
like "$out" "submission failed" "with a clear error"

# A long job holds its nodes: sinfo shows them allocated, scontrol agrees,
# and an --exclusive job in the same window lands elsewhere.
long=$(submit -N 4 -o /dev/null --wrap 'sleep 300')
wait_until 30 eval 'test "$(job_state "$long")" = RUNNING'
is "$(job_state "$long")" RUNNING "4-node job runs"
is "$(nodes_in alloc)" 4 "sinfo shows 4 allocated nodes"
long_nodes=$(job_field "$long" NodeList)
first=$(scontrol show hostnames "$long_nodes" | head -n1)
is "$(scontrol show node "$first" | grep -o 'CPUAlloc=[0-9]*')" CPUAlloc=1 "node $first of the job shows CPUAlloc=1"
excl=$(submit -N 2 --exclusive -o excl.out --wrap 'srun bash -c "echo \$SLURMD_NODENAME"')
wait_until 60 job_done "$excl"
is "$(job_state "$excl")" COMPLETED "--exclusive job runs beside it"
overlap=$(comm -12 <(scontrol show hostnames "$long_nodes" | sort) <(sort -u excl.out))
is "$overlap" "" "no node shared with the running job"

# Steps inside a batch job: sequential and concurrent ones.
id=$(submit -N 3 -o steps.out --wrap '
	srun -N 3 true && echo step0=$?
	srun -N 1 -n 1 hostname >/dev/null && echo step1=$?
	srun -N 2 bash -c "echo \$SLURMD_NODENAME" | wc -l | sed "s/^/step2_tasks=/"')
wait_until 60 job_done "$id"
is "$(job_state "$id")" COMPLETED "batch job with steps completes"
is "$(grep -c '=0$' steps.out)" 2 "steps 0 and 1 succeed"
is "$(sed -n 's/^step2_tasks=//p' steps.out)" 2 "step on 2 nodes runs 2 tasks"
is "$(scontrol show job "$id" | grep -c 'NumNodes=3')" 1 "scontrol shows the job's 3 nodes"

# Job arrays: every element runs and completes.
arr=$(submit --array=1-6 -N 2 -o 'arr-%a.out' --wrap 'echo $SLURM_ARRAY_TASK_ID $SLURM_JOB_NUM_NODES')
wait_until 120 bash -c "[[ -z \$(squeue -h -j $arr -o %i) ]]"
ok $? "array finishes"
is "$(cat arr-*.out | sort -n | paste -sd' ')" "1 2 2 2 3 2 4 2 5 2 6 2" "6 elements ran, each on 2 nodes"

scancel "$long"
wait_until 30 job_done "$long"
wait_until 30 eval 'test "$(nodes_in idle)" = 16'
is "$(nodes_in idle)" 16 "all nodes idle at the end"

# Required nodes (-w) and --contiguous around a busy node.
hold=$(submit -w n2 -o /dev/null --wrap 'sleep 300')
wait_until 30 eval 'test "$(job_state "$hold")" = RUNNING'
is "$(job_field "$hold" NodeList)" n2 "-w n2 runs on n2"
id=$(submit -N 3 --contiguous -o /dev/null --wrap 'sleep 1')
wait_until 30 job_done "$id"
is "$(job_field "$id" NodeList)" "n[5-7]" "--contiguous: first window inside the emptiest site (site1 is broken by n2)"
id=$(submit -N 2 -w n7,n9 -o /dev/null --wrap 'sleep 1')
wait_until 30 job_done "$id"
is "$(job_field "$id" NodeList)" "n[7,9]" "-w n7,n9 gets exactly those"

# Suspend keeps the nodes: a job that needs them waits until resume + end.
scontrol suspend "$hold"
is "$(job_state "$hold")" SUSPENDED "scontrol suspend"
id=$(submit -w n2 -o /dev/null --wrap 'true')
wait_until 15 evaluated "$id"
is "$(job_state "$id")" PENDING "the suspended job keeps n2"
scontrol resume "$hold"
is "$(job_state "$hold")" RUNNING "scontrol resume"
scancel "$hold"
wait_until 30 job_done "$id"
is "$(job_state "$id")" COMPLETED "n2 is free once the job is gone"

# A reservation of 2 nodes, and a job inside it.
scontrol create reservation reservationname=r2 users=root nodecnt=2 \
	starttime=now duration=10 > /dev/null
is "$(scontrol show reservation r2 | grep -o 'NodeCnt=[0-9]*')" NodeCnt=2 "reservation of 2 nodes"
rnodes=$(scontrol show reservation r2 | sed -n 's/.* Nodes=\([^ ]*\).*/\1/p')
id=$(submit --reservation=r2 -N 2 -o /dev/null --wrap 'true')
wait_until 30 job_done "$id"
is "$(job_field "$id" NodeList)" "$rnodes" "a job in the reservation runs on its nodes"
scontrol delete reservation=r2

grep -q 'select/coalloc: loaded' "$TEST_DIR/cluster/log/slurmctld.log"
ok $? "slurmctld log shows select/coalloc loaded"

done_testing
