#!/bin/bash
# slurm-cluster start --hosts: every node a host of its own.  A 2-node job
# shows two hostnames (the node names), two network namespaces (neither
# this one) and each node's address its NodeAddr; a file made in
# /dev/shm on n1 is not seen on n2 nor here; a 2-rank Open MPI job between
# the nodes talks over TCP between the two node addresses (seen with ss in
# n1's namespace while it runs).  stop leaves no namespace, link, bridge or
# mount behind; start after a harness and its daemons were killed with
# SIGKILL removes the recorded leftovers and says so, also one recorded
# just before it was made; start refuses a namespace of its names that it
# did not record, and leaves it alone.
# --hosts with --proctrack cgroup runs jobs too.
source "$(dirname "$0")/lib/tap.sh"

BENCH=$BUILD_DIR/bin/cosched-bench
[[ -x $BENCH ]] || skip_all "$BENCH is missing: run make"
command -v mpicc > /dev/null || skip_all "Open MPI is missing: run make deps"
for c in ip nsenter unshare ss; do
	command -v "$c" > /dev/null || skip_all "$c is missing"
done
((EUID == 0)) || skip_all "namespaces and links need root"

BRIDGE=csbr$PORT_BASE
NS1=cs$PORT_BASE-n1
NS2=cs$PORT_BASE-n2
DIR=$TEST_DIR/cluster
ours() {	# the namespaces, links and mounts of this cluster's names
	{
		ip netns list | grep -E "^cs$PORT_BASE-n[0-9]+( |$)"
		ip -o link show | grep -E ": (csbr$PORT_BASE|csv${PORT_BASE}n[0-9]+)[@:]"
		grep -E " /run/netns/cs$PORT_BASE-n[0-9]+ " /proc/mounts
	} | awk '{print $1, $2}' || true
}

cluster_start --sites 2 --nodes-per-site 1 --hosts

# --- one host per node ---------------------------------------------------
out=$(srun -N2 -l hostname | sort)
is "$(echo "$out" | paste -sd' ')" "0: n1 1: n2" "a 2-node job shows two hostnames, the node names"

mine=$(readlink /proc/self/ns/net)
out=$(srun -N2 -l readlink /proc/self/ns/net | sort | cut -d' ' -f2)
read -r net1 net2 <<< "$(echo "$out" | paste -sd' ')"
like "$net1 $net2" '^net:\[[0-9]+\] net:\[[0-9]+\]$' "both ranks name their network namespace ($net1 $net2)"
[[ $net1 != "$net2" && $net1 != "$mine" && $net2 != "$mine" ]]
ok $? "  two different ones, and neither is this one ($mine)"

addr() { scontrol show node "$1" | tr ' ' '\n' | sed -n 's/^NodeAddr=//p'; }
A1=$(addr n1) A2=$(addr n2)
like "$A1 $A2" '^10\.[0-9]+\.[0-9]+\.2 10\.[0-9]+\.[0-9]+\.3$' "NodeAddr: n1 $A1, n2 $A2"
out=$(srun -N2 -l ip -4 -o addr show dev eth0 | sort | awk '{print $5}' | paste -sd' ')
is "$out" "$A1/24 $A2/24" "  and each node has its own address on eth0"

# --- a private /dev/shm -----------------------------------------------------
f=/dev/shm/20-hosts-$PORT_BASE-$$
srun -w n1 touch "$f"
srun -w n1 test -e "$f"
ok $? "a file made in /dev/shm on n1 stays there"
srun -w n2 test ! -e "$f"
ok $? "  n2 does not see it"
[[ ! -e $f ]]
ok $? "  nor does this host"

# --- Open MPI over TCP between the node addresses ----------------------------
srun -N2 -n2 --mpi=pmix "$BENCH" --type J5 --pattern nn --latency-us 500 \
	--seconds 8 > "$TEST_DIR/mpi.out" 2>&1 &
mpi=$!
# an established connection of the benchmark between the two addresses
tcp_between() {
	nsenter --net="/run/netns/$NS1" ss -tnpH state established > "$TEST_DIR/ss.out" 2>&1
	grep -E "[[:space:]]$A1:[0-9]+[[:space:]]+$A2:[0-9]+[[:space:]].*\"cosched-bench\"" "$TEST_DIR/ss.out" > "$TEST_DIR/ss.match"
}
wait_until 90 tcp_between
ok $? "the ranks' MPI traffic is TCP between $A1 and $A2 ($(head -n1 "$TEST_DIR/ss.match" 2>/dev/null | awk '{print $3, $4}'))"
wait "$mpi"
ok $? "the 2-rank MPI job ends well"
like "$(cat "$TEST_DIR/mpi.out")" "ranks=2 iterations=[1-9]" "  and rank 0 reports its iterations"

# --- stop leaves nothing behind ---------------------------------------------
is "$(ours | wc -l)" 7 "while it runs: two namespaces (and their mounts), two veths, the bridge" ||
	diag "$(ours)"
cluster stop > "$TEST_DIR/stop.log" 2>&1
ok $? "stop"
is "$(ours)" "" "stop leaves no namespace, link, bridge or mount of this cluster"
[[ ! -e $DIR/run/hosts ]]
ok $? "  and no record"

# --- a start after a SIGKILLed harness ---------------------------------------
start() { "$SLURM_CLUSTER" start --dir "$DIR" --port-base "$PORT_BASE" --sites 2 --nodes-per-site 1 --hosts "$@"; }
start > "$TEST_DIR/start2.log" 2>&1
ok $? "start again"
veth_id() { cat "/sys/class/net/csv${PORT_BASE}n2/ifindex" 2>/dev/null; }
old=$(veth_id)
# the harness and every daemon killed: only the records and what they name stay
while read -r _ pid _; do kill -KILL "$pid"; done < "$DIR/run/pids"
while read -r _ pid _; do wait_until 10 test ! -e "/proc/$pid"; done < "$DIR/run/pids"
is "$(ours | wc -l)" 7 "after SIGKILL the namespaces, links and bridge are left"
out=$(start --proctrack cgroup 2>&1)
ok $? "start in the same dir (now with --proctrack cgroup)" || diag "$out"
like "$out" "found the namespaces and links of an earlier run in $DIR" "  says it found leftovers"
like "$out" "removed leftovers: csv${PORT_BASE}n2 $NS2 csv${PORT_BASE}n1 $NS1 $BRIDGE" "  and names what it removed"
new=$(veth_id)
[[ -n $new && $new != "$old" ]]
ok $? "  and made new ones (n2's veth: ifindex $old -> $new)"
is "$(srun -w n2 hostname)" n2 "  --hosts with --proctrack cgroup: a job on n2 runs there"
like "$(srun -w n2 cat /proc/self/cgroup | grep freezer)" ":freezer:/slurm_n2/" \
     "  in Slurm's freezer group of n2"
cluster stop > "$TEST_DIR/stop2.log" 2>&1
ok $? "stop"
is "$(ours)" "" "  leaves nothing"

# --- what it did not record it leaves alone ---------------------------------
ip netns add "$NS1"
foreign=$(stat -L -c %i "/run/netns/$NS1")
out=$(start 2>&1)
rc=$?
ok $((rc == 0)) "start refuses when a namespace of its names exists unrecorded"
like "$out" "namespace $NS1 or link csv${PORT_BASE}n1 exists but is not recorded" "  saying so"
is "$(stat -L -c %i "/run/netns/$NS1" 2>/dev/null)" "$foreign" "  and leaves that namespace alone"
ip netns del "$NS1"
is "$(ours)" "" "  nothing else of its names is left"

# --- a harness killed between recording a namespace and making it -------------
# (recorded as about to be made, "-", then made: it is removed as recorded)
ip netns add "$NS2"
echo "netns $NS2 -" > "$DIR/run/hosts"
out=$(start 2>&1)
ok $? "start after a harness killed while making $NS2" || diag "$out"
is "$(grep "removed leftovers" <<< "$out")" "slurm-cluster: removed leftovers: $NS2" \
   "  removes it, by its recorded name"
cluster stop > "$TEST_DIR/stop3.log" 2>&1
is "$(ours)" "" "  and stop leaves nothing"

done_testing
