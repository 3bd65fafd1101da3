#!/bin/bash
# A plugin built for one Slurm release and loaded by another release's
# daemon: it stops at start-up (no crash) with a message that names both
# releases (compat/slurm_release.c, run from each plugin's constructor).
# This file's release (COALLOC_SLURM, else the installed one) against
# every other release built here, both ways: select/coalloc loaded by
# slurmctld, and from 25.05 on node_features/coalloc too.
#
# Needs the builds: make all && make SLURM=SERIES all for the others (a
# release not built is skipped, named).  No cluster: each slurmctld
# stops while loading its plugins, before it listens.
source "$(dirname "$0")/lib/tap.sh"

VERSIONS=$REPO/mk/slurm-versions
MULTIARCH=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
THIS=${COALLOC_SLURM:-$(awk '/^[0-9]/ && $3 == "installed" { print $1; exit }' "$VERSIONS")}
origin() { awk -v s="$1" '$1 == s { print $3 }' "$VERSIONS"; }
select_by() { awk -v s="$1" '$1 == s { print $4 }' "$VERSIONS"; }
# a release's slurmctld, its own plugin directory, and our build's plugins
ctld() { if [[ $(origin "$1") == installed ]]; then echo /usr/sbin/slurmctld; else echo "$REPO/build/slurm-$1/prefix/sbin/slurmctld"; fi; }
slurm_plugins() { if [[ $(origin "$1") == installed ]]; then echo "/usr/lib/$MULTIARCH/slurm-wlm"; else echo "$REPO/build/slurm-$1/prefix/lib/slurm"; fi; }
ours() { if [[ $(origin "$1") == installed ]]; then echo "$REPO/build/release/plugins"; else echo "$REPO/build/release-$1/plugins"; fi; }
built() { [[ -x $(ctld "$1") && -f $(ours "$1")/select_coalloc.so ]]; }
built "$THIS" || skip_all "Slurm $THIS or our build for it is missing (make SLURM=$THIS all)"
OTHERS=()
for s in $(awk '/^[0-9]/ { print $1 }' "$VERSIONS"); do
	[[ $s == "$THIS" ]] && continue
	if built "$s"; then OTHERS+=("$s"); else diag "Slurm $s is not built here: not tried"; fi
done
((${#OTHERS[@]})) || skip_all "no other Slurm release is built here (make SLURM=SERIES all)"

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

write_conf() {	# file plugindir select features
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
	SelectType=select/$3
	PluginDir=$2
	NodeName=n[1-2] CPUs=1 NodeHostname=localhost
	PartitionName=p Nodes=n[1-2] Default=YES
	EOF
	[[ -z $4 ]] || echo "NodeFeaturesPlugins=$4" >> "$1"
}

# RUNS' slurmctld with plugin FILE of BUILT's build first in PluginDir
# (then RUNS' own plugins).
try_load() {	# runs built file select features
	local name=$3-$2-in-$1
	mkdir -p "$name" && cp "$(ours "$2")/$3" "$name/" || return 99
	write_conf "$name.conf" "$TEST_DIR/$name:$(slurm_plugins "$1")" "$4" "$5"
	timeout 60 "$(ctld "$1")" -D -i -f "$TEST_DIR/$name.conf" > "$name.out" 2>&1
}

# fatal() exits 1; a signal would be 128+N, timeout's 124, ours 99.
refused() {	# rc description
	((${1} >= 1 && ${1} < 99))
	ok $? "$2 (exit $1: stopped, no crash)"
}

# The message of PLUGIN built for BUILT, loaded by RUNS
message() {	# plugin built runs
	echo "$1: built for Slurm ${2//./\\.}\\.[0-9]+ \\(libslurm API [0-9]+\\), but this process runs Slurm ${3//./\\.} \\(libslurm API [0-9]+\\): rebuild $1 with make SLURM=${3//./\\.}"
}

mismatch() {	# runs built file plugin select features
	try_load "$1" "$2" "$3" "$5" "$6"
	refused $? "Slurm $1's slurmctld refuses $4 built for $2"
	like "$(cat "$3-$2-in-$1.out")" "$(message "$4" "$2" "$1")" "  naming both releases"
	unlike "$(cat "$3-$2-in-$1.out")" "undefined symbol" \
		"  not a dlopen() failure on a symbol $1 lacks (the plugin binds lazily)"
}

for other in "${OTHERS[@]}"; do
	mismatch "$other" "$THIS" select_coalloc.so select/coalloc coalloc ""
	mismatch "$THIS" "$other" select_coalloc.so select/coalloc coalloc ""
	# node_features/coalloc exists from 25.05 on
	if [[ $(select_by "$THIS") == slurmctld && $(select_by "$other") == slurmctld ]]; then
		mismatch "$other" "$THIS" node_features_coalloc.so node_features/coalloc \
			linear node_features/coalloc
		mismatch "$THIS" "$other" node_features_coalloc.so node_features/coalloc \
			linear node_features/coalloc
	fi
done

done_testing
