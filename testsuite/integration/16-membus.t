#!/bin/bash
# Bandwidth-aware gang pairing (--cosched=membus) on the embedded cluster:
# two nodes with two CPUs each, select/coalloc Matrix=local MPL 4, so four
# 2-node jobs share both nodes: two memory-heavy (membench max, declared
# mem=800M per process) and two light (membench min, mem=50M), on nodes of
# M = 1 GB/s.  The agents' quanta show: every node runs the same set in
# every quantum, each heavy job beside a light one in most quanta, every
# job runs at least once in every 4 quanta, the jobs that do not run are
# frozen (cgroup freezer).  A message a user forges is refused.  Killing
# an agent (here n2) thaws its node's steps, and the coordinator counts
# it gone and keeps pairing on its own node; killing the coordinator (n1)
# too thaws everything, and the jobs finish normally.  Each node is a host of its own
# (slurm-cluster --hosts): the agents talk over the nodes' addresses.
#
# test-serial: coschedd-cgroups  the node agents' cgroups are
# coschedd/NODE/JOB.STEP, and every embedded cluster names its nodes n1,
# n2, ... and its jobs from 1: two clusters' agents would share groups.
source "$(dirname "$0")/lib/tap.sh"

MEMBENCH=$BUILD_DIR/bin/membench
CTL=$BUILD_DIR/bin/coschedctl
for f in "$MEMBENCH" "$CTL" "$BUILD_DIR/sbin/coschedd"; do
	[[ -x $f ]] || skip_all "$f is missing: run make"
done
[[ -w /sys/fs/cgroup/freezer ]] || skip_all "no writable cgroup v1 freezer"

plan 19

QUANTUM_MS=250
OFFSET=50	# membus port = slurmd port + 50: inside this test's ports
# The user nobody must reach the cluster's munge socket to forge a
# message, but a clone may sit under a directory only root can enter:
# the cluster lives under /tmp (build/test/16-membus links to it),
# removed when every test passed.
FREEZER=/sys/fs/cgroup/freezer/coschedd
cluster_clear
mkdir -p "$(dirname "$TEST_DIR")"
ln -sfn "$(mktemp -d /tmp/16-membus.XXXXXX)" "$TEST_DIR"
TEST_DIR=$(readlink "$TEST_DIR")
chmod 755 "$TEST_DIR"
cluster_start --sites 2 --nodes-per-site 1 --select coalloc --matrix local \
	--mpl 4 --cpus 2 --hosts --cosched-args \
	"membus_quantum_ms=$QUANTUM_MS membus_mem=1G membus_net=1G membus_port_offset=$OFFSET"
_remove_tmp() {
	local rc=$?
	_cluster_cleanup
	# the agents were killed: their guardians thawed these, none removed them
	rmdir "$FREEZER"/n[12]/*/ "$FREEZER"/n[12] 2>/dev/null
	if ((rc == 0 && _tap_failed == 0)); then
		rm -rf "$TEST_DIR" "$REPO/build/test/16-membus"
	fi
	return $rc
}
trap _remove_tmp EXIT
RUN_DIR=$TEST_DIR/cluster/run/cosched

ctl() { "$CTL" --run-dir "$RUN_DIR" --node "$1" status --json; }
# py NODE CODE: run python on the agent's status as d
py() { ctl "$1" | python3 -c "import json, sys; d = json.load(sys.stdin); $2" "${@:3}"; }

# --- four jobs, two heavy and two light, on both nodes -----------------
declare -A KIND
for kind in heavy heavy light light; do
	if [[ $kind == heavy ]]; then bw=mem=800M variant=max; else bw=mem=50M variant=min; fi
	id=$(submit -N2 --ntasks-per-node=1 --cosched=membus --cosched-bw=$bw \
		-o "$TEST_DIR/%j.out" --wrap \
		"srun bash -c 'exec $MEMBENCH --variant $variant --words 1000000 --seconds 30 --log $TEST_DIR/\$SLURM_JOB_ID-\$SLURM_PROCID.log'")
	KIND[$id]=$kind
done
JOBS=("${!KIND[@]}")
all_running() {
	for j in "${JOBS[@]}"; do [[ $(job_state "$j") == RUNNING ]] || return 1; done
}
wait_until 60 all_running
ok $? "the four membus jobs run together on both nodes"

# enough quanta with all four steps on both agents
quanta_with4() {
	py "$1" 'print(sum(1 for q in d["membus"]["history"] if len(q["estimates_mbs"].split()) == 4))' 2>/dev/null || echo 0
}
enough() { (( $(quanta_with4 n1) >= 16 && $(quanta_with4 n2) >= 16 )); }
wait_until 60 enough
ok $? "both agents scheduled 16 quanta of the four jobs"

ctl n1 > "$TEST_DIR/n1.json"
ctl n2 > "$TEST_DIR/n2.json"
# analyze: the quanta both agents recorded with all four steps
analysis=$(python3 - "$TEST_DIR/n1.json" "$TEST_DIR/n2.json" "$(for j in "${JOBS[@]}"; do echo "$j.0=${KIND[$j]}"; done)" <<'EOF'
import json, sys
n1, n2 = (json.load(open(f)) for f in sys.argv[1:3])
kind = dict(l.split("=") for l in sys.argv[3].split())
def hist(d):
    return {q["q"]: q for q in d["membus"]["history"] if len(q["estimates_mbs"].split()) == 4}
h1, h2 = hist(n1), hist(n2)
common = sorted(set(h1) & set(h2))
def ran(h, q):
    return sorted(h[q]["run"].split())	# each node lists in its own order
same = sum(ran(h1, q) == ran(h2, q) for q in common)
paired = sum(sorted(kind[s] for s in h1[q]["run"].split()) == ["heavy", "light"] for q in common)
coords = {h1[q]["coordinator"] for q in common} | {h2[q]["coordinator"] for q in common}
# every job in every window of 4 consecutive quanta
starved = 0
for i in range(len(common) - 3):
    ran = set()
    for q in common[i:i + 4]:
        ran |= set(h1[q]["run"].split())
    starved += len(set(kind) - ran)
print(len(common), same, paired, starved, ",".join(sorted(coords)))
EOF
)
read -r common same paired starved coords <<< "$analysis"
diag "quanta compared: $common, same set on both nodes: $same, heavy beside light: $paired, starved job-windows: $starved, coordinators: $coords"
(( common >= 12 ))
ok $? "at least 12 quanta recorded by both agents ($common)"
is "$same" "$common" "every quantum both nodes ran the same set"
(( paired * 10 >= common * 8 ))
ok $? "a heavy job beside a light one in most quanta ($paired of $common)"
is "$starved" 0 "every job ran at least once in every 4 quanta"
is "$coords" n1 "n1 (first in node order) coordinated"
is "$(py n1 'print(d["membus"]["cpus"], d["membus"]["mem_capacity_from"])')" \
   "2 configured" "P = 2 CPUs, M as configured"
is "$(py n1 'print(sorted({(s["membus"]["mem_source"], s["membus"]["net_source"]) for s in d["jobs"] if "membus" in s}))')" \
   "[('hint', 'tcp')]" "memory bandwidth from the hints, network from TCP counters"

# The steps out of the running set are frozen by the freezer.  The
# freezer states are read between two statuses: a quantum (250 ms) can
# end between the reads, most often on a loaded machine, so each step's
# state must match its place in the running set of one of the two.
frozen_ok() {
	local before states
	before=$(ctl n1) || return 1
	states=$(python3 -c '
import glob, json, sys
states = {}
for f in glob.glob("%s/n1/*.0/freezer.state" % sys.argv[1]):
    states[int(f.split("/")[-2].split(".")[0])] = open(f).read().strip()
json.dump(states, sys.stdout)' "$FREEZER") || return 1
	ctl n1 | python3 -c '
import json, sys
states = {int(k): v for k, v in json.loads(sys.argv[2]).items()}
statuses = [json.loads(sys.argv[1]), json.load(sys.stdin)]
def want(d, job):
    for s in d["jobs"]:
        if s["job"] == job and "membus" in s:
            return "THAWED" if s["membus"]["running"] else "FROZEN"
jobs = {s["job"] for s in statuses[0]["jobs"] if "membus" in s}
if not jobs or any(states.get(j) not in (want(statuses[0], j), want(statuses[1], j)) for j in jobs):
    sys.exit(1)' "$before" "$states"
}
wait_until 10 frozen_ok
ok $? "the freezer states of the steps on n1 match the running set"
logs_grow() {
	local j
	for j in "${JOBS[@]}"; do
		grep -q "accesses=" "$TEST_DIR/$j-0.log" 2>/dev/null || return 1
	done
}
ok "$(logs_grow; echo $?)" "every job's membench made progress"

# --- a forged message is refused ----------------------------------------
refused() { py n1 'print(d["membus"]["refused"])'; }
before=$(refused)
port=$(( PORT_BASE + 1 + OFFSET ))	# n1's slurmd listens on PORT_BASE + 1
cred=$(runuser -u nobody -- munge -S "$(sed -n 's/^AuthInfo=socket=//p' "$TEST_DIR/cluster/etc/slurm.conf")" \
	-s '{"t":"decision","q":99999999999,"from":"n1","order":[],"forced":[]}' 2>/dev/null)
# n1's agent listens on n1's own address (its NodeAddr, in its namespace)
n1_addr=$(scontrol show node n1 | tr ' ' '\n' | sed -n 's/^NodeAddr=//p')
echo "$cred" > "/dev/udp/$n1_addr/$port"
echo "not a credential" > "/dev/udp/$n1_addr/$port"
more_refused() { (( $(refused) >= before + 2 )); }
wait_until 5 more_refused
ok $? "a decision munged by nobody and a datagram without credential are refused ($before -> $(refused))"
reasons=$(grep -o "refused a message: .*" "$RUN_DIR/n1.log" | sort -u | paste -sd';')
like "$reasons" "sender is not root.*invalid credential|invalid credential.*sender is not root" \
     "... for the right reasons ($reasons)"

# --- killing an agent, then the coordinator, thaws everything -----------
all_thawed() {
	local f
	for f in "$FREEZER"/n[12]/*/freezer.state; do
		[[ -e $f ]] || continue
		[[ $(cat "$f") == THAWED ]] || return 1
	done
}
n2_thawed() {
	local f
	for f in "$FREEZER"/n2/*/freezer.state; do
		[[ -e $f ]] || continue
		[[ $(cat "$f") == THAWED ]] || return 1
	done
}
kill -KILL "$(cat "$RUN_DIR/n2.pid")"
sleep 1
wait_until 5 n2_thawed
ok $? "n2's agent killed: its guardian thaws every step on n2"
steady() { sleep 1; n2_thawed; }
ok "$(steady; echo $?)" "... and they stay thawed: n2 runs them unmanaged"
# the coordinator n1 counts n2 gone once it missed 4 votes, and pairs its
# own CPUs again: each of its last 4 quanta a heavy job beside a light one
HEAVY=$(for j in "${!KIND[@]}"; do [[ ${KIND[$j]} == heavy ]] && echo "$j.0"; done | paste -sd,)
paired_again() {
	py n1 'm = d["membus"]; heavy = set(sys.argv[1].split(","))
h = [r for r in m["history"] if r["coordinator"] == "n1"][-4:]
ok = len(h) == 4 and all(len(r["run"].split()) == 2 and
	len(heavy & set(r["run"].split())) == 1 for r in h)
print(m["gone"], "paired" if ok else "not paired")' "$HEAVY"
}
wait_until 10 eval '[[ $(paired_again) == "1 paired" ]]'
ok $? "n1 counts n2 gone and keeps pairing a heavy job with a light one ($(paired_again))"
kill -KILL "$(cat "$RUN_DIR/n1.pid")"
sleep 1
wait_until 5 all_thawed
ok $? "the coordinator n1 killed too: everything is thawed"

all_done() {
	for j in "${JOBS[@]}"; do job_done "$j" || return 1; done
}
wait_until 90 all_done
states=$(for j in "${JOBS[@]}"; do job_state "$j"; done | sort -u | paste -sd' ')
is "$states" "COMPLETED" "all four jobs complete normally"
done_lines=$(cat "$TEST_DIR"/*-[01].log 2>/dev/null | grep -c "membench done")
is "$done_lines" 8 "every task of every job logged its end (8 processes)"
