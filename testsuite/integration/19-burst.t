#!/bin/bash
# A burst of 5,000 one-node submissions under select/coalloc with policy
# GS (the global queue grid and the four site queues): slurmctld answers
# sdiag and squeue within 5 s throughout, every job completes, and its
# memory is measured before and after.  The same burst through the pure
# policy cores (coalloc-sim, every policy) runs under valgrind without a
# leak or an error.
#
# test-alone: slurmctld must answer within 5 s while 5,000 jobs arrive,
# and valgrind's replay is heavy: other clusters on the CPUs would slow
# both.
source "$(dirname "$0")/lib/tap.sh"

JOBS=${BURST_JOBS:-5000}
LIMIT=5	# seconds an answer may take

plan 9

# --- the pure cores: every policy over the burst, under valgrind
rm -rf "$TEST_DIR"; mkdir -p "$TEST_DIR"
SWF=$TEST_DIR/burst.swf
# JOBS jobs all arriving at 0, 1 to 8 processors (1 or 2 components on
# 4-processor sites), 1 to 5 s, origins round the sites.
awk -v n="$JOBS" 'BEGIN { srand(7); for (i = 1; i <= n; i++)
	printf "%d 0 -1 %d %d -1 -1 %d -1 -1 1 1 1 -1 -1 %d -1 -1\n",
	       i, 1 + int(rand() * 5), 1 + i % 8, 1 + i % 8, i % 4 + 1 }' > "$SWF"
if command -v valgrind >/dev/null; then
	valgrind --quiet --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect \
		"$BUILD_DIR/bin/coalloc-sim" --swf "$SWF" --sites 4,4,4,4 \
		--policy all --replications 1 --json > "$TEST_DIR/sim.json" 2> "$TEST_DIR/sim.err"
	rc=$?
	is "$rc" 0 "coalloc-sim: the $JOBS-job burst under every policy, valgrind finds no leak or error"
	((rc == 0)) || diag "$(head -n 40 "$TEST_DIR/sim.err")"
else
	ok 0 "# SKIP valgrind is not installed"
fi

# --- the cluster
cluster_start --select coalloc --policy GS
LOG=$TEST_DIR/cluster/log
ctld_pid() { awk '$1 == "slurmctld" {print $2}' "$TEST_DIR/cluster/run/pids"; }
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$(ctld_pid)/status"; }

# probe: once a second until the file STOP exists, how long sdiag and
# squeue take: one line "SDIAG-SECONDS SQUEUE-SECONDS JOBS-LISTED ok|fail".
probe() {
	local a b c out st
	while [[ ! -e STOP ]]; do
		st=ok
		a=$EPOCHREALTIME
		timeout 60 sdiag > /dev/null 2>&1 || st=fail
		b=$EPOCHREALTIME
		out=$(timeout 60 squeue -h -o %i 2>/dev/null) || st=fail
		c=$EPOCHREALTIME
		awk -v a="$a" -v b="$b" -v c="$c" -v n="$(grep -c . <<< "$out")" -v st="$st" \
			'BEGIN { printf "%.2f %.2f %d %s\n", b - a, c - b, n, st }'
		sleep 1
	done
}

sleep 2
rss0=$(rss_kb)
probe > probe.log &
prober=$!

t0=$SECONDS
# each submission names a queue: grid (global) or one of the sites
seq "$JOBS" | xargs -P 8 -n 100 bash -c '
	for i; do
		case $((i % 5)) in 0) p=grid ;; *) p=site$((i % 5)) ;; esac
		sbatch --parsable -p "$p" -N 1 -o /dev/null --wrap true 2>>submit.err || echo "failed $i" >> submit.err
	done' _ > ids 2>/dev/null
submit_s=$((SECONDS - t0))
is "$(grep -c '^[0-9]' ids)" "$JOBS" "$JOBS jobs submitted in ${submit_s} s (8 in parallel)"
[[ ! -s submit.err ]] || diag "$(head -n 5 submit.err)"

all_completed() { (($(grep -c 'JobState=COMPLETED' "$LOG/jobcomp.log") >= JOBS)); }
wait_until 900 all_completed
drain_s=$((SECONDS - t0))
touch STOP
wait "$prober"
rss1=$(rss_kb)

is "$(grep -c 'JobState=COMPLETED' "$LOG/jobcomp.log")" "$JOBS" \
   "every job completed (jobcomp), all done $drain_s s after the burst began"
is "$(awk '{sub(/.*JobId=/, ""); sub(/ .*/, ""); print}' "$LOG/jobcomp.log" | sort -u | comm -3 - <(sort -u ids) | wc -l)" 0 \
   "  and they are the jobs submitted, each once"
ok $(queue_empty && echo 0 || echo 1) "the queue is empty"

samples=$(wc -l < probe.log)
ok $((samples >= 10 ? 0 : 1)) "slurmctld was probed $samples times during the burst"
is "$(grep -c fail probe.log)" 0 "  sdiag and squeue always answered"
worst_sdiag=$(awk '{ if ($1 > m) m = $1 } END { print m + 0 }' probe.log)
worst_squeue=$(awk '{ if ($2 > m) m = $2 } END { print m + 0 }' probe.log)
most_queued=$(awk '{ if ($3 > m) m = $3 } END { print m + 0 }' probe.log)
awk -v a="$worst_sdiag" -v b="$worst_squeue" -v l="$LIMIT" 'BEGIN { exit !(a < l && b < l) }'
ok $? "  within ${LIMIT} s: slowest sdiag ${worst_sdiag} s, squeue ${worst_squeue} s (at most $most_queued jobs queued)"

# slurmctld keeps every finished job for MinJobAge (600 s), so its
# memory grows with the burst (about 26 kB a job when this test was
# written); the bound, four times that, catches a leak of a job's size.
diag "slurmctld RSS: ${rss0} kB before the burst, ${rss1} kB after it"
ok $(( rss1 - rss0 < 100 * JOBS ? 0 : 1 )) "slurmctld grew by $(( (rss1 - rss0) / 1024 )) MB over the burst, $(( (rss1 - rss0) / JOBS )) kB a job (bound 100 kB)"

done_testing
