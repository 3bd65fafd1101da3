#!/bin/bash
# test_ports.sh - the integration tests' blocks of ports
# (testsuite/integration/lib/ports.sh): for every test file there is and
# every release of mk/slurm-versions, a block of its own, none shared
# with another file of any release (41-gang-guard's on the first release
# was 01-cluster's on the second: "Address already in use" in CI), all
# below the ephemeral ports; a test number without a block is refused.
# Run by $(O)/tests/build/test_ports.t (testsuite/unit/lib/script_test.c).
#
# SPDX-License-Identifier: GPL-2.0-or-later

source testsuite/unit/lib/tap.sh
source testsuite/integration/lib/ports.sh

releases=$(awk '/^[0-9]/ { n++ } END { print n }' mk/slurm-versions)
nums=$(for f in testsuite/integration/[0-9][0-9]-*.t; do n=${f##*/}; echo $((10#${n%%-*})); done | sort -n | uniq)
declare -A owner
clash= missing= top=0
for ((r = 0; r < releases; r++)); do
	for n in $nums; do
		base=$(port_base "$r" "$n") || { missing+=" $r:$n"; continue; }
		for ((p = base; p < base + PORTS_PER_TEST; p += PORTS_PER_TEST / 4)); do
			[[ -z ${owner[$p]:-} ]] || clash+=" $r:$n=${owner[$p]}"
			owner[$p]=$r:$n
		done
		((base + PORTS_PER_TEST > top)) && top=$((base + PORTS_PER_TEST))
	done
done
is "$missing" "" "every test file of every release ($releases) has a block of ports"
is "$clash" "" "no two test files of any releases share a port"
ok $((top <= PORTS_EPHEMERAL ? 0 : 1)) "all below the ephemeral ports (top $top)"
# the first release's 41 and the second's 01: the clash CI met
a=$(port_base 0 41) b=$(port_base 1 1)
[[ -n $a && -n $b && $a != "$b" ]]
ok $? "41 of the first release and 01 of the second apart (${a:-none}, ${b:-none})"
port_base 0 50 > /dev/null
is "$?" 1 "a test number beyond the block of a release is refused"
done_testing
