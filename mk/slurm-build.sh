#!/bin/bash
# mk/slurm-build.sh SERIES LINK - Slurm SERIES (a "trixie" or "upstream"
# line of mk/slurm-versions) built from upstream's source, for hosts whose
# own packages are another release.
#
#  1. the tarball and the SHA-256 it must have:
#     - trixie: Debian 13's upstream tarball; a deb-src entry for trixie
#       in a sources file of our own, and apt gives the URI and SHA-256 of
#       slurm-wlm_VERSION.orig.tar.gz (Debian's packaging tarball of that
#       version may 404: it is not used);
#     - upstream: slurm-VERSION.tar.bz2 as upstream releases it, from the
#       directory COALLOC_SLURM_TARBALLS (default: ../shared/slurm beside
#       the source tree), with the SHA-256 its SHA256SUMS lists (nothing
#       is downloaded: CI machines have the directory);
#  2. the tarball, checked against that SHA-256;
#  3. configure with the options a site uses (munge, pmix, hwloc, json,
#     MySQL/MariaDB accounting storage for slurmdbd,
#     --enable-multiple-slurmd), make, make install into DIR/prefix;
#  4. LINK -> DIR, with DIR = $COALLOC_SLURM_CACHE/slurm-VERSION-HASH
#     (default /var/cache/coalloc), HASH over the version, the tarball,
#     the options and the host's Debian release: a fresh clone on the same
#     host reuses the build, a change of any of those rebuilds it.
#
# DIR/.coalloc-built is written last: a build cut short is redone.  A lock
# keeps two builds of one DIR apart (CI and a work tree at once).
#
# SPDX-License-Identifier: GPL-2.0-or-later
set -euo pipefail

series=${1:?usage: slurm-build.sh SERIES LINK}
link=${2:?usage: slurm-build.sh SERIES LINK}
here=$(cd "$(dirname "$0")" && pwd)
say() { echo "make slurm-src SLURM=$series: $*"; }
die() { echo "make slurm-src SLURM=$series: error: $*" >&2; exit 1; }

versions=${COALLOC_SLURM_VERSIONS:-$here/slurm-versions}	# tests give their own
read -r _ version source _ < <(awk -v s="$series" '$1 == s' "$versions") ||
	die "not in mk/slurm-versions; supported: $(awk '/^[0-9]/ {printf "%s ", $1}' "$versions")"
case $source in
trixie|upstream) ;;
installed) die "Slurm $series is the installed one: use mk/slurm-src.sh" ;;
*) die "mk/slurm-versions: unknown source '$source' for $series" ;;
esac

cache=${COALLOC_SLURM_CACHE:-/var/cache/coalloc}
mkdir -p "$cache/dl" 2>/dev/null || die "cannot create $cache (set COALLOC_SLURM_CACHE)"

# ------------------------------------------------------------ the tarball
# trixie: fetched once into the cache, its SHA-256 from apt kept beside it
fetch_trixie() {
	local sources=/etc/apt/sources.list.d/slurm-coalloc-trixie.sources uri url
	tarball=$cache/dl/slurm-wlm_$version.orig.tar.gz
	if [[ ! -f $tarball.sha256 ]]; then
		uri=$(orig_uri || true)
		if [[ -z $uri ]]; then
			((EUID == 0)) || die "apt knows no source of slurm-wlm $version; run as root once to add $sources"
			cat > "$sources" <<-SRC
			Types: deb-src
			URIs: http://deb.debian.org/debian
			Suites: trixie
			Components: main
			Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
			SRC
			say "added $sources"
			apt-get update -q >/dev/null
			uri=$(orig_uri || true)
			[[ -n $uri ]] || die "Debian trixie has no source of slurm-wlm $version"
		fi
		read -r url sha <<< "$uri"
		say "fetching $url"
		curl -fsSL --retry 3 -o "$tarball.part" "$url" || die "download failed: $url"
		[[ $(sha256sum < "$tarball.part" | cut -d' ' -f1) == "$sha" ]] ||
			die "$url: SHA-256 differs from apt's $sha"
		mv "$tarball.part" "$tarball"
		echo "$sha" > "$tarball.sha256"
	fi
	sha=$(cat "$tarball.sha256")
	[[ $(sha256sum < "$tarball" | cut -d' ' -f1) == "$sha" ]] || {
		rm -f "$tarball" "$tarball.sha256"; die "$tarball is damaged; removed, run again"; }
}
orig_uri() {	# "URI SHA256" of the orig tarball, from apt
	local deb
	deb=$(apt-cache showsrc slurm-wlm 2>/dev/null |
		awk -v v="$version" '/^Version:/ && index($2, v "-") == 1 { print $2; exit }')
	[[ -n $deb ]] || return 1
	apt-get source --print-uris -q "slurm-wlm=$deb" 2>/dev/null |
		awk -v f="slurm-wlm_$version.orig.tar.gz" '
		$2 == f { gsub(/\x27/, "", $1); sha = $4; sub(/^SHA256:/, "", sha); print $1, sha; exit }'
}

# upstream: read where it lies, checked against the SHA256SUMS beside it
fetch_upstream() {
	local dir=${COALLOC_SLURM_TARBALLS:-$here/../../shared/slurm} name got
	dir=$(cd "$dir" 2>/dev/null && pwd || echo "$dir")
	name=slurm-$version.tar.bz2
	tarball=$dir/$name
	[[ -f $tarball ]] || die "no $name in $dir (set COALLOC_SLURM_TARBALLS to the directory that holds it and its SHA256SUMS)"
	[[ -f $dir/SHA256SUMS ]] || die "no SHA256SUMS beside $tarball"
	sha=$(awk -v f="$name" '$2 == f || $2 == "*" f { print $1; exit }' "$dir/SHA256SUMS")
	[[ $sha =~ ^[0-9a-f]{64}$ ]] || die "$dir/SHA256SUMS lists no SHA-256 of $name"
	got=$(sha256sum < "$tarball" | cut -d' ' -f1)
	[[ $got == "$sha" ]] || die "$tarball: SHA-256 $got, but SHA256SUMS says $sha"
}

"fetch_$source"
[[ -z ${COALLOC_SLURM_FETCH_ONLY:-} ]] || { say "checked: $tarball"; exit 0; }	# tests

# ------------------------------------------------------------ the build
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
opts=(--with-munge --with-pmix=/usr/lib/$multiarch/pmix2 --with-hwloc
      --with-json --with-yaml --with-lz4 --with-mysql_config=/usr/bin
      --enable-multiple-slurmd
      --disable-debug --disable-silent-rules
      --disable-static)	# nothing links libslurm.a: libtool would compile
			# its 500 sources twice, PIC and not (26.05)
key=$(printf '%s\n' "$version" "$sha" "${opts[@]}" "$(cat /etc/debian_version)" \
	"$multiarch" | sha256sum | cut -c1-12)
dir=$cache/slurm-$version-$key
stamp=$dir/.coalloc-built

link_to() {
	mkdir -p "$(dirname "$link")"
	ln -sfn "$dir" "$link"
}
if [[ -f $stamp ]]; then
	link_to
	exit 0
fi

exec 9> "$cache/.lock-slurm-$version-$key"
flock 9
if [[ -f $stamp ]]; then	# another build finished meanwhile
	link_to
	exit 0
fi
rm -rf "$dir"
mkdir -p "$dir"
tar -C "$dir" -xaf "$tarball"
mv "$dir"/slurm-* "$dir/src"
say "configuring into $dir/prefix (${opts[*]})"
(cd "$dir/src" && ./configure --prefix="$dir/prefix" --sysconfdir="$dir/prefix/etc" \
	"${opts[@]}" > configure.log 2>&1) ||
	{ tail -n 30 "$dir/src/configure.log" >&2; die "configure failed (log: $dir/src/configure.log)"; }
got=$(sed -n 's/^#define SLURM_VERSION_STRING "\(.*\)"/\1/p' "$dir/src/config.h")
[[ $got == "$version" ]] || die "configured source is $got, not $version"
jobs=$(nproc)
say "building with $jobs jobs (about 8 minutes on 2 cores alone; make check builds the three side by side in about 15)"
(cd "$dir/src" && make -j"$jobs" > make.log 2>&1 && make install > install.log 2>&1) ||
	{ tail -n 30 "$dir/src/make.log" >&2; die "build failed (log: $dir/src/make.log)"; }
# slurmdbd's storage: configure only warns when it finds no MySQL client
[[ -f $dir/prefix/lib/slurm/accounting_storage_mysql.so ]] ||
	die "built without accounting_storage/mysql: install default-libmysqlclient-dev (the installed release's make slurm-src brings it)"
printf '%s\n' "$version" "${opts[@]}" > "$stamp"
link_to
say "ready: $link -> $dir"
