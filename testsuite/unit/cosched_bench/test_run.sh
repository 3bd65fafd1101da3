#!/bin/bash
# test_run.sh - cosched-bench under mpirun: each pattern runs about a
# second (2 tasks for nn and linear, 4 for aa and tree), finishes, prints
# every field, and takes a sensible time for its target; --json gives one
# object; a single task runs without mpirun; bad options exit 2 before
# MPI starts.  Run by $(O)/tests/cosched_bench/test_run.t (testsuite/unit/lib/script_test.c),
# which sets $COALLOC_BUILD to the tree of its build mode; prove runs
# from the repository root.  About 15 s on 2 cores.
#
# test-alone: each run must take a sensible wall time for its target,
# which tests beside it on the two CPUs stretch.
#
# SPDX-License-Identifier: GPL-2.0-or-later

source testsuite/unit/lib/mpi-tap.sh
BENCH=${COSCHED_BENCH:-${COALLOC_BUILD:-build/release}/bin/cosched-bench}
mpi_tap_init "$BENCH"

CPUS=$(nproc)
SECONDS_TARGET=1

# field NAME FILE: the value of NAME= on the result line
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" "$2" | head -n1; }

# run_mpi OUT N ARGS...: mpirun with N tasks, stdout to OUT, stderr to
# OUT.err; the exit status of mpirun.
run_mpi() {
	local out=$1 tasks=$2
	shift 2
	timeout 120 mpirun --allow-run-as-root --oversubscribe -n "$tasks" \
		"$BENCH" "$@" > "$out" 2> "$out.err"
}

# in_bounds WALL TASKS: the wall time is sensible for the target.
# Lenient: J4 is 95% computation and I/O, so a dedicated run takes about
# the target; more tasks than CPUs share them.
in_bounds() {
	awk -v w="${1:-0}" -v t="$SECONDS_TARGET" -v n="$2" -v c="$CPUS" '
		BEGIN { f = n / c; if (f < 1) f = 1
			exit !(w >= 0.5 * t && w <= 3 * t * f) }'
}

# check_pattern PATTERN N: one run of about a second, four tests.  A
# wall time out of bounds is measured once more before it fails: the
# machine is shared, and one busy second says nothing about the program.
check_pattern() {
	local pattern=$1 tasks=$2 out=$TMP/$1.out rc wall iters
	local args=(--type J4 --pattern "$pattern" --seconds "$SECONDS_TARGET")
	run_mpi "$out" "$tasks" "${args[@]}"
	rc=$?
	ok $rc "$pattern on $tasks tasks: exits 0 ($rc)"
	[ $rc = 0 ] || sed 's/^/# /' "$out.err" | tail -n 20 >&2
	grep -Eq "^cosched-bench type=J4 pattern=$pattern ranks=$tasks iterations=[0-9]+ wall_s=[0-9.]+ comp_s=[0-9.]+ io_s=[0-9.]+ comm_s=[0-9.]+ cpu_s=[0-9.]+ " "$out"
	ok $? "  prints type, pattern, ranks and every time"
	[ -s "$out" ] && sed 's/^/# /' "$out" >&2
	iters=$(field iterations "$out")
	[ "${iters:-0}" -gt 0 ]
	ok $? "  iterations > 0 (${iters:-none})"
	wall=$(field wall_s "$out")
	if ! in_bounds "$wall" "$tasks"; then
		echo "# wall time $wall s out of bounds: once more" >&2
		run_mpi "$out" "$tasks" "${args[@]}"
		wall=$(field wall_s "$out")
	fi
	in_bounds "$wall" "$tasks"
	ok $? "  wall time ${wall:-none} s within 0.5x-3x the ${SECONDS_TARGET} s target (x tasks/CPUs)"
}

# fails_with "description" "pattern" args...: exit 2, stderr names it
fails_with() {
	local desc=$1 pat=$2 rc
	shift 2
	"$BENCH" "$@" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	[ $rc = 2 ]
	ok $? "$desc: exit 2 ($rc)"
	grep -q -- "$pat" "$TMP/err"
	ok $? "  the message names the problem"
	[ -s "$TMP/err" ] && sed 's/^/# /' "$TMP/err" >&2
}

plan 29

check_pattern nn 2
check_pattern linear 2
check_pattern aa 4
check_pattern tree 4

# JSON, a fixed iteration count, skew.
run_mpi "$TMP/json" 2 --type J5 --skew 20 --iterations 2000 --json
ok $? "J5 --json --skew 20 --iterations 2000 exits 0"
perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>);
	for my $k (qw(wall_s comp_s io_s comm_s cpu_s target_s)) {
		die "$k missing\n" unless defined $d->{$k} && $d->{$k} >= 0;
	}
	die "iterations $d->{iterations}\n" unless $d->{iterations} == 2000;
	die "ranks $d->{ranks}\n" unless $d->{ranks} == 2;
	die "type/pattern\n" unless $d->{type} eq "J5" && $d->{pattern} eq "nn";
	die "skew $d->{skew}\n" unless $d->{skew} == 20;
	die "messages $d->{messages}\n" unless $d->{messages} == 2;
	' < "$TMP/json" 2> "$TMP/json.why"
ok $? "  one JSON object with the fields and the options"
[ -s "$TMP/json.why" ] && sed 's/^/# /' "$TMP/json.why" "$TMP/json" >&2

# One task needs no mpirun: no partner, no messages.
"$BENCH" --type J3 --iterations 50 > "$TMP/single" 2> "$TMP/single.err"
ok $? "a single task without mpirun exits 0"
grep -q "^cosched-bench type=J3 pattern=nn ranks=1 iterations=50 " "$TMP/single"
ok $? "  and reports 1 rank, 50 iterations"

"$BENCH" --help > "$TMP/help"
ok $? "--help exits 0"
grep -q -- "--latency-us" "$TMP/help"
ok $? "  and lists the options"

fails_with "unknown type" "unknown job type 'J7'" --type J7
fails_with "unknown pattern" "unknown pattern 'ring'" --pattern ring
fails_with "--seconds with --iterations" "exclude each other" --seconds 1 --iterations 3
run_mpi "$TMP/mpi-bad" 2 --skew abc
ok $(( $? == 2 ? 0 : 1 )) "under mpirun a bad option exits 2 too"

done_testing
