#!/bin/bash
# The queue-priority policies end to end, with crafted job streams on
# 4 sites x 4 nodes; queues: grid (global), site1..site4 (local).
# Jobs of the debug partition bypass the policies: they occupy nodes.
source "$(dirname "$0")/lib/tap.sh"
cluster_start --select coalloc

ETC=$TEST_DIR/cluster/etc
LOG=$TEST_DIR/cluster/log/slurmctld.log
SITES=$(grep '^Site=' "$ETC/coalloc.conf")
# The policy's reason is set whenever the main scheduler asks the plugin
# about the job, and again right after slurmctld put its generic
# "(Resources)" there (every failed test on Slurm 24.11, backfill passes).
coalloc_reason() { [[ $(reason "$1") == coalloc:* ]]; }
# held JOB PATTERN: the job is pending with a policy reason matching
# PATTERN: the event the "waits" tests wait for, instead of a fixed sleep.
all_idle() { test "$(nodes_in idle)" = 16; }

# Switch policy by rewriting coalloc.conf and reconfiguring.
set_policy() {	# policy [aging]
	local n
	n=$(grep -c "Policy=$1 AgingTime=${2:-3600} " "$LOG")
	{
		echo "Policy=$1 AgingTime=${2:-3600}"
		echo "$SITES"
		[[ $1 == LS-* ]] || echo "GlobalPartition=grid"
		for s in 1 2 3 4; do echo "LocalPartition=site$s Site=site$s"; done
	} > "$ETC/coalloc.conf"
	scontrol reconfigure
	# (Slurm 24.11 answers before it reloads: poll the count itself)
	wait_until 20 policy_logged_more "$1" "${2:-3600}" "$n"
}
policy_logged_more() {	# policy aging count
	(($(grep -c "Policy=$1 AgingTime=$2 " "$LOG") > $3))
}

reset() {
	scancel --user=root
	wait_until 60 queue_empty
	wait_until 60 all_idle
}

# One node busy on every site, until the scenario ends.
busy_one_per_site() {
	local n
	for n in n1 n5 n9 n13; do
		submit -w "$n" -o /dev/null --wrap 'sleep 300' > /dev/null
	done
	wait_until 30 eval 'test "$(nodes_in alloc)" = 4'
}

# Sites 1-3 full, site 4 empty.
fill_three_sites() {
	local s
	for s in 1 2 3; do
		submit -w "n[$(((s-1)*4+1))-$((s*4))]" -o /dev/null --wrap 'sleep 300' > /dev/null
	done
	wait_until 30 eval 'test "$(nodes_in alloc)" = 12'
}

# --- GS: one global FCFS queue; a blocked head stops jobs of any site.
set_policy GS; ok $? "GS loaded"
fill_three_sites
x=$(submit -p grid --coalloc=2,2 -o /dev/null --wrap 'sleep 1')
y=$(submit -p site4 -N 1 -o /dev/null --wrap 'sleep 1')
wait_until 15 held "$y" 'coalloc: .*(not at|behind|disabled|head)'
ok $(pending "$y" && echo 0 || echo 1) "GS: a site4 job waits behind the blocked global head, though site4 is empty"
like "$(reason "$y")" "coalloc: .*(not at|behind|disabled|head)" "  squeue says why: $(reason "$y")"
scancel "$x"
wait_until 30 running "$y"
ok $? "GS: it starts once the head is withdrawn"
reset

# --- LS-DO: local queues only; the blocked queue holds only its own jobs.
set_policy LS-DO; ok $? "LS-DO loaded"
fill_three_sites
# (1,1: once y runs, site4 still has free nodes enough for x, so slurmctld
# keeps asking the plugin about x instead of saying "Resources" itself)
x=$(submit -p site1 --coalloc=1,1 -o /dev/null --wrap 'sleep 1')
y=$(submit -p site4 -N 1 -o /dev/null --wrap 'sleep 30')
wait_until 30 running "$y"
ok $? "LS-DO: site4's queue starts its job while site1's queue is blocked"
wait_until 70 coalloc_reason "$x"
like "$(reason "$x")" "coalloc: local queue of site1 disabled" "  the blocked job says: $(reason "$x")"
reset

# --- GP: local queues start jobs only when the global queue is empty.
set_policy GP; ok $? "GP loaded"
fill_three_sites
x=$(submit -p grid --coalloc=2,2 -o /dev/null --wrap 'sleep 1')
y=$(submit -p site4 -N 1 -o /dev/null --wrap 'sleep 1')
wait_until 15 held "$y" 'coalloc: .*held by GP: global queue has 1 job'
ok $(pending "$y" && echo 0 || echo 1) "GP: a local job waits while a global job is queued"
like "$(reason "$y")" "coalloc: .*held by GP: global queue has 1 job" "  squeue: $(reason "$y")"
scancel "$x"
wait_until 30 running "$y" || wait_until 10 job_done "$y"
ok $? "GP: it starts once the global queue is empty"
reset

# --- LP-GF and EQ-GF: every local queue holds a job that cannot start; a
# global job that fits waits under LP and starts under EQ.
lp_eq_setup() {
	busy_one_per_site
	for s in 1 2 3 4; do
		submit -p "site$s" -N 4 -o /dev/null --wrap 'sleep 1' > /dev/null
	done
	sleep 3
}
set_policy LP-GF; ok $? "LP-GF loaded"
lp_eq_setup
g=$(submit -p grid --coalloc=1,1 -o /dev/null --wrap 'sleep 30')
wait_until 15 held "$g" 'coalloc: global queue held by LP'
ok $(pending "$g" && echo 0 || echo 1) "LP-GF: a global job waits while every local queue holds work"
like "$(reason "$g")" "coalloc: global queue held by LP" "  squeue: $(reason "$g")"
reset

set_policy EQ-GF; ok $? "EQ-GF loaded"
lp_eq_setup
g=$(submit -p grid --coalloc=1,1 -o /dev/null --wrap 'sleep 30')
wait_until 30 running "$g"
ok $? "EQ-GF: the same global job starts"
reset

# --- LQ: the global queue is served only when it is longer than every
# local queue.
set_policy LQ; ok $? "LQ loaded"
lp_eq_setup
g1=$(submit -p grid --coalloc=1,1 -o /dev/null --wrap 'sleep 30')
wait_until 15 held "$g1" 'coalloc:'
ok $(pending "$g1" && echo 0 || echo 1) "LQ: global queue of 1, local queues of 1: the global job waits"
g2=$(submit -p grid --coalloc=1,1 -o /dev/null --wrap 'sleep 30')
wait_until 40 running "$g1"
ok $? "LQ: a second global job makes the global queue longest: the first starts"
reset

# --- Aging under GP: a local job starved by a blocked global queue gets
# through after AgingTime; without aging it keeps waiting.  Aging serves
# the oldest starving job first and drains for it, and the blocked global
# job x starves too: y must be strictly older (submit times are whole
# seconds; x submitted in an earlier second than y kept y waiting in a CI
# run).  So y is submitted while a first global job x0 blocks it, x a
# second later, and x0 leaves.
set_policy GP 0; ok $? "GP without aging loaded"
fill_three_sites
x0=$(submit -p grid --coalloc=2,2 -o /dev/null --wrap 'sleep 1')
y=$(submit -p site4 -N 1 -o /dev/null --wrap 'sleep 30')
sleep 1.1
x=$(submit -p grid --coalloc=2,2 -o /dev/null --wrap 'sleep 1')
scancel "$x0"
sleep 15
ok $(pending "$y" && echo 0 || echo 1) "GP, AgingTime=0: the local job still waits after 15 s"
set_policy GP 5; ok $? "GP with AgingTime=5 loaded"
wait_until 90 running "$y"
ok $? "GP, AgingTime=5: the starving local job gets through"
ok $(pending "$x" && echo 0 || echo 1) "  while the global job still cannot fit"
reset

done_testing
