#!/bin/bash
# A pending job cancelled and purged (MinJobAge) before select/coalloc saw
# it go must not keep its place in the policy queue: the next job of that
# queue starts at once.  Slurm 22.05 tells the plugin about the cancel
# (select_p_job_signal); 24.11 does not, and the purged job was granted
# the nodes and held them until its grant timed out (60 s).
source "$(dirname "$0")/lib/tap.sh"
cluster_start --select coalloc --policy GS

ETC=$TEST_DIR/cluster/etc
purged() { ! scontrol show job "$1" > /dev/null 2>&1; }
started() { [[ $(job_state "$1") =~ ^(RUNNING|COMPLETED)$ ]]; }
all_idle() { test "$(nodes_in idle)" = 16; }

# Finished jobs leave slurmctld's table 2 s after their end (at its next
# purge pass, every minute or so); restart-ctld re-reads slurm.conf.
sed -i 's/^MinJobAge=.*/MinJobAge=2/' "$ETC/slurm.conf"
grep -q '^MinJobAge=2$' "$ETC/slurm.conf"
ok $? "slurm.conf: MinJobAge=2"
cluster restart-ctld > restart.log 2>&1
ok $? "slurmctld restarted with it"

# The global queue (grid): a job on three sites, then one that needs all
# four waits; slurmctld asks the plugin about it (site4 is idle), so it
# joins the policy's queue.
ALL=--coalloc=4,4,4,4	# every node of the 4 sites
STATUS=$TEST_DIR/cluster/state/coalloc_status.json
queued() { grep -Eq '"pending": *1[,} ]' "$STATUS"; }
first=$(submit -p grid --coalloc=4,4,4 -o /dev/null --wrap 'sleep 600')
wait_until 30 running "$first"
is "$(job_state "$first")" RUNNING "a job of the global queue on three sites runs"
gone=$(submit -p grid $ALL -o /dev/null --wrap 'sleep 1')
wait_until 60 queued
ok $? "a job on all four sites waits in the policy's queue"
is "$(job_state "$gone")" PENDING "  pending in slurmctld"

# Cancelled while nothing else waits: no job_test call until it is purged.
scancel "$gone"
wait_until 180 purged "$gone"
ok $? "the cancelled job is purged from slurmctld"

scancel "$first"
wait_until 60 all_idle
is "$(nodes_in idle)" 16 "all nodes free again"
next=$(submit -p grid $ALL -o /dev/null --wrap 'sleep 1')
wait_until 30 started "$next"
like "$(job_state "$next")" "^(RUNNING|COMPLETED)$" \
     "the next job of the queue starts within 30 s (not after a 60 s grant timeout)"

# A queue longer than a slice of the status thread's walk of the job
# table (2,048 jobs, each slice under a job read lock of its own): every
# job joins the policy's queue, and jobs cancelled at the end of
# slurmctld's table, in the walk's last slice, leave it.
N=2100
pending_in_status() {
	perl -MJSON::PP -e 'print decode_json(join "", <STDIN>)->{pending} // -1' < "$STATUS" 2>/dev/null
}
pending_is() { [[ $(pending_in_status) == "$1" ]]; }
hold=$(submit -p grid $ALL -o /dev/null --wrap 'sleep 600')
wait_until 30 running "$hold"
for ((i = 0; i < N; i++)); do
	sbatch -Q -p site1 -N 1 -o /dev/null --wrap 'sleep 1' > /dev/null || break
done
is "$i" "$N" "$N jobs submitted behind an all-node job"
wait_until 30 pending_is "$N"
is "$(pending_in_status)" "$N" "  all $N wait in the policy's queue (more than one slice of the walk)"
last=$(squeue -h -t PD -o %i --sort=-i | head -n 10)
scancel $last
wait_until 30 pending_is $((N - 10))
is "$(pending_in_status)" $((N - 10)) "  the 10 submitted last, cancelled, leave it"
# After a restart every pending job is new to the engine: the walk adds
# them a slice at a time too.
cluster restart-ctld > restart2.log 2>&1
ok $? "slurmctld restarted with $((N - 10)) jobs pending"
wait_until 60 pending_is $((N - 10))
is "$(pending_in_status)" $((N - 10)) "  all of them are back in the policy's queue"

done_testing
