#!/usr/bin/perl
# include-cycles.pl [DIR]: the include graph of the tree's C sources (the
# files git tracks), file by file and folder by folder, and every cycle in
# either (a strongly connected component of more than one node); and the
# floors: lib/ (the pure cores) includes nothing above it (plugins/,
# agent/, shim/, contribs/).  Quoted includes are found as the compiler
# finds them: beside the including file, then under the build's -I roots.
# Prints the counts, each cycle and each arrow up; exits 1 when there is
# one.  (testsuite/unit/build/test_layers.sh)
#
# SPDX-License-Identifier: GPL-2.0-or-later
use strict;
use warnings;
use File::Basename qw(dirname);

my $root = shift // '.';
chdir $root or die "$root: $!\n";
my @roots = qw(lib compat agent testsuite/tap plugins/spank_cosched);
my @files = grep { /\.[ch]$/ && !m{^build/} } split /\0/, `git ls-files -z`;
my %known = map { $_ => 1 } @files;

sub resolve {
	my ($from, $name) = @_;
	for my $dir (dirname($from), @roots) {
		my $p = "$dir/$name";
		1 while $p =~ s{(^|/)[^/.][^/]*/\.\./}{$1};
		$p =~ s{^\./}{};
		return $p if $known{$p};
	}
	return undef;
}

my (%file_edges, %dir_edges, @up);
for my $f (@files) {
	open my $fh, '<', $f or die "$f: $!\n";
	while (<$fh>) {
		next unless /^\s*#\s*include\s+"([^"]+)"/;
		my $to = resolve($f, $1) // next;
		next if $to eq $f;
		$file_edges{$f}{$to} = 1;
		push @up, "$f -> $to" if $f =~ m{^lib/} && $to !~ m{^(lib|compat)/};
		my ($a, $b) = (dirname($f), dirname($to));
		$dir_edges{$a}{$b} = 1 if $a ne $b;
	}
}

# Tarjan's strongly connected components.
sub sccs {
	my ($g) = @_;
	my ($index, @stack, %on, %idx, %low, @out) = (0);
	my $visit;
	$visit = sub {
		my ($v) = @_;
		$idx{$v} = $low{$v} = $index++;
		push @stack, $v;
		$on{$v} = 1;
		for my $w (sort keys %{ $g->{$v} // {} }) {
			if (!exists $idx{$w}) {
				$visit->($w);
				$low{$v} = $low{$w} if $low{$w} < $low{$v};
			} elsif ($on{$w}) {
				$low{$v} = $idx{$w} if $idx{$w} < $low{$v};
			}
		}
		return if $low{$v} != $idx{$v};
		my @c;
		while (1) {
			my $w = pop @stack;
			delete $on{$w};
			push @c, $w;
			last if $w eq $v;
		}
		push @out, [sort @c] if @c > 1;
	};
	my %nodes = map { $_ => 1 } keys %$g, map { keys %$_ } values %$g;
	$visit->($_) for grep { !exists $idx{$_} } sort keys %nodes;
	return @out;
}

my $n_file = 0;
$n_file += keys %{ $file_edges{$_} } for keys %file_edges;
my $n_dir = 0;
$n_dir += keys %{ $dir_edges{$_} } for keys %dir_edges;
my @fc = sccs(\%file_edges);
my @dc = sccs(\%dir_edges);
printf "%d files, %d file includes, %d folder arrows: %d file cycles, %d folder cycles, %d includes up from lib/\n",
	scalar @files, $n_file, $n_dir, scalar @fc, scalar @dc, scalar @up;
print "file cycle: @$_\n" for @fc;
print "folder cycle: @$_\n" for @dc;
print "up from lib/: $_\n" for @up;
exit(@fc || @dc || @up ? 1 : 0);
