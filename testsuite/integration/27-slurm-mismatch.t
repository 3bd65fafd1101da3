#!/bin/bash
# A select/coalloc built for one Slurm release and loaded by the other
# release's slurmctld: slurmctld stops at start-up (no crash) with a
# message that names both releases (slurm_compat.c's constructor).
#
# Needs both builds: make all && make SLURM=24.11 all.  No cluster: each
# slurmctld stops while loading its select plugin, before it listens.
source "$(dirname "$0")/lib/tap.sh"

SO_2205=$REPO/build/release/plugins/select_coalloc.so
SO_2411=$REPO/build/release-24.11/plugins/select_coalloc.so
PREFIX_2411=$REPO/build/slurm-24.11/prefix
PLUGINS_2205=/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/slurm-wlm
for f in "$SO_2205" "$SO_2411" "$PREFIX_2411/sbin/slurmctld" \
	 /usr/sbin/slurmctld /usr/sbin/munged; do
	[[ -e $f ]] || skip_all "$f is missing (make all && make SLURM=24.11 all)"
done

rm -rf "$TEST_DIR" && mkdir -p "$TEST_DIR/munge" "$TEST_DIR/state" || exit 1
cd "$TEST_DIR" || exit 1
chmod 700 munge
head -c 1024 /dev/urandom > munge/munge.key && chmod 400 munge/munge.key
/usr/sbin/munged --socket="$TEST_DIR/munge/munge.sock" \
	--key-file=munge/munge.key --pid-file="$TEST_DIR/munge/munged.pid" \
	--log-file="$TEST_DIR/munge/munged.log" \
	--seed-file="$TEST_DIR/munge/munged.seed" --force
ok $? "a private munged runs"
trap 'kill "$(cat "$TEST_DIR/munge/munged.pid" 2>/dev/null)" 2>/dev/null' EXIT

write_conf() {	# file plugindir
	cat > "$1" <<-EOF
	ClusterName=mismatch
	SlurmctldHost=localhost
	SlurmctldPort=$PORT_BASE
	SlurmdPort=$((PORT_BASE + 1))
	SlurmUser=root
	StateSaveLocation=$TEST_DIR/state
	SlurmdSpoolDir=$TEST_DIR/spool
	SlurmctldPidFile=$TEST_DIR/slurmctld.pid
	AuthType=auth/munge
	AuthInfo=socket=$TEST_DIR/munge/munge.sock
	CredType=cred/munge
	SelectType=select/coalloc
	PluginDir=$2
	NodeName=n[1-2] CPUs=1 NodeHostname=localhost
	PartitionName=p Nodes=n[1-2] Default=YES
	EOF
}

# slurmctld BINARY with the plugin SO first in PluginDir (then PLUGINS).
try_load() {	# name binary so plugins
	mkdir -p "$1" && cp "$3" "$1/select_coalloc.so" || return 99
	write_conf "$1.conf" "$TEST_DIR/$1:$4"
	timeout 60 "$2" -D -i -f "$TEST_DIR/$1.conf" > "$1.out" 2>&1
}

# fatal() exits 1; a signal would be 128+N, timeout's 124, ours 99.
refused() {	# rc description
	((${1} >= 1 && ${1} < 99))
	ok $? "$2 (exit $1: stopped, no crash)"
}

try_load for-2411 "$PREFIX_2411/sbin/slurmctld" "$SO_2205" \
	"$PREFIX_2411/lib/slurm"
refused $? "Slurm 24.11's slurmctld refuses the 22.05 build"
like "$(cat for-2411.out)" \
	"select/coalloc: built for Slurm 22\.05\.[0-9]+ \(libslurm API 38\), but this process runs Slurm 24\.11 \(libslurm API 42\): rebuild select/coalloc with make SLURM=24\.11" \
	"  naming both releases"

try_load for-2205 /usr/sbin/slurmctld "$SO_2411" "$PLUGINS_2205"
refused $? "Slurm 22.05's slurmctld refuses the 24.11 build"
like "$(cat for-2205.out)" \
	"select/coalloc: built for Slurm 24\.11\.[0-9]+ \(libslurm API 42\), but this process runs Slurm 22\.05 \(libslurm API 38\): rebuild select/coalloc with make SLURM=22\.05" \
	"  naming both releases"
unlike "$(cat for-2205.out)" "undefined symbol" \
	"  not a dlopen() failure on a symbol 22.05 lacks (the plugin binds lazily)"

done_testing
