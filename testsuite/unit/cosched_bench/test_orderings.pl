#!/usr/bin/perl
# test_orderings.pl - the arithmetic of bench-cosched's orderings
# (contribs/cosched-bench/CoschedOrderings.pm): the CoV of slowdowns over
# the jobs and over the job types (the paper's fairness), the arrival
# rate at an offered load and the Poisson arrival times, their refusals
# and the command line.  Run by test_orderings.sh with
# contribs/cosched-bench on @INC.
#
# SPDX-License-Identifier: GPL-2.0-or-later

use strict;
use warnings;
use Test::More;
use CoschedOrderings qw(mean_cov type_cov arrival_rate arrivals parse_load);

sub near { my ($got, $want, $eps, $what) = @_;
	ok(defined $got && abs($got - $want) <= $eps, $what)
		or diag("got " . ($got // 'undef') . ", want $want +- $eps") }

# mean_cov -----------------------------------------------------------------
my ($m, $c) = mean_cov(1, 3);
is($m, 2, 'mean of 1 and 3');
near($c, 0.5, 1e-12, 'CoV of 1 and 3: population sd 1 / mean 2');
($m, $c) = mean_cov(2, 2, 2);
is_deeply([$m, $c], [2, 0], 'equal values: CoV 0');
($m, $c) = mean_cov(1, 2, 3, 4);
near($c, sqrt(1.25) / 2.5, 1e-12, 'CoV of 1..4: sqrt(1.25) / 2.5');
($m, $c) = mean_cov(5);
is_deeply([$m, $c], [5, undef], 'one value: its mean, no CoV');
is_deeply([mean_cov()], [undef, undef], 'no value: neither');
is_deeply([mean_cov(0, 0)], [0, undef], 'mean 0: no CoV');
near((mean_cov(10, 30))[1], (mean_cov(1, 3))[1], 1e-12, 'CoV does not depend on the scale');

# type_cov: over the types' mean slowdowns ---------------------------------
near(type_cov({ J2 => [1, 3], J4 => [4] }), 1 / 3, 1e-12,
	'types J2 (mean 2) and J4 (4): CoV 1/3');
near(type_cov({ J2 => [2], J4 => [2], J5 => [2, 2] }), 0, 1e-12, 'equal types: 0');
is(type_cov({ J5 => [1, 9] }), undef, 'one type: no fairness to measure');
is(type_cov({ J2 => [3], J4 => [] }), undef, 'a type without slowdowns does not count');
is(type_cov({}), undef, 'no type: undef');
isnt(type_cov({ J2 => [1, 3], J4 => [2, 2] }), (mean_cov(1, 3, 2, 2))[1],
	'over the types, not over the jobs');

# parse_load and arrival_rate ----------------------------------------------
is(parse_load('0.5'), 0.5, 'load 0.5');
is(parse_load('.9'), 0.9, 'load .9');
is(parse_load('2'), 2, 'load 2, the largest');
for my $bad ('0', '0.0', '-0.5', '2.01', '3', 'abc', '', '0.5x', '1e-1', undef) {
	eval { parse_load($bad) };
	like($@, qr/load '.*' is not/, 'load ' . ($bad // 'undef') . ' refused');
}
near(arrival_rate(0.5, 5, 2, 2), 0.1, 1e-12, 'load 0.5, 5 s jobs of 2 tasks on 2 CPUs: 0.1 jobs/s');
near(arrival_rate(0.9, 3, 2, 4), 0.6, 1e-12, '... 0.9, 3 s, 2 tasks on 4 CPUs: 0.6 jobs/s');
for my $l (0.3, 0.7, 1.2) {
	near(arrival_rate($l, 4.2, 2, 2) * 4.2 * 2 / 2, $l, 1e-12, "rate x mean x tasks / CPUs gives back load $l");
}
eval { arrival_rate(0.5, 0, 2, 2) };
like($@, qr/mean dedicated time must be positive/, 'mean 0 refused');
eval { arrival_rate(0.5, 5, 0, 2) };
like($@, qr/tasks and CPUs/, '0 tasks refused');

# arrivals ----------------------------------------------------------------
my @a = arrivals(0.5, 16, 5, 2, 2, 1);
is(scalar @a, 16, '16 arrivals');
is($a[0], 0, 'the first at 0');
ok(!grep({ $a[$_] < $a[$_ - 1] } 1 .. $#a), 'in order');
is_deeply([arrivals(0.5, 16, 5, 2, 2, 1)], \@a, 'the same seed, the same stream');
isnt(join(',', arrivals(0.5, 16, 5, 2, 2, 2)), join(',', @a), 'another seed, another stream');
my @b = arrivals(1, 16, 5, 2, 2, 1);
near($b[-1], $a[-1] / 2, 1e-9, 'twice the load: the same draws at half the gaps');
# many gaps: mean 1 / rate, and exponential (CoV 1)
my @many = arrivals(0.7, 20001, 4, 2, 2, 7);
my @gaps = map { $many[$_] - $many[$_ - 1] } 1 .. $#many;
my ($gm, $gc) = mean_cov(@gaps);
near($gm, 1 / arrival_rate(0.7, 4, 2, 2), 0.03 / arrival_rate(0.7, 4, 2, 2),
	'20,000 gaps: mean 1 / rate within 3 %');
near($gc, 1, 0.03, '... CoV 1 within 0.03 (exponential)');
is(scalar(grep { $_ < 0 } @gaps), 0, '... none negative');
is_deeply([arrivals(0.5, 1, 5, 2, 2, 1)], [0], 'one job: at 0');
for my $bad ([0, 16, 5, 2, 2, 1, qr/load/], [0.5, 0, 5, 2, 2, 1, qr/jobs/],
	     [0.5, 'x', 5, 2, 2, 1, qr/jobs/], [0.5, 16, 5, 2, 2, 'x', qr/seed/],
	     [0.5, 16, -1, 2, 2, 1, qr/mean/]) {
	my $re = pop @$bad;
	eval { arrivals(@$bad) };
	like($@, $re, 'arrivals(' . join(', ', @$bad) . ') refused');
}

# the command line ---------------------------------------------------------
my @cmd = ($^X, '-Icontribs/cosched-bench', '-MCoschedOrderings', '-e', 'CoschedOrderings::main');
my $out = qx{@{[join ' ', map { "'$_'" } @cmd]} schedule 0.5 16 5 2 2 1};
is($?, 0, 'schedule exits 0');
is($out, join('', map { sprintf "%.3f\n", $_ } @a), 'schedule prints the arrivals, %.3f a line');
$out = qx{@{[join ' ', map { "'$_'" } @cmd]} schedule 0 16 5 2 2 1 2>&1};
is($? >> 8, 2, 'a bad load: exit 2');
like($out, qr/^schedule: load '0' is not in \(0, 2\]$/, '... with the reason, no perl location');
$out = qx{@{[join ' ', map { "'$_'" } @cmd]} schedule 0.5 2>&1};
is($? >> 8, 2, 'missing arguments: exit 2');
like($out, qr/usage: schedule LOAD JOBS MEAN_S TASKS CPUS SEED/, '... with the usage');

done_testing();
