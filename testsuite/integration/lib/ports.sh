# ports.sh - where an integration test's cluster listens: the one rule,
# for tap.sh and for the test that checks that no two blocks overlap
# (testsuite/unit/build/test_ports.sh).
#
# A block of PORTS_PER_RELEASE per release (its line among
# mk/slurm-versions' releases: 10000.. for the first, 15000.. for the
# second, ...), in it PORTS_PER_TEST per test file (01-foo.t of the first
# release: 10100..10199), so that every file of every release can run at
# once (make check does); all below the kernel's ephemeral ports (32768..).
# With 4,000 a release, 41-gang-guard's block on the first release was
# 01-cluster's on the second, and CI failed with "Address already in use".
#
# SPDX-License-Identifier: GPL-2.0-or-later

PORTS_FIRST=10000
PORTS_PER_RELEASE=5000
PORTS_PER_TEST=100
PORTS_EPHEMERAL=32768

# port_base RELEASE_INDEX TEST_NUM [SHIFT]: the block's first port, or
# nothing and status 1 when the test's number or the release's index has
# no block of its own.
port_base() {
	local release=$1 num=$2 shift=${3:-0}
	((num >= 1 && (num + 1) * PORTS_PER_TEST <= PORTS_PER_RELEASE)) || return 1
	((PORTS_FIRST + (release + 1) * PORTS_PER_RELEASE <= PORTS_EPHEMERAL)) || return 1
	echo $((PORTS_FIRST + release * PORTS_PER_RELEASE + num * PORTS_PER_TEST + shift))
}
