#!/bin/bash
# Dynamic coscheduling on the embedded cluster: two nodes with a CPU each
# (--pin), select/coalloc Matrix=local MPL 2, so two 2-rank MPI jobs share
# both nodes.  Under every --cosched mode both jobs complete and the node
# agent's status shows the kind of boosts the mode gives (PB boosts by
# state and never to S4, DCS boosts with their detection delay, SY
# demotions, SB blocks, energy levels); mode none never reaches the agent.
# Afterwards nothing is left in the agent's cgroups.  An unprivileged user
# cannot register (or so make the agent touch) processes, root cannot
# register a process that is not its own, and killing the agent (SIGKILL)
# mid-job restores the job's processes and lets the jobs finish normally.
# A Fortran program (use mpi) is served by the shim under sb and dcs; an
# MPICH Fortran program runs without it.
# Each node is a host of its own (slurm-cluster --hosts): the ranks talk
# over TCP between the nodes' addresses and see no page of the other node.
#
# test-serial: coschedd-cgroups  the node agents' cgroups are
# coschedd/NODE/JOB.STEP, and every embedded cluster names its nodes n1,
# n2, ... and its jobs from 1: two clusters' agents would share groups.
source "$(dirname "$0")/lib/tap.sh"

BENCH=$BUILD_DIR/bin/cosched-bench
CTL=$BUILD_DIR/bin/coschedctl
for f in "$BENCH" "$CTL" "$BUILD_DIR/sbin/coschedd" \
	 "$BUILD_DIR/lib/libcosched_mpi.so"; do
	[[ -x $f || -f $f ]] || skip_all "$f is missing: run make"
done
command -v mpicc > /dev/null || skip_all "Open MPI is missing: run make deps"

MODES=(sb sy dcs pb pb-sb pb-sy dcs-sb dcs-sy ecm edm)

# The user nobody must reach the agent's socket and coschedctl, but a clone
# may sit under a directory only root can enter (mktemp -d): this test's
# cluster lives in a directory of its own under /tmp (build/test/15-cosched
# links to it), removed when every test passed.
cluster_clear
mkdir -p "$(dirname "$TEST_DIR")"
ln -sfn "$(mktemp -d /tmp/15-cosched.XXXXXX)" "$TEST_DIR"
TEST_DIR=$(readlink "$TEST_DIR")
cluster_start --sites 2 --nodes-per-site 1 --select coalloc --matrix local \
	--mpl 2 --pin --hosts
chmod 755 "$TEST_DIR"
_remove_tmp() {
	local rc=$?
	_cluster_cleanup
	if ((rc == 0 && _tap_failed == 0)); then
		rm -rf "$TEST_DIR" "$REPO/build/test/15-cosched"
	fi
	return $rc
}
trap _remove_tmp EXIT
install -m 0755 "$CTL" "$TEST_DIR/coschedctl"
NCTL=$TEST_DIR/coschedctl	# coschedctl for nobody
RUN_DIR=$TEST_DIR/cluster/run/cosched
# each node's RUN_DIR/pages, private to it (--hosts), as seen from here
HOST_PAGES=$TEST_DIR/cluster/run/host
CG=/sys/fs/cgroup/cpu/coschedd

ctl() { "$CTL" --run-dir "$RUN_DIR" --node "${NODE:-n1}" "$@"; }
# step_json JOB: the agent's JSON of that job's step 0 (live or ended)
step_json() {
	ctl status --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
for s in d["jobs"] + d["ended"]:
    if s["job"] == int(sys.argv[1]) and s["step"] == 0:
        print(json.dumps(s)); break' "$1"
}
# val JSON PATH: a value out of a step's JSON, e.g. boosts.by_state.S4
val() { python3 -c '
import json, sys
v = json.loads(sys.argv[1])
for k in sys.argv[2].split("."): v = v[k]
print(v)' "$1" "$2"; }
pair() {	# MODE SECONDS: two jobs at once; prints their ids
	local i
	for i in 1 2; do
		submit -N2 -n2 --cosched="$1" -o "$TEST_DIR/%j.out" --wrap \
		       "srun --mpi=pmix $BENCH --type J5 --pattern nn --latency-us 500 --seconds $2"
	done
}
both_done() { job_done "$1" && job_done "$2"; }

# --- mode none: nothing reaches the agent --------------------------------
read -r a b < <(pair none 1 | paste -sd' ')
wait_until 120 both_done "$a" "$b"
is "$(job_state "$a") $(job_state "$b")" "COMPLETED COMPLETED" \
   "none: both jobs complete"
[[ -z $( [[ -S $RUN_DIR/n1.sock ]] && step_json "$a" ) ]]
ok $? "none: the agent never heard of the job"

# --- every mode ---------------------------------------------------------
expect_kind() {	# MODE STEP_JSON: the boosts the mode should show
	local m=$1 j=$2
	case $m in
	pb|pb-sb|pb-sy)
		(( $(val "$j" boosts.pb) > 0 && $(val "$j" boosts.by_state.S4) == 0 )) ;;
	dcs|dcs-sb|dcs-sy)
		(( $(val "$j" boosts.dcs) > 0 )) ;;
	sy)	(( $(val "$j" boosts.sy-demote) > 0 && $(val "$j" boosts.shim.yields) > 0 )) ;;
	sb)	(( $(val "$j" boosts.shim.blocks) > 0 )) ;;
	ecm|edm) (( $(val "$j" boosts.energy) > 0 )) ;;
	esac
}
for m in "${MODES[@]}"; do
	read -r a b < <(pair "$m" 1 | paste -sd' ')
	wait_until 120 both_done "$a" "$b"
	is "$(job_state "$a") $(job_state "$b")" "COMPLETED COMPLETED" \
	   "$m: both jobs complete"
	j=$(step_json "$a")
	is "$(val "$j" mode 2>/dev/null)" "$m" "$m: the agent ran the step in its mode"
	expect_kind "$m" "$j"
	rc=$?
	what="$m: the expected kind of boosts ($(echo "$j" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps(d["boosts"]))' 2>/dev/null))"
	# dcs: the ranks' messages come from the other host, so only the
	# agent's watch of their TCP sockets (arrivals.c) can see them
	ok $rc "$what"
done

# --- a Fortran program (use mpi): the shim serves it (its Open MPI
# bindings call PMPI_ directly, and it ran with the shim off) -----------
FP=$BUILD_DIR/tests/shim/fping
for m in sb dcs; do
	for i in 1 2; do
		submit -N2 -n2 --cosched=$m -o "$TEST_DIR/fping-$m-%j.out" --wrap \
		       "srun --mpi=pmix $FP 300"
	done > fping-$m.ids
	read -r a b < <(paste -sd' ' fping-$m.ids)
	wait_until 120 both_done "$a" "$b"
	is "$(job_state "$a") $(job_state "$b")" "COMPLETED COMPLETED" \
	   "Fortran, $m: both jobs complete"
	is "$(cat "$TEST_DIR/fping-$m-$a.out" "$TEST_DIR/fping-$m-$b.out" | grep -c '^fcoll rank=[01] rounds=300 errors=0$')" 4 \
	   "  every rank's results are right"
	j=$(step_json "$a")
	case $m in
	sb)	kind=$(val "$j" boosts.shim.blocks) ;;
	dcs)	kind=$(val "$j" boosts.dcs) ;;
	esac
	ok $(( $(val "$j" boosts.shim.procs) == 1 && $(val "$j" boosts.shim.messages) > 0 &&
	       $(val "$j" boosts.shim.collectives) > 0 && kind > 0 ? 0 : 1 )) \
	   "  the agent saw its receives and collectives, and ${m}'s $( [[ $m == sb ]] && echo blocks || echo boosts) ($(val "$j" boosts.shim 2>/dev/null), $kind)"
done

# --- nothing left behind --------------------------------------------------
# (the steps' ends reach the agent just after Slurm reports the jobs done)
state_procs() { python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["procs"]))' "$RUN_DIR/$1.state"; }
no_procs() { [[ $(state_procs n1) == 0 && $(state_procs n2) == 0 ]]; }
wait_until 10 no_procs
ok $? "the state files list no process (n1: $(state_procs n1), n2: $(state_procs n2))"
leftover=$(find "$CG"/n1 "$CG"/n2 -mindepth 1 -type d 2>/dev/null | wc -l)
is "$leftover" 0 "no job cgroup left under $CG"

# --- who may register -----------------------------------------------------
# (--latency-us 500: fewer, longer iterations; each message crosses TCP)
job=$(submit -N2 -n2 --cosched=pb -o /dev/null --wrap \
	"srun --mpi=pmix $BENCH --type J5 --pattern nn --latency-us 500 --seconds 20")
has_procs() { [[ $(val "$(step_json "$job")" procs 2>/dev/null) == *pid* ]]; }
wait_until 60 has_procs
ok $? "a pb job is registered"
pid=$(val "$(step_json "$job")" procs | python3 -c 'import ast,sys; print(ast.literal_eval(sys.stdin.read())[0]["pid"])')
out=$(runuser -u nobody -- "$NCTL" --run-dir "$RUN_DIR" --node n1 request \
	"register job=$job step=9 uid=65534 mode=pb pid=$pid rank=0" 2>&1)
like "$out" "permission denied" "nobody cannot register a process"
out=$(runuser -u nobody -- "$NCTL" --run-dir "$RUN_DIR" --node n1 request \
	"end job=$job step=0" 2>&1)
like "$out" "permission denied" "nobody cannot end (unboost) another job"
out=$(ctl request "register job=$job step=9 uid=0 mode=pb pid=$pid rank=0" 2>&1)
like "$out" "is not a process of the caller" \
     "root cannot register a process that does not descend from it"
like "$(runuser -u nobody -- "$NCTL" --run-dir "$RUN_DIR" --node n1 status)" \
     "mode pb" "anyone may read the status"

# --- killing the agent restores and the job goes on -----------------------
cg_of() { sed -n 's/^[0-9]*:cpu:\(.*\)/\1/p' "/proc/$1/cgroup"; }
like "$(cg_of "$pid")" "^/coschedd/n1/$job\\.$pid\$" \
     "the task runs in the agent's cgroup"
agent=$(cat "$RUN_DIR/n1.pid")
kill -KILL "$agent"
back() { [[ $(cg_of "$pid") == / ]]; }
wait_until 10 back
ok $? "after SIGKILL of the agent the guardian moved the task back to / ($(cg_of "$pid"))"
# the value it started with: slurmd's, which is this test's
is "$(ps -o ni= -p "$pid" | tr -d ' ')" "$(ps -o ni= -p $$ | tr -d ' ')" \
   "  and its nice value is the one it started with"
wait_until 180 job_done "$job"
is "$(job_state "$job")" COMPLETED "the job finishes normally without its agent"
# pages JOB: the shim's pages of the job's steps on both nodes
pages() { find "$HOST_PAGES"/n[12]/pages -path "*/$1.*/*" -type f 2>/dev/null | wc -l; }
is "$(pages "$job")" 0 "its processes removed their shared pages"

# --- a cancelled job leaves no shared page behind --------------------------
job=$(submit -N2 -n2 --cosched=pb -o /dev/null --wrap \
	"srun --mpi=pmix $BENCH --type J5 --pattern nn --latency-us 500 --seconds 30")
has_pages() { (( $(pages "$job") > 0 )); }
wait_until 60 has_pages
ok $? "a running job's processes have their pages ($(pages "$job"))"
is "$(stat -c '%U %a' "$HOST_PAGES/n1/pages" "$HOST_PAGES/n1/pages/$job.0" | paste -sd' ')" \
   "root 711 root 700" "in the step's directory under RUN_DIR/pages (the user's, 0700)"
scancel "$job"
wait_until 60 job_done "$job"
no_pages() { (( $(pages "$job") == 0 )); }
wait_until 10 no_pages
ok $? "scancel: the plugin removed the pages the killed processes left"
[[ ! -e $HOST_PAGES/n1/pages/$job.0 && ! -e $HOST_PAGES/n2/pages/$job.0 ]]
ok $? "  and the step's directory"

# --- an MPICH program: the plugin leaves the shim out (its Open MPI
# libmpi would shadow MPICH's, and the Fortran program crashed), the
# program runs and slurmd's log says why
FPM=$BUILD_DIR/tests/shim/fping-mpich
if [[ -x $FPM ]]; then
	job=$(submit -N1 -n1 --cosched=sb -o "$TEST_DIR/fping-mpich.out" --wrap "srun -n1 $FPM")
	wait_until 120 job_done "$job"
	is "$(job_state "$job")" COMPLETED "an MPICH Fortran program under --cosched=sb completes"
	like "$(cat "$TEST_DIR/fping-mpich.out")" "fcoll rank=0 rounds=20 errors=0" \
	     "  with its results right"
	grep -q "fping-mpich links libmpichfort.so.12 (MPICH): the MPI shim serves Open MPI programs" \
		"$TEST_DIR"/cluster/log/slurmd-n*.log
	ok $? "  slurmd's log says the shim was left out, and why"
else
	ok 1 "fping-mpich is built (make deps: mpich, libmpich-dev; gfortran)"
fi

done_testing
