#!/usr/bin/perl
# report.pl - the table, the ratios and results.json of bench-sched.
#
#   report.pl --out DIR --jobs N --nodes N --sites S --window SECS
#             --seconds SECS PLUGIN...
#
# Reads DIR/PLUGIN.kv (sdiag's statistics at the end of the window, as
# key=value) and DIR/PLUGIN.samples (one line per main pass seen during
# the window: "second duration_us depth_estimate"), prints a side-by-side
# table with the ratios PLUGIN/linear, and writes DIR/results.json.
#
# SPDX-License-Identifier: GPL-2.0-or-later
use strict;
use warnings;
use Getopt::Long;
use JSON::PP;
use POSIX qw(strftime);

my %opt;
GetOptions(\%opt, 'out=s', 'jobs=i', 'nodes=i', 'sites=i', 'window=i',
	'seconds=i') or die "report.pl: bad options\n";
my @plugins = @ARGV or die "report.pl: no plugin named\n";

sub num { my $v = shift; defined $v && $v =~ /^-?[0-9.]+$/ ? $v + 0 : undef }

my %res;
for my $p (@plugins) {
	my %kv;
	open my $fh, '<', "$opt{out}/$p.kv" or die "report.pl: $opt{out}/$p.kv: $!\n";
	while (<$fh>) {
		chomp;
		$kv{$1} = $2 if /^(\w+)=(.*)$/;
	}
	close $fh;

	# Main passes seen one at a time: event passes (default_queue_depth)
	# and full-queue passes (sched_interval), told apart by their depth.
	my (@event, @full);
	if (open my $sf, '<', "$opt{out}/$p.samples") {
		while (<$sf>) {
			my ($t, $us, $depth) = split;
			next unless defined $depth && $us =~ /^\d+$/ && $depth =~ /^-?\d+$/;
			if ($depth * 2 > $opt{jobs}) { push @full, $us } else { push @event, $us }
		}
		close $sf;
	}
	my $mean = sub { return undef unless @_; my $s = 0; $s += $_ for @_; int(0.5 + $s / @_) };
	my $max = sub { my $m; for (@_) { $m = $_ if !defined $m || $_ > $m } $m };
	my $median = sub {
		return undef unless @_;
		my @v = sort { $a <=> $b } @_;
		@v % 2 ? $v[$#v / 2] : int(0.5 + ($v[@v / 2 - 1] + $v[@v / 2]) / 2);
	};
	# the q-quantile, nearest rank: the spread of the event passes
	my $quantile = sub {
		my ($q, @v) = @_;
		return undef unless @v;
		@v = sort { $a <=> $b } @v;
		my $rank = int($q * @v + 0.999999);
		return $v[($rank < 1 ? 1 : $rank) - 1];
	};

	my $window = num($kv{window_s}) || $opt{window};
	my $per_min = sub { my ($x) = @_; defined $x && $window ? 0 + sprintf('%.3f', $x * 60 / $window) : undef };
	my $diff = sub { my ($k) = @_; my ($x, $y) = (num($kv{"end_$k"}), num($kv{"start_$k"}));
		defined $x && defined $y ? $x - $y : undef };
	# select/coalloc's own time (its timers and threads; bench-sched)
	my ($plugin_costs, $job_test_s);
	if (defined num($kv{end_t_queue_sync_job_read_lock_calls})) {
		my %step;
		for my $t (qw(test_only run_now will_run queue_sync_job_read_lock
			      reasons_job_write_lock status_written job_table_walk)) {
			$step{$t} = { calls => $diff->("t_${t}_calls"),
				seconds => $diff->("t_${t}_seconds"),
				over_10ms => $diff->("t_${t}_over10"),
				cpu_over_10ms => $diff->("t_${t}_cpu_over10"),
				max_ms_since_start => num($kv{"end_t_${t}_max_ms"}),
				cpu_max_ms_since_start => num($kv{"end_t_${t}_cpu_max_ms"}) };
		}
		$job_test_s = 0;
		$job_test_s += $step{$_}{seconds} // 0 for qw(test_only run_now will_run);
		my $threads = $diff->('threads_cpu_s');
		$plugin_costs = {
			steps => \%step,
			job_test_s_per_minute => $per_min->($job_test_s),
			threads_cpu_s_per_minute => $per_min->($threads),
			# job_test runs in slurmctld's scheduler threads, the rest in
			# the plugin's own: together, the plugin's CPU
			plugin_cpu_s_per_minute => $per_min->($job_test_s + ($threads // 0)),
			job_lock_holds_over_10ms => ($step{queue_sync_job_read_lock}{over_10ms} // 0)
				+ ($step{reasons_job_write_lock}{over_10ms} // 0),
			# of their thread's CPU time: the plugin's work, not the
			# wait for a CPU the machine shares
			job_lock_holds_cpu_over_10ms => ($step{queue_sync_job_read_lock}{cpu_over_10ms} // 0)
				+ ($step{reasons_job_write_lock}{cpu_over_10ms} // 0),
		};
	}
	my $sbatch;
	if (open my $sb, '<', "$opt{out}/$p.sbatch") {
		my (@us, $failed);
		while (<$sb>) { chomp; if (/^\d+$/) { push @us, $_ } else { $failed++ } }
		close $sb;
		if (@us) {
			@us = sort { $a <=> $b } @us;
			my $q = sub { my $r = int($_[0] * @us + 0.999999); $us[($r < 1 ? 1 : $r) - 1] / 1000 };
			$sbatch = { n => scalar @us, failed => $failed // 0,
				median_ms => 0 + sprintf('%.1f', $q->(0.5)),
				p99_ms => 0 + sprintf('%.1f', $q->(0.99)),
				max_ms => 0 + sprintf('%.1f', $us[-1] / 1000) };
		}
	}
	my $cycles = num($kv{main_cycles}) // 0;
	$res{$p} = {
		main => {
			mean_us => num($kv{main_mean}),
			max_us => num($kv{main_max}),
			last_us => num($kv{main_last}),
			cycles => $cycles,
			cycles_per_minute => $window ? 0 + sprintf('%.1f', $cycles * 60 / $window) : undef,
			mean_depth => num($kv{main_depth}),
			last_queue_length => num($kv{main_queue}),
			event_passes => { n => scalar @event, mean_us => $mean->(@event),
				median_us => $median->(@event), max_us => $max->(@event),
				p25_us => $quantile->(0.25, @event),
				p75_us => $quantile->(0.75, @event) },
			full_queue_passes => { n => scalar @full, mean_us => $mean->(@full), max_us => $max->(@full) },
		},
		backfill => {
			cycles => num($kv{bf_cycles}) // 0,
			mean_us => num($kv{bf_mean}),
			max_us => num($kv{bf_max}),
			last_us => num($kv{bf_last}),
			mean_depth => num($kv{bf_depth}),
			mean_depth_try => num($kv{bf_depth_try}),
			mean_queue_length => num($kv{bf_queue}),
			mean_table_size => num($kv{bf_table}),
			# what a cycle costs per job it tested, whatever ended it
			per_job_tested_us => (num($kv{bf_mean}) && num($kv{bf_depth}))
				? int(0.5 + $kv{bf_mean} / $kv{bf_depth}) : undef,
		},
		window_s => $window,
		ticks => num($kv{ticks}),
		aligned_on_full_pass => ($kv{aligned} // 0) ? JSON::PP::true : JSON::PP::false,
		pending_start => num($kv{pending_start}),
		pending_end => num($kv{pending_end}),
		running_end => num($kv{running_end}),
		slurmctld_cpu_s_per_minute => $per_min->($diff->('ctld_cpu_s')),
		(plugin_costs => $plugin_costs) x !!$plugin_costs,
		(sbatch => $sbatch) x !!$sbatch,
	};
}

sub ratio {
	my ($a, $b) = @_;
	return undef unless defined $a && defined $b && $b > 0;
	return 0 + sprintf('%.2f', $a / $b);
}

my %ratios;
if ($res{linear}) {
	for my $p (grep { $_ ne 'linear' } @plugins) {
		my ($x, $l) = ($res{$p}, $res{linear});
		$ratios{"$p/linear"} = {
			main_mean => ratio($x->{main}{mean_us}, $l->{main}{mean_us}),
			main_max => ratio($x->{main}{max_us}, $l->{main}{max_us}),
			main_event_mean => ratio($x->{main}{event_passes}{mean_us}, $l->{main}{event_passes}{mean_us}),
			main_event_median => ratio($x->{main}{event_passes}{median_us}, $l->{main}{event_passes}{median_us}),
			main_full_queue => ratio($x->{main}{full_queue_passes}{mean_us}, $l->{main}{full_queue_passes}{mean_us}),
			backfill_mean => ratio($x->{backfill}{mean_us}, $l->{backfill}{mean_us}),
			backfill_max => ratio($x->{backfill}{max_us}, $l->{backfill}{max_us}),
			backfill_per_job => ratio($x->{backfill}{per_job_tested_us}, $l->{backfill}{per_job_tested_us}),
			slurmctld_cpu => ratio($x->{slurmctld_cpu_s_per_minute}, $l->{slurmctld_cpu_s_per_minute}),
			sbatch_median => ratio(($x->{sbatch} // {})->{median_ms}, ($l->{sbatch} // {})->{median_ms}),
			sbatch_p99 => ratio(($x->{sbatch} // {})->{p99_ms}, ($l->{sbatch} // {})->{p99_ms}),
		};
	}
}

# ------------------------------------------------------------ table

sub fmt { defined $_[0] ? $_[0] : '-' }
sub costs { $_[0]{plugin_costs} }
my @rows = (
	['main: mean cycle (us)', sub { $_[0]{main}{mean_us} }],
	['main: max cycle (us)', sub { $_[0]{main}{max_us} }],
	['main: last cycle (us)', sub { $_[0]{main}{last_us} }],
	['main: cycles in window', sub { $_[0]{main}{cycles} }],
	['main: cycles per minute', sub { $_[0]{main}{cycles_per_minute} }],
	['main: mean depth cycle', sub { $_[0]{main}{mean_depth} }],
	['main: event passes, n', sub { $_[0]{main}{event_passes}{n} }],
	['main: event passes, mean (us)', sub { $_[0]{main}{event_passes}{mean_us} }],
	['main: event passes, median (us)', sub { $_[0]{main}{event_passes}{median_us} }],
	['main: event passes, 25th-75th pct (us)', sub { fmt($_[0]{main}{event_passes}{p25_us}) . '-' . fmt($_[0]{main}{event_passes}{p75_us}) }],
	['main: event passes, max (us)', sub { $_[0]{main}{event_passes}{max_us} }],
	['main: full-queue passes, n', sub { $_[0]{main}{full_queue_passes}{n} }],
	['main: full-queue pass, mean (us)', sub { $_[0]{main}{full_queue_passes}{mean_us} }],
	['backfill: cycles in window', sub { $_[0]{backfill}{cycles} }],
	['backfill: mean cycle (us)', sub { $_[0]{backfill}{mean_us} }],
	['backfill: max cycle (us)', sub { $_[0]{backfill}{max_us} }],
	['backfill: mean depth', sub { $_[0]{backfill}{mean_depth} }],
	['backfill: mean table size', sub { $_[0]{backfill}{mean_table_size} }],
	['backfill: per job tested (us)', sub { $_[0]{backfill}{per_job_tested_us} }],
	['pending jobs, start / end', sub { fmt($_[0]{pending_start}) . ' / ' . fmt($_[0]{pending_end}) }],
	['slurmctld CPU (s a minute)', sub { $_[0]{slurmctld_cpu_s_per_minute} }],
	['sbatch: n / failed', sub { $_[0]{sbatch} ? "$_[0]{sbatch}{n} / $_[0]{sbatch}{failed}" : undef }],
	['sbatch: median (ms)', sub { ($_[0]{sbatch} // {})->{median_ms} }],
	['sbatch: 99th percentile (ms)', sub { ($_[0]{sbatch} // {})->{p99_ms} }],
	['plugin CPU (s a minute)', sub { (costs($_[0]) // {})->{plugin_cpu_s_per_minute} }],
	['  job_test (s a minute)', sub { (costs($_[0]) // {})->{job_test_s_per_minute} }],
	['  its threads (s a minute)', sub { (costs($_[0]) // {})->{threads_cpu_s_per_minute} }],
	['job lock: syncs / over 10 ms', sub { my $c = costs($_[0]) or return undef;
		my $q = $c->{steps}{queue_sync_job_read_lock}; fmt($q->{calls}) . ' / ' . fmt($q->{over_10ms}) }],
	['job lock: syncs, CPU over 10 ms', sub { my $c = costs($_[0]) or return undef;
		fmt($c->{steps}{queue_sync_job_read_lock}{cpu_over_10ms}) }],
	['job lock: sync, ms held', sub { my $c = costs($_[0]) or return undef;
		my $q = $c->{steps}{queue_sync_job_read_lock};
		$q->{calls} ? sprintf('%.2f mean', 1000 * $q->{seconds} / $q->{calls}) : undef }],
	['job table walks / over 10 ms', sub { my $c = costs($_[0]) or return undef;
		my $q = $c->{steps}{job_table_walk}; fmt($q->{calls}) . ' / ' . fmt($q->{over_10ms}) }],
	['job table walk, ms', sub { my $c = costs($_[0]) or return undef;
		my $q = $c->{steps}{job_table_walk};
		$q->{calls} ? sprintf('%.2f mean', 1000 * $q->{seconds} / $q->{calls}) : undef }],
	['job lock: reasons / over 10 ms', sub { my $c = costs($_[0]) or return undef;
		my $q = $c->{steps}{reasons_job_write_lock}; fmt($q->{calls}) . ' / ' . fmt($q->{over_10ms}) }],
	['job lock: longest hold since start', sub { my $c = costs($_[0]) or return undef;
		my ($a, $b) = map { $c->{steps}{$_}{max_ms_since_start} // 0 } qw(queue_sync_job_read_lock reasons_job_write_lock);
		sprintf('%.2f ms', $a > $b ? $a : $b) }],
	['job lock: most CPU in one hold', sub { my $c = costs($_[0]) or return undef;
		my ($a, $b) = map { $c->{steps}{$_}{cpu_max_ms_since_start} } qw(queue_sync_job_read_lock reasons_job_write_lock);
		return undef unless defined $a;
		$b //= 0;
		sprintf('%.2f ms', $a > $b ? $a : $b) }],
);
my $w = 34;
printf "\nbench-sched: main scheduling cycle (sdiag), %d pending jobs, %d nodes (%d sites), %d s window\n\n",
	$opt{jobs}, $opt{nodes}, $opt{sites}, $opt{window};
printf "%-${w}s" . (" %12s" x @plugins) . "\n", '', @plugins;
for my $r (@rows) {
	printf "%-${w}s" . (" %12s" x @plugins) . "\n", $r->[0],
		map { fmt($r->[1]->($res{$_})) } @plugins;
}
print "\n";
for my $k (sort keys %ratios) {
	my $r = $ratios{$k};
	printf "ratio %s: main mean %s, main max %s | event passes: mean %s, median %s | full-queue pass %s | backfill mean %s, max %s, per job tested %s | slurmctld CPU %s | sbatch median %s, 99th pct %s\n",
		$k, map { fmt($r->{$_}) } qw(main_mean main_max main_event_mean
			main_event_median main_full_queue backfill_mean backfill_max
			backfill_per_job slurmctld_cpu sbatch_median sbatch_p99);
}
# Backfill plans each job it cannot start now at the start time the
# plugin's will-run test gives; a table of one entry under 2,000 waiting
# jobs means no job got a start time, and such a cycle is not comparable.
for my $p (@plugins) {
	my $b = $res{$p}{backfill};
	next unless $b->{cycles} && defined $b->{mean_table_size};
	printf "warning: %s: backfill planned no job (mean table size %d): will-run gave no start times, its backfill cycle is not comparable\n",
		$p, $b->{mean_table_size} if $b->{mean_table_size} <= 1;
}
printf "total run time: %d s\n", $opt{seconds};

my %doc = (
	benchmark => 'bench-sched',
	date => strftime('%Y-%m-%dT%H:%M:%SZ', gmtime),
	host => (POSIX::uname())[1],
	cpus => 0 + (grep { /^processor\s*:/ } do { open my $c, '<', '/proc/cpuinfo'; <$c> }),
	slurm => do { my $v = `sinfo --version 2>/dev/null`; chomp $v; $v },
	nodes => $opt{nodes},
	sites => $opt{sites},
	pending_jobs => $opt{jobs},
	window_s => $opt{window},
	run_time_s => $opt{seconds},
	plugins => \%res,
	ratios => \%ratios,
);
open my $jf, '>', "$opt{out}/results.json" or die "report.pl: $opt{out}/results.json: $!\n";
print $jf JSON::PP->new->pretty->canonical->encode(\%doc);
close $jf;
print "results: $opt{out}/results.json\n";
