# overlap.sh - checks that no node ever ran two jobs at once.
#
# SPDX-License-Identifier: GPL-2.0-or-later

# Task-side records: lines "NODE JOBID start|end EPOCH.NS", written by every
# task of every job.  Prints one line per overlap; nothing when none.
task_overlaps() {
	awk '
	$3 == "start" { s[$1 " " $2] = $4 }
	$3 == "end"   { e[$1 " " $2] = $4 }
	END {
		for (k in s) {
			split(k, p, " ")
			if (!(k in e)) { print "no end for job " p[2] " on " p[1]; continue }
			print p[1], s[k], e[k], p[2]
		}
	}' "$@" | sort -k1,1 -k2,2n | awk '
	NF == 4 {
		if ($1 == node && $2 < end)
			printf "%s: job %s started at %s before job %s ended at %s\n",
			       $1, $4, $2, job, end
		if ($1 != node || $3 > end) { end = $3; job = $4 }
		node = $1
		next
	}
	{ print }'
}

# Controller-side records from jobcomp/filetxt (one-second resolution):
# one line "NODE START END JOBID" per node of every job that had nodes.
jobcomp_intervals() {
	local log=$1 line id nodes start end n
	while read -r line; do
		id=$(sed -n 's/.*JobId=\([0-9]*\).*/\1/p' <<< "$line")
		nodes=$(sed -n 's/.*NodeList=\([^ ]*\).*/\1/p' <<< "$line")
		start=$(date -d "$(sed -n 's/.*StartTime=\([^ ]*\).*/\1/p' <<< "$line")" +%s)
		end=$(date -d "$(sed -n 's/.*EndTime=\([^ ]*\).*/\1/p' <<< "$line")" +%s)
		[[ $nodes == "(null)" || -z $nodes ]] && continue
		for n in $(scontrol show hostnames "$nodes"); do
			echo "$n $start $end $id"
		done
	done < "$log"
}

# Intervals of distinct jobs on one node may touch but not overlap.
jobcomp_overlaps() {
	jobcomp_intervals "$1" | sort -k1,1 -k2,2n | awk '
	{
		if ($1 == node && $2 < end)
			printf "%s: job %s [%s,%s] overlaps job %s ending %s\n",
			       $1, $4, $2, $3, job, end
		if ($1 != node || $3 > end) { end = $3; job = $4 }
		node = $1
	}'
}
