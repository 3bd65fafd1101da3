#!/bin/bash
# test_slurm_fetch.sh - mk/slurm-build.sh's first step, without a build
# (COALLOC_SLURM_FETCH_ONLY): an "upstream" release's tarball is taken
# from COALLOC_SLURM_TARBALLS and checked against the SHA256SUMS beside
# it; a missing tarball says where it was looked for, a damaged one
# gives both checksums, an unknown series or source is named.  Small
# fake tarballs in a private directory: nothing is downloaded.
# Run by $(O)/tests/build/test_slurm_fetch.t (testsuite/unit/lib/script_test.c);
# prove runs from the repository root.  Under a second.
#
# SPDX-License-Identifier: GPL-2.0-or-later

source testsuite/unit/lib/tap.sh
BUILD_SH=mk/slurm-build.sh
TB=$TMP/tarballs
mkdir -p "$TB"
printf '25.11\t25.11.7\tupstream\tslurmctld\n26.05\t26.05.3\tupstream\tslurmctld\n99.1\t99.1.0\tcvs\tall\n' > "$TMP/versions"
echo "a release" > "$TB/slurm-25.11.7.tar.bz2"
echo "another" > "$TB/slurm-26.05.3.tar.bz2"
(cd "$TB" && sha256sum slurm-25.11.7.tar.bz2) > "$TB/SHA256SUMS"
echo "0000000000000000000000000000000000000000000000000000000000000000  slurm-26.05.3.tar.bz2" >> "$TB/SHA256SUMS"

fetch() {
	COALLOC_SLURM_VERSIONS=$TMP/versions COALLOC_SLURM_TARBALLS=${DIR:-$TB} \
		COALLOC_SLURM_CACHE=$TMP/cache COALLOC_SLURM_FETCH_ONLY=1 \
		"$BUILD_SH" "$1" "$TMP/link"
}

out=$(fetch 25.11 2>&1)
ok $? "25.11: its tarball matches SHA256SUMS"
like "$out" "checked: $TB/slurm-25.11.7.tar.bz2" "  the message names the file checked"
command_fails "26.05: a damaged tarball" "SHA-256 [0-9a-f]\{64\}, but SHA256SUMS says 0000" fetch 26.05
rm "$TB/slurm-26.05.3.tar.bz2"
command_fails "26.05: no tarball" "no slurm-26.05.3.tar.bz2 in $TB (set COALLOC_SLURM_TARBALLS" fetch 26.05
DIR=$TMP/none command_fails "a directory that does not exist" "no slurm-25.11.7.tar.bz2 in $TMP/none" fetch 25.11
grep -v 25.11 "$TB/SHA256SUMS" > "$TMP/sums" && mv "$TMP/sums" "$TB/SHA256SUMS"
command_fails "25.11: SHA256SUMS does not list it" "SHA256SUMS lists no SHA-256 of slurm-25.11.7.tar.bz2" fetch 25.11
command_fails "an unknown source" "unknown source 'cvs' for 99.1" fetch 99.1
command_fails "a series not listed" "not in mk/slurm-versions; supported: 25.11 26.05 99.1" fetch 23.02
ok $([[ ! -e $TMP/link ]]; echo $?) "nothing was linked or built"
done_testing
