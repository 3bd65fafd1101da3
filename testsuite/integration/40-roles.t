#!/bin/bash
# Every kind of host gets what Slurm loads there (mk/roles.mk): the suite
# installed by role (slurm-cluster --roles: make install ROLE=controller,
# compute and login), each kind of host seeing only its role's plugins.
# From the login host, sinfo, squeue, sbatch, srun, scontrol and
# coalloc-status work, a --coalloc job and a --cosched step run, and the
# SPANK site check refuses what no site can take, with the sites the
# controller reports (from 25.05 through node_features/coalloc).  Where
# every command loads the select plugin (before 25.05), a login host
# without select_coalloc.so fails naming it: what the packages did to
# every login and compute node before the roles.
source "$(dirname "$0")/lib/tap.sh"
plan 15

SERIES=${COALLOC_SLURM:-$(awk '/^[0-9]/ && $3 == "installed" { print $1; exit }' "$REPO/mk/slurm-versions")}
SELECT_BY=$(awk -v s="$SERIES" '$1 == s { print $4 }' "$REPO/mk/slurm-versions")
cluster_start --select coalloc --sites 2 --nodes-per-site 2 --roles
ROLES_DIR=$TEST_DIR/cluster/roles
login() { "$SLURM_CLUSTER" login --dir "$TEST_DIR/cluster" -- "$@"; }
has() { [[ -f $ROLES_DIR/$1/plugins/$2 ]]; }

# what each role got, for this release
if [[ $SELECT_BY == all ]]; then
	has controller select_coalloc.so && has compute select_coalloc.so &&
		has login select_coalloc.so && ! has controller node_features_coalloc.so
	ok $? "Slurm $SERIES (every command loads the select plugin): select_coalloc.so on every host"
else
	has controller select_coalloc.so && ! has compute select_coalloc.so &&
		! has login select_coalloc.so && has controller node_features_coalloc.so &&
		has compute node_features_coalloc.so && ! has login node_features_coalloc.so
	ok $? "Slurm $SERIES: select_coalloc.so on the controller only; node_features_coalloc.so where slurmctld and slurmd run"
fi
has compute cosched.so && has login cosched.so && ! has controller cosched.so &&
	[[ -x $ROLES_DIR/compute/usr/local/sbin/coschedd && ! -e $ROLES_DIR/login/usr/local/sbin/coschedd ]]
ok $? "cosched.so on compute and login hosts, the agent on compute hosts only"

# the login host's commands
is "$(login sinfo -h -N -o %N 2>&1 | sort -u | wc -l)" 4 "login: sinfo sees the 4 nodes"
id=$(login sbatch --parsable --coalloc=1,1 -o /dev/null --wrap true 2>&1)
like "$id" '^[0-9]+$' "login: sbatch --coalloc=1,1 ($id)"
wait_until 60 job_done "$id"
is "$(job_state "$id")" COMPLETED "  the co-allocated job completes"
like "$(login squeue -h -o '%i %T' 2>&1; echo rc=$?)" 'rc=0$' "login: squeue answers"
like "$(login scontrol show job "$id" 2>&1)" "JobId=$id " "login: scontrol show job"
out=$(login srun -N 2 --cosched=sb bash -c 'echo ok' 2>&1)
# (the output on one line: a line "ok" of its own would be TAP's)
is "$(grep -c '^ok$' <<< "$out")" 2 "login: srun --cosched=sb on two compute hosts: $(head -c 200 <<< "$out" | tr '\n' ' ')"
out=$(login "$ROLES_DIR/login/usr/local/bin/coalloc-status" 2>&1)
like "$out" "site1 .*site2" "login: coalloc-status shows the sites (from slurmctld)"
out=$(login sbatch --coalloc=3,1 -o /dev/null --wrap true 2>&1)
like "$out" "cosched: --coalloc: the components do not fit on distinct sites even with every node free \\(sites: site1 \\(2\\), site2 \\(2\\)\\)" \
	"login: the SPANK site check refuses --coalloc=3,1 with the controller's sites"
like "$(scontrol show config 2>&1)" "CoallocSites *= *site1=2,site2=2" \
	"scontrol show config shows CoallocSites"

# node features still work beside node_features/coalloc (it manages none)
scontrol update nodename=n3 features=fast activefeatures=fast > /dev/null 2>&1
id=$(login sbatch --parsable -C fast -o /dev/null --wrap true 2>&1)
wait_until 60 job_done "$id"
is "$(job_state "$id") $(job_field "$id" NodeList)" "COMPLETED n3" \
	"a job asking -C fast runs on the node an administrator gave that feature"
like "$(scontrol show node n3 2>&1)" "ActiveFeatures=fast" "  n3's active features: fast"

# a login host that lacks the select plugin
if [[ $SELECT_BY == all ]]; then
	mv "$ROLES_DIR/login/plugins/select_coalloc.so" "$TEST_DIR/kept.so"
	out=$(login squeue 2>&1)
	rc=$?
	mv "$TEST_DIR/kept.so" "$ROLES_DIR/login/plugins/select_coalloc.so"
	ok $((rc == 0)) "Slurm $SERIES: a login host without select_coalloc.so cannot run squeue"
	like "$out" "select/coalloc" "  naming the plugin: $(tail -n1 <<< "$out")"
else
	# the pairs in node_features/coalloc's section, none in the select
	# plugin's (slurmctld asks it for none)
	config=$(login scontrol show config 2>&1)
	section() { awk -v h="$1" 'index($0, h) { on = 1; next } on && /^(-----|$|[A-Z][a-z ]+Configuration)/ { on = 0 } on' <<< "$config"; }
	like "$(section '----- node_features/coalloc -----')" "CoallocSites *= *site1=2,site2=2" \
		"Slurm $SERIES: the login host reads CoallocSites in node_features/coalloc's section"
	unlike "$(section 'Select Plugin Configuration')" "Coalloc" "  and none in the select plugin's"
fi
