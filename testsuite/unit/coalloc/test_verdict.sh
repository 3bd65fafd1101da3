#!/bin/bash
# test_verdict.sh - the verdict rules of 'make repro-coalloc'
# (contribs/sim/CoallocVerdict.pm), tested in Perl by test_verdict.pl.
# Run by $(O)/tests/coalloc/test_verdict.t (testsuite/unit/lib/script_test.c);
# prove runs from the repository root.
#
# SPDX-License-Identifier: GPL-2.0-or-later

exec perl -I contribs/sim testsuite/unit/coalloc/test_verdict.pl
