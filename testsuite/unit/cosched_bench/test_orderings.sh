#!/bin/bash
# test_orderings.sh - the arithmetic of bench-cosched's orderings
# (contribs/cosched-bench/CoschedOrderings.pm: CoV, fairness, Poisson
# arrivals), tested in Perl by test_orderings.pl.  Run by
# $(O)/tests/cosched_bench/test_orderings.t (testsuite/unit/lib/script_test.c);
# prove runs from the repository root.
#
# SPDX-License-Identifier: GPL-2.0-or-later

exec perl -I contribs/cosched-bench testsuite/unit/cosched_bench/test_orderings.pl
