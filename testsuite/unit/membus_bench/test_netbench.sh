#!/bin/bash
# test_netbench.sh - netbench under mpirun: half-second runs on 2 ranks
# with the default transports and with '--mca btl tcp,self' print the
# start, progress and done lines, where every progress line's bytes are
# exactly iterations x bytes x (ranks - 1) and the done line's rate
# agrees with its counts; a stop signal to one rank (SIGTERM to rank 1
# of 2 over TCP, whose traffic ss sees on its sockets; SIGALRM to rank 2
# of 3 with --compute) ends every rank after the same iteration, exit 0
# and a done line; bad options exit 2 before MPI starts.  Run by
# $(O)/tests/membus_bench/test_netbench.t (testsuite/unit/lib/script_test.c), which sets
# $COALLOC_BUILD to the tree of its build mode; prove runs from the
# repository root.  About 4 s on 2 cores.
#
# test-alone: a half-second run must print a progress line every 0.1 s;
# on loaded CPUs a rank can stall past the whole run (seen: no line).
#
# SPDX-License-Identifier: GPL-2.0-or-later

source testsuite/unit/lib/mpi-tap.sh
BENCH=${NETBENCH:-${COALLOC_BUILD:-build/release}/bin/netbench}
mpi_tap_init "$BENCH"
BYTES=8192

# field NAME FILE: the value of NAME= on the done line
field() { sed -n "s/^netbench done .* $1=\([^ ]*\).*/\1/p" "$2" | head -n1; }

# show FILE...: as TAP diagnostics
show() { sed 's/^/# /' "$@" >&2; }

# progress_exact FILE RANKS: at least one progress line, iterations
# growing, and bytes = iterations x BYTES x (RANKS - 1) on every one.
progress_exact() {
	awk -v b="$BYTES" -v r="$2" '
		/^netbench t=/ {
			split($3, i, "="); split($4, s, "=")
			if ($3 !~ /^iterations=[0-9]+$/ || $4 !~ /^bytes=[0-9]+$/) bad = 1
			if (i[2] + 0 <= last || s[2] != i[2] * b * (r - 1)) bad = 1
			last = i[2] + 0; lines++
		}
		END { exit !(lines >= 1 && !bad) }' "$1"
}

# rate_agrees FILE RANKS: rate = iterations / seconds and
# net_bytes_per_s = 2 x iterations x BYTES x (RANKS - 1) / seconds, to
# the rounding of seconds (3 decimals).
rate_agrees() {
	awk -v it="$(field iterations "$1")" -v s="$(field seconds "$1")" \
	    -v rate="$(field rate "$1")" -v nb="$(field net_bytes_per_s "$1")" \
	    -v b="$BYTES" -v r="$2" '
		function near(x, y) { return x >= 0.99 * y && x <= 1.01 * y }
		BEGIN { exit !(s > 0 && it > 0 && near(rate * s, it) &&
			       near(nb * s, 2 * it * b * (r - 1))) }'
}

# check_run NAME MPIRUN_ARGS...: a 0.5 s run on 2 ranks, five tests.
check_run() {
	local name=$1 out=$TMP/$1.out rc iters
	shift
	timeout 60 mpirun --allow-run-as-root --oversubscribe -np 2 "$@" \
		"$BENCH" --bytes "$BYTES" --seconds 0.5 --report 0.1 \
		--label "$name" > "$out" 2> "$out.err"
	rc=$?
	ok $rc "$name: exits 0 ($rc)"
	[ $rc = 0 ] || show "$out.err"
	grep -qx "netbench start ranks=2 bytes=$BYTES" "$out"
	ok $? "  start line: ranks=2 bytes=$BYTES"
	grep -Eqx "netbench done ranks=2 bytes=$BYTES seconds=[0-9]+\.[0-9]{3} iterations=[0-9]+ rate=[0-9.]+ net_bytes_per_s=[0-9.]+ label=$name" "$out"
	ok $? "  done line with every field"
	iters=$(field iterations "$out")
	progress_exact "$out" 2 && [ "${iters:-0}" -gt 0 ]
	ok $? "  $iters iterations; progress bytes = iterations x $BYTES exactly"
	rate_agrees "$out" 2
	ok $? "  rate and net_bytes_per_s agree with iterations and seconds"
	[ "$_tap_failed" = 0 ] || show "$out"
}

# rank_pid MPIRUN_PID RANK: the pid of that rank (a child of mpirun).
rank_pid() {
	local p i
	for i in $(seq 50); do
		for p in $(pgrep -P "$1"); do
			if grep -qzx "OMPI_COMM_WORLD_RANK=$2" "/proc/$p/environ" 2> /dev/null; then
				echo "$p"
				return 0
			fi
		done
		sleep 0.1
	done
	return 1
}

# tcp_bytes_sent PID: what PID has sent on its established TCP sockets
# (ss -i), or nothing without ss.
tcp_bytes_sent() {
	command -v ss > /dev/null || return 1
	ss -tinpH state established 2> /dev/null | awk -v p="pid=$1," '
		index($0, p) { want = 1; next }
		want { for (i = 1; i <= NF; i++)
				if ($i ~ /^bytes_sent:/) { split($i, b, ":"); sum += b[2] }
		       want = 0 }
		END { print sum + 0 }'
}

# check_signal NAME SIG RANK RANKS BTL NETBENCH_ARGS...: no time limit;
# SIG to one rank once rank 0 logged its start; four tests, and with
# BTL=tcp (--mca btl tcp,self) a fifth: that rank has sent over TCP
# sockets.  BTL=- leaves the transports to Open MPI.
check_signal() {
	local name=$1 sig=$2 rank=$3 ranks=$4 tcp=$5 log=$TMP/$1.log mp pid rc i sent
	local mca=()
	shift 5
	[ "$tcp" = tcp ] && mca=(--mca btl tcp,self)
	mpirun --allow-run-as-root --oversubscribe -np "$ranks" "${mca[@]}" \
		"$BENCH" --bytes "$BYTES" --report 0.05 --log "$log" \
		--label "$name" "$@" > "$log.out" 2>&1 &
	mp=$!
	for i in $(seq 100); do
		grep -q "^netbench start" "$log" 2> /dev/null && break
		sleep 0.05
	done
	pid=$(rank_pid "$mp" "$rank")
	ok $? "$name: rank $rank of $ranks found (pid ${pid:-none})"
	sleep 0.2
	if [ "$tcp" = tcp ]; then
		if sent=$(tcp_bytes_sent "$pid"); then
			[ "${sent:-0}" -ge 1048576 ]
			ok $? "  rank $rank's traffic crosses TCP sockets ($sent bytes sent)"
		else
			skip 1 "no ss to see the sockets"
		fi
	fi
	[ -n "$pid" ] && kill -s "$sig" "$pid"
	# Every rank must end by itself; a hang is a failure, not a wait.
	for i in $(seq 200); do
		kill -0 "$mp" 2> /dev/null || break
		sleep 0.05
	done
	if kill -0 "$mp" 2> /dev/null; then
		echo "# $name: still running 10 s after $sig, killed" >&2
		kill -KILL "$mp"
	fi
	wait "$mp"
	rc=$?
	ok $rc "  every rank ends, mpirun exits 0 ($rc)"
	grep -Eq "^netbench done ranks=$ranks bytes=$BYTES .* iterations=[1-9][0-9]* .* label=$name\$" "$log"
	ok $? "  done line from rank 0"
	progress_exact "$log" "$ranks"
	ok $? "  progress bytes = iterations x $BYTES x $((ranks - 1)) exactly"
	[ "$_tap_failed" = 0 ] || show "$log" "$log.out"
}

# fails_with OPTION ARGS...: exit 2 without mpirun, stderr names OPTION
fails_with() {
	local opt=$1 rc
	shift
	"$BENCH" "$@" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	[ $rc = 2 ] && [ ! -s "$TMP/out" ]
	ok $? "$opt ${*: -1}: exit 2 ($rc), nothing run"
	if ! grep -q -- "$opt" "$TMP/err"; then
		ok 1 "  the message names $opt"
		show "$TMP/err"
	else
		ok 0 "  the message names $opt"
	fi
}

plan 27

check_run default
check_run tcp --mca btl tcp,self
check_signal sigterm TERM 1 2 tcp
check_signal sigalrm ALRM 2 3 - --compute 50

fails_with --bytes --bytes 0
fails_with --compute --compute -5
fails_with --report --report 0

"$BENCH" --help > "$TMP/help"
ok $? "--help exits 0"
grep -q -- "--compute" "$TMP/help"
ok $? "  and lists the options"

done_testing
