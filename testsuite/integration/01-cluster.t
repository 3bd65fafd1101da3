#!/bin/bash
# The embedded cluster harness itself: start, status, env, idempotent
# start/stop, stopping only its own processes, a failed start leaving
# nothing behind, and the three select plugins it can run; the Slurm
# release it runs (COALLOC_SLURM, --slurm) is the one env's commands are.
source "$(dirname "$0")/lib/tap.sh"

CDIR=$TEST_DIR/cluster
CONF=$CDIR/etc/slurm.conf
ours() { pgrep -f -- "-f $CONF" | paste -sd' '; }
VERSIONS=$REPO/mk/slurm-versions
SERIES=${COALLOC_SLURM:-$(awk '/^[0-9]/ && $3 == "installed" { print $1; exit }' "$VERSIONS")}
UPSTREAM=$(awk -v s="$SERIES" '/^[0-9]/ && $1 "" == s "" { print $2 }' "$VERSIONS")

rm -rf "$TEST_DIR"; mkdir -p "$TEST_DIR"; cd "$TEST_DIR" || exit 1
_cluster_started=1; trap _cluster_cleanup EXIT

out=$(cluster start --sites 2 --nodes-per-site 3 --port-base "$PORT_BASE" \
	--max-jobs 20000 2>&1)
ok $? "start 2 sites x 3 nodes"
like "$out" "6 nodes idle \(2 sites x 3\), select/coalloc" "start reports the layout"
is "$(cluster env | head -n1)" "export SLURM_CONF=$CONF" "env prints the SLURM_CONF line"
cluster_env
is "$SLURM_CONF" "$CONF" "... which sets SLURM_CONF"
# (Debian's says slurm-wlm)
like "$(sinfo -V)" "^slurm(-wlm)? ${UPSTREAM//./\\.}\$" "env's sinfo is Slurm $UPSTREAM's (series $SERIES)"
is "$(scontrol show config | sed -n 's/^SLURM_VERSION *= *//p')" "$UPSTREAM" "slurmctld is Slurm $UPSTREAM"
is "$(nodes_in idle)" 6 "sinfo: 6 idle nodes"
is "$(scontrol show config | sed -n 's/^MaxJobCount *= *//p')" 20000 "--max-jobs is slurmctld's MaxJobCount"
is "$(cat "$CDIR/etc/sites")" $'site1 n1,n2,n3\nsite2 n4,n5,n6' "site layout recorded"
is "$(grep -c '^NodeName=n\[' "$CONF")" 2 "one NodeName line per site"
like "$(grep '^NodeName=n\[4-6\]' "$CONF")" "Port=\[$((PORT_BASE + 4))-$((PORT_BASE + 6))\]" "distinct slurmd ports"
cluster status > status.out 2>&1
ok $? "status succeeds"
is "$(grep -c '^running: slurmd-' status.out)" 6 "status lists 6 slurmd"

# restart-ctld starts the same release's slurmctld, and status (which
# checks each recorded PID's program) finds it.
ctld_exe() { readlink "/proc/$(cat "$CDIR/run/slurmctld.pid")/exe"; }
is "$(ctld_exe)" "$(readlink -f "$(command -v slurmctld)")" "slurmctld is env's release's"
cluster restart-ctld > restart.out 2>&1
ok $? "restart-ctld succeeds"
is "$(ctld_exe)" "$(readlink -f "$(command -v slurmctld)")" "  the same release's slurmctld runs again"
cluster status > status.out 2>&1
is "$(grep -c '^running: slurmctld ' status.out)" 1 "  status finds it"

pids=$(ours)
out=$(cluster start --sites 2 --nodes-per-site 3 --port-base "$PORT_BASE" 2>&1)
ok $? "a second start succeeds"
like "$out" "already running" "and says it is already running"
is "$(ours)" "$pids" "without starting anything"

sleep 600 & sentinel=$!
cluster stop > stop.out 2>&1
ok $? "stop succeeds"
is "$(ours)" "" "no daemon of the cluster is left"
kill -0 "$sentinel" 2>/dev/null
ok $? "a process the cluster did not start survives"
kill "$sentinel"
cluster status > /dev/null 2>&1
is $? 3 "status of a stopped cluster exits 3"
cluster stop > /dev/null 2>&1
ok $? "stopping a stopped cluster is safe"

# With slurmctld dead (nobody to cancel jobs), stop still ends the job
# steps of its slurmd.  (Slurm 24.11's slurmstepd wipes its environment,
# where 22.05's keeps SLURM_CONF: stop missed them.)
cluster start --sites 1 --nodes-per-site 1 --port-base "$PORT_BASE" > /dev/null 2>&1
ok $? "start 1 node"
job=$(submit -o /dev/null --wrap 'sleep 300')
wait_until 60 eval 'test "$(job_state "$job")" = RUNNING'
ok $? "  a job runs"
kill -KILL "$(awk '$1 == "slurmctld" { print $2 }' "$CDIR/run/pids")"
cluster stop > stop.out 2>&1
ok $? "  stop with slurmctld killed succeeds"
is "$(pgrep -f -- "$CDIR/spool/" | paste -sd' ')" "" "  and leaves no process of the job's step"
rm -rf "$CDIR/state"	# the next starts must not recover that job

# A failed start (slurmctld's port already taken) leaves nothing running.
perl -MIO::Socket::INET -e '
	my $s = IO::Socket::INET->new(LocalPort => $ARGV[0], Listen => 1,
				      ReuseAddr => 1)
		or die "bind: $!"; sleep 120' "$PORT_BASE" &
blocker=$!
sleep 0.5
out=$(cluster start --sites 1 --nodes-per-site 2 --port-base "$PORT_BASE" --timeout 20 2>&1)
rc=$?
kill "$blocker"
ok $((rc == 0)) "start fails when slurmctld cannot bind its port"
like "$out" "did not start|daemon died" "with a message"
like "$out" "tail of .*slurmctld" "and the log tails"
is "$(ours)" "" "and leaves no daemon running"

out=$(cluster start --select bogus 2>&1)
ok $((! $?)) "an unknown --select is refused"
like "$out" "--select must be coalloc, linear or cons_tres" "naming the choices"

out=$(cluster start --max-jobs 0 --nodes-per-site 2 2>&1)
ok $((! $?)) "a bad number is refused"
is "$out" "slurm-cluster: error: --max-jobs must be a positive integer, not '0'" "  naming the option as given"

out=$(cluster start --slurm 23.02 2>&1)
ok $((! $?)) "an unsupported --slurm is refused"
is "$out" "slurm-cluster: error: --slurm 23.02 is not supported; supported: $(awk '/^[0-9]/ { print $1 }' "$VERSIONS" | paste -sd' ')" \
	"naming the supported releases of mk/slurm-versions"
is "$(ours)" "" "and starts nothing"
out=$(make -C "$REPO" --no-print-directory SLURM=23.02 all 2>&1)
ok $((! $?)) "make SLURM=23.02 is refused"
like "$out" "SLURM=23.02 is not supported; supported: $(awk '/^[0-9]/ { print $1 }' "$VERSIONS" | paste -sd' ')" \
     "  naming the supported releases"

# The same harness runs Slurm's own plugins, for side-by-side comparisons.
for sel in linear cons_tres; do
	cluster start --sites 1 --nodes-per-site 2 --select "$sel" \
		--slurm "$SERIES" --port-base "$PORT_BASE" > "start-$sel.out" 2>&1
	ok $? "start with select/$sel (--slurm $SERIES)"
	is "$(sed -n 's/^SLURM_SERIES=//p' "$CDIR/etc/cluster.env")" "$SERIES" "  cluster.env records the release"
	out=$(srun -N 2 hostname 2>&1 | wc -l)
	is "$out" 2 "  a 2-node step runs"
	is "$(scontrol show config | sed -n 's/^SelectType *= *//p')" "select/$sel" "  SelectType is select/$sel"
	cluster stop > /dev/null 2>&1
done

done_testing
