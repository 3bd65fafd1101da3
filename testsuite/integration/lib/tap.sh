# tap.sh - TAP for the integration tests, plus a private embedded Slurm
# cluster per test file (started by cluster_start, stopped on exit).
#
# A test file sources this, calls plan (or done_testing at the end) and
# uses ok/is/like.  Each file gets its own directory under build/test/ and
# its own ports, derived from the number that starts its file name.
#
# COALLOC_SLURM=SERIES (one of mk/slurm-versions; default: the installed
# Slurm) runs the same tests against that Slurm release: slurm-cluster
# starts it (COALLOC_SLURM is its --slurm default, for esp(1) too) and
# cluster_start puts its commands and daemons first in PATH.  BUILD_DIR
# is our build for that release (build/release for the installed one,
# else build/release-SERIES).  Test directories are then
# build/test-SERIES/NAME, so that the logs of both runs stay.
#
# SPDX-License-Identifier: GPL-2.0-or-later

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
SLURM_CLUSTER=${SLURM_CLUSTER:-$REPO/testsuite/cluster/slurm-cluster}
TEST_NAME=$(basename "$0" .t)
[[ -z ${COALLOC_SLURM:-} ]] || export COALLOC_SLURM
TEST_DIR=$REPO/build/test${COALLOC_SLURM:+-$COALLOC_SLURM}/$TEST_NAME
BUILD_DIR=$("$SLURM_CLUSTER" _build-dir) || { echo "Bail out! no build for COALLOC_SLURM=${COALLOC_SLURM:-}"; exit 255; }
# Ports: a block per release and test file (lib/ports.sh).
# TEST_PORT_SHIFT keeps several work trees testing at once apart (dev
# only).
source "$REPO/testsuite/integration/lib/ports.sh"
TEST_NUM=$((10#${TEST_NAME%%-*}))
RELEASE_INDEX=$("$SLURM_CLUSTER" _release-index) || { echo "Bail out! COALLOC_SLURM=${COALLOC_SLURM:-}: no such release"; exit 255; }
PORT_BASE=$(port_base "$RELEASE_INDEX" "$TEST_NUM" "${TEST_PORT_SHIFT:-0}") ||
	{ echo "Bail out! $TEST_NAME of release $RELEASE_INDEX has no block of ports (lib/ports.sh)"; exit 255; }

# plan, ok, is, like, unlike, skip, todo, diag, done_testing, ...
source "$REPO/testsuite/tap/tap.sh"

# ------------------------------------------------------------ cluster

cluster() { "$SLURM_CLUSTER" "$@" --dir "$TEST_DIR/cluster"; }

_cluster_cleanup() {
	local rc=$?
	if [[ -n ${_cluster_started:-} ]]; then
		if ((rc != 0 || _tap_failed)); then
			diag "cluster logs: $TEST_DIR/cluster/log"
		fi
		cluster stop >/dev/null 2>&1 || true
	fi
	return $rc
}

# A cluster an earlier run of this test left (killed before its exit
# trap) is stopped, so that its processes, namespaces and links go (the
# harness removes only what its DIR/run records).
cluster_clear() {
	if [[ -d $TEST_DIR/cluster/run ]]; then
		"$SLURM_CLUSTER" stop --dir "$TEST_DIR/cluster" >&2 || true
	fi
	rm -rf "$TEST_DIR"
}

# cluster_start [slurm-cluster start options]: a fresh private cluster.
cluster_start() {
	cluster_clear
	mkdir -p "$TEST_DIR"
	_cluster_started=1
	trap _cluster_cleanup EXIT
	if ! "$SLURM_CLUSTER" start --dir "$TEST_DIR/cluster" \
		--port-base "$PORT_BASE" "$@" > "$TEST_DIR/start.log" 2>&1; then
		cat "$TEST_DIR/start.log" >&2
		bail_out "embedded cluster did not start"
	fi
	cluster_env || bail_out "slurm-cluster env failed"
	cd "$TEST_DIR" || bail_out "no $TEST_DIR"
}

# The cluster's SLURM_CONF, and its Slurm release's commands first in PATH.
cluster_env() {
	local env
	env=$(cluster env) && eval "$env"
}

# wait_until SECS command...: poll until the command succeeds.  Only the
# command runs again: a "$(...)" among its words is expanded once, before
# the first poll, so conditions on one go in eval '...' or a function.
wait_until() {
	local deadline=$((SECONDS + $1)); shift
	until "$@"; do
		((SECONDS < deadline)) || return 1
		sleep 0.3
	done
}

job_state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }
job_field() { scontrol show job "$1" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n1; }
job_done() { [[ $(job_state "$1") =~ ^(COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL)$ ]]; }
running() { [[ $(job_state "$1") == RUNNING ]]; }
pending() { [[ $(job_state "$1") == PENDING ]]; }
reason() { squeue -h -j "$1" -o %R; }
# pending with a reason matching PATTERN (a policy's, a coalloc hold)
held() { pending "$1" && [[ $(reason "$1") =~ $2 ]]; }
# Nodes in a state (idle, alloc, ...), each counted once over partitions.
nodes_in() { sinfo -h -N -t "$1" -o %N 2>/dev/null | sort -u | wc -l; }
# evaluated JOB: slurmctld's scheduler has looked at the job and left it
# a reason (no longer "None"): what a test waits for, instead of a fixed
# sleep, before it asserts that a job waits.
evaluated() { local r; r=$(job_field "$1" Reason); [[ -n $r && $r != None ]]; }
queue_empty() { [[ -z $(squeue -h -o %i 2>/dev/null) ]]; }
submit() { sbatch --parsable "$@" | cut -d';' -f1; }
