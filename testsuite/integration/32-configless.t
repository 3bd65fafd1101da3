#!/bin/bash
# Configless Slurm (slurm-cluster --configless): every slurmd fetches its
# configuration from slurmctld into its conf-cache, which holds no
# coalloc.conf; a co-allocated job still gets its layout in the batch
# script and every task (select_coalloc(8): from slurmctld, with the job's
# environment), and a --cosched job runs under the node agents.
source "$(dirname "$0")/lib/tap.sh"
plan 8
cluster_start --select coalloc --sites 2 --nodes-per-site 2 --configless

CDIR=$TEST_DIR/cluster
pid=$(awk '$1 == "slurmd-n1" { print $2 }' "$CDIR/run/pids")
args=$(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null)
like "$args" "--conf-server [0-9.]+:$PORT_BASE" "slurmd asks slurmctld for its configuration ($args)"
[[ $args != *" -f "* ]] && ! tr '\0' '\n' < "/proc/$pid/environ" | grep -q '^SLURM_CONF='
ok $? "  with no -f and no SLURM_CONF"
cache=$CDIR/spool/n1/conf-cache
[[ -f $cache/slurm.conf && ! -e $cache/coalloc.conf ]]
ok $? "its conf-cache has slurm.conf and no coalloc.conf ($(ls "$cache" | paste -sd' '))"
[[ ! -e /run/slurm/conf ]]
ok $? "the host's /run/slurm has no conf link (each node's /run/slurm is its own)"

id=$(submit --coalloc=2,1 -o layout.out --wrap 'echo "batch $SLURM_COALLOC_NCOMPONENTS $SLURM_COALLOC_LAYOUT"
	srun bash -c "echo task \$SLURMD_NODENAME \$SLURM_COALLOC_NCOMPONENTS \$SLURM_COALLOC_SITE_0=\$SLURM_COALLOC_NODELIST_0"')
wait_until 60 job_done "$id"
is "$(job_state "$id")" COMPLETED "a --coalloc=2,1 job runs"
like "$(sed -n 's/^batch //p' layout.out)" "^2 site1:n\[1-2\];site2:n3$" "its batch script has the layout from slurmctld"
is "$(grep -c '^task n[0-9] 2 site1=n\[1-2\]$' layout.out)" 3 "so do its 3 tasks, per component"

cs=$(submit -N 2 --cosched=sb -o cosched.out --wrap 'srun true')
wait_until 60 job_done "$cs"
is "$(job_state "$cs")" COMPLETED "a --cosched=sb job runs"
