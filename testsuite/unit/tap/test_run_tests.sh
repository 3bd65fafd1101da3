#!/bin/bash
# test_run_tests.sh - make check's runner (testsuite/tap/run-tests) on a
# suite of tiny TAP files: results, the times file, the test-alone mark,
# the summary of what failed at the end of the output, and its cpuacct
# groups: removed once the test's processes have left (also when one
# exits just after the test), kept and named in the log
# when one stays, stale empty ones of earlier runs cleared.
# Run by $(O)/tests/tap/test_run_tests.t (testsuite/unit/lib/script_test.c);
# prove runs from the repository root.  About 3 s.
#
# SPDX-License-Identifier: GPL-2.0-or-later

source testsuite/unit/lib/tap.sh
RUN=$PWD/testsuite/tap/run-tests
PARENT=/sys/fs/cgroup/cpuacct/coalloc-tests

# suite_file NAME BODY: an executable TAP file NAME.t in $TMP/suite
suite_file() {
	mkdir -p "$TMP/suite"
	printf '#!/bin/bash\n%s\n' "$2" > "$TMP/suite/$1.t"
	chmod +x "$TMP/suite/$1.t"
}
# run OPTIONS NAME...: the runner on suite/NAME.t, from $TMP (so that the
# files are called suite/NAME: times, logs suite_NAME.log, groups
# suite_NAME.log.PID)
run() {
	local opts=() name
	while [[ $1 == --* ]]; do opts+=("$1" "$2"); shift 2; done
	(cd "$TMP" && "$RUN" --out out --doc /dev/null "${opts[@]}" \
		$(for name; do echo "suite/$name.t"; done)) > "$TMP/run.out" 2>&1
}
# field NAME COLUMN: a column of NAME's line in times.tsv (2 wall, 3 cpu, 4 rc)
field() { awk -F'\t' -v n="suite/$1" -v c="$2" '$1 == n { print $c }' "$TMP/out/times.tsv"; }

suite_file pass 'echo 1..2; echo ok 1; echo ok 2'
suite_file fail 'echo 1..1; echo "not ok 1 - broken"'
# a child that outlives the test by half a second (a daemon stopping)
suite_file lingers 'echo 1..1; echo ok 1; (exec 1>&- 2>&-; sleep 0.5) &'
# test-alone: REASON in the head; it checks that nothing runs beside it
suite_file alone $'# test-alone: checks it runs after the rest\necho 1..1; ls '"$TMP"'/running.* >/dev/null 2>&1 && echo "not ok 1" || echo "ok 1"'
suite_file busy 'echo 1..1; touch '"$TMP"'/running.$$; sleep 0.5; rm '"$TMP"'/running.$$; echo ok 1'

run --jobs 3 pass fail lingers alone busy
is "$?" 1 "a failing file fails the run"
is "$(field pass 4) $(field fail 4) $(field busy 4)" "0 0 0" "the times file has each file's exit status"
like "$(cat "$TMP/run.out")" "Failed 1/1" "the harness reports the failed test"
like "$(cat "$TMP/out/logs/suite_fail.log")" "not ok 1 - broken" "each file's TAP is in its log"
is "$(field alone 4)" 0 "a test-alone file runs when nothing else runs"
# the end of the output names what failed, even past a long log tail
suite_file longfail 'echo 1..80; echo "not ok 1 - early"; for i in $(seq 2 80); do echo "ok $i"; done'
suite_file short 'echo 1..3; echo ok 1'
run --out out-summary --jobs 2 longfail short	# (out/times.tsv: the CPU check below)
summary=$(tail -6 "$TMP/run.out")
like "$summary" "suite/longfail: 1 failed test" "the summary at the end names a file's failed test beyond its log's tail"
like "$summary" "not ok 1 - early" "and quotes the test"
like "$summary" "harness: Bad plan" "and says what the harness found wrong"

if [[ ! -w /sys/fs/cgroup/cpuacct ]]; then
	skip 4 "no writable cpuacct hierarchy: the runner counts no CPU"
	done_testing
	exit
fi
like "$(field busy 3)" '^[0-9]+\.[0-9]$' "the CPU column counts the file's group"
stamp=$$
suite_file "pass$stamp" 'echo 1..1; echo ok 1'
suite_file "lingers$stamp" 'echo 1..1; echo ok 1; (exec 1>&- 2>&-; sleep 0.5) &'
run --jobs 2 "pass$stamp" "lingers$stamp"
ok $(ls -d "$PARENT"/suite_{pass,lingers}"$stamp".* 2>/dev/null | wc -l) "no group is left when the processes leave, even just after the test"

suite_file "stays$stamp" 'echo 1..1; echo ok 1; (exec 1>&- 2>&-; exec sleep 30) &'
run --jobs 1 "stays$stamp"
kept=$(ls -d "$PARENT/suite_stays$stamp".* 2>/dev/null)
like "$(cat "$TMP/out/logs/suite_stays$stamp.log")" "kept: processes left behind: [0-9]" "a process left behind keeps the group, and the log says so"
# the sleeper killed: the group is now empty, and the next run clears it
for pid in $(cat "$kept/cgroup.procs" 2>/dev/null); do kill -KILL "$pid"; done
wait_gone() { for _ in $(seq 50); do [[ -s $kept/cgroup.procs ]] || return 0; sleep 0.1; done; return 1; }
wait_gone
run --jobs 1 pass
ok $([[ -n $kept && ! -d $kept ]]; echo $?) "an emptied group of an earlier run is cleared at the next start"
done_testing
