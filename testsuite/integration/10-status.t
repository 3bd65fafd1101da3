#!/bin/bash
# coalloc-status shows what select/coalloc sees: sites with busy/idle
# nodes, queues with length and state, the job on each node; --json.
# Under PrivateData=jobs scontrol show config's CoallocStatus, which any
# user may read, holds no job id; the status file, SlurmUser's, does.
source "$(dirname "$0")/lib/tap.sh"
cluster_start --select coalloc --policy LS-DO --sites 2 --nodes-per-site 3
STATUS=$BUILD_DIR/bin/coalloc-status

a=$(submit -p site1 -N 2 -o /dev/null --wrap 'sleep 300')
b=$(submit -p site1 -N 3 -o /dev/null --wrap 'sleep 300')	# cannot fit
c=$(submit -p site2 --coalloc=1,1 -o /dev/null --wrap 'sleep 300')
wait_until 30 running "$a"; wait_until 30 running "$c"
# the plugin rewrites its status within 2 s of a change
status_shows() { [[ $("$STATUS" 2>/dev/null) =~ $1 ]]; }
wait_until 10 status_shows "jobs in the queues: 1 pending, 2 running"

out=$("$STATUS" 2>&1)
ok $? "coalloc-status succeeds"
like "$out" "Policy=LS-DO AgingTime=3600 Matrix=off MPL=1" "policy line"
like "$out" "site1 +n\[1-3\] +3 +3 +0 +site1" "site1: 3 nodes, 3 busy"
like "$out" "site2 +n\[4-6\] +3 +1 +2 +site2" "site2: 3 nodes, 1 busy"
like "$out" "site1 +1 +disabled" "site1's queue holds 1 job and is disabled"
like "$out" "site2 +0 +enabled" "site2's queue is empty and enabled"
like "$out" "jobs in the queues: 1 pending, 2 running" "totals"
like "$out" "n1 +site1 +$a" "the matrix row shows job $a on n1"
VERSION=$(cat "$REPO/VERSION")
SLURM_V=$(scontrol show config | sed -n 's/^SLURM_VERSION *= *//p')
like "$out" "by select/coalloc ${VERSION//./\\.} \\(Slurm ${SLURM_V//./\\.}\\)" "the suite's and Slurm's versions"
grep -q "select/coalloc: loaded (plugin_id [0-9]*, whole-node allocation), coalloc ${VERSION//./\\.} built for Slurm ${SLURM_V//./\\.}\$" \
	"$TEST_DIR/cluster/log/slurmctld.log"
ok $? "slurmctld logs the plugin's version at load"
grep -q "cosched: coalloc ${VERSION//./\\.} built for Slurm ${SLURM_V//./\\.}\$" "$TEST_DIR/cluster/log/slurmd-n1.log"
ok $? "slurmd logs cosched.so's"

json=$("$STATUS" --json)
ok $? "--json succeeds"
got=$(perl -MJSON::PP -e '
	my $s = decode_json(join "", <STDIN>);
	my %q = map { $_->{name} => $_ } @{$s->{queues}};
	my @busy = grep { $_->{job} } @{$s->{nodes}};
	printf "%s %d %s %d %d %s %s\n", $s->{policy}, scalar @{$s->{sites}},
	       $q{site1}{enabled} ? "on" : "off", $q{site1}{length},
	       scalar @busy, $s->{suite_version}, $s->{slurm_version};' <<< "$json")
is "$got" "LS-DO 2 off 1 4 $VERSION $SLURM_V" "--json: policy, sites, queue state and length, busy nodes, versions"

prom=$("$STATUS" --prometheus)
ok $? "--prometheus succeeds"
got=$(grep -E '^coalloc_(queue_length|queue_enabled)\{queue="site1"\}|^coalloc_site_nodes\{site="site2",state="(busy|idle)"\}|^coalloc_matrix_rows_in_use ' <<< "$prom" | paste -sd' ')
is "$got" 'coalloc_site_nodes{site="site2",state="busy"} 1 coalloc_site_nodes{site="site2",state="idle"} 2 coalloc_queue_length{queue="site1"} 1 coalloc_queue_enabled{queue="site1"} 0 coalloc_matrix_rows_in_use 1' \
	"--prometheus: busy and idle nodes, site1's queue length and state, rows in use"
bad=$(grep -vcE '^# (TYPE [a-z_]+ (gauge|counter)|HELP [a-z_]+ .+)$|^[a-z_]+(\{([a-z_]+="[^"]*",?)+\})? -?[0-9.]+(e[-+][0-9]+)?$' <<< "$prom")
is "$bad" 0 "... every line a family (HELP, TYPE) or a sample: Prometheus' text format, no OpenMetrics # EOF"
updated=$(awk '$1 == "coalloc_status_updated_timestamp_seconds" { print $2 }' <<< "$prom")
generated=$(perl -MJSON::PP -e 'print decode_json(join "", <STDIN>)->{generated}' <<< "$json")
is "$updated" "$generated" "... coalloc_status_updated_timestamp_seconds is when the status was written (a time, not an age)"

# From slurmctld, not the file: coalloc-status works on any host.
STATE=$TEST_DIR/cluster/state
mv "$STATE/coalloc_status.json" "$STATE/away.json"
out=$("$STATUS" 2>&1)
ok $? "without the status file: asked of slurmctld (slurm_load_ctl_conf)"
like "$out" "site2 +n\[4-6\] +3 +1 +2 +site2" "  the same sites"
like "$(scontrol show config)" "CoallocStatus += \{" "  scontrol show config shows it (CoallocStatus)"

# CoallocStatus as scontrol show config prints it (its section's
# heading on the same line), then decoded: "private" when it says so,
# each key "job" found anywhere and its value, n1's busy flag in row 0.
coalloc_status_text() { scontrol show config | sed -n 's/.*CoallocStatus *= *//p'; }
coalloc_status_pair() {
	coalloc_status_text | perl -MJSON::PP -e '
		my $s = decode_json(join "", <STDIN>); my @jobs;
		sub walk { my $v = shift;
			if (ref $v eq "HASH") { for (sort keys %$v) {
				push @jobs, "job=$v->{$_}" if $_ eq "job"; walk($v->{$_}) } }
			elsif (ref $v eq "ARRAY") { walk($_) for @$v } }
		walk($s);
		my ($n1) = grep { $_->{name} eq "n1" } @{$s->{nodes}};
		print join(" ", ($s->{private_jobs} ? "private" : ()), @jobs,
			   "n1-busy=" . ($n1->{cells}[0]{busy} ? 1 : 0)), "\n"'
}
like "$(coalloc_status_pair)" "^job=$a job=$a " "without PrivateData CoallocStatus names the job on n1 ($a)"
# a large cluster's status comes without its nodes: busy counts stay
perl -MJSON::PP -e 'my $j = decode_json(join "", <STDIN>); delete $j->{nodes};
	$j->{nodes_omitted} = JSON::PP::true; print encode_json($j)' \
	< "$STATE/away.json" > "$TEST_DIR/no-nodes.json"
mv "$STATE/away.json" "$STATE/coalloc_status.json" 2>/dev/null
out=$("$STATUS" --file "$TEST_DIR/no-nodes.json" 2>&1)
like "$out" "site2 +n\[4-6\] +3 +1 +2 +site2" "without the node table: the sites' busy counts"
like "$out" "too many to send" "  and a note instead of the matrix"

# The plugin's timers, without DebugFlags (timers.c): scontrol show
# config has them as of now, coalloc-status --json and --prometheus too.
timers_text() { scontrol show config | sed -n 's/.*CoallocTimers *= *//p'; }
sync_calls() {
	perl -MJSON::PP -e 'my $t = decode_json(join "", <STDIN>);
		$t = $t->{timers} if $t->{timers};
		my $s = $t->{queue_sync_job_read_lock};
		print $s->{calls} + 0, " ", (exists $s->{over_ms}{10} ? "over" : "-"),
		      " ", ($s->{cpu_seconds} > 0 && $s->{cpu_seconds} <= $s->{seconds} ? "cpu" : "-"),
		      " ", (exists $s->{cpu_over_ms}{10} ? "over" : "-"), "\n"'
}
read -r n1 over cpu cpu_over <<< "$(timers_text | sync_calls)"
ok $(( n1 > 0 ? 0 : 1 )) "CoallocTimers: the queue sync ran $n1 times, timed while it held the job read lock"
is "$over" over "  with its count of calls over 10 ms"
is "$cpu $cpu_over" "cpu over" "  and its thread's CPU time, above 0 and at most the time, with its count over 10 ms"
sleep 3	# a sync every 2 s
read -r n2 _ <<< "$("$STATUS" --json | sync_calls)"
ok $(( n2 > n1 ? 0 : 1 )) "  coalloc-status --json has them as of now ($n1, then $n2), not as of the status file"
like "$("$STATUS" --prometheus)" 'coalloc_plugin_seconds_total\{step="queue_sync_job_read_lock"\} [0-9.e-]+' \
	"  --prometheus: the time in each step"
like "$("$STATUS" --prometheus)" 'coalloc_plugin_cpu_seconds_total\{step="queue_sync_job_read_lock"\} [0-9.e-]+' \
	"  the CPU time in each step"
like "$("$STATUS" --prometheus)" 'coalloc_plugin_slow_calls_total\{step="will_run",over_ms="10"\} [0-9]+' \
	"  and the calls over 10 ms"

# PrivateData=jobs: slurmctld cannot tell the plugin who asks for
# CoallocStatus, so it carries no job id for anyone.
echo "PrivateData=jobs" >> "$TEST_DIR/cluster/etc/slurm.conf"
scontrol reconfigure
ok $? "scontrol reconfigure with PrivateData=jobs"
pair_private() { [[ $(coalloc_status_pair 2>/dev/null) == private* ]]; }
wait_until 30 pair_private
got=$(coalloc_status_pair)
is "$got" "private n1-busy=1" "PrivateData=jobs: CoallocStatus says private, holds no job key, n1 still busy"
text=$(coalloc_status_text)
ok $(( ${#text} > 100 ? 0 : 1 )) "  scontrol show config shows CoallocStatus (${#text} bytes) ..."
unlike "$text" '"job"' "  ... has no \"job\""
out=$("$STATUS" 2>&1)
like "$out" "site1 +n\[1-3\] +3 +3 +0 +site1" "  coalloc-status: site1 still 3 busy"
like "$out" "n1 +site1 +busy" "  the matrix says busy, not the job id"
unlike "$out" "n1 +site1 +$a" "  ... and not $a"
like "$out" "job ids hidden: PrivateData=jobs" "  and says why, and where the ids are"
is "$(stat -c %a "$STATE/coalloc_status.json")" 600 "  the status file is SlurmUser's only (mode 600)"
like "$("$STATUS" --file "$STATE/coalloc_status.json" 2>&1)" "n1 +site1 +$a" \
	"  coalloc-status --file on slurmctld's host shows job $a"

scancel "$a" "$b" "$c"
wait_until 30 queue_empty
wait_until 10 status_shows "jobs in the queues: 0 pending, 0 running"
like "$("$STATUS")" "jobs in the queues: 0 pending, 0 running" "after scancel the queues are empty"

out=$("$STATUS" --file /nonexistent 2>&1)
ok $((! $?)) "a missing status file is an error"
like "$out" "/nonexistent: cannot read it" "  naming the file"

done_testing
