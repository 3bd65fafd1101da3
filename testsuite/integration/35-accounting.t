#!/bin/bash
# Accounting with a real database (slurm-cluster --accounting): slurmdbd on
# a private MariaDB server; sacct shows a finished co-allocated job's
# layout in AdminComment (doc/guide.md, installing; slurmctld sends slurmdbd
# no SystemComment), beside what an administrator wrote there.  A missing
# server, or one that does not start, fails the start with the reason and
# leaves nothing running.  On 22.05 and 24.11 (both built with MySQL).
source "$(dirname "$0")/lib/tap.sh"
plan 11

start_with() {	# MARIADBD: a failing start's output
	cluster_clear
	mkdir -p "$TEST_DIR"
	SLURM_CLUSTER_MARIADBD=$1 "$SLURM_CLUSTER" start --dir "$TEST_DIR/cluster" \
		--port-base "$PORT_BASE" --sites 1 --nodes-per-site 1 --accounting 2>&1
}
nothing_runs() { "$SLURM_CLUSTER" status --dir "$TEST_DIR/cluster" > /dev/null 2>&1; (($? == 3)); }

out=$(start_with /nonexistent/mariadbd)
ok $((! $?)) "no MariaDB server: the start fails"
like "$out" "needs a MariaDB server: no /nonexistent/mariadbd" "  with the reason: $out"
out=$(start_with /bin/false)
ok $((! $?)) "a server that does not start: the start fails"
like "$out" "the MariaDB server did not start" "  with the reason: ${out:0:160}"
nothing_runs
ok $? "  and nothing it started still runs"

cluster_start --select coalloc --sites 2 --nodes-per-site 2 --accounting
# Servers sharing /tmp collide on temporary table names: this file's two
# releases at once failed mariadb-install-db ("Unknown table
# 'mysql.tmp_user_sys'").  The cluster's server keeps its own.
is "$(mariadb --no-defaults --socket="$TEST_DIR/cluster/run/mariadb.sock" -u root -N -B \
	-e 'select @@tmpdir' 2>&1)" "$TEST_DIR/cluster/db-tmp" \
	"the MariaDB server's temporary files stay in the cluster's directory"
id=$(submit --coalloc=2,1 -o /dev/null --wrap 'true')
wait_until 60 job_done "$id"
is "$(job_state "$id")" COMPLETED "a --coalloc=2,1 job runs with accounting on"
acct() { sacct -j "$1" -X -n -P -o JobID,State,NodeList,AdminComment 2>/dev/null; }
# slurmdbd takes the job's start and end records one after the other:
# the first answers may hold only part of them (seen: NodeList n1)
acct_is() { [[ $(acct "$1") == "$2" ]]; }
acct_like() { [[ $(acct "$1") =~ $2 ]]; }
want="$id|COMPLETED|n[1-3]|coalloc:site1:n[1-2];site2:n3"
wait_until 60 acct_is "$id" "$want"
is "$(acct "$id")" "$want" "sacct shows its layout in AdminComment"
like "$(sacct -j "$id" -X -n -P -o AdminComment 2>/dev/null)" '^coalloc:site1:n\[1-2\];site2:n3$' \
	"  the guide's format line: sacct -X -o JobID,State,NodeList,AdminComment"
like "$(scontrol show job "$id")" 'SystemComment=coalloc:site1:n\[1-2\];site2:n3' \
	"  scontrol's SystemComment has it too"

# An administrator's comment, set while the job waits, stays beside it.
id2=$(submit --coalloc=1,1 --hold -o /dev/null --wrap 'true')
scontrol update jobid="$id2" admincomment="audit 7" > /dev/null
scontrol release "$id2" > /dev/null
wait_until 60 job_done "$id2"
want="^$id2[|]COMPLETED[|]n[^|]*[|]audit 7 coalloc:site1:n[0-9];site2:n[0-9]\$"
wait_until 60 acct_like "$id2" "$want"
like "$(acct "$id2")" "$want" "an administrator's AdminComment is kept, the layout added"
done_testing
