# mpi-tap.sh - tap.sh for the bash TAP scripts that run MPI programs
# under mpirun (sourced from the repository root).
#
#   mpi_tap_init PROGRAM   skip the whole test (TAP "1..0 # SKIP") when
#                          mpirun or PROGRAM is missing; set up mpirun
#   mpi_tap_env            set up mpirun only (a test with checks of its own)
#
# SPDX-License-Identifier: GPL-2.0-or-later

source testsuite/unit/lib/tap.sh

mpi_tap_init() {
	if ! command -v mpirun > /dev/null; then
		echo "1..0 # SKIP no mpirun (Debian: openmpi-bin)"
		exit 0
	fi
	if [ ! -x "$1" ]; then
		echo "1..0 # SKIP $1 not built"
		exit 0
	fi
	mpi_tap_env
}

mpi_tap_env() {
	# Root may run MPI here (containers, CI); a test inside a Slurm job
	# must not hand mpirun that job's allocation.
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	unset "${!SLURM_@}"
	# Open MPI leaves its own allocations at exit (and unloads the
	# components that made them); memory errors are still caught.
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	# The ranks are on this host: TCP (the runtime's and the tcp BTL's)
	# over loopback only.  Integration tests running beside add and
	# remove bridges and veths; an mpirun that picked one of their
	# addresses hung until its timeout once it was gone (test_shim in CI,
	# 2026-11-29: 120 s, then "ping runs" failed).
	export OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
}
