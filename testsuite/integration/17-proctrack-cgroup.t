#!/bin/bash
# The embedded cluster with Slurm's cgroup process tracking, as real sites
# run it (slurm-cluster --proctrack cgroup): every slurmd has its freezer
# tree /slurm_NODE under the cluster's group; a step's end kills a
# descendant that left the step's process tree and ignores SIGTERM; the
# node agent started on demand by a --cosched job, and its guardian,
# outlive the step that started them, outside Slurm's groups (which Slurm
# then removes); SIGKILL of the agent while another
# job is registered then restores that job's task (its guardian is still
# there to do it).  Stop ends a stopped agent and a daemon that ignores
# SIGTERM (SIGKILL, reported), and removes the cluster's cgroups.
#
# test-serial: coschedd-cgroups  the node agents' cgroups are
# coschedd/NODE/JOB.STEP, and every embedded cluster names its nodes n1,
# n2, ... and its jobs from 1: two clusters' agents would share groups.
source "$(dirname "$0")/lib/tap.sh"

CG=/sys/fs/cgroup
[[ $(stat -fc %T "$CG/freezer" 2>/dev/null) == cgroupfs ]] ||
	skip_all "no cgroup v1 freezer hierarchy at $CG/freezer"
[[ -x $BUILD_DIR/sbin/coschedd ]] || skip_all "coschedd is missing: run make"

cluster_start --sites 1 --nodes-per-site 2 --proctrack cgroup
GROUP=$CG/freezer/embedded-$PORT_BASE
RUN_DIR=$TEST_DIR/cluster/run/cosched
is "$(scontrol show config | sed -n 's/^ProctrackType *= *//p')" proctrack/cgroup \
   "ProctrackType is proctrack/cgroup"
[[ -d $GROUP/slurm_n1 && -d $GROUP/slurm_n2 ]]
ok $? "each slurmd has its own freezer tree under the cluster's group"

group_of() { sed -n "s/^[0-9]*:$2:\\(.*\\)/\\1/p" "/proc/$1/cgroup" 2>/dev/null; }
# the process PID still runs (a zombie is gone)
runs() { [[ -e /proc/$1 && $(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) != Z ]]; }
gone() { ! runs "$1"; }

# --- a step's end kills what escaped its process tree ------------------
bg=$TEST_DIR/bg.pid
srun -w n1 bash -c "setsid bash -c 'trap \"\" TERM; echo \$\$ > $bg; exec sleep 600' &
		    sleep 1"
ok $? "a step leaves a session of its own that ignores SIGTERM"
pid=$(cat "$bg" 2>/dev/null)
like "$pid" '^[0-9]+$' "  its pid was recorded ($pid)"
wait_until 30 gone "$pid"
ok $? "  the step's end killed it"

# --- the agent and its guardian outlive the step that started them -------
cosched_job() {	# node seconds: a --cosched=pb job; its task records its pid
	submit --cosched=pb -w "$1" -o /dev/null \
		--wrap "srun bash -c 'echo \$\$ > $TEST_DIR/task.\$SLURM_JOB_ID; exec sleep $2'"
}
job=$(cosched_job n1 1)
wait_until 60 job_done "$job"
is "$(job_state "$job")" COMPLETED "a --cosched=pb job completes"
agent=$(cat "$RUN_DIR/n1.pid" 2>/dev/null)
guardian=$(ps -o pid= --ppid "${agent:-0}" -o comm= 2>/dev/null | awk '$2 == "coschedd-guard" {print $1}')
runs "${agent:-0}" && [[ $(readlink "/proc/$agent/exe") == */coschedd ]]
ok $? "the agent started for it survives the step's end (pid $agent)"
like "$(group_of "${agent:-0}" freezer)" "^/embedded-$PORT_BASE\$" \
     "  it left Slurm's freezer groups"
runs "${guardian:-0}"
ok $? "its guardian survives too (pid $guardian)"
like "$(group_of "${guardian:-0}" freezer)" "^/embedded-$PORT_BASE\$" \
     "  outside Slurm's freezer groups"
# (slurmstepd, which starts the agent, sits in the job's group: a guardian
# left there would keep Slurm from removing it)
job_group_gone() { [[ ! -d $GROUP/slurm_n1/uid_0/job_$job ]]; }
wait_until 10 job_group_gone
ok $? "  and Slurm removed the job's freezer group"

# --- SIGKILL of the agent while a job is registered restores it ----------
job=$(cosched_job n1 60)
task() { cat "$TEST_DIR/task.$job" 2>/dev/null; }
attached() { [[ $(group_of "$(task)" cpu) == /coschedd/$1/* ]]; }
wait_until 60 attached n1
ok $? "a second job's task is registered: in the agent's cpu group ($(group_of "$(task)" cpu))"
pid=$(task)
kill -KILL "$agent"
back() { [[ $(group_of "$pid" cpu) == / ]]; }
wait_until 10 back
ok $? "after SIGKILL of the agent the guardian moved the task back to / ($(group_of "$pid" cpu))"
is "$(cat "$CG/cpu$(group_of "$pid" cpu)/cpu.shares" 2>/dev/null)" 1024 \
   "  its group's cpu.shares are the default"
# the value it started with: slurmd's, which is this test's (a run under
# nice starts every task there)
is "$(ps -o ni= -p "$pid" | tr -d ' ')" "$(ps -o ni= -p $$ | tr -d ' ')" \
   "  and its nice value is the one it started with"
wait_until 10 gone "$guardian"
ok $? "  and the guardian is gone"
scancel "$job"
wait_until 30 job_done "$job"

# --- stop ends whatever ignores SIGTERM -----------------------------------
job=$(cosched_job n2 120)
wait_until 60 attached n2
ok $? "a job on n2 is registered with a new agent"
agent=$(cat "$RUN_DIR/n2.pid")
guardian=$(ps -o pid= --ppid "$agent" -o comm= | awk '$2 == "coschedd-guard" {print $1}')
kill -STOP "$agent"
# a daemon that ignores SIGTERM, recorded as the cluster's
perl -e '$SIG{TERM} = "IGNORE"; sleep 600' &
stubborn=$!
disown "$stubborn"	# no "Killed" notice from bash when stop kills it
sleep 0.2
echo "stubborn $stubborn $(readlink -f /proc/$stubborn/exe) $(awk '{print $22}' /proc/$stubborn/stat)" \
	>> "$TEST_DIR/cluster/run/pids"
daemons=$(awk '{print $2}' "$TEST_DIR/cluster/run/pids")
t0=$SECONDS
out=$(cluster stop 2>&1)
ok $? "stop succeeds (in $((SECONDS - t0)) s)"
like "$out" "had to kill \(SIGKILL after [0-9]+s\): stubborn \($stubborn\)" \
     "  and says which daemon it had to kill"
left=
for p in $daemons "$agent" "$guardian" "$stubborn"; do runs "$p" && left+=" $p"; done
is "$left" "" "  every daemon, the stopped agent and its guardian are gone"
[[ ! -e $GROUP ]]
ok $? "  the cluster's cgroups are removed"
[[ ! -e $CG/cpu/coschedd/n2/$job.$(task) ]]
ok $? "  and the stopped agent's job group is removed (it restored before exiting)"

done_testing
