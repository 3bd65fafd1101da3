# proc-state.sh - sourced by the lost-resume scripts: the state letter
# (ps STAT's first) of a batch job's first process, found through its
# batch slurmstepd; "-" when there is none.
#
# SPDX-License-Identifier: GPL-2.0-or-later

proc_state() {	# job
	local stepd child
	stepd=$(pgrep -f "slurmstepd: \[$1\.batch\]" | head -n 1)
	[[ -n $stepd ]] || { echo -; return; }
	child=$(pgrep -P "$stepd" | head -n 1)
	[[ -n $child ]] || { echo -; return; }
	ps -o stat= -p "$child" | cut -c1
}
