#!/bin/bash
# run.sh FUZZ_DIR NAME SECONDS - one run of the libFuzzer target
# FUZZ_DIR/fuzz_NAME (see mk/fuzz.mk), from the repository root:
#
#  1. every seed of testsuite/fuzz/corpus/NAME once (a regression);
#  2. SECONDS of fuzzing, the seeds read-only, new inputs kept in the
#     scratch corpus FUZZ_DIR/corpus/NAME, with the dictionary
#     testsuite/fuzz/dict/NAME.dict when there is one.
#
# Prints one line, "fuzz_NAME: ran S s, N execs (E/s), cov C, ...", and
# exits 0; or says what failed and exits 1: a seed or a fuzzed input that
# crashed, leaked, broke a promise or took over 10 s (the input is in
# FUZZ_DIR/crashes/NAME/), or a run that did not execute anything.  The
# whole libFuzzer output is in FUZZ_DIR/logs/NAME.log.
#
# SPDX-License-Identifier: GPL-2.0-or-later
set -uo pipefail

if (($# != 3)); then
	echo "usage: $0 FUZZ_DIR NAME SECONDS" >&2
	exit 2
fi
dir=$1 name=$2 seconds=$3
here=$(dirname "$0")
bin=$dir/fuzz_$name
seeds=$here/corpus/$name
dict=$here/dict/$name.dict
scratch=$dir/corpus/$name
crashes=$dir/crashes/$name
log=$dir/logs/$name.log

mkdir -p "$scratch" "$crashes" "$dir/logs" "$dir/tmp"
# a harness's scratch input file (fuzz.h): in the build tree, not /tmp,
# should a crash leave it behind
export TMPDIR=$dir/tmp
opts=(-timeout=10 -artifact_prefix="$crashes/" -print_final_stats=1)
[[ -f $dict ]] && opts+=(-dict="$dict")

# Why a run failed, from its log: the sanitizer's or libFuzzer's summary
# and where the input was saved.
failure() {
	local what
	what=$(grep -m1 -E '^SUMMARY: |broken promise|^==[0-9]+==ERROR' "$1")
	echo "fuzz_$name: $2: ${what:-exit status $3}"
	grep -m1 -o 'Test unit written to .*' "$1" | sed 's/^/  /'
	# a seed: the last one started
	grep -o '^Running: .*' "$1" | tail -n 1 | sed 's/^/  /'
	echo "  log: $1"
}

# 1. The seeds, each once.
shopt -s nullglob
seed_files=("$seeds"/*)
if ((${#seed_files[@]})); then
	"$bin" "${opts[@]}" "${seed_files[@]}" >"$log.seeds" 2>&1
	rc=$?
	if ((rc)); then
		failure "$log.seeds" "a seed fails" "$rc"
		exit 1
	fi
fi

# 2. Fuzzing.
"$bin" "${opts[@]}" -max_total_time="$seconds" "$scratch" "$seeds" \
	>"$log" 2>&1
rc=$?
if ((rc)); then
	failure "$log" "CRASH" "$rc"
	exit 1
fi
read -r runs secs < <(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1 \2/p' "$log")
cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
if [[ -z ${runs:-} || $runs == 0 ]]; then
	echo "fuzz_$name: no execution (log: $log)"
	exit 1
fi
corpus=$(find "$scratch" -type f | wc -l)
echo "fuzz_$name: ran $secs s, $runs execs (${eps:-?}/s), cov ${cov:-?}, scratch corpus $corpus, ${#seed_files[@]} seeds replayed, no crash"
