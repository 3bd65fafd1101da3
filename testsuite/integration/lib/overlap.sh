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
# one line "NODE START END JOBID" per node of every run of a job that had
# nodes.  A run can have two records: a job whose end a SIGKILLed
# slurmctld had not saved is recorded COMPLETED when it ends and again
# NODE_FAIL when the restarted slurmctld purges it (same start, later
# end); they are one run, held until the later end.
jobcomp_intervals() {
	_jobcomp_records "$1" | awk '
	{ k = $1 " " $2 " " $4; if (!(k in end) || $3 > end[k]) end[k] = $3 }
	END { for (k in end) { split(k, f, " "); print f[1], f[2], end[k], f[3] } }'
}

_jobcomp_records() {
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

# A job that ticks on each of its nodes: every 0.2 s of running time a
# line "NODE JOB tick EPOCH"; N ticks in all.  With --batch it ticks in
# its batch script only (on its first node), from the moment slurmd
# starts it rather than once srun has launched its tasks.
TICK='for ((i = 0; i < N; i++)); do echo "$SLURMD_NODENAME $SLURM_JOB_ID tick $EPOCHREALTIME"; sleep 0.2; done'
ticker() {	# [--batch] ticks sbatch-args...
	local launch=srun
	[[ $1 == --batch ]] && { launch=; shift; }
	local n=$1; shift
	submit "$@" -o tick-%j.log --export=ALL,N="$n" --wrap "$launch bash -c '$TICK'"
}

# The running intervals of ticks, as task_overlaps' records: a job's
# ticks on a node split where they pause over a second (suspended), and
# each piece is "NODE JOB.PIECE start|end EPOCH".
tick_records() {
	cat "$@" | awk '$3 == "tick"' | sort -k1,1 -k2,2n -k4,4n | awk '
	function flush() { if (key != "") { print n, j "." p, "start", s; print n, j "." p, "end", e } }
	{
		k = $1 " " $2
		if (k != key || $4 - e > 1.0) {
			flush()
			p = (k == key) ? p + 1 : 0
			key = k; n = $1; j = $2; s = $4
		}
		e = $4
	}
	END { flush() }'
}

# task_overlaps' lines ("NODE: job X started at T before job Y ended at
# E") of half a second or more; a shorter one is a gang switch itself:
# the suspend of the leaving row and the resume of the entering one reach
# slurmd as separate RPCs, in either order.
real_overlaps() { task_overlaps "$@" | awk '$NF - $6 >= 0.5'; }
