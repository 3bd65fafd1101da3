# sites.sh - helpers of the tests that place jobs on the default cluster's
# 4 sites x 4 nodes (site1 = n[1-4], ..., site4 = n[13-16]).  Sourced
# after tap.sh.
#
# SPDX-License-Identifier: GPL-2.0-or-later

site_of() { echo $(( (${1#n} - 1) / 4 + 1 )); }

# "site:count ..." of a job's nodes, sorted by site
sites_of_job() {
	local n
	for n in $(scontrol show hostnames "$(job_field "$1" NodeList)"); do
		site_of "$n"
	done | sort | uniq -c | awk '{printf "%s%s:%s", sep, $2, $1; sep=" "}'
}

# Slurm keeps a FAILED record of a job refused at submit: count the queue.
queued() { squeue -h -o %i | wc -l; }

# refuse DESCRIPTION REASON-REGEX SBATCH-ARGS...: sbatch fails with the
# reason and queues nothing.
refuse() {
	local what=$1 why=$2 before out; shift 2
	before=$(queued)
	out=$(sbatch "$@" --wrap true 2>&1)
	ok $((! $?)) "$what is refused at submit"
	like "$out" "$why" "  with the reason"
	is "$(queued)" "$before" "  and nothing is queued"
}
