#!/bin/bash
# coalloc.conf in slurmctld: loaded at start-up, a valid change applied by
# 'scontrol reconfigure', an invalid one rejected there without losing
# jobs, and every kind of bad file stops slurmctld naming file, line, key.
source "$(dirname "$0")/lib/tap.sh"
cluster_start --select coalloc --sites 2 --nodes-per-site 2

ETC=$TEST_DIR/cluster/etc
LOG=$TEST_DIR/cluster/log/slurmctld.log
cp "$ETC/coalloc.conf" good.conf

like "$(grep 'select/coalloc: .*coalloc.conf:' "$LOG")" \
     "coalloc.conf: 2 sites, Policy=GS AgingTime=3600 Matrix=off MPL=1" \
     "start-up loads the rendered coalloc.conf"

# A valid change is applied by reconfigure.
sed 's/^Policy=GS AgingTime=3600$/Policy=GS AgingTime=120/' good.conf > "$ETC/coalloc.conf"
scontrol reconfigure
wait_until 20 grep -q 'Policy=GS AgingTime=120 ' "$LOG"
ok $? "scontrol reconfigure applies AgingTime=120"
# (Slurm 24.11's reconfigure starts slurmctld again: the copy is what it
# falls back to when the file has gone bad.)
cmp -s "$ETC/coalloc.conf" "$TEST_DIR/cluster/state/coalloc.conf.running"
ok $? "  and keeps a copy of it in StateSaveLocation"

# An invalid one is rejected; running and queued jobs stay.
run=$(submit -N 4 -o /dev/null --wrap 'sleep 300')
wait_until 30 eval 'test "$(job_state "$run")" = RUNNING'
queued=$(submit -N 2 -o /dev/null --wrap 'true')
printf 'Policy=GS\nColour=blue\nSite=site1 Nodes=n[1-4]\n' > "$ETC/coalloc.conf"
scontrol reconfigure
wait_until 20 grep -q "keeping the running configuration" "$LOG"
ok $? "reconfigure with a bad file keeps the running configuration"
like "$(grep 'keeping the running' "$LOG" | tail -n1)" \
     "coalloc.conf line 2: key 'Colour': unknown key" "  and names file, line and key"
is "$(job_state "$run")" RUNNING "the running job is untouched"
is "$(job_state "$queued")" PENDING "the queued job is still queued"
cp good.conf "$ETC/coalloc.conf"
scancel "$run"
wait_until 60 job_done "$queued"
is "$(job_state "$queued")" COMPLETED "and runs once the nodes are free"

# Each kind of bad file stops slurmctld at start-up with its message.
ctld_pid=$(awk '$1 == "slurmctld" {print $2}' "$TEST_DIR/cluster/run/pids")
kill "$ctld_pid"
wait_until 30 bash -c "! kill -0 $ctld_pid 2>/dev/null"

# coalloc-status --check says it first, without starting anything: the
# same rules (lib/coalloc_conf/cluster.c), the same words.
check() { SLURM_CONF=$SLURM_CONF "$BUILD_DIR/bin/coalloc-status" --check 2>&1; }
refused() {	# conf-text expected-message description
	printf '%b' "$1" > "$ETC/coalloc.conf"
	out=$(check)
	is "$?" 1 "$3: coalloc-status --check finds it"
	like "$out" "error: $2" "  with slurmctld's words"
	out=$(timeout 30 slurmctld -D -f "$SLURM_CONF" 2>&1)
	rc=$?
	ok $((rc == 0 || rc == 124)) "  slurmctld stops"
	like "$out" "fatal: select/coalloc: $2" "  with: $2"
}
cp good.conf "$ETC/coalloc.conf"
out=$(check)
is "$?" 0 "coalloc-status --check: the running configuration has no error"
[[ $? == 0 ]] || diag "$out"
C=$ETC/coalloc.conf
refused 'Policy=GS\nPolcy=LQ\nSite=s Nodes=n[1-4]\n' \
	"$C line 2: key 'Polcy': unknown key" "unknown key"
refused 'Policy=FIFO\nSite=s Nodes=n[1-4]\n' \
	"$C line 1: key 'Policy': unknown policy 'FIFO'" "bad value"
refused 'Site=a Nodes=n[1-2]\nSite=b Nodes=n[2-4]\n' \
	"$C line 2: key 'Nodes': node 'n2' is already in site 'a' \\(line 1\\)" "overlapping sites"
refused 'Site=a Nodes=n[1-3]\n' \
	"$C: key 'Site': node 'n4' is in no site" "a node in no site"
refused 'Site=a Nodes=n[1-5]\n' \
	"$C line 1: key 'Nodes': node 'n5' is not in slurm.conf" "an unknown node"
refused 'Policy=EQ-GF GlobalPartition=nope\nSite=a Nodes=n[1-4]\nLocalPartition=debug Site=a\n' \
	"$C line 1: key 'GlobalPartition': partition 'nope' is not in slurm.conf" "an unknown partition"
refused 'Matrix=gang\nSite=a Nodes=n[1-4]\n' \
	"$C: key 'MPL': Matrix=gang needs MPL=2 or more" "an inconsistent matrix"
# rows the agents switch, at a port plugstack.conf's cosched.so line
# (PlugStackConfig, line 4) does not give them
refused 'Matrix=gang MPL=2 TimeSlice=200ms GangPortOffset=1234\nSite=a Nodes=n[1-4]\n' \
	"$C line 1: key 'GangPortOffset': 1234 differs from gang_port_offset=1001 of cosched.so at $ETC/plugstack.conf line 4" \
	"GangPortOffset not plugstack.conf's gang_port_offset"

# No coalloc.conf at all: one site of every node, and slurmctld runs.
rm -f "$ETC/coalloc.conf"
timeout 15 slurmctld -D -f "$SLURM_CONF" > nofile.out 2>&1
like "$(cat nofile.out)" "no coalloc.conf: 1 site, Policy=GS" "without coalloc.conf: one site, GS"

done_testing
