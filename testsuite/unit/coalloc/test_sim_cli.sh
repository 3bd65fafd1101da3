#!/bin/bash
# test_sim_cli.sh - coalloc-sim command line: bad input gives a clear error
# naming the problem and a non-zero exit; good input gives the table and
# valid JSON.  Run by $(O)/tests/coalloc/test_sim_cli.t (testsuite/unit/lib/script_test.c),
# which sets $COALLOC_BUILD to the tree of its build mode; prove runs
# from the repository root.
#
# SPDX-License-Identifier: GPL-2.0-or-later

SIM=${COALLOC_SIM:-${COALLOC_BUILD:-build/release}/bin/coalloc-sim}
source testsuite/unit/lib/tap.sh

# fails_with "description" "pattern" args...: non-zero exit, stderr matches
fails_with() { command_fails "$1" "$2" "$SIM" "${@:3}"; }

plan 34
fails_with "unknown policy" "unknown policy 'XY-Z'" --policy XY-Z --jobs 100
fails_with "composition not 100" "sum to 90, not 100" --composition 30,30,30,0 --jobs 100
fails_with "bad utilization" "utilization" --utilization -1 --jobs 100

printf '; a comment\n1 0 0 10 4 -1 -1 4 20 -1 1 1 1 1 1 1 -1 -1\n2 5 0 abc\n' >"$TMP/bad.swf"
fails_with "malformed SWF line" "bad.swf:3: malformed SWF line" --swf "$TMP/bad.swf"
printf '1 0 0 10 4 -1 -1 4 20 -1 1 1 1 1 1 1 -1 -1 7\n' >"$TMP/long.swf"
fails_with "SWF line with 19 fields" "long.swf:1: malformed SWF line" --swf "$TMP/long.swf"
fails_with "missing SWF file" "no-such.swf" --swf "$TMP/no-such.swf"

"$SIM" --policy GS,LS-DO,EQ-GF --jobs 2000 --replications 2 --utilization 0.5 >"$TMP/table"
ok $? "table run exits 0"
grep -q '^LS-DO ' "$TMP/table" && grep -q '^EQ-GF ' "$TMP/table"
ok $? "table has one row per policy"

"$SIM" --policy all --jobs 1000 --replications 2 --utilization 0.5 --json >"$TMP/json"
ok $? "JSON run exits 0"
perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>);
	exit 1 unless ref $d eq "ARRAY" && @$d == 13;
	for my $p (@$d) {
		exit 1 unless defined $p->{policy} && exists $p->{saturated};
		exit 1 unless defined $p->{response}{total}{mean};
		exit 1 unless exists $p->{response}{global}{ci95};
		exit 1 unless defined $p->{utilization};
	}' <"$TMP/json"
ok $? "JSON: 13 policies with response, utilization and saturated"

# a tiny trace: 1 to 128 processors, the two largest co-allocated
printf '; UnixStartTime: 0\n' >"$TMP/good.swf"
for i in $(seq 1 40); do
	p=$(( (i * 7) % 128 + 1 ))
	echo "$i $((i * 3)) 0 $((i % 9 + 1)) $p -1 -1 $p 20 -1 1 1 1 1 1 $((i % 3 + 1)) -1 -1"
done >>"$TMP/good.swf"
"$SIM" --swf "$TMP/good.swf" --policy LP-GF --json >"$TMP/swf.json"
ok $? "SWF replay exits 0"
grep -q '"policy":"LP-GF"' <(tr -d ' \n' <"$TMP/swf.json")
ok $? "SWF replay reports the policy"
if command -v gnuplot >/dev/null; then
	"$SIM" --policy GS,LS-DO,LP-GF --jobs 500 --replications 2 \
		--plot "$TMP/chart.png" >/dev/null
	ok $? "--plot runs gnuplot"
	[ "$(head -c 4 "$TMP/chart.png" | tail -c 3)" = PNG ]
	ok $? "--plot writes a PNG"
else
	skip 2 "gnuplot not installed"
fi

# numbers are decimal: strtod took hexadecimal, strtoul a leading blank
fails_with "hexadecimal utilization" "--utilization '0x1p-1'" --utilization 0x1p-1 --jobs 100
fails_with "jobs with a leading blank" "--jobs ' 100'" --jobs ' 100'
printf '1 0 0 10 4 -1 -1 0x4 20 -1 1 1 1 1 1 1 -1 -1\n' >"$TMP/hex.swf"
fails_with "hexadecimal SWF field" "hex.swf:1: malformed SWF line" --swf "$TMP/hex.swf"

# --request-mix: ordered, unordered, flexible fractions
fails_with "mix of two" "expected three fractions" --request-mix 0.5,0.5 --jobs 100
fails_with "mix not summing to 1" "sum to 0.9, not 1" --request-mix 0.3,0.3,0.3 --jobs 100
fails_with "negative share" "in \[0, 1\]" --request-mix -0.5,1,0.5 --jobs 100
# mean GS response of one mix at a fixed seed (the same jobs for all)
gs_mean() {
	"$SIM" --policy GS --jobs 4000 --replications 2 --utilization 0.75 \
		--request-mix "$1" --json |
		perl -MJSON::PP -e 'local $/; print decode_json(<STDIN>)->[0]{response}{total}{mean}'
}
ordered=$(gs_mean 1,0,0) unordered=$(gs_mean 0,1,0) flexible=$(gs_mean 0,0,1)
diag "GS mean response: ordered $ordered, unordered $unordered, flexible $flexible"
perl -e 'exit !($ARGV[0] > $ARGV[1] && $ARGV[1] > $ARGV[2])' \
	"$ordered" "$unordered" "$flexible"
ok $? "fixed sites cost, free splits help: ordered > unordered > flexible"
[ "$(gs_mean 0,1,0)" = "$unordered" ]
ok $? "the default mix is the paper's unordered requests, reproducibly"
done_testing
