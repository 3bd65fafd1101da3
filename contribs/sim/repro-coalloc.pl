#!/usr/bin/perl
# repro-coalloc.pl - reproduce Bucur and Epema, "Priorities among Multiple
# Queues for Processor Co-Allocation in Multicluster Systems", sections
# 3.1-3.3, with coalloc-sim: the ten cases of Table 1 at two utilizations
# near saturation, a markdown report with tables and gnuplot charts, and
# a verdict on every finding of the paper, with our numbers (the rule is
# CoallocVerdict.pm's: a difference within the noise of the 95 %
# intervals does not count either way).
#
# usage: repro-coalloc.pl --sim PATH --out DIR [--jobs N] [--reps R]
#
# SPDX-License-Identifier: GPL-2.0-or-later

use strict;
use warnings;
use Getopt::Long;
use JSON::PP;
use File::Path qw(make_path);
use FindBin;
use lib $FindBin::Bin;
use CoallocVerdict qw(scaled best_of worst_of between less approaches
		      all_of verdict aggregate);

my ($sim, $out, $jobs, $reps, $seed) = (undef, undef, 30000, 6, 1);
GetOptions('sim=s' => \$sim, 'out=s' => \$out, 'jobs=i' => \$jobs,
	   'reps=i' => \$reps, 'seed=i' => \$seed)
	or die "usage: $0 --sim PATH --out DIR [--jobs N] [--reps R]\n";
die "usage: $0 --sim PATH --out DIR\n" unless $sim && $out;
make_path($out);

# Table 1, with the two utilizations of each chart: the first just below
# the saturation of the first policy to saturate, the second above it
# (found by a scan of 0.70-0.96 in steps of 0.02; the paper does not give
# its values, only that "at least one of the policies is close to the
# maximum utilization").
my @cases = (
	{ id => 'a', comp => [25, 25, 25, 25], bal => 1, u => [0.88, 0.92], fig => 9 },
	{ id => 'b', comp => [100, 0, 0, 0], bal => 1, u => [0.90, 0.93], fig => 15 },
	{ id => 'c', comp => [50, 0, 0, 50], bal => 1, u => [0.86, 0.90], fig => 10 },
	{ id => 'd', comp => [0, 0, 0, 100], bal => 1, u => [0.90, 0.94], fig => 16 },
	{ id => 'e', comp => [50, 25, 25, 0], bal => 1, u => [0.90, 0.94], fig => 11 },
	{ id => 'f', comp => [0, 50, 50, 0], bal => 1, u => [0.90, 0.94], fig => 17 },
	{ id => 'g', comp => [50, 50, 0, 0], bal => 1, u => [0.92, 0.96], fig => 12 },
	{ id => 'h', comp => [80, 0, 0, 20], bal => 1, u => [0.82, 0.86], fig => 13 },
	{ id => 'i', comp => [90, 0, 0, 10], bal => 1, u => [0.80, 0.84], fig => 14 },
	{ id => 'j', comp => [80, 0, 0, 20], bal => 0, u => [0.78, 0.82], fig => 18 },
);

my %res;	# $res{case id}{utilization}{policy} = JSON object

sub comp_str { my ($c) = @_; return '(' . join(', ', @{ $c->{comp} }) . ')' }
sub case_name {
	my ($c) = @_;
	return comp_str($c) . ($c->{bal} ? '' : ' unbalanced');
}

sub run_case {
	my ($c, $u) = @_;
	my $title = sprintf('composition %s, %s local queues, utilization %.2f',
			    comp_str($c), $c->{bal} ? 'balanced' : 'unbalanced', $u);
	my $png = sprintf('%s/case-%s-u%.2f.png', $out, $c->{id}, $u);
	my @cmd = ($sim, '--policy', 'all', '--composition',
		   join(',', @{ $c->{comp} }), '--utilization', $u, '--jobs',
		   $jobs, '--replications', $reps, '--seed', $seed, '--json',
		   '--plot', $png, '--title', $title);
	push @cmd, '--unbalanced' unless $c->{bal};
	open(my $fh, '-|', @cmd) or die "cannot run $sim: $!\n";
	local $/;
	my $text = <$fh>;
	close($fh) or die "$sim failed for case $c->{id} at $u\n";
	for my $p (@{ decode_json($text) }) {
		$res{ $c->{id} }{$u}{ $p->{policy} } = $p;
	}
	return $png;
}

# --------------------------------------------------------------- access

sub r { my ($c, $u, $p) = @_; return $res{ $c->{id} }{$u}{$p} }
sub sat { my ($c, $u, $p) = @_; return r($c, $u, $p)->{saturated} ? 1 : 0 }

# est($c, $u, $p, $what): a policy's mean response (total, local or
# global) as an estimate for CoallocVerdict: mean, 95 % half-width and
# whether the policy saturated (its mean is then only a lower bound).
sub est {
	my ($c, $u, $p, $what) = @_;
	$what //= 'total';
	my $x = r($c, $u, $p);
	my $v = $x->{response}{$what};
	die "repro-coalloc: no $what response for $p in case $c->{id} at $u\n"
		unless $x->{saturated} || defined $v->{mean};
	return { mean => $v->{mean}, ci95 => $v->{ci95},
		 saturated => $x->{saturated} ? 1 : 0 };
}

# ests($c, $u, $what, @pols): the estimates by policy, for best_of and
# worst_of.
sub ests {
	my ($c, $u, $what, @pols) = @_;
	return { map { $_ => est($c, $u, $_, $what) } @pols };
}

sub fmt {
	my ($c, $u, $p, $what) = @_;
	my $x = r($c, $u, $p);
	my $v = $x->{response}{$what};
	return '-' unless defined $v->{mean};
	my $s = defined $v->{ci95} ? sprintf('%.3f ± %.3f', $v->{mean}, $v->{ci95})
				   : sprintf('%.3f', $v->{mean});
	return $x->{saturated} ? "SAT ($s)" : $s;
}

# show($name, $est): "LS-DO 2.791 ± 0.567", or "GS SAT".
sub show {
	my ($name, $e) = @_;
	return "$name SAT" if $e->{saturated};
	my $s = sprintf('%s %.3f', $name, $e->{mean});
	return defined $e->{ci95} ? $s . sprintf(' ± %.3f', $e->{ci95}) : $s;
}

sub short { my ($c, $u, $p, $what) = @_; return show($p, est($c, $u, $p, $what)) }

sub nums {
	my ($c, $u, $what, @pols) = @_;
	return join(', ', map { short($c, $u, $_, $what) } @pols);
}

# --------------------------------------------------------------- report

# Each finding gets one outcome per case it speaks about (holds, fails or
# noise under CoallocVerdict's rule) and, per case, the numbers it used.
my @claims;
sub claim {
	my ($section, $text, @items) = @_;
	my @o = map { $_->[0] } @items;
	push @claims, { section => $section, text => $text,
			class => verdict(@o), verdict => aggregate(@o),
			evidence => join('; ', map { $_->[1] . mark($_->[0]) } @items) };
}

# The cases that did not hold are marked in the evidence column.
sub mark {
	my ($o) = @_;
	return $o eq 'holds' ? '' : $o eq 'noise' ? ' *(within noise)*'
		: ' *(does not hold)*';
}

sub label {
	my ($c, $u, $what) = @_;
	return case_name($c) . " at $u" . ($what eq 'total' ? '' : ", $what");
}

# item($c, $u, $what, $outcome, @pols): one case's outcome with the
# responses of the policies it compared.
sub item {
	my ($c, $u, $what, $outcome, @pols) = @_;
	return [$outcome, label($c, $u, $what) . ': ' . nums($c, $u, $what, @pols)];
}

# scaled_item($c, $u, $what, $outcome, $k, $ref, @pols): the same, with
# k times the reference policy's response that the claim compared with.
sub scaled_item {
	my ($c, $u, $what, $outcome, $k, $ref, @pols) = @_;
	my $e = scaled(est($c, $u, $ref, $what), $k);
	return [$outcome, label($c, $u, $what) . ': ' . nums($c, $u, $what, @pols) .
		', ' . show("$k × $ref", $e)];
}

my @ls = qw(LS-OR LS-RD LS-RO LS-DO);
my @lp = qw(LP-LF LP-GF LP-RD);
my @eq = qw(EQ-LF EQ-GF EQ-RD);
my @all = ('GS', @ls, 'GP', @lp, @eq, 'LQ');

my $t0 = time;
my %png;
for my $c (@cases) {
	for my $u (@{ $c->{u} }) {
		print STDERR "repro-coalloc: case $c->{id} ", case_name($c), " at $u\n";
		$png{ $c->{id} }{$u} = run_case($c, $u);
	}
}
my $elapsed = time - $t0;

my @bal = grep { $_->{bal} } @cases;
my ($unbal) = grep { !$_->{bal} } @cases;
my @mixed = grep { $_->{comp}[0] > 0 && $_->{comp}[0] < 100 } @cases;
my @mixed_bal = grep { $_->{bal} } @mixed;
sub lo { my ($c) = @_; return $c->{u}[0] }
sub hi { my ($c) = @_; return $c->{u}[1] }
sub case_id { my ($id) = @_; my ($c) = grep { $_->{id} eq $id } @cases; return $c }

# 3.1.1 LS ----------------------------------------------------------------
{
	my @ls_bal = grep { $_->{comp}[0] < 100 } @bal;	# Fig. 3a-h
	claim('3.1.1', 'LS-DO has the best total response of the LS versions in every balanced case (Fig. 3)',
	      map { my $c = $_; item($c, lo($c), 'total',
		best_of('LS-DO', ests($c, lo($c), 'total', @ls)), @ls) } @ls_bal);
	my @ag = grep { $_->{comp}[0] != 90 } @ls_bal;	# Fig. 3a-g
	claim('3.1.1', 'LS-OR is the worst LS version in the balanced cases other than (90, 0, 0, 10) (Fig. 3a-g)',
	      map { my $c = $_; item($c, lo($c), 'total',
		worst_of('LS-OR', ests($c, lo($c), 'total', @ls)), @ls) } @ag);
	my @hl = grep { $_->{comp}[0] >= 80 } @ls_bal;
	claim('3.1.1', 'with 80% or more local jobs LS-RO is a bad choice (worse than RD and DO; Fig. 3g, h)',
	      map { my $c = $_; my $u = lo($c); my $ro = est($c, $u, 'LS-RO');
		item($c, $u, 'total', all_of(less(est($c, $u, 'LS-RD'), $ro),
					     less(est($c, $u, 'LS-DO'), $ro)),
		     'LS-RO', 'LS-RD', 'LS-DO') } @hl);
	my $c = $unbal;
	my $e = ests($c, lo($c), 'total', @ls);
	claim('3.1.1', 'unbalanced queues: LS-OR is the best LS version (it favours the busiest queue; Fig. 4)',
	      item($c, lo($c), 'total', best_of('LS-OR', $e), @ls));
	claim('3.1.1', 'unbalanced queues: LS-RO is the worst LS version (Fig. 4)',
	      item($c, lo($c), 'total', worst_of('LS-RO', $e), @ls));
}

# 3.1.2 / 3.1.3 LP and EQ ---------------------------------------------------
for my $fam (['LP', \@lp, '3.1.2', 5, 6], ['EQ', \@eq, '3.1.3', 7, 8]) {
	my ($name, $pols, $sec, $fb, $fu) = @$fam;
	my ($lf, $gf, $rd) = @$pols;
	claim($sec, "$gf has the best total response of the $name versions in every balanced case (Fig. $fb)",
	      map { my $c = $_; item($c, lo($c), 'total',
		best_of($gf, ests($c, lo($c), 'total', @$pols)), @$pols) } @mixed_bal);
	claim($sec, "$gf gives the global queue the smallest response time (Fig. $fb)",
	      map { my $c = $_; item($c, lo($c), 'global',
		best_of($gf, ests($c, lo($c), 'global', @$pols)), @$pols) } @mixed_bal);
	claim($sec, "$rd lies between $gf and $lf in total response (Fig. $fb)",
	      map { my $c = $_; my $u = lo($c); item($c, $u, 'total',
		between(est($c, $u, $rd), est($c, $u, $gf), est($c, $u, $lf)), $gf, $rd, $lf) } @mixed_bal);
	claim($sec, "enabling the global queue first ($gf) barely worsens the local queues (local response within 15% of $lf)",
	      map { my $c = $_; my $u = lo($c);
		my $o = less(est($c, $u, $gf, 'local'), scaled(est($c, $u, $lf, 'local'), 1.15));
		scaled_item($c, $u, 'local', $o, 1.15, $lf, $lf, $gf) } @mixed_bal);
	my $c = $unbal;
	my $u = lo($c);
	claim($sec, "unbalanced queues: $lf has the best total response of the $name versions (Fig. $fu)",
	      item($c, $u, 'total', best_of($lf, ests($c, $u, 'total', @$pols)), @$pols));
	my $o = all_of(worst_of($lf, ests($c, $u, 'global', @$pols)),
		       less(est($c, $u, $rd, 'global'), est($c, $u, $lf, 'global')));
	claim($sec, "unbalanced queues: $lf is the worst for the global queue, $rd much better (Fig. $fu)",
	      item($c, $u, 'global', $o, @$pols));
}

# 3.2 comparison of the policies (best versions) ---------------------------
my @rep_bal = ('GS', 'LS-DO', 'GP', 'LP-GF', 'EQ-GF', 'LQ');
my @rep_unbal = ('GS', 'LS-OR', 'GP', 'LP-LF', 'EQ-LF', 'LQ');
my @two = ('GP', 'LP-GF', 'EQ-GF', 'LQ');		# both kinds of queue
my @two_unbal = ('GP', 'LP-LF', 'EQ-LF', 'LQ');
{
	my $c = case_id('a');
	my $u = lo($c);
	claim('3.2.1', 'Fig. 9 (25, 25, 25, 25): LS has the best total response',
	      item($c, $u, 'total', best_of('LS-DO', ests($c, $u, 'total', @rep_bal)), @rep_bal));
	my @rest = grep { $_ ne 'GP' } @rep_bal;
	my $gp = item($c, $u, 'total', worst_of('GP', ests($c, $u, 'total', @rep_bal)), @rep_bal);
	claim('3.2.1', 'Fig. 9: GP is the worst, LQ the second worst',
	      [$gp->[0], "GP the worst: $gp->[1]"],
	      [worst_of('LQ', ests($c, $u, 'total', @rest)), 'LQ the worst of the others']);
	claim('3.2.1', 'Fig. 9: GP gives the global queue the best response of all policies',
	      item($c, $u, 'global', best_of('GP', ests($c, $u, 'global', @two)), @two));
	my $h = hi($c);
	my $sats = join(', ', grep { sat($c, $h, $_) } @all) || 'none';
	# no interval here: saturated or not, per policy
	my @items = map { [sat($c, $h, $_) ? 'holds' : 'fails', short($c, $h, $_)] } 'GS', 'LQ';
	$items[0][1] = label($c, $h, 'total') . " (saturated: $sats): $items[0][1]";
	claim('3.2.1', 'Fig. 9, higher utilization: GS and LQ are saturated', @items);
}
{
	my @cs = map { case_id($_) } 'c', 'e';	# Figs. 10, 11
	my @others = ('GS', 'LS-DO', 'GP', 'LQ');
	# both LP and EQ better than every other policy
	claim('3.2.1', 'Figs. 10, 11 ((50,0,0,50), (50,25,25,0)): LP and EQ perform best (each better than GS, LS, GP and LQ)',
	      map { my $c = $_; my $u = lo($c);
		item($c, $u, 'total', all_of(map { best_of($_, ests($c, $u, 'total', $_, @others)) }
					     'LP-GF', 'EQ-GF'), @rep_bal) } @cs);
	claim('3.2.1', 'Figs. 10, 11: GP is clearly worse than EQ (> 1.1 ×) when many jobs have 3-4 components',
	      map { my $c = $_; my $u = lo($c);
		my $o = less(scaled(est($c, $u, 'EQ-GF'), 1.1), est($c, $u, 'GP'));
		scaled_item($c, $u, 'total', $o, 1.1, 'EQ-GF', 'GP', 'EQ-GF') } @cs);
	my $g = case_id('g');				# Fig. 12
	claim('3.2.1', 'Fig. 12 (50, 50, 0, 0): EQ is slightly better than LP',
	      item($g, lo($g), 'total', less(est($g, lo($g), 'EQ-GF'), est($g, lo($g), 'LP-GF')),
		   'EQ-GF', 'LP-GF'));
}
{
	my @cs = map { case_id($_) } 'h', 'i';	# Figs. 13, 14
	claim('3.2.1', 'Figs. 13, 14 (80% and 90% local jobs): EQ has the best total response',
	      map { my $c = $_; item($c, lo($c), 'total',
		best_of('EQ-GF', ests($c, lo($c), 'total', @rep_bal)), @rep_bal) } @cs);
	# "approaches": EQ is the best there, so GS is worse, but close
	my $c = case_id('i');
	my $u = lo($c);
	claim('3.2.1', 'Fig. 14 (90% local): GS approaches EQ (worse than EQ, but within 15%)',
	      scaled_item($c, $u, 'total', approaches(est($c, $u, 'GS'), est($c, $u, 'EQ-GF'), 1.15),
			  1.15, 'EQ-GF', 'GS', 'EQ-GF'));
	claim('3.2.1', 'Figs. 13, 14: LP delays the global jobs more than EQ does',
	      map { my $c = $_; my $u = lo($c); item($c, $u, 'global',
		less(est($c, $u, 'EQ-GF', 'global'), est($c, $u, 'LP-GF', 'global')),
		'LP-GF', 'EQ-GF') } @cs);
}
{
	my $c = case_id('b');
	claim('3.2.2', 'Fig. 15 (only single-component jobs): GS beats LS (it load-balances with WF)',
	      map { my $u = $_; item($c, $u, 'total', less(est($c, $u, 'GS'), est($c, $u, 'LS-DO')),
				    'GS', 'LS-DO') } @{ $c->{u} });
	my @cs = map { case_id($_) } 'd', 'f';
	claim('3.2.2', 'Figs. 16, 17 (only multi-component jobs): LS beats GS (a backfilling window of 4)',
	      map { my $c = $_; my $u = lo($c); item($c, $u, 'total',
		less(est($c, $u, 'LS-DO'), est($c, $u, 'GS')), 'LS-DO', 'GS') } @cs);
}
{
	my $c = $unbal;
	my $u = lo($c);
	my $ls = est($c, $u, 'LS-OR');
	claim('3.2.3', 'Fig. 18 (unbalanced): EQ and LP beat LS-OR',
	      map { item($c, $u, 'total', less(est($c, $u, $_), $ls), $_, 'LS-OR') } 'EQ-LF', 'LP-LF');
	claim('3.2.3', 'Fig. 18: LP-LF slightly worse than EQ-LF',
	      item($c, $u, 'total', less(est($c, $u, 'EQ-LF'), est($c, $u, 'LP-LF')), 'LP-LF', 'EQ-LF'));
}

# 3.3 local versus global ---------------------------------------------------
{
	# the policies with both kinds of queue, in the versions of the case
	my $pols = sub { return $_[0]{bal} ? @two : @two_unbal };
	claim('3.3', 'LP gives the best response for local jobs (of GP, LP, EQ, LQ)',
	      map { my $c = $_; my @p = $pols->($c); item($c, lo($c), 'local',
		best_of($p[1], ests($c, lo($c), 'local', @p)), @p) } @mixed);
	claim('3.3', 'GP gives the best response for global jobs',
	      map { my $c = $_; my @p = $pols->($c); item($c, lo($c), 'global',
		best_of('GP', ests($c, lo($c), 'global', @p)), @p) } @mixed);
	claim('3.3', 'EQ is better than LP for the global queue',
	      map { my $c = $_; my $u = lo($c); item($c, $u, 'global',
		less(est($c, $u, 'EQ-GF', 'global'), est($c, $u, 'LP-GF', 'global')),
		'EQ-GF', 'LP-GF') } @mixed_bal);
	claim('3.3', 'LP is better than EQ for the local queues',
	      map { my $c = $_; my $u = lo($c); item($c, $u, 'local',
		less(est($c, $u, 'LP-GF', 'local'), est($c, $u, 'EQ-GF', 'local')),
		'LP-GF', 'EQ-GF') } @mixed_bal);
	claim('3.3', 'for both EQ and LP the GF version gives the better total in most cases',
	      map { my $c = $_; my $u = lo($c); item($c, $u, 'total',
		all_of(map { less(est($c, $u, "$_-GF"), est($c, $u, "$_-LF")) } 'EQ', 'LP'),
		'EQ-GF', 'EQ-LF', 'LP-GF', 'LP-LF') } @mixed_bal);
}

# --------------------------------------------------------------- write

my $md = "$out/repro-coalloc.md";
open(my $fh, '>', $md) or die "$md: $!\n";
my $nclaims = @claims;
# the findings by verdict, in the order of the summary
# count($k, $one, $many): "1 holds", "2 hold"
sub count { my ($k, $one, $many) = @_; return "$k " . ($k == 1 ? $one : $many) }
my @classes = ('holds', 'mostly holds', 'within noise', 'mixed',
	       'mostly does not hold', 'does not hold');
my %n = map { my $v = $_; ($v => scalar(grep { $_->{class} eq $v } @claims)) } @classes;
print $fh <<"EOT";
# Reproduction: Bucur and Epema, priorities among multiple queues for co-allocation

Generated by `make repro-coalloc` (contribs/sim/repro-coalloc.pl driving
`coalloc-sim`, which runs the policies of `lib/coalloc`).  Run time: ${elapsed} s.
The charts are PNG files next to the generated report
(`build/repro-coalloc/` by default); `doc/repro-coalloc.md` is a copy of
the report without them.

**Setup** (the paper's section 3): 4 sites x 32 processors; component
sizes from D(0.9) on [1, 8] (p_i proportional to 0.9^i, tripled for powers
of two), each component drawn independently; exponential service times,
mean 1; Poisson arrivals at the offered utilization given (no
communication is modelled, so gross and net utilization coincide);
single-component jobs spread over the local queues evenly, or 40/20/20/20
in the unbalanced case.  $jobs jobs per run, the first 10% not measured,
$reps replications (seeds $seed..@{[$seed + $reps - 1]}), every policy on the
same job streams; ± is the 95% confidence half-width over the
replications.  **SAT** marks a policy whose queues grow without bound: the
mean backlog seen by arrivals in the last quarter of a run exceeds 1.5
times that of the second quarter plus 20 jobs, in at least half of the
replications (its mean response is then only a lower bound: it counts
as slower than any unsaturated policy in the comparisons below).

The paper gives no utilization values in its text; as it says, "the
utilizations are chosen high enough so that at least one of the policies
is close to the maximum utilization".  We use, per case, the highest
utilization of a 0.02 grid at which no policy saturated in a scan, and a
higher one where some do, as in section 3.2.1 (for (100, 0, 0, 0) every
policy saturates between 0.94 and 0.96, so its second point is 0.93).
Variant comparisons (3.1) and the policy comparisons use the first one.

## Summary

Of the $nclaims findings, @{[ count($n{holds}, 'holds', 'hold') ]} in our runs,
@{[ count($n{'mostly holds'}, 'mostly holds', 'mostly hold') ]}, @{[ count($n{'within noise'}, 'is within noise', 'are within noise') ]},
@{[ count($n{mixed}, 'is mixed', 'are mixed') ]}, @{[ count($n{'mostly does not hold'}, 'mostly does not hold', 'mostly do not hold') ]} and
@{[ count($n{'does not hold'}, 'does not hold', 'do not hold') ]}.

**The rule.** In each case a finding speaks about, a difference between
two mean responses counts only when it exceeds the length of the overlap
of their 95% confidence intervals (for partly overlapping intervals of
equal half-width h, a difference larger than h); otherwise that case is
*within noise*.  A saturated policy is slower than any unsaturated one,
and two saturated ones do not compare.  The runs of all policies use the
same job streams, which makes their differences surer than the intervals
say; the rule does not exploit that, so it is conservative in that
respect.  A finding *holds* when it holds in every case, *mostly holds*
when it holds in strictly more than half of them, *does not hold* or
*mostly does not hold* likewise, is *within noise* when every case is,
and is *mixed* otherwise; the counts per case follow the verdict, and the
cases within noise or against the finding are marked in the last column.

| section | finding of the paper | verdict | our numbers (mean response, total unless said) |
|---|---|---|---|
EOT
for my $cl (@claims) {
	print $fh "| $cl->{section} | $cl->{text} | **$cl->{verdict}** | $cl->{evidence} |\n";
}
print $fh "\n## Table 1: the ten cases\n\n| case | % 1-comp. | % 2-comp. | % 3-comp. | % 4-comp. | balanced | utilizations | paper figure |\n|---|---|---|---|---|---|---|---|\n";
for my $c (@cases) {
	print $fh "| $c->{id} | " . join(' | ', @{ $c->{comp} }) . ' | ' . ($c->{bal} ? 'yes' : 'no') .
		" | " . join(', ', @{ $c->{u} }) . " | $c->{fig} |\n";
}
print $fh "\n## Results per case\n\nMean response time (total, jobs of the local queues, jobs of the global queue) and achieved utilization; one chart per case and utilization next to this file.\n";
for my $c (@cases) {
	for my $u (@{ $c->{u} }) {
		my $png = $png{ $c->{id} }{$u};
		$png =~ s{.*/}{};
		print $fh "\n### Case $c->{id}: " . case_name($c) . ", utilization $u\n\n![case $c->{id} at $u]($png)\n\n";
		print $fh "| policy | total | local queues | global queue | utilization |\n|---|---|---|---|---|\n";
		for my $p (@all) {
			my $x = r($c, $u, $p);
			printf $fh "| %s | %s | %s | %s | %.3f |\n", $p, fmt($c, $u, $p, 'total'),
				fmt($c, $u, $p, 'local'), fmt($c, $u, $p, 'global'), $x->{utilization};
		}
	}
}
print $fh <<'EOT';

## Notes

- Policies are implemented exactly as the paper's section 2.5 defines
  them (see `lib/coalloc/engine.h`): FCFS queues; rounds over the enabled
  queues with at most one start per queue per round; a queue whose head
  does not fit is disabled until the next departure; the enable orders of
  the LS, LP and EQ variants; GP's, LP's and LQ's holds re-evaluated at
  every visit.  Aging is off, as in the paper.
- With 25% or fewer single-component jobs the local queues are mostly
  empty, so LP-x and EQ-x behave almost alike (LP only differs while no
  local queue is empty).
EOT
close($fh);
print STDERR "repro-coalloc: wrote $md (of $nclaims findings: " .
	join(', ', map { "$_ $n{$_}" } @classes) . ")\n";
