#!/bin/bash
# test_monitoring.sh - contribs/monitoring: the alert rules pass
# promtool check rules; the metrics of coalloc-status --prometheus (on a
# status file a cluster wrote) and of the agent (agent_status_metrics on
# a status fixture) pass promtool check metrics; and every metric the
# rules and the dashboard's panels use is one of them (or node-exporter's
# own textfile mtime).  Run by $(O)/tests/monitoring/test_monitoring.t
# (testsuite/unit/lib/script_test.c); prove runs from the repository root.
#
# SPDX-License-Identifier: GPL-2.0-or-later

source testsuite/unit/lib/tap.sh
MON=contribs/monitoring
FIX=testsuite/unit/monitoring
if ! command -v promtool > /dev/null; then
	echo "1..0 # SKIP no promtool (Debian: prometheus; make deps installs it)"
	exit 0
fi

out=$(promtool check rules "$MON/coalloc-alerts.yml" 2>&1)
ok $? "promtool check rules: the alert rules are valid ($(tail -n1 <<< "$out" | sed 's/^ *//'))"
out=$(promtool test rules "$FIX/alerts_test.yml" 2>&1)
ok $? "promtool test rules: CoallocRowsStuck fires for a stuck gang row only, CoallocJobLockHeld for a job lock held over 100 ms only" ||
	diag "$out"

"$COALLOC_BUILD/bin/coalloc-status" --prometheus --file "$FIX/coalloc_status.json" > "$TMP/ctld.prom"
ok $? "coalloc-status --prometheus on a status file"
"$COALLOC_BUILD/tests/monitoring/agent_metrics" < "$FIX/agent_status.json" > "$TMP/agent.prom"
ok $? "the agent's metrics from a status fixture"
# Where slurmctld does not rotate rows (a TimeSliceMs gang, one row), no
# active row: the alert would take it for stuck.
sed 's/"ctld_rotates": true/"ctld_rotates": false/' "$FIX/coalloc_status.json" > "$TMP/agents.json"
"$COALLOC_BUILD/bin/coalloc-status" --prometheus --file "$TMP/agents.json" > "$TMP/agents.prom"
is "$(grep -c '^coalloc_matrix_active_row' "$TMP/ctld.prom")+$(grep -c '^coalloc_matrix_active_row' "$TMP/agents.prom")" \
   "1+0" "the active row is exported where slurmctld rotates the rows, not elsewhere"
for f in ctld agent; do
	lint=$(promtool check metrics < "$TMP/$f.prom" 2>&1)
	is "$lint" "" "promtool check metrics: $f's exposition is clean"
done

# The metric names the outputs define, and those the rules and panels use.
defined=$(awk '$1 == "#" && $2 == "TYPE" { print $3 }' "$TMP/ctld.prom" "$TMP/agent.prom" | sort -u)
used=$( { perl -MJSON::PP -e '
		my $d = decode_json(join "", <STDIN>);
		print "$_->{expr}\n" for map { @{$_->{targets}} } @{$d->{panels}};' \
		< "$MON/coalloc-dashboard.json"
	  grep -v '^ *#' "$MON/coalloc-alerts.yml" | grep -v '^ *\(summary\|description\):'; } |
	grep -oE '\b(coalloc|coschedd|node_textfile)_[a-z_]+' | sort -u)
ok "$([[ -n $used ]]; echo $?)" "the rules and the panels use metrics ($(wc -l <<< "$used"))"
missing=$(comm -23 <(echo "$used") <(echo "$defined"; echo node_textfile_mtime_seconds))
is "$missing" "" "every metric they use is exported"
panels=$(perl -MJSON::PP -e 'print scalar @{decode_json(join "", <STDIN>)->{panels}}' < "$MON/coalloc-dashboard.json")
ok $((panels > 0 ? 0 : 1)) "the dashboard is valid JSON with $panels panels"
done_testing
