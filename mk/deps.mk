# mk/deps.mk - the Debian packages the suite needs (bookworm names).

# Slurm itself, its authentication, and the libraries our code links.
DEPS_RUNTIME := slurmctld slurmd slurm-client libslurm-dev munge \
	openmpi-bin libopenmpi-dev mpich libmpich-dev \
	libmunge-dev libjson-c-dev libcgroup-dev \
	slurmdbd mariadb-server mariadb-client
# Toolchain and the tools the tests and reports use.  prometheus is there
# for promtool (test_monitoring); Debian ships no promtool alone, and
# mk/deps.sh's policy-rc.d keeps its server, like slurmctld, from starting.
DEPS_TOOLS := gcc gfortran make pkg-config perl valgrind gnuplot-nox procps prometheus \
	dpkg-dev debhelper fakeroot fuse3 libfuse3-dev debootstrap \
	systemd-container
DEPS := $(DEPS_RUNTIME) $(DEPS_TOOLS)

.PHONY: deps
# '+': make -n installs them too, since what make check plans (the
# module.mk files' lists) depends on them.
DEPS_INSTALL ?= mk/deps.sh
deps:
	+@$(DEPS_INSTALL) $(DEPS)
