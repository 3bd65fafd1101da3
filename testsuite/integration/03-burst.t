#!/bin/bash
# A burst of 100 mixed jobs: all complete, and no node ever runs two jobs
# at once, judged from what the jobs' own tasks recorded and from the
# controller's job completion log.
source "$(dirname "$0")/lib/tap.sh"
source "$(dirname "$0")/lib/overlap.sh"
cluster_start --select coalloc

RANDOM=4242	# same mix every run
TASK='echo "$SLURMD_NODENAME $SLURM_JOB_ID start $(date +%s.%N)"; sleep $T; echo "$SLURMD_NODENAME $SLURM_JOB_ID end $(date +%s.%N)"'
sizes=(1 1 1 2 2 3 4 4 5 6 8 16)
ids=()
for ((j = 0; j < 100; j++)); do
	n=${sizes[RANDOM % ${#sizes[@]}]}
	t=$(printf '0.%d' $((RANDOM % 9 + 1)))
	case $((j % 4)) in
	0) opts=(-N "$n") ;;
	1) opts=(-n "$n") ;;		# one-CPU nodes: n tasks, n nodes
	2) opts=(-N "$n" --exclusive) ;;
	3) opts=(-N 1-"$n") ;;		# a range: whatever is free
	esac
	ids+=("$(submit "${opts[@]}" -o "task-%j.log" \
		--export=ALL,T="$t" --wrap "srun bash -c '$TASK'")")
done
is "${#ids[@]}" 100 "100 jobs submitted"

wait_until 400 queue_empty
ok $? "the queue drains"

states=$(for id in "${ids[@]}"; do job_state "$id"; done | sort | uniq -c | sed 's/^ *//')
is "$states" "100 COMPLETED" "all 100 jobs completed"

is "$(cat task-*.log | awk '$3=="start"' | wc -l)" \
   "$(cat task-*.log | awk '$3=="end"' | wc -l)" "every task that started ended"
bad=$(task_overlaps task-*.log)
is "$bad" "" "no node ran tasks of two jobs at once (task records)"

wait_until 20 eval 'test "$(grep -c JobId= "$TEST_DIR/cluster/log/jobcomp.log")" -ge 100'
is "$(grep -c 'JobState=COMPLETED' "$TEST_DIR/cluster/log/jobcomp.log")" 100 \
   "jobcomp log records 100 completed jobs"
bad=$(jobcomp_overlaps "$TEST_DIR/cluster/log/jobcomp.log")
is "$bad" "" "no node held two jobs at once (controller records)"

done_testing
