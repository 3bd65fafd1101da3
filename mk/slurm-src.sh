#!/bin/bash
# mk/slurm-src.sh DIR - fetch and configure the Slurm source that matches
# the installed slurmctld, so that out-of-tree plugins see the very
# config.h and internal headers the installed daemons were built from.
#
#  1. the exact Debian version of the installed slurmctld (dpkg);
#  2. a deb-src entry in a sources file of our own when apt has none;
#  3. 'apt-get source' of that exact version (Debian's patches applied);
#  4. its build dependencies, so configure finds what Debian's build found;
#  5. configure with dh_auto_configure's defaults plus the options of
#     debian/rules' override_dh_auto_configure, read from the file itself.
#
# Done once: DIR/.coalloc-configured records the version it configured.
#
# SPDX-License-Identifier: GPL-2.0-or-later
set -euo pipefail

dest=${1:?usage: slurm-src.sh DIR}
say() { echo "make slurm-src: $*"; }
die() { echo "make slurm-src: error: $*" >&2; exit 1; }

command -v slurmctld >/dev/null || die "slurmctld is not installed (run 'make deps')"
deb_version=$(dpkg-query -W -f='${Version}' slurmctld 2>/dev/null) ||
	die "slurmctld is not a Debian package here; see doc/guide.md, 'Supported Slurm'"
upstream=${deb_version%%-*}
running=$(slurmctld -V | awk '{print $2}')
[[ $running == "$upstream" ]] ||
	die "slurmctld -V says $running but its package is $deb_version"

stamp=$dest/.coalloc-configured
# A tree configured elsewhere (make SLURM_SRC=...): use it, never replace it.
if [[ ! -f $stamp && -f $dest/config.h ]]; then
	got=$(sed -n 's/^#define SLURM_VERSION_STRING "\(.*\)"/\1/p' "$dest/config.h")
	[[ $got == "$upstream" ]] ||
		die "$dest is configured for Slurm $got, the installed slurmctld is $upstream"
	exit 0
fi
if [[ -f $stamp ]]; then
	[[ $(cat "$stamp") == "$deb_version" ]] && exit 0
	die "$dest was configured for $(cat "$stamp"), installed is $deb_version; run 'make distclean'"
fi

((EUID == 0)) || die "fetching the source needs root for apt-get (run 'make slurm-src' as root)"
export DEBIAN_FRONTEND=noninteractive

# Our own deb-src entry, derived from the binary entries apt already uses.
has_source() {
	# no 'grep -q': with pipefail, apt-cache's SIGPIPE would read as failure
	apt-cache showsrc slurm-wlm 2>/dev/null | grep -x "Version: $deb_version" >/dev/null
}
add_deb_src() {
	local out=/etc/apt/sources.list.d/slurm-coalloc-src.sources
	local deb822=/etc/apt/sources.list.d/debian.sources
	if [[ -f $deb822 ]]; then
		sed -e 's/^Types:.*/Types: deb-src/' "$deb822" > "$out"
	else
		out=/etc/apt/sources.list.d/slurm-coalloc-src.list
		grep -h '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' > "$out"
	fi
	say "added $out"
	apt-get update -q >/dev/null
}
if ! has_source; then
	apt-get update -q >/dev/null
	has_source || add_deb_src
	has_source || die "Debian has no source for slurm-wlm $deb_version (installed); upgrade slurmctld or point apt at a snapshot"
fi

mkdir -p "$(dirname "$dest")"
work=$(mktemp -d "${dest%/}.tmp.XXXXXX")
trap 'rm -rf "$work"' EXIT
say "fetching slurm-wlm $deb_version"
(cd "$work" && apt-get source -q "slurm-wlm=$deb_version" >fetch.log 2>&1) ||
	{ tail -n 20 "$work/fetch.log" >&2; die "apt-get source failed"; }
src=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'slurm-wlm-*' | head -n1)
[[ -n $src && -f $src/debian/rules ]] || die "no unpacked source in $work"

if ! (cd "$src" && dpkg-checkbuilddeps >/dev/null 2>&1); then
	say "installing slurm-wlm build dependencies"
	apt-get build-dep -y -q --no-install-recommends "slurm-wlm=$deb_version" \
		>"$work/build-dep.log" 2>&1 ||
		{ tail -n 20 "$work/build-dep.log" >&2; die "apt-get build-dep failed"; }
fi

# The options Debian passes: dh_auto_configure's standard ones, then those
# of the first (non-emulator) configure line in debian/rules.
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
gnu_type=$(dpkg-architecture -qDEB_BUILD_GNU_TYPE)
bits=$(dpkg-architecture -qDEB_TARGET_ARCH_BITS)
deprecated=; ((bits == 64)) || deprecated=--enable-deprecated
rules_opts=$(awk '/^override_dh_auto_configure:/ {f=1; next}
		  f && /dh_auto_configure +--/ {sub(/.*dh_auto_configure +-- */, ""); print; exit}' \
		  "$src/debian/rules")
[[ -n $rules_opts ]] || die "cannot find the configure options in debian/rules"
rules_opts=${rules_opts//'$(DEB_HOST_MULTIARCH)'/$multiarch}
rules_opts=${rules_opts//'$(ENABLEDEPRECATED)'/$deprecated}
[[ $rules_opts != *'$('* ]] || die "unexpanded make variable in debian/rules options: $rules_opts"

dh_opts=(--build="$gnu_type" --prefix=/usr --includedir=/usr/include
	 --mandir=/usr/share/man --infodir=/usr/share/info --sysconfdir=/etc
	 --localstatedir=/var --disable-option-checking --disable-silent-rules
	 --libdir="/usr/lib/$multiarch" --runstatedir=/run
	 --disable-maintainer-mode --disable-dependency-tracking)

say "configuring: ${dh_opts[*]} $rules_opts"
eval "$(DEB_BUILD_MAINT_OPTIONS=hardening=+all,-bindnow dpkg-buildflags --export=sh)"
# shellcheck disable=SC2086 # the options are words, as make would pass them
(cd "$src" && ./configure "${dh_opts[@]}" $rules_opts >configure.log 2>&1) ||
	{ tail -n 30 "$src/configure.log" >&2; die "configure failed (log: $src/configure.log)"; }

got=$(sed -n 's/^#define SLURM_VERSION_STRING "\(.*\)"/\1/p' "$src/config.h")
[[ $got == "$upstream" ]] || die "configured source is $got, installed is $upstream"

rm -rf "$dest"
mkdir -p "$(dirname "$dest")"
mv "$src" "$dest"
echo "$deb_version" > "$stamp"
say "ready: $dest (slurm-wlm $deb_version)"
