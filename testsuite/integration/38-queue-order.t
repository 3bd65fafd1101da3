#!/bin/bash
# QueueOrder= end to end, on one site of 8 nodes under Policy=GS (every
# job of partition grid in the one global queue).  Jobs of partition
# debug bypass the policy: they hold nodes.  fcfs blocks behind a head
# that does not fit; firstfit starts the jobs behind it that fit; smallest
# the fewest nodes first; AgingTime bounds a wide job's wait; squeue and
# coalloc-status say which order holds; a bad value is refused by name.
source "$(dirname "$0")/lib/tap.sh"
cluster_start --select coalloc --sites 1 --nodes-per-site 8 --policy GS \
	--queue-order firstfit

ETC=$TEST_DIR/cluster/etc
LOG=$TEST_DIR/cluster/log/slurmctld.log
STATUS=$BUILD_DIR/bin/coalloc-status
all_idle() { test "$(nodes_in idle)" = 8; }
reset() {
	scancel --user=root
	wait_until 60 queue_empty
	wait_until 60 all_idle
}
grid() { submit -p grid -N "$1" -o /dev/null --wrap "sleep ${2:-60}"; }

# set_order ORDER [AGING]: coalloc.conf rewritten, slurmctld reconfigured
set_order() {
	local n
	n=$(grep -c "QueueOrder=$1 " "$LOG")
	printf 'Policy=GS AgingTime=%s QueueOrder=%s\nSite=site1 Nodes=n[1-8]\nGlobalPartition=grid\n' \
		"${2:-3600}" "$1" > "$ETC/coalloc.conf"
	scontrol reconfigure
	wait_until 20 order_logged_more "$1" "$n"
}
order_logged_more() {	# order count: more "QueueOrder=order" lines than count
	(($(grep -c "QueueOrder=$1 " "$LOG") > $2))
}
# six of the eight nodes busy outside the policy
six_busy() {
	submit -p debug -w 'n[1-6]' -o /dev/null --wrap 'sleep 300'
	wait_until 30 eval 'test "$(nodes_in alloc)" = 6'
}

# --- firstfit (the cluster's start): the 2-node job passes the 4-node head
hold=$(six_busy)
a=$(grid 4) b=$(grid 2) c=$(grid 1)
wait_until 30 running "$b"
ok $? "firstfit: B (2 nodes) starts though A (4) ahead of it does not fit"
# A and C lack nodes: slurmctld finds too few idle nodes before it asks
# the plugin and says so itself (Resources); when it does ask, the
# plugin's text names the queue, never "head of" under firstfit
no_room='^\((Resources|coalloc: in global queue; .*do not fit now)\)$'
wait_until 15 held "$a" "$no_room"
ok $? "  A waits for nodes: $(reason "$a")"
pending "$c"
ok $? "  C (1 node) waits: nothing is left"
wait_until 15 held "$c" "$no_room"
ok $? "  and says why: $(reason "$c")"
like "$("$STATUS" 2>&1)" "QueueOrder=firstfit" "coalloc-status shows QueueOrder=firstfit"
reset

# --- fcfs: the same jobs, B waits behind A
set_order fcfs; ok $? "QueueOrder=fcfs loaded"
hold=$(six_busy)
a=$(grid 4) b=$(grid 2)
wait_until 15 held "$b" 'coalloc: not at head'
ok $? "fcfs: B waits behind A: $(reason "$b")"
pending "$a"
ok $? "  A waits for room"
scancel "$hold"
wait_until 30 running "$a"
ok $? "  A starts once the nodes are free"
wait_until 30 running "$b"
ok $? "  and B beside it"
reset

# --- smallest: C and D (1 node each) before B (2) and A (4); all eight
# nodes busy while they are submitted (else a pass between the sbatch
# calls starts B before C and D exist), then two freed at once
set_order smallest; ok $? "QueueOrder=smallest loaded"
hold=$(six_busy)
two=$(submit -p debug -w 'n[7-8]' -o /dev/null --wrap 'sleep 300')
wait_until 30 eval 'test "$(nodes_in alloc)" = 8'
a=$(grid 4) b=$(grid 2) c=$(grid 1) d=$(grid 1)
wait_until 15 held "$d" 'coalloc: '
scancel "$two"
wait_until 30 running "$c" && wait_until 30 running "$d"
ok $? "smallest: C and D, one node each, start in the two free nodes"
pending "$b" && pending "$a"
ok $? "  B (2) and A (4) wait"
scancel "$c" "$d"
wait_until 30 running "$b"
ok $? "  B, the smaller, starts when they end"
pending "$a"
ok $? "  A still waits"
reset

# --- AgingTime bounds A's wait: once it has waited 10 s, nothing passes it
set_order smallest 10; ok $? "QueueOrder=smallest AgingTime=10 loaded"
hold=$(six_busy)
a=$(grid 4)
n1=$(grid 1)
wait_until 30 running "$n1"
ok $? "before AgingTime a narrow job passes the wide one"
sleep 11	# the duration under test: A waits past its AgingTime
n2=$(grid 1)
wait_until 15 held "$n2" 'coalloc: held: draining for a job that has waited AgingTime'
ok $? "after it, the next narrow job waits: $(reason "$n2")"
scancel "$hold"
wait_until 30 running "$a"
ok $? "the starving job starts once there is room"
wait_until 30 running "$n2"
ok $? "  and the narrow one after it"
reset

# --- a bad order is refused by name; the running configuration stays
printf 'Policy=GS QueueOrder=sjf\nSite=site1 Nodes=n[1-8]\nGlobalPartition=grid\n' > "$ETC/coalloc.conf"
scontrol reconfigure
wait_until 20 grep -q "coalloc.conf line 1: key 'QueueOrder': 'sjf' is not fcfs, firstfit or smallest" "$LOG"
ok $? "QueueOrder=sjf: slurmctld names file, line and key"
like "$("$STATUS" 2>&1)" "QueueOrder=smallest" "  and keeps QueueOrder=smallest"

done_testing
