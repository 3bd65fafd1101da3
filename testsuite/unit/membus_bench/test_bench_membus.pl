#!/usr/bin/perl
# test_bench_membus.pl - the computations of bench-membus
# (contribs/membus-bench/MembusBench.pm): membench and netbench logs read
# into counts, interpolation, the common window and the rates in it, the
# fair share and normalized throughput, gains, the class of a quantum,
# and, for the coordinator takeover, the time without coordination, who
# decided the quanta after, and how long a step stayed frozen.  Run by
# test_bench_membus.sh with contribs/membus-bench on @INC.
#
# SPDX-License-Identifier: GPL-2.0-or-later

use strict;
use warnings;
use Test::More;
use MembusBench qw(mean gain parse_log_lines at common_window window_delta
		   fair_divisor normalized quantum_class takeover_gap
		   coordination_after longest_unrun);

sub near { my ($x, $y) = @_; return defined $x && abs($x - $y) < 1e-9 }

# mean, gain -----------------------------------------------------------------
is(mean(1, 2, 6), 3, 'mean');
is(mean(), undef, 'mean of nothing: undef');
ok(near(gain(0.8, 1.0), 25), 'gain: 0.8 -> 1.0 is +25 %');
ok(near(gain(1.0, 0.8), -20), 'gain: 1.0 -> 0.8 is -20 %');
is(gain(undef, 1), undef, 'gain without Linux: undef');
is(gain(0, 1), undef, 'gain from 0: undef');

# logs -------------------------------------------------------------------------
my $mb = parse_log_lines(
	"membench start pid=1 variant=max words=8 stride=8 line_words=8\n",
	"membench t=0.5 accesses=100 bytes=6400\n",
	"membench t=1.0 accesses=300 bytes=19200\n",
	"membench done variant=max words=8 stride=8 seconds=2.000 accesses=500 rate=250.0 mem_bytes_per_s=16000.0 label=max\n");
is_deeply($mb->{pts}, [[0, 0, 0], [0.5, 100, 6400], [1.0, 300, 19200], [2, 500, 32000]],
	  'membench: points from the progress lines, the last from the done line (bytes = rate x seconds)');
is($mb->{seconds}, 2, 'membench: seconds of the done line');
is($mb->{count}, 500, 'membench: accesses of the done line');

my $nb = parse_log_lines(
	"netbench start ranks=2 bytes=1024\n",
	"netbench t=0.5 iterations=10 bytes=10240\n",
	"netbench done ranks=2 bytes=1024 seconds=1.000 iterations=20 rate=20.0 net_bytes_per_s=40960.0 label=stream\n");
is_deeply($nb->{pts}, [[0, 0, 0], [0.5, 10, 20480], [1, 20, 40960]],
	  'netbench: iterations, and bytes sent and received (twice the sent bytes of a progress line, as the done line counts)');
is(parse_log_lines("membench t=0.5 accesses=100 bytes=6400\n"), undef, 'no done line: undef');
is(parse_log_lines("netbench done ranks=2 bytes=1 seconds=0.000 iterations=0 rate=0.0 net_bytes_per_s=0.0 label=-\n"),
   undef, 'a done line of 0 seconds: undef');

# interpolation ---------------------------------------------------------------
my $pts = $mb->{pts};
is(at($pts, 0, 1), 0, 'at 0: 0');
is(at($pts, -1, 1), 0, 'before the start: 0');
ok(near(at($pts, 0.75, 1), 200), 'halfway between 0.5 and 1.0: 200');
ok(near(at($pts, 1.5, 2), 25600), 'bytes, between 1.0 and 2.0');
is(at($pts, 9, 1), 500, 'after the end: the last count');

# windows -----------------------------------------------------------------------
my @runs = ({ start => 100, end => 110 }, { start => 101, end => 109 }, { start => 100.5, end => 112 });
is_deeply([common_window(1, @runs)], [102, 109], 'window: last start + skip to first end');
is_deeply([common_window(1, { start => 100, end => 101.4 })], [], 'a window under 0.5 s: none');
is_deeply([common_window(1, { start => 100, end => 101.5 })], [101, 101.5], 'a window of 0.5 s counts');
is_deeply([common_window(1)], [], 'no runs: no window');
my $run = { start => 100, pts => $pts };
ok(near(window_delta($run, 100.5, 101, 1), 200), 'delta: 100 at 0.5 s to 300 at 1 s');
ok(near(window_delta($run, 100.75, 101.5, 1), 200), 'delta, interpolated at both ends (200 to 400)');

# fair share and normalization ----------------------------------------------------
is(fair_divisor(4, 1, 2, 2), 2, 'W1/W2: 4 processes on a node of 2 CPUs: 2 per core');
is(fair_divisor(8, 2, 2, 2), 4, 'W3 on a 2-core host: both nodes on the same 2 cores, 4 per core');
is(fair_divisor(8, 2, 2, 4), 2, 'W3 on a 4-core host: each node its own cores, 2 per core');
is(fair_divisor(8, 2, 2, 64), 2, 'a host larger than the nodes: the nodes\' CPUs count');
is(fair_divisor(4, 1, 2, 0), undef, 'no cores: undef');
ok(near(normalized(50, 100, 2), 1), 'rate at alone / 2 with divisor 2: 1.00');
ok(near(normalized(50, 100, 4), 2), '... with divisor 4: 2.00');
is(normalized(50, undef, 2), undef, 'no alone rate: undef');
is(normalized(undef, 100, 2), undef, 'no rate: undef');

# quanta --------------------------------------------------------------------------
is(quantum_class(4, qw(heavy light)), 'hl', 'heavy + light');
is(quantum_class(4, qw(light heavy)), 'hl', 'light + heavy: the same');
is(quantum_class(4, qw(heavy heavy)), 'hh', 'heavy + heavy');
is(quantum_class(4, qw(light light)), 'll', 'light + light');
is(quantum_class(4, qw(heavy light heavy light)), 'all', 'all four (a forced quantum)');
is(quantum_class(4, qw(heavy)), 'other', 'one');
is(quantum_class(4, qw(heavy light light)), 'other', 'three of four');
is(quantum_class(2, qw(heavy light)), 'hl', 'two of two: a pair, not all');

# takeover --------------------------------------------------------------------------
# quanta of 0.5 s; the kill at 1000.3 s, inside quantum 2000 (1000.0-1000.5)
my %h = (1999 => 'n1', 2000 => 'n1', 2001 => 'n1', 2002 => '', 2003 => '',
	 2004 => '', 2005 => '', 2006 => 'n2', 2007 => 'n2', 2008 => '');
my $gap = takeover_gap(1000.3, 0.5, 'n1', \%h);
is($gap->{first_q}, 2006, 'takeover: the first quantum a live coordinator decided');
is($gap->{coordinator}, 'n2', '... by n2');
ok(near($gap->{gap_s}, 1003 - 1000.3), '... 2.7 s after the kill');
is($gap->{fallback}, 4, '... after 4 quanta without a decision');
is($gap->{still_dead}, 1, '... and one the dead one had decided before it died');
is(takeover_gap(1000.0, 0.5, 'n1', { 2000 => 'n2', 2001 => 'n2' })->{first_q}, 2001,
   'a quantum that starts at the kill is not after it, the next one is');
my $none = takeover_gap(1000.3, 0.5, 'n1', { 2001 => '', 2002 => 'n1' });
is($none->{first_q}, undef, 'no live coordinator came: undef');
is($none->{fallback}, 1, '... one quantum without a decision');
is(takeover_gap(1000.3, 0.5, 'n1', { 2001 => undef, 2002 => 'n3' })->{fallback}, 1,
   'an undefined coordinator is a fallback');

my $after = coordination_after({ 10 => 'n2', 11 => 'n2', 12 => '', 13 => '', 14 => 'n2',
				 15 => '', 16 => 'n1', 17 => 'n3', 30 => 'n2' }, 10, 17, 'n1');
is($after->{quanta}, 8, 'after: the quanta from..to');
is_deeply($after->{by}, { n2 => 3, n1 => 1, n3 => 1 }, '... by coordinator');
is($after->{fallback}, 3, '... without a decision');
is($after->{episodes}, 2, '... in two runs');
is($after->{dead}, 1, '... one decided by the dead one');

# sat out -------------------------------------------------------------------------
my %uh = (
	10 => { run => "1.0 3.0", estimates_mbs => "1.0=1/0 2.0=1/0 3.0=1/0" },
	11 => { run => "3.0", estimates_mbs => "1.0=1/0 2.0=1/0 3.0=1/0" },
	12 => { run => "1.0 3.0", estimates_mbs => "1.0=1/0 2.0=1/0 3.0=1/0" },
	14 => { run => "3.0", estimates_mbs => "2.0=1/0 3.0=1/0" },
	15 => { run => "3.0", estimates_mbs => "2.0=1/0 3.0=1/0" },
);
is(longest_unrun(\%uh, "2.0", 0), 3, 'unrun 10-12, then 14-15 after a missing quantum: 3');
is(longest_unrun(\%uh, "1.0", 0), 1, 'sat out one quantum, ran, then left the node: 1');
is(longest_unrun(\%uh, "2.0", 14), 2, 'from quantum 14 on: 2');
is(longest_unrun(\%uh, "3.0", 0), 0, 'ran every quantum: 0');
is(longest_unrun({}, "1.0", 0), 0, 'no records: 0');

done_testing();
