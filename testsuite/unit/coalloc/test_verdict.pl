#!/usr/bin/perl
# test_verdict.pl - the verdict rules of repro-coalloc.pl
# (contribs/sim/CoallocVerdict.pm): the overlap rule of compare, scaled
# estimates, the claim shapes and the verdict of a finding from its
# cases.  Run by test_verdict.sh with contribs/sim on @INC.
#
# SPDX-License-Identifier: GPL-2.0-or-later

use strict;
use warnings;
use Test::More;
use CoallocVerdict qw(compare scaled best_of worst_of between less approaches
		      all_of verdict aggregate);

# e(mean, ci95[, saturated]): an estimate
sub e { my ($m, $h, $s) = @_; return { mean => $m, ci95 => $h, saturated => $s ? 1 : 0 } }
sub sat { return { mean => $_[0], ci95 => undef, saturated => 1 } }

# compare: the overlap rule --------------------------------------------------
is(compare(e(1, 0.1), e(2, 0.1)), 'less', 'disjoint intervals: less');
is(compare(e(2, 0.1), e(1, 0.1)), 'greater', 'disjoint intervals: greater');
# equal half-widths h = 1: the difference must exceed h
is(compare(e(0, 1), e(0.9, 1)), 'noise', 'overlap 1.1 > difference 0.9: noise');
is(compare(e(0, 1), e(1.1, 1)), 'less', 'overlap 0.9 < difference 1.1: less');
is(compare(e(1.1, 1), e(0, 1)), 'greater', '... and greater the other way');
is(compare(e(0, 1), e(1, 1)), 'noise', 'difference equal to the overlap: noise');
is(compare(e(0, 1), e(2, 1)), 'less', 'intervals touching at one point: less');
# unequal half-widths: [0, 4] and [3, 5], overlap 1, difference 2
is(compare(e(2, 2), e(4, 1)), 'less', 'unequal widths, difference 2 > overlap 1');
is(compare(e(2, 2), e(2.8, 1)), 'noise', 'unequal widths, difference 0.8 < overlap 1.8');
# nested: [2, 8] holds [5.5, 6.5], overlap 1 (the inner length)
is(compare(e(5, 3), e(6, 0.5)), 'noise', 'nested, difference 1 = overlap 1: noise');
is(compare(e(5, 3), e(5.8, 0.5)), 'noise', 'nested, difference 0.8 < overlap 1: noise');
is(compare(e(5, 3), e(6.6, 0.5)), 'less', 'nested, difference 1.6 > overlap 1: less');
is(compare(e(5, 10), e(9, 0.5)), 'less', 'nested in a wide one, difference 4 > overlap 1: less');
# equal means never count
is(compare(e(3, 0), e(3, 0)), 'noise', 'equal means, no width: noise');
is(compare(e(3, 1), e(3, 0.1)), 'noise', 'equal means, different widths: noise');
is(compare(e(3, undef), e(3, undef)), 'noise', 'equal means, no interval: noise');
# a missing half-width is 0
is(compare(e(1, undef), e(1.01, undef)), 'less', 'no intervals: any difference counts');
is(compare({ mean => 1.5 }, e(1, 0)), 'greater', 'no ci95 key and no saturated key');
# a point has an overlap of length 0 with any interval, so it always counts
is(compare(e(1.5, undef), e(1, 1)), 'greater', 'a point inside the other interval: greater');
is(compare(e(0.5, undef), e(1, 1)), 'less', 'a point inside it, below the mean: less');
# saturation: infinitely slow, whatever the means say
is(compare(sat(1), e(100, 1)), 'greater', 'saturated vs unsaturated: greater');
is(compare(e(100, 1), sat(1)), 'less', 'unsaturated vs saturated: less');
is(compare(sat(1), sat(9)), 'noise', 'both saturated: noise');
is(compare(sat(undef), e(3, 1)), 'greater', 'saturated without a mean');
ok(!eval { compare(e(undef, 1), e(1, 1)); 1 }, 'an unsaturated estimate without a mean dies');

# scaled ---------------------------------------------------------------------
my $x = e(2, 0.5);
my $s = scaled($x, 1.15);
ok(abs($s->{mean} - 2.3) < 1e-12, 'scaled: mean times k');
ok(abs($s->{ci95} - 0.575) < 1e-12, 'scaled: half-width times k');
is($s->{saturated}, 0, 'scaled: unsaturated stays so');
is_deeply($x, e(2, 0.5), 'scaled: the original is unchanged');
is(scaled(sat(2), 1.1)->{saturated}, 1, 'scaled: saturated stays so');
is(scaled(e(2, undef), 1.1)->{ci95}, undef, 'scaled: no interval stays none');
# y = 1.2 +- 0.01 against 1.15 x = 1.15 +- 0.0115
is(compare(e(1.2, 0.01), scaled(e(1, 0.01), 1.15)), 'greater', 'y beyond 1.15 x');
is(compare(e(1.1, 0.01), scaled(e(1, 0.01), 1.15)), 'less', 'y within 1.15 x');

# best_of / worst_of -------------------------------------------------------
my %clear = (A => e(1, 0.1), B => e(2, 0.1), C => e(3, 0.1));
is(best_of('A', \%clear), 'holds', 'best_of: decisively the smallest');
is(best_of('B', \%clear), 'fails', 'best_of: another decisively smaller');
is(best_of('C', \%clear), 'fails', 'best_of: the largest');
is(worst_of('C', \%clear), 'holds', 'worst_of: decisively the largest');
is(worst_of('A', \%clear), 'fails', 'worst_of: the smallest');
my %close = (A => e(1, 0.1), B => e(1.05, 0.1), C => e(3, 0.1));
is(best_of('A', \%close), 'noise', 'best_of: smallest, but one other within noise');
is(best_of('B', \%close), 'noise', 'best_of: not smallest, but within noise of it');
is(worst_of('C', \%close), 'holds', 'worst_of: decisively above both');
is(best_of('A', { A => e(1, 0.1), B => sat(0.5) }), 'holds', 'best_of: beats a saturated one');
is(worst_of('B', { A => e(1, 0.1), B => sat(0.5) }), 'holds', 'worst_of: saturated is the worst');
is(worst_of('A', { A => sat(1), B => sat(2), C => e(1, 0) }), 'noise',
   'worst_of: two saturated do not compare');
ok(!eval { best_of('Z', \%clear); 1 }, 'best_of: an unknown target dies');

# between -------------------------------------------------------------------
my ($lo, $hi) = (e(1, 0.1), e(3, 0.1));
is(between(e(2, 0.1), $lo, $hi), 'holds', 'between: inside');
is(between(e(2, 0.1), $hi, $lo), 'holds', 'between: bounds in either order');
is(between(e(0.5, 0.1), $lo, $hi), 'fails', 'between: below the lower');
is(between(e(3.5, 0.1), $hi, $lo), 'fails', 'between: above the upper');
is(between(e(1.05, 0.1), $lo, $hi), 'noise', 'between: within noise of the lower');
is(between(e(2.95, 0.1), $lo, $hi), 'noise', 'between: within noise of the upper');
is(between(e(2, 0.1), sat(0.5), $lo), 'holds', 'between: a saturated bound is the upper');

# less -----------------------------------------------------------------------
is(less(e(1, 0.1), e(2, 0.1)), 'holds', 'less: decisively less');
is(less(e(2, 0.1), e(1, 0.1)), 'fails', 'less: decisively greater');
is(less(e(1, 0.5), e(1.2, 0.5)), 'noise', 'less: within noise');
is(less(e(1, 0), e(1, 0)), 'noise', 'less: equal');

# approaches (Fig. 14: GS approaches EQ within 15 %) ---------------------------
my $eq = e(1.603, 0.05);
is(approaches(e(1.376, 0.05), $eq, 1.15), 'fails', 'approaches: decisively better is not approaching');
is(approaches(e(1.70, 0.02), $eq, 1.15), 'holds', 'approaches: worse, decisively within 15%');
is(approaches(e(2.10, 0.05), $eq, 1.15), 'fails', 'approaches: decisively beyond 15%');
is(approaches(e(1.84, 0.05), $eq, 1.15), 'noise', 'approaches: within noise of 1.15 x');
is(approaches(e(1.60, 0.05), $eq, 1.15), 'holds', 'approaches: within noise of x, decisively below 1.15 x');

# all_of --------------------------------------------------------------------
is(all_of('holds', 'holds'), 'holds', 'all_of: all hold');
is(all_of('holds', 'noise'), 'noise', 'all_of: one within noise');
is(all_of('noise', 'fails'), 'fails', 'all_of: one fails');

# verdict and aggregate ---------------------------------------------------------
my @h6 = ('holds') x 6;
is(aggregate(@h6), 'holds (6 hold; of 6)', 'all hold');
is(aggregate('holds'), 'holds (1 holds; of 1)', 'one case, holds');
is(aggregate('fails', 'fails'), 'does not hold (2 do not; of 2)', 'all fail');
is(aggregate(('noise') x 3), 'within noise (3 within noise; of 3)', 'all within noise');
is(aggregate(('holds') x 4, 'noise', 'fails'),
   'mostly holds (4 hold, 1 within noise, 1 does not; of 6)', '4 of 6 hold: mostly holds');
is(aggregate(('holds') x 3, ('noise') x 3), 'mixed (3 hold, 3 within noise; of 6)',
   '3 of 6 hold: not mostly holds');
is(verdict('holds', 'noise'), 'mixed', '1 of 2 holds: not mostly holds');
is(verdict('holds', 'fails'), 'mixed', '1 hold and 1 fail: mixed');
is(verdict(('holds') x 2, 'noise'), 'mostly holds', '2 of 3 hold: mostly holds');
is(verdict(('fails') x 4, 'holds', 'noise'), 'mostly does not hold', '4 of 6 fail');
is(verdict(('fails') x 3, ('holds') x 3), 'mixed', '3 fail, 3 hold: mixed');
is(verdict(('noise') x 4, 'holds', 'fails'), 'mixed', 'mostly noise: mixed');
ok(!eval { verdict(); 1 }, 'verdict of no cases dies');
ok(!eval { verdict('holds', 'maybe'); 1 }, 'an unknown outcome dies');

done_testing();
