#!/bin/bash
# select/coalloc refuses, at slurmctld start-up and with a clear message,
# SelectTypeParameters that only select/cons_tres understands.
source "$(dirname "$0")/lib/tap.sh"
cluster_start --select coalloc --sites 1 --nodes-per-site 2

ctld_pid=$(awk '$1 == "slurmctld" {print $2}' "$TEST_DIR/cluster/run/pids")
kill "$ctld_pid"
wait_until 30 bash -c "! kill -0 $ctld_pid 2>/dev/null"
ok $? "the cluster's slurmctld is stopped"

try_params() {	# value: run slurmctld with it; output in ctld-VALUE.out
	local conf=$TEST_DIR/bad-$1.conf
	sed "s/^SelectType=select\/coalloc$/&\nSelectTypeParameters=$1/" \
		"$SLURM_CONF" > "$conf"
	grep -q "^SelectTypeParameters=$1$" "$conf" || return 99
	timeout 30 slurmctld -D -f "$conf" > "ctld-$1.out" 2>&1
}

for p in CR_Core CR_CPU_Memory CR_Socket CR_Pack_Nodes; do
	try_params "$p"
	rc=$?
	ok $((rc == 0 || rc == 124 || rc == 99)) "slurmctld refuses SelectTypeParameters=$p"
	like "$(cat "ctld-$p.out")" "select/coalloc: SelectTypeParameters=.* is not supported: it is for select/cons_tres" \
	     "  with a message naming the parameter and the plugin"
done

# Slurm's built-in gang scheduling is refused as clearly.
conf=$TEST_DIR/gang.conf
sed 's/^SelectType=select\/coalloc$/&\nPreemptMode=GANG/' "$SLURM_CONF" > "$conf"
timeout 30 slurmctld -D -f "$conf" > ctld-gang.out 2>&1
rc=$?
ok $((rc == 0 || rc == 124)) "slurmctld refuses PreemptMode=GANG"
like "$(cat ctld-gang.out)" "select/coalloc: PreemptMode=GANG .* must be off with select/coalloc" \
     "  saying gang rows come from coalloc.conf"

# CR_Memory is what a whole-node plugin can honour: slurmctld starts.
try_params CR_Memory &
wait_until 30 grep -qs 'select/coalloc: loaded' ctld-CR_Memory.out
ok $? "SelectTypeParameters=CR_Memory is accepted"
pkill -f -- "-f $TEST_DIR/bad-CR_Memory.conf"
wait

done_testing
