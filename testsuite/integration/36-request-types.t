#!/bin/bash
# The request types of Bucur and Epema end to end: ordered requests
# (--coalloc=SIZE@SITE,...) run on the sites they name, flexible ones
# (-N N --coalloc=flex) over as few sites as hold them, the emptiest
# first; bad requests are refused at submit with the reason; under a
# queue policy an ordered single component is its site's local job and a
# flexible job a global one.  4 sites x 4 nodes: site1 = n[1-4],
# site2 = n[5-8], site3 = n[9-12], site4 = n[13-16].
source "$(dirname "$0")/lib/tap.sh"
cluster_start --select coalloc

ETC=$TEST_DIR/cluster/etc
LOG=$TEST_DIR/cluster/log/slurmctld.log
source "$REPO/testsuite/integration/lib/sites.sh"
all_idle() { test "$(nodes_in idle)" = 16; }
reset() {
	scancel --user=root
	wait_until 60 queue_empty
	wait_until 60 all_idle
}

# --- ordered: the named sites, whatever Worst Fit would pick
id=$(submit --coalloc=2@site3,1@site1 -o /dev/null --wrap 'sleep 30')
wait_until 30 running "$id"
is "$(sites_of_job "$id")" "1:1 3:2" "--coalloc=2@site3,1@site1 runs on site3 and site1"
reset

# site1 has 1 idle node, site2 3: the free component takes the emptiest
# site not named, the named one stays on site2
a=$(submit -w 'n[1-3]' -o /dev/null --wrap 'sleep 300')
b=$(submit -w n5 -o /dev/null --wrap 'sleep 300')
wait_until 30 running "$a"; wait_until 30 running "$b"
id=$(submit --coalloc=3@site2,4 -o /dev/null --wrap 'sleep 30')
wait_until 30 running "$id"
is "$(sites_of_job "$id")" "2:3 3:4" "3@site2 on site2, the free 4 on site3 (the first emptiest)"
# a named site without room: the job waits for it, though others are idle
c=$(submit --coalloc=2@site1 -o /dev/null --wrap 'sleep 30')
wait_until 15 evaluated "$c"
is "$(job_state "$c")" PENDING "2@site1 waits while site1 has 1 idle node and site4 4"
scancel "$a"
wait_until 60 running "$c"
is "$(sites_of_job "$c")" "1:2" "it starts on site1 once that site has room"
reset

# --- flexible: -N split over as few sites as hold it, emptiest first
id=$(submit -N 6 --coalloc=flex -o flex.out --wrap 'echo "components $SLURM_COALLOC_NCOMPONENTS"; sleep 20')
wait_until 30 running "$id"
like "$(sites_of_job "$id")" "^1:4 2:2$" "-N 6 --coalloc=flex: a whole site and 2 nodes of the next"
wait_until 60 job_done "$id"
is "$(sed -n 's/^components //p' flex.out)" 2 "its batch script sees 2 components"
a=$(submit -w 'n[1-3]' -o /dev/null --wrap 'sleep 300')
wait_until 30 running "$a"
id=$(submit -N 3 --coalloc=flex -o /dev/null --wrap 'sleep 20')
wait_until 30 running "$id"
is "$(sites_of_job "$id")" "2:3" "-N 3 fits one site: one component, on the emptiest (site2)"
id2=$(submit -N 6 --coalloc=flex -o /dev/null --wrap 'sleep 20')
wait_until 30 running "$id2"
is "$(sites_of_job "$id2")" "3:4 4:2" "-N 6 next: site3 whole, 2 of site4 (site1 has 1, site2 1)"
reset

# --- refused at submit, by sbatch with the reason, nothing queued
refuse "an unknown site" \
	"component 1 names site 'site9', which this cluster does not have \(its sites: site1 \(4\)" \
	--coalloc=2@site9
refuse "a site named twice" \
	"site 'site2' is named by components 1 and 2" --coalloc=1@site2,2@site2
refuse "a component larger than its site" \
	"component 2 asks for 5 nodes of site 'site4', which has 4" --coalloc=1,5@site4
refuse "a flexible job larger than the cluster" \
	"Requested node|More processors|[Nn]ode count" -N 17 --coalloc=flex

# --- under a queue policy: LP-GF with local and global partitions
{
	echo "Policy=LP-GF"
	grep '^Site=' "$ETC/coalloc.conf"
	echo "GlobalPartition=grid"
	for s in 1 2 3 4; do echo "LocalPartition=site$s Site=site$s"; done
} > "$ETC/coalloc.conf.new"
mv "$ETC/coalloc.conf.new" "$ETC/coalloc.conf"
n=$(grep -c 'Policy=LP-GF' "$LOG")
scontrol reconfigure
wait_until 20 eval '(( $(grep -c "Policy=LP-GF" "$LOG") > n ))'
ok $? "LP-GF with a global and four local partitions loaded"
id=$(submit -p grid --coalloc=2@site2 -o /dev/null --wrap 'sleep 20')
wait_until 30 running "$id"
is "$(sites_of_job "$id")" "2:2" "grid: 2@site2 is site2's local job and runs there"
id2=$(submit -p grid -N 5 --coalloc=flex -o /dev/null --wrap 'sleep 20')
wait_until 30 running "$id2"
is "$(sites_of_job "$id2")" "1:4 3:1" "grid: a flexible job runs from the global queue over two sites"
before=$(queued)
out=$(sbatch -p site3 --coalloc=2@site1 --wrap true 2>&1)
ok $((! $?)) "site3's partition: a job naming site1 is refused at submit"
grep -q "names another site than the one of its partition site3" "$LOG"
ok $? "  slurmctld logs why"
is "$(queued)" "$before" "  and nothing is queued"
reset

done_testing
