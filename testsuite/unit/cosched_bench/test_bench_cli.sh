#!/bin/bash
# test_bench_cli.sh - bench-cosched's options for the orderings of Zhang
# et al., without a cluster (--dry-run: the options checked, the plan and
# the arrival times printed): --pb-heuristics, --pattern and --skew
# lists, --load-curve, --load-jobs, --load-seed, --plugstack-args; bad
# values refused with a message naming the problem, before anything runs.
# Run by $(O)/tests/cosched_bench/test_bench_cli.t
# (testsuite/unit/lib/script_test.c); prove runs from the repository
# root.  About 2 s.
#
# SPDX-License-Identifier: GPL-2.0-or-later

source testsuite/unit/lib/tap.sh
BC=contribs/cosched-bench/bench-cosched

# refused "description" "pattern" args...: exit 1, the message on stderr
refused() {
	local desc=$1 pat=$2 rc=0
	shift 2
	"$BC" --dry-run "$@" > "$TMP/out" 2> "$TMP/err" || rc=$?
	is "$rc" 1 "$desc: exit 1"
	like "$(cat "$TMP/err")" "$pat" "$desc: the message names it"
}

# plan_of args...: the --dry-run output, exit status checked
plan_of() {
	local rc=0
	"$BC" --dry-run "$@" > "$TMP/out" 2> "$TMP/err" || rc=$?
	[[ $rc == 0 ]] || diag "exit $rc: $(cat "$TMP/err")"
	cat "$TMP/out"
	return "$rc"
}

# --- refusals
refused "unknown heuristic" "--pb-heuristics: unknown 'F'" --pb-heuristics A,F
refused "heuristic with two primes" "unknown 'D''" --pb-heuristics "D''"
refused "empty heuristic list" "--pb-heuristics: empty list" --pb-heuristics ''
refused "empty heuristic" "--pb-heuristics: empty item" --pb-heuristics A,,B
refused "heuristic twice" "'A' given twice" --pb-heuristics A,a
refused "heuristics without pb" "--modes has no pb" --pb-heuristics all --modes none,sb
refused "load 0" "--load-curve: '0' is not an offered load" --load-curve 0
refused "load above 2" "'2.5' is not an offered load" --load-curve 0.5,2.5
refused "negative load" "'-0.5' is not an offered load" --load-curve -0.5
refused "load not a number" "'high' is not an offered load" --load-curve high
refused "empty load list" "--load-curve: empty list" --load-curve ''
refused "trailing comma" "--load-curve: empty item" --load-curve 0.5,
refused "load twice" "'0.5' given twice" --load-curve 0.5,0.5
refused "--load-jobs without --load-curve" "--load-jobs: only with --load-curve" --load-jobs 8
refused "one job" "--load-jobs: '1' is not a number of jobs" --load-curve 0.5 --load-jobs 1
refused "jobs not a number" "--load-jobs: 'x'" --load-curve 0.5 --load-jobs x
refused "bad seed" "--load-seed: '-1'" --load-curve 0.5 --load-seed -1
refused "unknown pattern" "--pattern: unknown 'ring'" --pattern nn,ring
refused "empty pattern list" "--pattern: empty list" --pattern ''
refused "pattern twice" "'aa' given twice" --pattern aa,tree,aa
refused "bad skew" "--skew: '2x' is not a percentage" --skew 0,2x
refused "empty skew list" "--skew: empty list" --skew ''
refused "empty skew" "--skew: empty item" --skew ,20
refused "plugstack argument without =" "--plugstack-args: 'boost' is not KEY=VALUE" --plugstack-args 'energy=tick boost'

# --- accepted
out=$(plan_of)
ok $? "defaults: accepted"
like "$out" "modes: none,sb,sy,dcs,pb,pb-sb,pb-sy,dcs-sb,dcs-sy,ecm,edm, gang; MPL 2,4; workloads comm,mixed; 1 pattern/skew combination\(s\): nn:20" \
	"defaults: every mode, one pattern and skew, as before"
like "$out" "54 batches; estimated duration about [0-9]+ min" "defaults: 54 batches and an estimate"
unlike "$out" "load curve" "defaults: no load curve"

out=$(plan_of --pb-heuristics all --modes none,pb,pb-sb --mpl 2 --workloads comm)
ok $? "--pb-heuristics all: accepted"
like "$out" "modes: none,pb-A,pb-B,pb-C,pb-D,pb-E,pb-A',pb-B',pb-C',pb-D',pb-E',pb-sb, gang;" \
	"--pb-heuristics all: pb replaced by pb-A ... pb-E' in place, pb-sb kept"
like "$out" "bench-cosched: 15 batches" "... 1 dedicated type twice, 12 modes, gang"
out=$(plan_of --pb-heuristics "d',b" --modes pb --no-gang)
like "$out" "modes: pb-D',pb-B; " "lower case accepted, the order kept"

out=$(plan_of --pattern nn,aa,tree,linear --skew 0,20 --modes sb --mpl 2 --workloads comm)
ok $? "four patterns and two skews: accepted"
like "$out" "8 pattern/skew combination\(s\): nn:0 nn:20 aa:0 aa:20 tree:0 tree:20 linear:0 linear:20" \
	"every pattern with every skew"
like "$out" "bench-cosched: 32 batches" "... 8 x (2 dedicated + sb + gang) batches"

out=$(plan_of --load-curve 0.5,0.9 --load-jobs 4 --load-seed 3 --modes none,sb --mpl 2 --workloads comm --seconds 5)
ok $? "--load-curve: accepted"
like "$out" "load curve: loads 0.5,0.9, 4 jobs each, seed 3, 2 tasks a job on 2 CPUs" "the load curve's plan"
like "$out" "bench-cosched: 8 batches" "... 2 dedicated + (2 modes + gang) x 2 loads"
line=$(grep 'arrivals at load 0.5 ' <<< "$out")
like "$line" "guessed 5.500 s\): 0.000( [0-9]+[.][0-9]{3}){3}$" "4 arrivals at load 0.5, the first at 0"
want=$(perl -Icontribs/cosched-bench -MCoschedOrderings -e CoschedOrderings::main \
	schedule 0.9 4 5.5 2 2 3 | paste -sd' ')
like "$(grep 'arrivals at load 0.9 ' <<< "$out")" ": $want$" "... at load 0.9, CoschedOrderings' schedule"
out=$(plan_of --load-curve .7 --submit-args '-p grid --coalloc=2,2 -n 4')
like "$out" "4 tasks a job on 2 CPUs" "the tasks per job from --submit-args' -n"

out=$(plan_of --plugstack-args 'boost=rt energy=tick')
ok $? "--plugstack-args KEY=VALUE...: accepted"

help=$("$BC" --help 2>&1)
for o in --pb-heuristics --load-curve --load-jobs --load-seed --dry-run --plugstack-args \
	 "--pattern nn,aa,tree,linear" "--skew S,..."; do
	like "$help" "\[$o" "--help shows $o"
done

done_testing
