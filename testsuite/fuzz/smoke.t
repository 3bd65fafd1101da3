#!/bin/bash
# smoke.t - the fuzz smoke run of 'make check', as TAP: builds the
# libFuzzer targets (make fuzz-build, clang), then runs each for
# FUZZ_SMOKE_SECONDS (3) after replaying its seeds (testsuite/fuzz/run.sh).
# A target passes when it ran, executed inputs and nothing crashed.
#
# SPDX-License-Identifier: GPL-2.0-or-later
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

seconds=${FUZZ_SMOKE_SECONDS:-3}
dir=build/fuzz
log=$(mktemp)
trap 'rm -f "$log"' EXIT

if ! command -v "${FUZZ_CC:-clang}" >/dev/null; then
	echo "1..0 # SKIP no clang (make deps installs it)"
	exit 0
fi
if ! make -s --no-print-directory fuzz-build >"$log" 2>&1; then
	tail -n 20 "$log" | sed 's/^/# /'
	echo "Bail out! make fuzz-build failed"
	exit 1
fi
read -r -a targets < <(make -s --no-print-directory fuzz-list)
echo "1..${#targets[@]}"
n=0
fails=0
for t in "${targets[@]}"; do
	n=$((n + 1))
	out=$(testsuite/fuzz/run.sh "$dir" "$t" "$seconds")
	rc=$?
	# "fuzz_T: ran S s, N execs (E/s), ..." on success (run.sh checks N > 0)
	re='^fuzz_[a-z_]+: ran ([0-9]+) s, ([0-9]+) execs .*no crash$'
	if ((rc == 0)) && [[ $out =~ $re ]] && ((BASH_REMATCH[2] > 0)); then
		echo "ok $n - fuzz_$t ran ${BASH_REMATCH[1]} s, ${BASH_REMATCH[2]} execs, no crash"
	else
		echo "not ok $n - fuzz_$t"
		printf '%s\n' "$out" | sed 's/^/# /'
		fails=$((fails + 1))
	fi
done
exit $((fails > 0))
