#!/bin/bash
# Placement by site: --coalloc components on distinct sites by Worst Fit,
# largest first; impossible requests refused at submit; jobs without
# --coalloc kept within one site when one can hold them; a site's local
# partition confines its jobs to the site.  4 sites x 4 nodes:
# site1 = n[1-4], site2 = n[5-8], site3 = n[9-12], site4 = n[13-16].
source "$(dirname "$0")/lib/tap.sh"
cluster_start --select coalloc

source "$REPO/testsuite/integration/lib/sites.sh"
# Nodes of a cancelled job stay COMPLETING a moment; Worst Fit needs them back.
all_idle() { test "$(nodes_in idle)" = 16; }

id=$(submit --coalloc=4,2,1 -o /dev/null --wrap 'sleep 30')
wait_until 30 running "$id"
is "$(job_field "$id" NumNodes)" 7 "--coalloc=4,2,1 gets 7 nodes"
is "$(sites_of_job "$id")" "1:4 2:2 3:1" "one component per site, largest first on the emptiest"
scancel "$id"; wait_until 30 all_idle

# The layout: in scontrol's SystemComment, and in every task's environment.
id=$(submit --coalloc=3,2 -o layout.out --wrap 'echo "batch $SLURM_COALLOC_LAYOUT"
	echo "components $SLURM_COALLOC_NCOMPONENTS $SLURM_COALLOC_SITE_0=$SLURM_COALLOC_NODELIST_0 $SLURM_COALLOC_SITE_1=$SLURM_COALLOC_NODELIST_1"
	srun bash -c "echo task \$SLURMD_NODENAME \$SLURM_COALLOC_LAYOUT \$SLURM_COALLOC_NCOMPONENTS"')
wait_until 60 job_done "$id"
is "$(job_state "$id")" COMPLETED "a --coalloc=3,2 job runs"
comment=$(scontrol show job "$id" | sed -n 's/.*SystemComment=\([^ ]*\).*/\1/p')
like "$comment" "^coalloc:site1:n\[1-3\];site2:n\[5-6\]$" "scontrol shows the layout: $comment"
is "$(sed -n 's/^batch //p' layout.out)" "${comment#coalloc:}" "the batch script sees SLURM_COALLOC_LAYOUT"
is "$(awk -v l="${comment#coalloc:}" '$1 == "task" && $3 == l && $4 == 2' layout.out | wc -l)" 5 "so do all 5 tasks, with SLURM_COALLOC_NCOMPONENTS"
is "$(sed -n 's/^components //p' layout.out)" "2 site1=n[1-3] site2=n[5-6]" \
	"per component, as heterogeneous jobs: SLURM_COALLOC_SITE_<i>, SLURM_COALLOC_NODELIST_<i>"
wait_until 30 all_idle

# Worst Fit: fill site1 with 3 jobs' worth and site2 with 1.
a=$(submit -w 'n[1-3]' -o /dev/null --wrap 'sleep 300')
b=$(submit -w n5 -o /dev/null --wrap 'sleep 300')
wait_until 30 running "$a"; wait_until 30 running "$b"
id=$(submit --coalloc=2,3 -o /dev/null --wrap 'sleep 30')
wait_until 30 running "$id"
is "$(sites_of_job "$id")" "3:3 4:2" "idle 1/3/4/4: the 3 goes to site3, the 2 to site4"
id2=$(submit --coalloc=3,1 -o /dev/null --wrap 'sleep 30')
wait_until 30 running "$id2"
is "$(sites_of_job "$id2")" "2:3 4:1" "then idle 1/3/1/2: the 3 to site2, the 1 to site4"
scancel "$id" "$id2"

# A job without --coalloc stays within one site when one can hold it.
wait_until 30 job_done "$id2"
one=$(submit -N 3 -o /dev/null --wrap 'sleep 30')
wait_until 30 running "$one"
like "$(sites_of_job "$one")" "^[0-9]:3$" "-N 3 runs inside one site"
scancel "$one" "$a" "$b"
wait_until 30 all_idle
wide=$(submit -N 6 -o /dev/null --wrap 'true')
wait_until 60 job_done "$wide"
is "$(job_state "$wide")" COMPLETED "-N 6 (no site holds it) spans sites"

# Impossible co-allocations are refused at submit; nothing is queued.
wait_until 30 queue_empty
# sbatch says why, from the sites slurmctld reports (CoallocSites)
refuse "a component larger than every site" \
	"cosched: --coalloc: the components do not fit on distinct sites even with every node free \\(sites: site1 \\(4\\), site2 \\(4\\), site3 \\(4\\), site4 \\(4\\)\\)" \
	--coalloc=5,1
refuse "more components than sites" \
	"cosched: --coalloc: 5 components, but the cluster has 4 site\\(s\\)" \
	--coalloc=1,1,1,1,1
refuse "-N contradicting --coalloc" \
	"Requested node configuration is not available" -N 3 --coalloc=4,4

# A site's local partition: add queues, make them local, reconfigure.
ETC=$TEST_DIR/cluster/etc
for s in 1 2 3 4; do echo "PartitionName=q$s Nodes=ALL State=UP"; done >> "$ETC/slurm.conf"
{
	echo "Policy=LS-DO"
	grep '^Site=' "$ETC/coalloc.conf"
	for s in 1 2 3 4; do echo "LocalPartition=q$s Site=site$s"; done
} > "$ETC/coalloc.conf.new"
mv "$ETC/coalloc.conf.new" "$ETC/coalloc.conf"
scontrol reconfigure
wait_until 20 grep -q 'Policy=LS-DO' "$TEST_DIR/cluster/log/slurmctld.log"
ok $? "LS-DO with four local partitions loaded by reconfigure"
loc=$(submit -p q3 -N 2 -o /dev/null --wrap 'sleep 5')
wait_until 30 job_done "$loc"
is "$(sites_of_job "$loc")" "3:2" "a job of q3 runs on site3"
out=$(sbatch -p q3 -N 5 --wrap true 2>&1)
ok $((! $?)) "a local job larger than its site is refused at submit"
multi=$(submit -p q3 --coalloc=2,2 -o /dev/null --wrap 'true')
wait_until 30 job_done "$multi"
is "$(job_state "$multi")" COMPLETED "a co-allocated job from a local queue runs system-wide"

done_testing
