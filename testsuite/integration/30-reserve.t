#!/bin/bash
# The queue policies without switching off backfill (select_coalloc(8),
# "Queue partitions and backfill"): 2 sites x 2 nodes, policy LS-DO, the
# local queues site1 and site2 at PriorityJobFactor=0 below
# SchedulerParameters=bf_min_prio_reserve (the harness's default,
# --reserve prio); debug and grid are ordinary partitions.
#   - outside the queues, backfill reserves: a large job gets a start
#     estimate and a small job that would delay it does not overtake it;
#     the estimate is the end of the job that frees the last node needed;
#   - inside them the policy still orders: a blocked queue holds only its
#     own jobs, its head gets an estimate, the job behind it none;
#   - settings that would break this are named at start-up and at
#     scontrol reconfigure, and running jobs are untouched;
#   - with DebugFlags=SelectType, reconfigure logs the plugin's job_test
#     timers (the share of a cycle doc/bench-sched.md breaks down).
source "$(dirname "$0")/lib/tap.sh"
plan 16
SLURM_CLUSTER_DEBUG=verbose cluster_start --select coalloc --sites 2 --nodes-per-site 2 --policy LS-DO \
	--debug-flags SelectType

CONF=$TEST_DIR/cluster/etc/slurm.conf
LOG=$TEST_DIR/cluster/log/slurmctld.log
start_of() { squeue -h --start -j "$1" -o %S 2>/dev/null; }
has_start() { [[ $(start_of "$1") =~ ^[0-9]{4}- ]]; }
coalloc_reason() { [[ $(reason "$1") == *coalloc:* ]]; }
# Backfill passes so far (sdiag), and waiting for the next one
# (bf_interval: 30 s).
bf_passes() {
	sdiag | sed -n '/^Backfilling stats/,$s/^[[:space:]]*Total cycles:[[:space:]]*//p' | head -n1
}
backfill_pass_after() { (($(bf_passes) > $1)); }
wait_backfill() {
	local n
	n=$(bf_passes)
	wait_until 70 backfill_pass_after "$n"
}

grep -q 'queue partitions ordered by the policy, below SchedulerParameters bf_min_prio_reserve=50000' "$LOG"
ok $? "slurmctld says at start-up how the queues stay open: $(grep -o 'queue partitions ordered.*' "$LOG" | head -1)"

# --- outside the queues: a reservation, and no overtaking ---------------
r=$(submit -w 'n[1-3]' -t 5 -o /dev/null --wrap 'sleep 300')
wait_until 30 running "$r"
big=$(submit -N 4 -t 5 -o /dev/null --wrap 'sleep 1')
small=$(submit -N 1 -t 10 -o /dev/null --wrap 'sleep 300')
wait_backfill
wait_until 40 has_start "$big"
ok $? "a 4-node job behind a running one has a start estimate: $(start_of "$big")"
pending "$small"
ok $? "a 1-node job that would delay it waits beside the idle node ($(job_state "$small"), $(reason "$small"))"
short=$(submit -N 1 -t 1 -o /dev/null --wrap 'sleep 5')
wait_until 70 running "$short" || wait_until 5 job_done "$short"
ok $? "a 1-node job that ends before the reservation is backfilled there"
scancel "$r" "$small"
wait_until 30 job_done "$big"
ok $? "the large job ran once its nodes freed"
scancel --user=root
wait_until 30 eval 'test "$(nodes_in idle)" = 4'

# --- the estimate: the end of the job whose end frees enough nodes -------
# Three running jobs end 5, 10 and 15 minutes from now; a 3-node job fits
# once two have ended (n4 is idle), so its estimate is the second's end
# (within backfill's 60 s resolution), not the first's or the third's.
a=$(submit -w n1 -t 5 -o /dev/null --wrap 'sleep 600')
b=$(submit -w n2 -t 10 -o /dev/null --wrap 'sleep 600')
c=$(submit -w n3 -t 15 -o /dev/null --wrap 'sleep 600')
wait_until 30 eval "running $a && running $b && running $c"
three=$(submit -N 3 -t 5 -o /dev/null --wrap 'sleep 1')
wait_backfill
wait_until 40 has_start "$three"
est=$(date -d "$(start_of "$three")" +%s)
end_b=$(date -d "$(squeue -h -j "$b" -o %e)" +%s)
((est >= end_b - 60 && est <= end_b + 60))
ok $? "a 3-node job's estimate is the second ending job's end: $(start_of "$three") (that job ends $(squeue -h -j "$b" -o %e))"
scancel --user=root
wait_until 30 eval 'test "$(nodes_in idle)" = 4'

# --- inside them: LS-DO orders -------------------------------------------
f=$(submit -w n1 -t 10 -o /dev/null --wrap 'sleep 300')
wait_until 30 running "$f"
head=$(submit -p site1 -N 2 -o /dev/null --wrap 'sleep 1')
behind=$(submit -p site1 -N 1 -o /dev/null --wrap 'sleep 1')
other=$(submit -p site2 -N 1 -o /dev/null --wrap 'sleep 30')
wait_until 30 running "$other"
ok $? "site2's queue starts its job while site1's head is blocked"
pending "$behind"
ok $? "the job behind site1's blocked head waits, though n2 is idle ($(reason "$behind"))"
wait_backfill
wait_until 40 has_start "$head"
ok $? "site1's head, waiting only for room, has a start estimate: $(start_of "$head")"
wait_until 40 coalloc_reason "$behind"
ok $? "... the job behind it the policy's reason: $(reason "$behind")"
[[ $(start_of "$behind") == N/A ]]
ok $? "... and no estimate ($(start_of "$behind"))"

# --- settings that break it, at reconfigure -------------------------------
# site1 back at the default factor, site2 the default partition and above
# debug's tier: three messages, and the running job stays.
cp "$CONF" "$CONF.good"
sed -i -e '/^PartitionName=debug /s/ Default=YES//' \
       -e '/^PartitionName=site1 /s/ PriorityJobFactor=0//' \
       -e '/^PartitionName=site2 /s/$/ Default=YES PriorityTier=3/' "$CONF"
n=$(grep -c 'select/coalloc: the jobs of queue partition site1 reach priority' "$LOG")
scontrol reconfigure
wait_until 30 eval "(( \$(grep -c 'select/coalloc: the jobs of queue partition site1 reach priority' '$LOG') > $n ))"
ok $? "reconfigure: $(grep -o 'the jobs of queue partition site1 reach priority.*' "$LOG" | tail -1 | cut -c1-200)"
# The timers are logged once a minute and, on 22.05, at the reconfigure
# (24.11's reconfigure starts a new slurmctld, whose counts are empty); a
# minute's line may fall just before the reconfigure's and take its counts
# (CI saw "last 0 s" with no will_run), so every kind is looked for in all
# the lines.
timers=$(grep -o 'select/coalloc: job_test timers, last [0-9]* s: .*' "$LOG")
[[ $timers =~ run_now\ [1-9][0-9]*\ calls ]] &&
	[[ $timers =~ will_run\ [1-9][0-9]*\ calls\ [0-9.]+\ ms ]] &&
	[[ $timers =~ release\ search\ [1-9][0-9]*\ calls ]] &&
	[[ $timers =~ its\ node\ picks\ [1-9] ]] &&
	[[ $timers =~ status\ thread:\ queue\ sync\ \(job\ read\ lock\ held\)\ [1-9] ]]
ok $? "... and logs the timers: $(tail -n1 <<< "$timers" | cut -c1-220)"
grep -q 'queue partition site2 is the default partition' "$LOG" &&
	grep -q 'queue partition site2 has PriorityTier=3, above partition debug' "$LOG"
ok $? "... the default partition and the higher tier are named too"
running "$f"
ok $? "... and the running job is untouched ($(job_state "$f"))"
cp "$CONF.good" "$CONF"
scontrol reconfigure
wait_until 30 eval "(( \$(grep -c 'queue partitions ordered by the policy' '$LOG') > 1 ))"
ok $? "the good settings again: accepted"
done_testing
