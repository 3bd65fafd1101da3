# CoschedOrderings.pm - the arithmetic bench-cosched needs to measure the
# orderings of Zhang et al. (fairness, load curve): the coefficient of
# variation of slowdowns, over the jobs and over the job types (the
# paper's fairness, sections 3.4 and 4.8), and the arrival times of a
# Poisson stream at an offered load (section 4.1).  Pure: no I/O, so
# that testsuite/unit/cosched_bench/test_orderings.pl can check it.
#
# bench-cosched loads it with perl -I contribs/cosched-bench; the
# schedule also runs as a command:
#
#   perl -Icontribs/cosched-bench -MCoschedOrderings -e CoschedOrderings::main \
#        schedule LOAD JOBS MEAN_S TASKS CPUS SEED
#
# prints the JOBS arrival offsets in seconds, one a line (%.3f).
#
# SPDX-License-Identifier: GPL-2.0-or-later

package CoschedOrderings;

use strict;
use warnings;
use Carp qw(croak);
use Exporter qw(import);

our @EXPORT_OK = qw(mean_cov type_cov arrival_rate arrivals parse_load);

# mean_cov(@x): (mean, CoV) of the values: CoV = standard deviation /
# mean, the population deviation sqrt(sum (x - mean)^2 / n).  CoV is
# undef for fewer than two values (no spread to measure) or a mean of 0;
# both are undef for none.
sub mean_cov {
	my @x = @_;
	return (undef, undef) unless @x;
	my $n = @x;
	my $mean = 0;
	$mean += $_ for @x;
	$mean /= $n;
	return ($mean, undef) if $n < 2 || $mean == 0;
	my $ss = 0;
	$ss += ($_ - $mean)**2 for @x;
	return ($mean, sqrt($ss / $n) / $mean);
}

# type_cov({ TYPE => [slowdowns], ... }): the paper's fairness: the CoV,
# over the job types, of each type's mean slowdown (Figure 10, Table 6).
# Undef with fewer than two types that have a slowdown.
sub type_cov {
	my ($by_type) = @_;
	my @means = map { (mean_cov(@{$by_type->{$_}}))[0] }
		grep { @{$by_type->{$_} // []} } sort keys %$by_type;
	return undef if @means < 2;
	return (mean_cov(@means))[1];
}

# parse_load(TEXT): the offered load as a number, croaks unless
# 0 < load <= 2 (above 1 the stream arrives faster than the nodes can
# serve it even alone).
sub parse_load {
	my ($t) = @_;
	croak "load '" . ($t // '') . "' is not a number"
		unless defined $t && $t =~ /^(?:\d+\.?\d*|\.\d+)$/;
	croak "load '$t' is not in (0, 2]" unless $t > 0 && $t <= 2;
	return $t + 0;
}

# arrival_rate(LOAD, MEAN_S, TASKS, CPUS): jobs per second such that
# load = rate x mean dedicated time x tasks per job / CPUs.
sub arrival_rate {
	my ($load, $mean, $tasks, $cpus) = @_;
	croak 'mean dedicated time must be positive' unless $mean > 0;
	croak 'tasks and CPUs must be positive' unless $tasks > 0 && $cpus > 0;
	return parse_load($load) * $cpus / ($mean * $tasks);
}

# arrivals(LOAD, JOBS, MEAN_S, TASKS, CPUS, SEED): the offsets, in
# seconds from the first, of JOBS arrivals of a Poisson stream at that
# load: the first at 0, then exponential gaps of mean 1 / rate drawn
# from perl's generator seeded with SEED (drand48: the same on every
# machine), -ln(1 - U) / rate.
sub arrivals {
	my ($load, $jobs, $mean, $tasks, $cpus, $seed) = @_;
	croak "jobs '" . ($jobs // '') . "' is not a count" unless defined $jobs && $jobs =~ /^[1-9]\d*$/;
	croak "seed '" . ($seed // '') . "' is not a whole number" unless defined $seed && $seed =~ /^\d+$/;
	my $rate = arrival_rate($load, $mean, $tasks, $cpus);
	srand($seed);
	my ($t, @at) = (0);
	for my $i (1 .. $jobs) {
		$t += -log(1 - rand()) / $rate if $i > 1;
		push @at, $t;
	}
	return @at;
}

# The command line (see the top).
sub main {
	my ($cmd, @a) = @ARGV;
	if (($cmd // '') eq 'schedule' && @a == 6) {
		my @at = eval { arrivals(@a) };
		if ($@) { (my $e = $@) =~ s/ at \S+ line \d+.*//s; print STDERR "schedule: $e\n"; exit 2 }
		printf "%.3f\n", $_ for @at;
		return 0;
	}
	print STDERR "usage: schedule LOAD JOBS MEAN_S TASKS CPUS SEED\n";
	exit 2;
}

1;
