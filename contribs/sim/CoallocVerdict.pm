# CoallocVerdict.pm - the verdicts of repro-coalloc.pl: whether one mean
# response time is decisively smaller than another given their 95 %
# confidence intervals, the claim shapes of the paper built on that
# (best of, worst of, between, less, approaches), and the verdict of a
# finding from its outcomes per case.  Pure: no I/O, so that
# testsuite/unit/coalloc/test_verdict.pl can check every rule.
#
# An estimate is a hash { mean => m, ci95 => h, saturated => 0/1 }; h may
# be undef (a single replication), which counts as 0.  An outcome per
# case is 'holds', 'fails' or 'noise'.
#
# SPDX-License-Identifier: GPL-2.0-or-later

package CoallocVerdict;

use strict;
use warnings;
use Carp qw(croak);
use Exporter qw(import);

our @EXPORT_OK = qw(compare scaled best_of worst_of between less approaches
		    all_of verdict aggregate);

# --------------------------------------------------------------- compare

sub _interval {
	my ($x) = @_;
	croak 'estimate without a mean' unless defined $x->{mean};
	my $h = abs($x->{ci95} // 0);
	return ($x->{mean} - $h, $x->{mean} + $h);
}

# compare($x, $y): 'less' or 'greater' when the means differ by more than
# the length of the overlap of the two intervals, 'noise' otherwise.  A
# saturated policy is infinitely slow: only its lower bound is known, so
# it loses to any unsaturated one and two saturated ones do not compare.
# Disjoint intervals always count; nested ones when the difference exceeds
# the inner length; a point (no interval) overlaps nothing, so against it
# any difference counts.
sub compare {
	my ($x, $y) = @_;
	my ($sx, $sy) = ($x->{saturated} ? 1 : 0, $y->{saturated} ? 1 : 0);
	return 'noise' if $sx && $sy;
	return 'greater' if $sx;
	return 'less' if $sy;
	my ($lo1, $hi1) = _interval($x);
	my ($lo2, $hi2) = _interval($y);
	my ($m1, $m2) = ($x->{mean}, $y->{mean});
	# equal means: the strict > below already says noise; said outright
	return 'noise' if $m1 == $m2;
	my $overlap = _min($hi1, $hi2) - _max($lo1, $lo2);
	$overlap = 0 if $overlap < 0;
	return 'noise' unless abs($m1 - $m2) > $overlap;
	return $m1 < $m2 ? 'less' : 'greater';
}

sub _min { return $_[0] < $_[1] ? $_[0] : $_[1] }
sub _max { return $_[0] > $_[1] ? $_[0] : $_[1] }

# scaled($x, $k): k times the estimate, for "within 15 %" (y against
# 1.15 x) or "clearly worse (> 1.1 x)"; a saturated one stays saturated.
sub scaled {
	my ($x, $k) = @_;
	return { %$x,
		 mean => defined $x->{mean} ? $x->{mean} * $k : undef,
		 ci95 => defined $x->{ci95} ? abs($x->{ci95} * $k) : undef };
}

# --------------------------------------------------------------- claim shapes

# less($x, $y): "x is smaller (better) than y".
sub less {
	my ($x, $y) = @_;
	my $c = compare($x, $y);
	return $c eq 'less' ? 'holds' : $c eq 'greater' ? 'fails' : 'noise';
}

# _extreme($want, $target, \%est): holds when the target compares $want
# against every other policy, fails when some other one compares $want
# against the target (it is then decisively better, or worse, itself).
sub _extreme {
	my ($want, $target, $est) = @_;
	croak "no estimate for $target" unless $est->{$target};
	my @others = grep { $_ ne $target } sort keys %$est;
	croak "nothing to compare $target with" unless @others;
	my $t = $est->{$target};
	return 'fails' if grep { compare($est->{$_}, $t) eq $want } @others;
	return 'holds' unless grep { compare($t, $est->{$_}) ne $want } @others;
	return 'noise';
}

# best_of($target, \%est_by_policy): the target has the smallest response.
sub best_of { return _extreme('less', @_) }

# worst_of($target, \%est_by_policy): the target has the largest response.
sub worst_of { return _extreme('greater', @_) }

# The mean as a sort key: saturated is infinitely slow.
sub _key { return $_[0]{saturated} ? 9**9**9 : $_[0]{mean} }

# between($x, $p, $q): x lies strictly between p and q, whichever of the
# two is the lower (by the means).
sub between {
	my ($x, $p, $q) = @_;
	my ($lo, $hi) = _key($p) <= _key($q) ? ($p, $q) : ($q, $p);
	my ($cl, $ch) = (compare($x, $lo), compare($x, $hi));
	return 'fails' if $cl eq 'less' || $ch eq 'greater';
	return 'holds' if $cl eq 'greater' && $ch eq 'less';
	return 'noise';
}

# approaches($x, $ref, $k): "x approaches ref": x is worse than ref but
# within a factor k of it.  Decisively better than ref is not approaching
# it, and neither is decisively beyond k ref.
sub approaches {
	my ($x, $ref, $k) = @_;
	my $near = compare($x, scaled($ref, $k));
	return 'fails' if compare($x, $ref) eq 'less' || $near eq 'greater';
	return 'holds' if $near eq 'less';
	return 'noise';
}

# all_of(@outcomes): a conjunction within one case ("worse than RD and
# DO"): fails if any part fails, holds if every part holds.
sub all_of {
	croak 'all_of of nothing' unless @_;
	return 'fails' if grep { $_ eq 'fails' } @_;
	return 'holds' unless grep { $_ ne 'holds' } @_;
	return 'noise';
}

# --------------------------------------------------------------- verdicts

sub _counts {
	my %n = (holds => 0, fails => 0, noise => 0);
	for my $o (@_) {
		croak "unknown outcome '$o'" unless exists $n{$o};
		$n{$o}++;
	}
	return %n;
}

# verdict(@outcomes): the verdict of a finding from its cases.  "Mostly"
# needs strictly more than half, so that 3 of 6 is not a majority.
sub verdict {
	croak 'verdict of no cases' unless @_;
	my %n = _counts(@_);
	my $total = @_;
	return 'holds' if $n{holds} == $total;
	return 'does not hold' if $n{fails} == $total;
	return 'within noise' if $n{noise} == $total;
	return 'mostly holds' if 2 * $n{holds} > $total;
	return 'mostly does not hold' if 2 * $n{fails} > $total;
	return 'mixed';
}

# aggregate(@outcomes): the verdict with its counts, e.g.
# "mostly holds (4 hold, 1 within noise, 1 does not; of 6)".
sub aggregate {
	my $v = verdict(@_);
	my %n = _counts(@_);
	my @parts;
	push @parts, "$n{holds} " . ($n{holds} == 1 ? 'holds' : 'hold') if $n{holds};
	push @parts, "$n{noise} within noise" if $n{noise};
	push @parts, "$n{fails} " . ($n{fails} == 1 ? 'does not' : 'do not') if $n{fails};
	return "$v (" . join(', ', @parts) . '; of ' . scalar(@_) . ')';
}

1;
