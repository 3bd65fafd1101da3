#!/bin/bash
# test_check.sh - coalloc-status --check: slurm.conf, coalloc.conf and
# plugstack.conf checked as select/coalloc checks them when slurmctld
# starts, on a good configuration and on one fault at a time.  Run by
# $(O)/tests/coalloc_status/test_check.t (testsuite/unit/lib/script_test.c);
# prove runs from the repository root.
#
# SPDX-License-Identifier: GPL-2.0-or-later

source testsuite/unit/lib/tap.sh
STATUS=$COALLOC_BUILD/bin/coalloc-status
ETC=$TMP/etc

# A cluster of two sites of 4 nodes, the second site's nodes in an
# included file; every file rewritten by each case that changes it.
slurm_conf() {	# extra lines
	mkdir -p "$ETC"
	cat > "$ETC/slurm.conf" <<-EOF
	ClusterName=check
	SelectType=select/coalloc # whole nodes
	NodeName=DEFAULT CPUs=1 RealMemory=500
	NodeName=n[1-4] NodeAddr=127.0.0.1
	Include nodes.conf
	PartitionName=DEFAULT OverSubscribe=FORCE:2
	PartitionName=grid Nodes=ALL Default=YES
	PartitionName=site1 Nodes=n[1-4] OverSubscribe=NO
	PartitionName=site2 Nodes=m[01-04]
	$*
	EOF
	echo 'NodeName=m[01-04] NodeAddr="127.0.0.1"' > "$ETC/nodes.conf"
}
coalloc_conf() {	# lines
	printf '%s\n' "$@" > "$ETC/coalloc.conf"
}
plugstack_conf() {	# lines
	printf '%s\n' "$@" > "$ETC/plugstack.conf"
}
good() {
	slurm_conf
	coalloc_conf "Policy=LP-LF" "Site=s1 Nodes=n[1-4]" "Site=s2 Nodes=m[01-04]" \
		"GlobalPartition=grid" "LocalPartition=site1 Site=s1" \
		"LocalPartition=site2 Site=s2"
	plugstack_conf "optional /usr/lib/slurm/pyxis.so"
}
check() { SLURM_CONF=$ETC/slurm.conf "$STATUS" --check "$@" 2>&1; }

good
out=$(check)
is "$?" 0 "a good configuration: exit 0"
like "$out" "slurm.conf: $ETC/slurm.conf \(8 nodes, 3 partitions\)" \
	"  slurm.conf's nodes, those of its Include too, and its partitions"
like "$out" "0 error\(s\), 0 warning\(s\)" "  no error, no warning"

coalloc_conf "Site=s1 Nodes=n[1-4]" "Site=s2 Nodes=m[01-05]"
out=$(check)
is "$?" 1 "a site node slurm.conf lacks: exit 1"
like "$out" "error: $ETC/coalloc.conf line 2: key 'Nodes': node 'm05' is not in slurm.conf" \
	"  naming file, line, key and node"

coalloc_conf "Site=s1 Nodes=n[1-4],m01" "Site=s2 Nodes=m[01-04]"
like "$(check)" "line 2: key 'Nodes': node 'm01' is already in site 's1' \(line 1\); sites must not overlap" \
	"overlapping sites"

coalloc_conf "Site=s1 Nodes=n[1-4]" "Site=s2 Nodes=m[01-03]"
like "$(check)" "node 'm04' is in no site" "a node in no site"

# Slurm's own hostlist parser reads it, leniently, as slurmctld would
coalloc_conf "Site=s1 Nodes=n[1-4" "Site=s2 Nodes=m[01-04]"
like "$(check)" "error: .*coalloc.conf line 1: key 'Nodes': " "a malformed hostlist: an error at its line"

coalloc_conf "Site=s1 Nodes=n[1-4]" "Site=s2 Nodes=m[01-04]" "LocalPartition=nosuch Site=s2"
like "$(check)" "line 3: key 'LocalPartition': partition 'nosuch' is not in slurm.conf" \
	"a partition slurm.conf lacks"

coalloc_conf "Site=s1 Nodes=n[1-4]" "Site=s2 Nodes=m[01-04]" "Polcy=GS"
out=$(check)
is "$?" 1 "a key coalloc.conf does not know: exit 1"
like "$out" "coalloc.conf line 3: .*Polcy" "  the parser's own message, with the line"

good
coalloc_conf "Site=s1 Nodes=n[1-4]" "Site=s2 Nodes=m[01-04]" "Matrix=gang MPL=2" \
	"LocalPartition=site1 Site=s1" "GlobalPartition=grid"
out=$(check)
is "$?" 0 "gang rows on a partition that cannot share: a warning, exit 0"
like "$out" "warning: partition site1 needs OverSubscribe=FORCE:2 in slurm.conf for Matrix=gang" \
	"  naming the partition and the setting"
unlike "$out" "partition grid needs" "  PartitionName=DEFAULT's FORCE:2 is inherited by grid"

coalloc_conf "Site=s1 Nodes=n[1-4]" "Site=s2 Nodes=m[01-04]" \
	"Matrix=gang MPL=2 TimeSlice=200ms GangPortOffset=1002"
plugstack_conf "required cosched.so gang_rows=yes gang_port_offset=1003"
out=$(check)
is "$?" 1 "GangPortOffset against cosched.so's gang_port_offset: exit 1"
like "$out" "error: .*line 3: key 'GangPortOffset': 1002 differs from gang_port_offset=1003 of cosched.so at $ETC/plugstack.conf line 1" \
	"  naming both files' lines"
plugstack_conf "required cosched.so gang_port_offset=1002"
like "$(check)" "error: a TimeSlice in ms: cosched.so at $ETC/plugstack.conf line 1 has no gang_rows=yes" \
	"  rows the agents switch need cosched.so's gang_rows=yes"
plugstack_conf "required cosched.so gang_rows=yes gang_port_offset=1002"
is "$(check | tail -n1)" "0 error(s), 0 warning(s)" "  and nothing when they agree"

good
slurm_conf "PreemptMode=SUSPEND,GANG"
like "$(check)" "error: PreemptMode=GANG \(Slurm's built-in gang scheduling\) must be off" \
	"PreemptMode=GANG, as slurmctld would refuse it"
slurm_conf "SelectTypeParameters=CR_Core_Memory"
like "$(check)" "error: SelectTypeParameters=CR_Core_Memory is not supported" \
	"a consumable-resource parameter"
slurm_conf "SelectTypeParameters=CR_Memory"
is "$(check | tail -n1)" "0 error(s), 0 warning(s)" "  CR_Memory is accepted"
slurm_conf "NodeName=n4 NodeAddr=127.0.0.1"
out=$(check)
like "$out" "error: $ETC/slurm.conf line 10: key 'NodeName': node 'n4' is defined again \(first at $ETC/slurm.conf line 4\)" "a node defined twice"
unlike "$out" "in no site" "  its first definition is the one the sites claim"
slurm_conf "SelectType=select/cons_tres"
like "$(check)" "note: SelectType is select/cons_tres, not select/coalloc" \
	"another SelectType: said, and the checks made as for a switch"

good
echo "Include loop.conf" > "$ETC/loop.conf"
slurm_conf "Include loop.conf"
out=$(check)
is "$?" 1 "an Include loop: an error, not a hang"
like "$out" "loop.conf line 1: key 'Include': Include nested over 8 deep" "  saying so"
slurm_conf 'NodeName="n9'
like "$(check)" "slurm.conf line 10: an open quote" "an open quote in slurm.conf"

good
out=$(SLURM_CONF=$TMP/none.conf "$STATUS" --check 2>&1)
is "$?" 1 "no slurm.conf: exit 1"
like "$out" "none.conf" "  naming it"

rm "$ETC/coalloc.conf"
like "$(check)" "note: no $ETC/coalloc.conf: every node forms one site, policy GS" \
	"no coalloc.conf: one site of every node, as the plugin runs then"
coalloc_conf "Site=all Nodes=ALL"
cp "$ETC/coalloc.conf" "$TMP/other.conf"
rm "$ETC/coalloc.conf"
out=$(check --conf "$TMP/other.conf")
is "$?" 0 "--conf names the coalloc.conf to check"
"$STATUS" --conf "$TMP/other.conf" > /dev/null 2>&1
is "$?" 2 "--conf without --check: a usage error"
"$STATUS" --check --json > /dev/null 2>&1
is "$?" 2 "--check with --json: a usage error"

done_testing
