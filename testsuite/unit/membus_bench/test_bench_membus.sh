#!/bin/bash
# test_bench_membus.sh - the computations of bench-membus
# (contribs/membus-bench/MembusBench.pm), tested in Perl by
# test_bench_membus.pl.  Run by $(O)/tests/membus_bench/test_bench_membus.t
# (testsuite/unit/lib/script_test.c); prove runs from the repository root.
#
# SPDX-License-Identifier: GPL-2.0-or-later

exec perl -I contribs/membus-bench testsuite/unit/membus_bench/test_bench_membus.pl
