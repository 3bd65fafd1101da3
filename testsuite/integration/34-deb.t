#!/bin/bash
# Debian packages (make deb, contribs/debian): built with debhelper for
# the installed Slurm, the version in their names; coalloc-select
# depends on the exact Slurm build, and dpkg refuses it beside another,
# naming both versions.  The packages a site puts on each kind of host
# (controller: coalloc-slurmctld; compute and login: coalloc-cosched;
# each with what it depends on) hold every file make install gives that
# role (mk/roles.mk): Slurm 22.05's commands load the select plugin on
# every host.  Installed, the suite runs from the installed
# files alone (slurm-cluster --installed /usr): a co-allocated job and a
# --cosched job whose agent is /usr/sbin/coschedd.  An upgrade keeps the
# plugstack.conf.d snippet; a purge leaves no file of the suite and no
# agent.  Changes the host's packages: whatever happens, the exit purges.
#
# test-alone: the packages install select_coalloc.so and cosched.so into
# Slurm's plugin directory, where every other cluster of the installed
# Slurm looks first.
source "$(dirname "$0")/lib/tap.sh"
[[ -z ${COALLOC_SLURM:-} ]] || skip_all "packages are for the installed Slurm"
plan 20

PKGS=(coalloc-select coalloc-slurmctld coalloc-cosched coalloc-tools)
VERSION=$(< "$REPO/VERSION")
ARCH=$(dpkg-architecture -qDEB_HOST_ARCH)
DEBS=$REPO/build/deb
SLURM_VERSION=$(dpkg-query -W -f='${Version}' slurm-wlm-basic-plugins)
WORK=$TEST_DIR.work	# cluster_start empties TEST_DIR
purge_all() { dpkg --purge "${PKGS[@]}" > "$WORK/purge.log" 2>&1; }
installed() { [[ $(dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null) == "ii " ]]; }
rm -rf "$WORK" && mkdir -p "$WORK"
cd "$WORK" || bail_out "no $WORK"
for p in "${PKGS[@]}"; do
	! dpkg-query -W "$p" > /dev/null 2>&1 || bail_out "$p is already installed here: not touching it"
done
trap purge_all EXIT

make -s -C "$REPO" deb > deb.log 2>&1
ok $? "make deb ($(tail -n1 deb.log))"
files=()
for p in "${PKGS[@]}"; do files+=("$DEBS/${p}_${VERSION}_$ARCH.deb"); done
ls "${files[@]}" > /dev/null 2>&1
ok $? "four packages, the suite's version in their names: ${files[*]##*/}"
dep=$(dpkg-deb -f "${files[0]}" Depends)
like "$dep" "slurm-wlm-basic-plugins \(= ${SLURM_VERSION//+/\\+}\)" "coalloc-select depends on this Slurm build exactly ($dep)"

# What each kind of host gets from its packages, against its role.
declare -A HOST_PKGS=([controller]="coalloc-slurmctld coalloc-select"
	[compute]="coalloc-cosched coalloc-select" [login]="coalloc-cosched coalloc-select")
deb_of() { echo "$DEBS/${1}_${VERSION}_$ARCH.deb"; }
for role in controller compute login; do
	make -s -C "$REPO" install ROLE=$role DESTDIR="$WORK/role-$role" > "role-$role.log" 2>&1 ||
		bail_out "make install ROLE=$role failed: $(tail -n 3 "role-$role.log")"
	want=$(find "$WORK/role-$role" -type f -printf '%f\n' | sort -u)
	[[ -n $want ]] || bail_out "make install ROLE=$role installed nothing"
	# (man pages as dh_installman leaves them: gzipped)
	have=$(for p in ${HOST_PKGS[$role]}; do dpkg-deb -c "$(deb_of "$p")"; done |
		awk '{ n = split($NF, a, "/"); sub(/\.gz$/, "", a[n]); print a[n] }' | sort -u)
	is "$(comm -23 <(echo "$want") <(echo "$have") | paste -sd' ')" "" \
		"a $role host's packages (${HOST_PKGS[$role]}) hold what make install ROLE=$role puts there"
done

# Beside another Slurm build: the same package claiming 22.05.0-fake.
mkdir fake && dpkg-deb -R "${files[0]}" fake/root
sed -i "s/slurm-wlm-basic-plugins (= [^)]*)/slurm-wlm-basic-plugins (= 22.05.0-fake)/" fake/root/DEBIAN/control
dpkg-deb -b fake/root fake/other.deb > /dev/null
out=$(dpkg -i fake/other.deb 2>&1)
rc=$?
! installed coalloc-select && ((rc != 0)) && [[ $out == *22.05.0-fake* && $out == *"$SLURM_VERSION"* ]]
ok $? "built for another Slurm, it refuses to configure, naming both: $(grep -m1 -o 'Version of slurm-wlm-basic-plugins.*' <<< "$out")"
purge_all

dpkg -i "${files[@]}" > install.log 2>&1
ok $? "dpkg -i installs the four"
missing=
for p in "${PKGS[@]}"; do
	while read -r f; do
		[[ -d $f || -e $f ]] || missing+=" $f"
	done < <(dpkg -L "$p")
done
is "$missing" "" "every file they list is there ($(dpkg -L "${PKGS[@]}" | wc -l) paths)"
[[ -f /etc/slurm/plugstack.conf.d/cosched.conf ]] &&
	grep -qx "optional /usr/lib/[^/]*/slurm-wlm/cosched.so" /etc/slurm/plugstack.conf.d/cosched.conf
ok $? "the plugstack.conf.d snippet loads the installed cosched.so"
[[ ! -e /etc/systemd/system/multi-user.target.wants/coschedd.service ]]
ok $? "the coschedd unit is installed but not enabled: agents start on demand"

cluster_start --select coalloc --sites 2 --nodes-per-site 2 --installed /usr
trap '_cluster_cleanup; purge_all' EXIT	# cluster_start set its own
CDIR=$TEST_DIR/cluster
grep -q "^PluginDir=/usr/lib/[^/:]*/slurm-wlm$" "$CDIR/etc/slurm.conf"
ok $? "the cluster loads plugins from Slurm's directory only: $(grep '^PluginDir' "$CDIR/etc/slurm.conf")"
id=$(submit --coalloc=2,1 -o layout.out --wrap 'echo "batch $SLURM_COALLOC_LAYOUT"')
wait_until 60 job_done "$id"
like "$(job_state "$id") $(sed -n 's/^batch //p' layout.out)" "^COMPLETED site1:n\[1-2\];site2:n3$" \
	"a co-allocated job runs on two sites"
cs=$(submit -N 2 --cosched=sb -o cosched.out --wrap 'srun true')
wait_until 60 job_done "$cs"
is "$(job_state "$cs")" COMPLETED "a --cosched=sb job runs"
agent=$(cat "$CDIR/run/cosched/n1.pid" 2>/dev/null)
is "$(readlink "/proc/${agent:-0}/exe")" /usr/sbin/coschedd "  under the installed agent (pid ${agent:-none})"
cluster stop > /dev/null 2>&1
cd "$WORK" || bail_out "no $WORK"

# An upgrade: the same packages as version VERSION+up1.
echo "# a site's change" >> /etc/slurm/plugstack.conf.d/cosched.conf
up=()
for f in "${files[@]}"; do
	d=up/$(basename "$f" .deb)
	mkdir -p up && dpkg-deb -R "$f" "$d"
	sed -i -e "s/^Version: .*/Version: $VERSION+up1/" \
		-e "s/(= $VERSION)/(= $VERSION+up1)/g" "$d/DEBIAN/control"
	dpkg-deb -b "$d" "$d.deb" > /dev/null && up+=("$d.deb")
done
dpkg -i "${up[@]}" > upgrade.log 2>&1
ok $? "an upgrade to $VERSION+up1 installs ($(dpkg-query -W -f='${Version}' coalloc-cosched))"
grep -q "^# a site's change" /etc/slurm/plugstack.conf.d/cosched.conf
ok $? "  and keeps the site's plugstack.conf.d snippet"

listed=$(dpkg -L "${PKGS[@]}" | sort -u)
purge_all
ok $? "dpkg --purge removes the four"
left=
while read -r f; do
	[[ -z $f || -d $f ]] && continue
	[[ -e $f ]] && left+=" $f"
done <<< "$listed"
is "$left" "" "no file of the suite is left"
[[ ! -e /etc/slurm/plugstack.conf.d/cosched.conf && ! -e /run/coschedd && -z $(pidof /usr/sbin/coschedd) ]]
ok $? "  nor the snippet, /run/coschedd, or an agent"
done_testing
