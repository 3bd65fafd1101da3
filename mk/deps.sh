#!/bin/bash
# mk/deps.sh - install the Debian packages the suite needs, when missing.
#
# Idempotent and silent when everything is present.  Package lists live in
# mk/deps.mk so there is one place to change them.
#
# SPDX-License-Identifier: GPL-2.0-or-later
set -euo pipefail

missing=()
for pkg in "$@"; do
	status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
	[[ $status == "install ok installed" ]] || missing+=("$pkg")
done
((${#missing[@]} == 0)) && exit 0

if ((EUID != 0)); then
	echo "make deps: missing Debian packages: ${missing[*]}" >&2
	echo "make deps: run 'make deps' as root, or install them with apt-get" >&2
	exit 1
fi

echo "make deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# Installing slurmctld/slurmd/munge must not start the system daemons: the
# suite runs its own, privately.  policy-rc.d is Debian's switch for that.
policy=/usr/sbin/policy-rc.d
own_policy=0
if [[ ! -e $policy ]]; then
	printf '#!/bin/sh\nexit 101\n' > "$policy"
	chmod 0755 "$policy"
	own_policy=1
fi
trap '((own_policy)) && rm -f "$policy"' EXIT

apt_log=$(mktemp)
if ! { apt-get update -q && apt-get install -y -q --no-install-recommends \
	"${missing[@]}"; } >"$apt_log" 2>&1; then
	tail -n 30 "$apt_log" >&2
	rm -f "$apt_log"
	echo "make deps: apt-get failed (log tail above)" >&2
	exit 1
fi
rm -f "$apt_log"
