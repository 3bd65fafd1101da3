#!/bin/bash
# test_man.sh - the man pages as installed ($(O)/man, from doc/man): one
# footer everywhere, "coalloc VERSION" with VERSION's text, each page of
# doc/man built, and none that groff warns about.  Run by
# $(O)/tests/version/test_man.t (testsuite/unit/lib/script_test.c); prove
# runs from the repository root.
#
# SPDX-License-Identifier: GPL-2.0-or-later

source testsuite/unit/lib/tap.sh
version=$(< VERSION)
for src in doc/man/*.[0-9]; do
	page=$COALLOC_BUILD/man/${src##*/}
	th=$(grep -m1 '^\.TH ' "$page" 2>/dev/null)
	footer=$(awk -F'"' '{ print $4 }' <<< "$th")
	is "$footer" "coalloc $version" "${src##*/}: built, its footer names the suite and version $version"
	warnings=$(groff -z -ww -man "$page" 2>&1)
	is "$warnings" "" "  and groff has no warning"
done
is "$(grep -h -m1 '^\.TH ' doc/man/*.[0-9] | awk -F'"' '{ print $4 }' | sort -u)" "coalloc @VERSION@" \
	"the sources hold one footer, the version left to the build"
done_testing
