#!/bin/bash
# Gang rows at the paper's time scale: select/coalloc Matrix=gang MPL=2
# with TimeSlice=200ms, so the node agents switch the rows, not
# slurmctld.  2 sites x 1 node, each node a host of its own (--hosts):
# slurmctld sends each node's coschedd its table over the nodes'
# addresses.  Two all-node jobs A and B, in rows 0 and 1, tick every
# 20 ms of the time they run.
#
# Slurm sees both running; on each node their ticks alternate by quanta
# of 200 ms aligned on the wall clock, both nodes run the same row in the
# same quantum, and the batch scripts are frozen with their rows too.
# Faults:
#   - slurmctld killed and started again: the jobs run on, in the same
#     rows, and the agents switch again once its tables come back;
#   - a node cut off from slurmctld (its link down): the other node goes
#     on switching, the cut-off one runs both rows once its table is stale;
#   - an agent killed (SIGKILL) in the middle of a quantum: its guardian
#     thaws everything on its node, and both jobs run there.
# Then esp-work in both rows counts only the time it ran, and a job alone
# runs in every quantum (the empty row is skipped).  coalloc-status
# counts the passes of tables and the tables sent.
#
# test-serial: coschedd-cgroups  the node agents' cgroups are
# coschedd/NODE/JOB.STEP, and every embedded cluster names its nodes n1,
# n2, ... and its jobs from 1: two clusters' agents would share groups.
source "$(dirname "$0")/lib/tap.sh"

CTL=$BUILD_DIR/bin/coschedctl
[[ -x $CTL && -x $BUILD_DIR/sbin/coschedd ]] || skip_all "coschedd is missing: run make"
[[ -w /sys/fs/cgroup/freezer ]] || skip_all "no writable cgroup v1 freezer"

plan 20

SLICE_MS=200
cluster_start --sites 2 --nodes-per-site 1 --select coalloc --matrix gang \
	--mpl 2 --time-slice ${SLICE_MS}ms --hosts --debug-flags SelectType
RUN_DIR=$TEST_DIR/cluster/run/cosched
LOG=$TEST_DIR/cluster/log/slurmctld.log

# py NODE CODE: python on the node agent's gang status as g
py() {
	"$CTL" --run-dir "$RUN_DIR" --node "$1" status --json 2>/dev/null |
		python3 -c "import json, sys; g = json.load(sys.stdin)['gang'] or {}; $2" 2>/dev/null
}

# Every 20 ms of running time a line "NODE JOB tick EPOCH", in the batch
# script (first node) and in the step's task on every node.  read -t on
# a pipe no one writes to waits without a fork.
TICK20='exec 3<> <(:); while :; do echo "$SLURMD_NODENAME $SLURM_JOB_ID$1 tick $EPOCHREALTIME"; read -t 0.02 -u 3; done'
ticks20() {
	submit -p grid --coalloc=1,1 -o "tick-%j.log" --wrap \
		"bash -c '$TICK20' _ .b & srun bash -c '$TICK20'"
}
a=$(ticks20)
b=$(ticks20)
both_running() { [[ $(job_state "$a") == RUNNING && $(job_state "$b") == RUNNING ]]; }
wait_until 30 both_running
ok $? "two all-node jobs run, both RUNNING for Slurm ($(job_state "$a") $(job_state "$b"))"

tables_on() { [[ $(py "$1" 'print(len(g["table"]["jobs"].split()) if g.get("fresh") else 0)') == 2 ]]; }
wait_until 20 tables_on n1 && wait_until 20 tables_on n2
ok $? "both agents hold a fresh table with the two jobs (n1: $(py n1 'print(g["table"]["jobs"])'))"
# bound at the agents' start, tables only from slurmctld's bridge address
from_ctld() { py "$1" 'print(g["bound"] and g["bind_error"] is None and g["refused_source"] == 0 and g["slurmctld"])'; }
[[ $(from_ctld n1) == 10.* && $(from_ctld n2) == 10.* ]]
ok $? "each agent holds its gang port and hears slurmctld's address only (n1: $(from_ctld n1))"
sleep 3

# quanta NODE: "q row run" lines of the agent's history
quanta() { py "$1" 'print("\n".join("%d %s %s" % (h["q"], h["row"], h["run"].replace(" ", ",") or "-") for h in g["history"]))'; }
quanta n1 > q-n1.txt; quanta n2 > q-n2.txt
# the rows alternate, each job runs in its row only, both nodes agree
verdict=$(python3 - q-n1.txt q-n2.txt "$a" "$b" <<'EOF'
import sys
def load(f):
    out = {}
    for line in open(f):
        q, row, run = line.split()
        out[int(q)] = (row, set(run.split(",")) - {"-"})
    return out
n1, n2 = load(sys.argv[1]), load(sys.argv[2])
a, b = sys.argv[3], sys.argv[4]
common = sorted(set(n1) & set(n2))
alternate = sum(n1[q][0] == str(q % 2) for q in common)
def jobs(node, q):	# the batch step runs on the first node only
    return node[q][0], {s.split(".")[0] for s in node[q][1]}
agree = sum(jobs(n1, q) == jobs(n2, q) for q in common)
single = sum(jobs(n1, q)[1] in ({a}, {b}) for q in common)
print(len(common), alternate, agree, single)
EOF
)
read -r common alternate agree single <<< "$verdict"
diag "agent quanta compared: $common, row = q mod 2: $alternate, same on both nodes: $agree, one job only: $single"
((common >= 12 && alternate == common))
ok $? "the agents run row q mod 2 in quantum q ($alternate of $common)"
((agree == common))
ok $? "both nodes run the same row and steps in every quantum ($agree of $common)"
((single == common))
ok $? "each quantum runs the steps of one job only ($single of $common)"

# From the ticks themselves: per node and 200 ms quantum, who ticked
# (ticks within 40 ms of a boundary left out: the switch itself).
tick_verdict() {	# since [node]
	python3 - "$1" "$SLICE_MS" "$a" "$b" "${2:-}" <<'EOF'
import collections, fileinput, glob, sys
since, ms, a, b = float(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
only = sys.argv[5]
seen = collections.defaultdict(set)
for line in fileinput.input(glob.glob("tick-*.log")):
    f = line.split()
    if len(f) != 4 or f[2] != "tick" or float(f[3]) < since or (only and f[0] != only):
        continue
    t = float(f[3]) * 1000
    if t % ms < 40 or t % ms > ms - 40:
        continue
    seen[(f[0], int(t // ms))].add(f[1].split(".")[0])
both = sum(1 for s in seen.values() if s == {a, b})
print(len(seen), both, sum(1 for s in seen.values() if a in s), sum(1 for s in seen.values() if b in s))
EOF
}
read -r seen both ta tb <<< "$(tick_verdict $((${EPOCHSECONDS} - 3)))"
diag "ticked quanta (node x quantum, last 3 s): $seen, both jobs: $both, A: $ta, B: $tb"
((seen >= 20 && both * 20 <= seen))
ok $? "on each node the jobs' ticks alternate: both ticked in $both of $seen node-quanta"
((ta * 4 >= seen && tb * 4 >= seen))
ok $? "... each job ran in its share of them (A $ta, B $tb)"
batch_both=$(cat tick-*.log | awk -v a="$a.b" -v b="$b.b" -v ms=$SLICE_MS -v since=$((EPOCHSECONDS - 3)) '
	$3 == "tick" && $4 >= since && ($2 == a || $2 == b) {
		t = $4 * 1000; if (t % ms < 40 || t % ms > ms - 40) next
		q = int(t / ms); who[q] = who[q] " " $2 }
	END { n = 0; for (q in who) if (index(who[q], a) && index(who[q], b)) n++; print n + 0 }')
is "$batch_both" 0 "the batch scripts are frozen with their rows (quanta with both ticking: $batch_both)"

# --- slurmctld killed and started again --------------------------------
mask_of() { py "$1" "print([j.split(':')[1] for j in g['table']['jobs'].split() if j.split(':')[0] == '$2'][0])"; }
row_a=$(mask_of n1 "$a")
epoch_before=$(py n1 'print(g["table"]["epoch"])')
cluster restart-ctld --kill > restart.log 2>&1
ok $? "slurmctld killed (SIGKILL) and started again"
newer_table() { (( $(py n1 'print(g["table"]["epoch"] if g.get("fresh") else 0)') > epoch_before )); }
wait_until 30 newer_table
ok $? "n1's agent switches on the new slurmctld's table"
is "$(job_state "$a") $(job_state "$b") $(mask_of n1 "$a")" \
   "RUNNING RUNNING $row_a" "both jobs run on, A in the same rows (mask $row_a)"

# --- n2 cut off from slurmctld ------------------------------------------
n2_if=csv${PORT_BASE}n2	# n2's link on the bridge (slurm-cluster's name)
ip link set "$n2_if" down
cut=$EPOCHSECONDS
sleep 5
stale() { [[ $(py n2 'print(g.get("fresh"))') == False ]]; }
stale
ok $? "n2 cut off: its table goes stale ($(py n2 'print(g["table"]["age_ms"] if g.get("table") else None)') ms old)"
read -r seen both ta tb <<< "$(tick_verdict $((cut + 1)) n1)"
((seen >= 20 && both * 10 <= seen))
ok $? "... n1 goes on switching (both jobs in $both of $seen quanta)"
ip link set "$n2_if" up
# n2's own ticks reach the log through srun over the same link: judge
# them from the agent, which runs both jobs' steps while its table is stale
is "$(py n2 'print(sorted({s.split(".")[0] for h in g["history"][-3:] for s in h["run"].split()}))')" \
   "$(python3 -c "print(sorted(['$a', '$b']))")" "... and n2 runs both rows meanwhile (fail open)"

# --- n2's agent killed in the middle of a quantum ------------------------
fresh_again() { [[ $(py n2 'print(g.get("fresh"))') == True ]]; }
wait_until 20 fresh_again
pid=$(cat "$RUN_DIR/n2.pid")
python3 -c "import time; t = time.time() * 1000 % $SLICE_MS; time.sleep(($SLICE_MS * 1.5 - t) % $SLICE_MS / 1000)"
kill -KILL "$pid"
killed=$EPOCHSECONDS
thawed() {
	local f
	for f in /sys/fs/cgroup/freezer/coschedd/n2/*/freezer.state; do
		[[ $(cat "$f") == THAWED ]] || return 1
	done
}
wait_until 10 thawed
ok $? "n2's agent killed mid-quantum: its guardian thawed every step on n2"
sleep 3
both_tick_n2() {
	local n
	n=$(awk -v since="$killed" -v a="$a" -v b="$b" '$1 == "n2" && $3 == "tick" && $4 > since + 1 { split($2, j, "."); seen[j[1]] = 1 } END { print (a in seen) + (b in seen) }' tick-*.log)
	((n == 2))
}
wait_until 10 both_tick_n2
ok $? "... and both jobs run there"
scancel "$a" "$b"
gone() { job_done "$a" && job_done "$b"; }
wait_until 30 gone

# --- esp-work counts only the time it ran --------------------------------
# Two all-node jobs of 3 s of work each share the rows.  On each node,
# while both run (from the later start to the earlier end, tasks start up
# to a second apart), each is frozen about half the time and counts only
# what it ran: its counted stop time is between a third of that overlap
# and half of it plus 1 s (a job runs until its first table names it,
# and each stop's start is a tick's guess; with the unit tests running
# beside it, a task starved of CPU had 0.63 s more counted, as esp-work
# cannot tell every such wait from a stop) (a new agent on n2,
# the killed one's successor, gets its table).  Each task logs to a file
# of its own (esp-work --log: start and end lines with the time).
WORK=$BUILD_DIR/bin/esp-work
for j in c d; do
	declare "$j=$(submit -p grid --coalloc=1,1 -o "work-%j.out" --wrap \
		"srun bash -c 'exec $WORK --seconds 3 --tick 20 --log ${TEST_DIR}/work-\$SLURM_JOB_ID-\$SLURMD_NODENAME.log'")"
done
done_cd() { job_done "$c" && job_done "$d"; }
wait_until 60 done_cd
# per node: the overlap of the two tasks, and each one's counted stop time
verdict=$(for n in n1 n2; do
	awk -v n=$n '
	$2 == "start" { s[FILENAME] = $1 }
	$2 == "end" { e[FILENAME] = $1; for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "run") r[FILENAME] = kv[2]; if (kv[1] == "suspended") u[FILENAME] = kv[2] } }
	END {
		k = 0
		for (f in s) { k++; fs[k] = f }
		if (k != 2 || !(fs[1] in e) || !(fs[2] in e)) { print n, "missing"; exit }
		lo = s[fs[1]] > s[fs[2]] ? s[fs[1]] : s[fs[2]]
		hi = e[fs[1]] < e[fs[2]] ? e[fs[1]] : e[fs[2]]
		ov = hi - lo; good = ov >= 3
		for (i = 1; i <= 2; i++) {
			d = u[fs[i]] - ov / 2
			good = good && r[fs[i]] >= 2.9 && r[fs[i]] <= 3.5 && d < 1 && d > -ov / 6
		}
		printf "%s overlap=%.2f suspended=%s,%s %s\n", n, ov, u[fs[1]], u[fs[2]], good ? "ok" : "bad"
	}' work-"$c"-$n.log work-"$d"-$n.log
done)
diag "$verdict"
is "$(grep -c ' ok$' <<< "$verdict")" 2 "esp-work in both rows, on both nodes: 3 s run, counted stopped a third to a half (+1 s) of the time both ran"

# A job alone in the matrix: the empty row is skipped on every node
# (busy= in the tables), so it is never frozen.
e=$(submit -p grid --coalloc=1,1 -o "work-%j.out" --wrap "srun $WORK --seconds 2 --tick 20")
wait_until 30 job_done "$e"
alone=$(awk '/^esp-work: job=/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	if (v["run"] >= 1.9 && v["suspended"] < 0.3) n++ } END { print n + 0 }' "work-$e.out" 2>/dev/null)
diag "$(grep '^esp-work:' "work-$e.out" 2>/dev/null)"
is "$alone" 2 "a job alone runs in every quantum on both nodes: the empty row is skipped"

# coalloc-status counts the tables: a pass is one munge credential for
# every node with cells (sealed, lib/cosched_proto/seal.h), so at most
# one table a node a pass.
counts=$("$BUILD_DIR/bin/coalloc-status" --json 2>/dev/null | python3 -c '
import json, sys
g = json.load(sys.stdin)["gang_tables"]
print(g["passes"], g["sent"])' 2>/dev/null)
read -r passes sent <<< "${counts:-0 0}"
[[ $passes -gt 0 && $sent -ge $passes && $sent -le $((2 * passes)) ]]
ok $? "coalloc-status counts the gang tables: $sent in $passes passes, at most one a node a pass"
