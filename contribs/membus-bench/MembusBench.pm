# MembusBench.pm - the computations of bench-membus (its report and its
# coordinator-takeover run): the benchmarks' logs read into cumulative
# counts, the common window of a batch and the rates in it, normalized
# throughput and gains, the class of a quantum's running set, and, for
# the takeover, the time without coordination after the coordinator's
# agent was killed and how long a job stayed frozen.  Pure: no I/O, so
# that testsuite/unit/membus_bench/test_bench_membus.pl can check every
# rule.
#
# SPDX-License-Identifier: GPL-2.0-or-later

package MembusBench;

use strict;
use warnings;
use Exporter qw(import);
use List::Util qw(min);

our @EXPORT_OK = qw(mean gain parse_log_lines at common_window window_delta
		    fair_divisor normalized quantum_class takeover_gap
		    coordination_after longest_unrun);

sub mean {
	my $s = 0;
	$s += $_ for @_;
	return @_ ? $s / @_ : undef;
}

# gain(linux, membus): MemBUS against Linux in %, undef without both.
sub gain {
	my ($l, $m) = @_;
	return (defined $l && defined $m && $l > 0) ? 100 * ($m - $l) / $l : undef;
}

# parse_log_lines(LINES): a membench or netbench log as cumulative
# counts [t, count, bytes] from its start, the first [0, 0, 0], the last
# from its done line; { pts, seconds, count }, or undef without a done
# line.  membench counts accesses and the bytes of the lines touched;
# netbench counts iterations and the bytes rank 0 sent and received (its
# progress lines give what it sent, half of that: the exchange is
# symmetric), the figure its done line's net_bytes_per_s and the agent's
# TCP counters give.
sub parse_log_lines {
	my @pts = ([0, 0, 0]);
	my $done;
	for (@_) {
		if (/^membench t=([\d.]+) accesses=(\d+) bytes=(\d+)/) {
			push @pts, [0 + $1, 0 + $2, 0 + $3];
		} elsif (/^netbench t=([\d.]+) iterations=(\d+) bytes=(\d+)/) {
			push @pts, [0 + $1, 0 + $2, 2 * $3];
		} elsif (/^membench done .* seconds=([\d.]+) accesses=(\d+) rate=\S+ mem_bytes_per_s=([\d.]+)/ ||
			 /^netbench done .* seconds=([\d.]+) iterations=(\d+) rate=\S+ net_bytes_per_s=([\d.]+)/) {
			$done = [0 + $1, 0 + $2, $3 * $1];
		}
	}
	return undef unless $done && $done->[0] > 0;
	push @pts, $done;
	return { pts => \@pts, seconds => $done->[0], count => $done->[1] };
}

# at(pts, t, col): column col (1 the count, 2 bytes) at t seconds from
# the start, linearly between the points around it; 0 before the start,
# the last point's after the end.
sub at {
	my ($pts, $t, $col) = @_;
	return 0 if $t <= 0;
	for my $i (1 .. $#$pts) {
		next if $pts->[$i][0] < $t;
		my ($p, $q) = ($pts->[$i - 1], $pts->[$i]);
		my $span = $q->[0] - $p->[0];
		my $f = $span > 0 ? ($t - $p->[0]) / $span : 1;
		return $p->[$col] + $f * ($q->[$col] - $p->[$col]);
	}
	return $pts->[-1][$col];
}

# common_window(skip, RUNS): [last start + skip, first end] of runs
# ({ start, end } on one clock), where all of them run; () when shorter
# than half a second or no run is given.
sub common_window {
	my ($skip, @runs) = @_;
	return () unless @runs;
	my ($a, $e) = (0, 9e99);
	for (@runs) {
		$a = $_->{start} if $_->{start} > $a;
		$e = $_->{end} if $_->{end} < $e;
	}
	$a += $skip;
	return $e - $a >= 0.5 ? ($a, $e) : ();
}

# window_delta(run, from, to, col): what column col of a run ({ start,
# pts }) grew by between the clock times from and to.
sub window_delta {
	my ($run, $from, $to, $col) = @_;
	my ($s, $p) = ($run->{start}, $run->{pts});
	return at($p, $to - $s, $col) - at($p, $from - $s, $col);
}

# fair_divisor(procs, nodes, cpus, host_cpus): how many processes share
# each core when a workload of procs processes runs on nodes nodes of
# cpus CPUs each, pinned to a host of host_cpus cores (slurm-cluster
# --pin: node n on CPUs (n - 1) x cpus mod host_cpus, so nodes overlap
# when the host has fewer).  A job alone is taken to have a core per
# process; its fair share in the workload is its alone rate / divisor.
sub fair_divisor {
	my ($procs, $nodes, $cpus, $host_cpus) = @_;
	my $cores = min($nodes * $cpus, $host_cpus);
	return $cores > 0 ? $procs / $cores : undef;
}

# normalized(rate, alone, divisor): rate against the fair share alone /
# divisor (1.00: the ideal share); undef without an alone rate.
sub normalized {
	my ($rate, $alone, $div) = @_;
	return undef unless defined $rate && $alone && $div;
	return $rate / ($alone / $div);
}

# quantum_class(njobs, ROLES): what ran in one quantum, ROLES holding
# 'heavy' or 'light' per step that ran: hl, hh or ll for two; 'all' for
# every one of njobs (more than two); 'other' otherwise.
sub quantum_class {
	my ($njobs, @roles) = @_;
	if (@roles == 2) {
		my $heavy = grep { $_ eq 'heavy' } @roles;
		return $heavy == 2 ? 'hh' : $heavy == 1 ? 'hl' : 'll';
	}
	return 'all' if $njobs > 2 && @roles == $njobs;
	return 'other';
}

# takeover_gap(kill, q_s, dead, COORD): one surviving agent's history
# after the coordinator dead was killed at kill (wall clock, s): COORD
# maps each quantum it recorded to the node whose decision it applied
# ('' when it had none and ran everything).  Quantum q starts at q x q_s.
# Returns { first_q, first_at, gap_s, coordinator, fallback,
# still_dead }: the first quantum starting after the kill that a live
# coordinator decided, its start, the time from the kill to it, who
# decided it, the quanta between without a decision, and those still
# decided by dead (decided before it died); first_q undef if none came.
sub takeover_gap {
	my ($kill, $q_s, $dead, $coord) = @_;
	my %r = (fallback => 0, still_dead => 0);
	for my $q (sort { $a <=> $b } keys %$coord) {
		next unless $q * $q_s > $kill;
		my $c = $coord->{$q} // '';
		if ($c eq '') {
			$r{fallback}++;
		} elsif ($c eq $dead) {
			$r{still_dead}++;
		} else {
			@r{qw(first_q first_at coordinator)} = ($q, $q * $q_s, $c);
			$r{gap_s} = $q * $q_s - $kill;
			last;
		}
	}
	return \%r;
}

# coordination_after(COORD, from_q, to_q, dead): the quanta from_q to
# to_q (inclusive) of one agent's history: { quanta, by => { node =>
# n }, fallback, episodes, dead }: how many each coordinator decided,
# how many had no decision, in how many runs of consecutive quanta, and
# how many the dead one decided.  Quanta not recorded are left out.
sub coordination_after {
	my ($coord, $from, $to, $dead) = @_;
	my %r = (quanta => 0, by => {}, fallback => 0, episodes => 0, dead => 0);
	my $prev_fallback = 0;
	for my $q (sort { $a <=> $b } grep { $_ >= $from && $_ <= $to } keys %$coord) {
		my $c = $coord->{$q} // '';
		$r{quanta}++;
		if ($c eq '') {
			$r{fallback}++;
			$r{episodes}++ unless $prev_fallback;
			$prev_fallback = 1;
			next;
		}
		$prev_fallback = 0;
		$r{dead}++ if $c eq $dead;
		$r{by}{$c}++;
	}
	return \%r;
}

# longest_unrun(HIST, ID, FROM_Q): HIST the quantum records of one agent
# (q => {run, estimates_mbs}); the most quanta in a row from FROM_Q on in
# which step ID was on the node (in the estimates) but did not run.  A
# quantum missing from the records ends a streak.  With pairing, a step
# sits out a quantum or two at a time; a step left stopped would sit out
# every one.  (A step's freezer sampled once a second cannot tell: with
# 500 ms quanta and four steps in pairs, a step runs every other quantum
# and the samples may always fall in its frozen half.)
sub longest_unrun {
	my ($hist, $id, $from) = @_;
	my ($longest, $streak, $prev) = (0, 0, undef);
	for my $q (sort { $a <=> $b } grep { $_ >= $from } keys %$hist) {
		my $r = $hist->{$q};
		my %on = map { (split /=/)[0] => 1 } split ' ', $r->{estimates_mbs} // "";
		my %ran = map { $_ => 1 } split ' ', $r->{run} // "";
		$streak = 0 if defined $prev && $q != $prev + 1;
		$prev = $q;
		if ($on{$id} && !$ran{$id}) {
			$streak++;
			$longest = $streak if $streak > $longest;
		} else {
			$streak = 0;
		}
	}
	return $longest;
}

1;
